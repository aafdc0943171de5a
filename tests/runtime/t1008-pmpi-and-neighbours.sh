# t1008-pmpi-and-neighbours — calls that enter MPI through the profiling
# interface (a Fortran program, a C program calling PMPI_* directly) are
# counted, and another tool preloaded beside the runtime, before or after
# it, still sees every call while the runtime's counters stay exact.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd mpif90.mpich

work="$TEST_TMP/work"
mkdir -p "$work"
shim="$IOA_BUILD_DIR/tests/workloads/libcount-shim.so"
ops="$IOA_BUILD_DIR/tests/workloads/posix-ops"

plan 11

ok "a Fortran MPI-IO program builds with mpif90" \
	mpif90.mpich -o "$TEST_TMP/fortran" "$IOA_SOURCE_DIR/tests/workloads/mpi-io-fortran.f90"
logs=$(ioa_logdir)
ok "and runs on 4 ranks under the runtime" ioa_mpi_preload "$logs" 4 120 "$TEST_TMP/fortran" "$work"
log=$(ioa_only_log "$logs")
f() { ioa_counter "$log" MPI-IO -1 "$work/fortran.dat" "$1"; }
is "$(f MPIIO_COLL_OPENS):$(f MPIIO_COLL_WRITES):$(f MPIIO_BYTES_WRITTEN)" 4:4:16384 \
	"its MPI-IO calls are counted exactly"

logs=$(ioa_logdir)
ok "a C program calling PMPI_File_* directly runs" \
	ioa_mpi_preload "$logs" 4 120 "$IOA_BUILD_DIR/tests/workloads/mpi-io" pmpi "$work"
log=$(ioa_only_log "$logs")
p() { ioa_counter "$log" MPI-IO -1 "$work/pmpi.dat" "$1"; }
is "$(p MPIIO_COLL_WRITES):$(p MPIIO_BYTES_WRITTEN)" 4:16384 "its PMPI calls are counted"

for order in "shim-first" "runtime-first"; do
	logs=$(ioa_logdir)
	if [ "$order" = shim-first ]; then
		preload=$(ioa_preload_list "$shim" "$IOA_RUNTIME_SO")
	else
		preload=$(ioa_preload_list "$IOA_RUNTIME_SO" "$shim")
	fi
	IOATLAS_LOGDIR="$logs" IOATLAS_NONMPI=1 LD_PRELOAD="$preload" \
		"$ops" basic "$work" 2>"$TEST_TMP/shim.err"
	is "$?" 0 "$order: the program runs with both preloaded"
	shim_writes=$(sed -n 's/^count-shim: \([0-9]*\) writes, [0-9]* Comm_dup ([0-9]* distinct)$/\1/p' "$TEST_TMP/shim.err")
	ok "$order: the other tool sees the writes ($shim_writes)" test "${shim_writes:-0}" -ge 11
	log=$(ioa_only_log "$logs")
	is "$(ioa_counter "$log" POSIX 0 "$work/data" POSIX_WRITES)" 11 \
		"$order: the runtime's count stays exact"
done

done_testing
