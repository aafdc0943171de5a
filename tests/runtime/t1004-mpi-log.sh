# t1004-mpi-log — a 4-rank MPI job under the runtime leaves exactly one
# log, written collectively at MPI_Finalize: files shared by all ranks are
# combined into one record (rank -1) with exact totals and the fastest and
# slowest rank; files per process keep one record per rank; files shared by
# subsets of ranks are combined too; MPI-IO counters are exact.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi

mpiio="$IOA_BUILD_DIR/tests/workloads/mpi-io"
work="$TEST_TMP/work"
mkdir -p "$work"

plan 31

# --- shared file, MPI-IO and POSIX
logs=$(ioa_logdir)
ok "a 4-rank MPI-IO job runs unchanged under the runtime" \
	ioa_mpi_preload "$logs" 4 120 "$mpiio" shared "$work"
log=$(ioa_only_log "$logs")
ok "and leaves exactly one log for the job" test -n "$log"
m() { ioa_counter "$log" MPI-IO -1 "$work/shared.dat" "$1"; }
is "$(m MPIIO_COLL_OPENS)" 4 "four collective opens, combined into one shared record"
is "$(m MPIIO_COLL_WRITES)" 4 "four collective writes"
is "$(m MPIIO_INDEP_READS)" 4 "four independent reads"
is "$(m MPIIO_BYTES_WRITTEN):$(m MPIIO_BYTES_READ)" 16384:16384 "bytes by MPI-IO requests"
is "$(m MPIIO_SIZE_WRITE_AGG_1K_10K)" 4 "the access size histogram"
is "$(m MPIIO_ACCESS1_ACCESS):$(m MPIIO_ACCESS1_COUNT)" 4096:8 "the common access size, merged over ranks"
ok "the slowest rank is a real rank" test "$(m MPIIO_SLOWEST_RANK)" -ge 0 -a "$(m MPIIO_SLOWEST_RANK)" -le 3
subcalls=$(m MPIIO_POSIX_SUBCALLS)
ok "POSIX calls made inside MPI-IO calls are tied to them ($subcalls)" \
	test "${subcalls:-0}" -ge 5
p() { ioa_counter "$log" POSIX -1 "$work/posix-shared.dat" "$1"; }
is "$(p POSIX_OPENS):$(p POSIX_WRITES):$(p POSIX_BYTES_WRITTEN)" 4:4:16384 \
	"a POSIX file written by all ranks is one shared record with exact totals"
is "$(p POSIX_CREATES)" 1 "racing opens with O_CREAT count one creation"
is "$(p POSIX_MAX_BYTE_WRITTEN)" 16383 "the highest byte written over all ranks"
is "$(p POSIX_FASTEST_RANK_BYTES):$(p POSIX_SLOWEST_RANK_BYTES)" 4096:4096 \
	"fastest and slowest rank moved one block each"
shared_posix=$(ioa_counter "$log" POSIX -1 "$work/shared.dat" POSIX_BYTES_WRITTEN)
ok "ROMIO's own POSIX writes to the MPI-IO file are seen ($shared_posix bytes)" \
	test "${shared_posix:-0}" -ge 16384
like "$("$IOA_CMD" parse "$log")" '^# nprocs: 4$' "the job records its rank count"

# --- file per process
logs=$(ioa_logdir)
ok "a file-per-process job runs unchanged" ioa_mpi_preload "$logs" 4 120 "$mpiio" fpp "$work"
log=$(ioa_only_log "$logs")
all_right=1
for r in 0 1 2 3; do
	[ "$(ioa_counter "$log" POSIX "$r" "$work/rank-$r.dat" POSIX_BYTES_WRITTEN)" = 12288 ] ||
		all_right=0
done
ok "each rank's own file is its own record with exact bytes" test "$all_right" = 1

# --- files shared by subsets of ranks
logs=$(ioa_logdir)
ok "a job with files shared by pairs of ranks runs unchanged" \
	ioa_mpi_preload "$logs" 4 120 "$mpiio" subset "$work"
log=$(ioa_only_log "$logs")
is "$(ioa_counter "$log" POSIX -1 "$work/pair-0.dat" POSIX_WRITES)" 2 \
	"ranks 0 and 1 share pair-0.dat: one combined record"
is "$(ioa_counter "$log" POSIX -1 "$work/pair-1.dat" POSIX_WRITES)" 2 \
	"ranks 2 and 3 share pair-1.dat: one combined record"
is "$(ioa_counter "$log" POSIX -1 "$work/pair-1.dat" POSIX_MAX_BYTE_WRITTEN)" 16383 \
	"with the pair's highest byte"

# --- a rank past its memory budget: the shared file it folds is marked, totals stay exact
logs=$(ioa_logdir)
ioa_mpi_preload "$logs" 1 120 -env IOATLAS_MEMORY 512KiB "$mpiio" fold "$work" \
	: -n 3 "$mpiio" fold "$work" >/dev/null 2>&1
is "$?" 0 "a job whose rank 0 runs out of budget runs unchanged"
log=$(ioa_only_log "$logs")
shared_line=$("$IOA_CMD" parse --file-list "$log" | grep "	$work/fold-shared.dat")
like "$shared_line" "^[0-9]+	POSIX	-1	3	0	12288	$work/fold-shared.dat \(partial: some ranks folded it\)$" \
	"the shared file keeps its record from the other 3 ranks, marked partial"
folded=$("$IOA_CMD" parse "$log" | grep '^FOLDED')
like "$folded" "^FOLDED	POSIX	0	[0-9]+	0	$work/fold-shared.dat$" \
	"and the log names it among the files rank 0 folded"
like "$("$IOA_CMD" parse --total "$log")" '^total_POSIX_WRITES: 1204$' \
	"the job's writes stay exact: 4 x 300 files and 4 blocks"

# --- a log too large to gather: written collectively
logs=$(ioa_logdir)
IOATLAS_GATHER_CAP=32KiB ioa_mpi_preload "$logs" 4 120 \
	"$IOA_BUILD_DIR/tests/perf/bench-mpi" "$work" 300 10 >/dev/null
is "$?" 0 "a job whose log passes the gather cap runs unchanged"
log=$(ioa_only_log "$logs")
ok "its log, written collectively, is bigger than the cap ($(stat -c %s "$log") bytes)" \
	test "$(stat -c %s "$log")" -gt 32768
files=$("$IOA_CMD" parse --file-list "$log" | grep "$work/bench-[0-3]-[0-9]*\.dat$")
is "$(wc -l <<<"$files")" 1200 "it reads back whole: every rank's 300 files are in it"
is "$(awk -F '\t' '{ o += $4; w += $6 } END { print o ":" w }' <<<"$files")" 1200:1200 \
	"each opened once with one byte written"
is "$(awk -F '\t' '$3 == "-1"' <<<"$files" | wc -l)" 0 \
	"and none of these private files is reported as shared"

done_testing
