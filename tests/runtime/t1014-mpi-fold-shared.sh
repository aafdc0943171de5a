# t1014-mpi-fold-shared — ranks past a tiny memory budget fold different
# subsets of the files they share (each rank opens the shared files in its
# own order, some of them only, then files of its own).  A file folded by
# every rank that touched it has no record to combine: MPI_Finalize must
# still return and leave one readable log whose counts add up to what the
# program did (records, combined records and overflow records together).
# It used to crash in the log writer (strlen of a combined record's NULL
# name).
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi

files="$IOA_BUILD_DIR/tests/workloads/mpi-files"
plan 14

# check_job LABEL GATHER_CAP: runs the job and checks its log against the
# totals the program prints (opens=N writes=N bytes=N).
check_job() {
	local label=$1 cap=$2 logs work out log parsed opens writes bytes
	logs=$(ioa_logdir)
	work=$(mktemp -d "$TEST_TMP/work.XXXXXX")
	out=$(IOATLAS_GATHER_CAP=$cap ioa_mpi_preload "$logs" 4 120 -genv IOATLAS_MEMORY 256KiB \
		-genv IOATLAS_GATHER_CAP "$cap" "$files" "$work" 300 200 8 2>&1)
	is "$?" 0 "$label: MPI_Finalize returns on every rank"
	log=$(ioa_only_log "$logs")
	ok "$label: one log for the job" test -n "$log"
	parsed=$("$IOA_CMD" parse "$log")
	is "$?" 0 "$label: ioatlas parse reads it"
	opens=$(sed -n 's/^opens=\([0-9]*\) .*/\1/p' <<<"$out")
	writes=$(sed -n 's/.* writes=\([0-9]*\) .*/\1/p' <<<"$out")
	bytes=$(sed -n 's/.* bytes=\([0-9]*\)$/\1/p' <<<"$out")
	# The MPI library's own files (/dev/shm segments) open before the
	# program's, keep their records and are left out of the sum.
	is "$(awk -F '\t' -v d="$work/" '$1 == "POSIX" && $4 == "POSIX_OPENS" &&
		(index($6, d) == 1 || $6 ~ /^<folded/) { n += $5 } END { print n + 0 }' <<<"$parsed")" \
		"$opens" "$label: opens over records and overflow records add up to the program's ($opens)"
	is "$("$IOA_CMD" parse --total "$log" | sed -n 's/^total_POSIX_WRITES: //p'):$(
		"$IOA_CMD" parse --total "$log" | sed -n 's/^total_POSIX_BYTES_WRITTEN: //p')" \
		"$writes:$bytes" "$label: so do writes and bytes ($writes:$bytes)"
	like "$(grep -c '^FOLDED' <<<"$parsed")" '^[1-9][0-9]*$' "$label: the log names folded files"
	ok "$label: no record without a name" \
		test "$(awk -F '\t' '$6 == "<unknown>"' <<<"$parsed" | wc -l)" -eq 0
}

check_job "gathered log" 64MiB
check_job "collective log" 16KiB

done_testing
