# t1010-mpi-every-call — every MPI-IO call of the runtime's MPI table, made
# once per rank by a 4-rank job (mpi-io every), moves exactly the MPI-IO
# counters it should, and the hints given at open are kept with their
# values.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi

work="$TEST_TMP/work"
mkdir -p "$work"

plan 16

logs=$(ioa_logdir)
ok "a 4-rank job calling every intercepted MPI-IO function runs unchanged" \
	ioa_mpi_preload "$logs" 4 180 "$IOA_BUILD_DIR/tests/workloads/mpi-io" every "$work"
log=$(ioa_only_log "$logs")
m() { ioa_counter "$log" MPI-IO -1 "$work/every.dat" "$1"; }
is "$(m MPIIO_COLL_OPENS)" 4 "MPI_File_open on MPI_COMM_WORLD is collective"
is "$(m MPIIO_INDEP_WRITES):$(m MPIIO_INDEP_READS)" 12:12 "write, write_at, write_shared and their reads"
is "$(m MPIIO_COLL_WRITES):$(m MPIIO_COLL_READS)" 12:12 "write_all, write_at_all, write_ordered and their reads"
is "$(m MPIIO_NB_WRITES):$(m MPIIO_NB_READS)" 20:20 "the five non-blocking forms of each"
is "$(m MPIIO_SPLIT_WRITES):$(m MPIIO_SPLIT_READS)" 12:12 "the three split collectives of each"
is "$(m MPIIO_BYTES_WRITTEN):$(m MPIIO_BYTES_READ)" 896:896 "14 accesses of 16 bytes per rank each way"
is "$(m MPIIO_SYNCS):$(m MPIIO_VIEWS):$(m MPIIO_SET_SIZES)" 4:4:4 "sync, set_view, set_size"
is "$(m MPIIO_HINTS)" 4 "one open given an info per rank (as Darshan: calls given one, set_info not)"
is "$(m MPIIO_MODE)" 9 "the open's amode (MPI_MODE_CREATE | MPI_MODE_RDWR)"
hints=$("$IOA_CMD" parse "$log" | awk -F '\t' -v f="$work/every.dat" '$1 == "HINT" && $6 == f')
is "$(grep -c $'\tcb_nodes\t1\t' <<<"$hints")" 4 "every rank's cb_nodes=1 given at open is kept"
is "$(grep -c $'\tromio_cb_write\tenable\t' <<<"$hints")" 4 "and its romio_cb_write=enable"
# The file pointer's moves are traced for the kernels (offset; whence 0, from
# the start, as the length), counted nowhere: as the workload made them.
seeks=$("$IOA_CMD" trace --expand "$log" | awk '$4 == "File_seek" { print $1, $5, $6 }' | sort -u)
is "$(echo "$seeks" | tr '\n' ' ')" "0 0 0 1 4096 0 2 8192 0 3 12288 0 " \
	"MPI_File_seek traced: each rank's offset (rank x 4096), from the start"
is "$("$IOA_CMD" trace --expand "$log" | awk '$4 == "File_get_size"' | wc -l)" 4 \
	"MPI_File_get_size traced, once a rank"

# Every line of the MPI table is called by the workload.
table=$(sed -n 's/^[[:space:]]*X(File_\([a-z_#]*\),.*/\1/p' "$IOA_SOURCE_DIR/runtime/rt_mpi_calls.h" |
	grep -v '#' | sort)
variants=$(for rw in read write; do
	for v in "" _all _at _at_all _shared _ordered; do echo "$rw$v"; done
	for v in "" _all _at _at_all _shared; do echo "i$rw$v"; done
	for v in _all _at_all _ordered; do echo "$rw${v}_begin"; echo "$rw${v}_end"; done
done)
called=$(grep -o 'MPI_File_[a-z_]*' "$IOA_SOURCE_DIR/tests/workloads/mpi-io.c" | sed 's/MPI_File_//' | sort -u)
missing=$(comm -23 <(printf '%s\n' $table $variants | sort -u) <(echo "$called") | tr '\n' ' ')
is "${missing:-none}" "none" "every MPI-IO call of the table is exercised"
is "$(printf '%s\n' $table $variants | sort -u | wc -l)" 42 "the table covers 42 MPI-IO functions"

done_testing
