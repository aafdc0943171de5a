# t1013-large-count — MPI-4's large-count MPI-IO calls (MPI_File_write_at_all_c
# and the like, MPI_Count counts) are intercepted where the MPI has them
# (MPICH 4) and counted in the same counters as their int forms: a 2-rank
# MPICH job using them (mpi-io-large) has the counters its own numbers say.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi

work="$TEST_TMP/work"
mkdir -p "$work"
prog="$IOA_BUILD_DIR/tests/workloads/mpi-io-large"

plan 7

logs=$(ioa_logdir)
ok "a 2-rank MPICH job using large-count MPI-IO calls runs under the runtime" \
	sh -c 'ioa_out=$1; shift; "$@" >"$ioa_out"' sh "$TEST_TMP/out" \
	env IOATLAS_LOGDIR="$logs" "$IOA_MPIEXEC" -n 2 \
	-genv LD_PRELOAD "$(ioa_preload_list "$IOA_RUNTIME_SO")" -genv IOATLAS_LOGDIR "$logs" \
	timeout 120 "$prog" "$work/large.dat"
is "$(grep -c 'check good$' "$TEST_TMP/out")" 2 "both ranks read back what they wrote"
log=$(ioa_only_log "$logs")

# The ranks' own tallies (MPI_Get_count_c of each call), summed.
sum() { awk -v k="$1" '{ for (i = 3; i < NF; i += 2) if ($i == k) s += $(i + 1) } END { print s + 0 }' "$TEST_TMP/out"; }
m() { ioa_counter "$log" MPI-IO -1 "$work/large.dat" "$1"; }
is "$(m MPIIO_COLL_WRITES):$(m MPIIO_INDEP_WRITES):$(m MPIIO_NB_WRITES):$(m MPIIO_SPLIT_WRITES)" \
	"$(sum coll_writes):$(sum indep_writes):$(sum nb_writes):$(sum split_writes)" \
	"write_at_all_c, write_at_c and write_c, iwrite_at_c, write_at_all_begin_c"
is "$(m MPIIO_COLL_READS):$(m MPIIO_INDEP_READS):$(m MPIIO_NB_READS)" \
	"$(sum coll_reads):$(sum indep_reads):$(sum nb_reads)" \
	"read_at_all_c, read_at_c and read_c, iread_at_c"
is "$(m MPIIO_BYTES_WRITTEN):$(m MPIIO_BYTES_READ)" "$(sum bytes_written):$(sum bytes_read)" \
	"bytes: MPI_Count counts times the datatype's size"
is "$(m MPIIO_COLL_OPENS)" 2 "the open, as ever"

# The trace names a large-count call as its int form: one operation, two bindings.
ops=$("$IOA_CMD" trace --expand "$log" | grep -o 'File_[a-z_]*' | sort -u | tr '\n' ' ')
like "$ops" 'File_write_at_all .*File_write_at_all_begin' \
	"the trace names them as their int forms (${ops% })"

done_testing
