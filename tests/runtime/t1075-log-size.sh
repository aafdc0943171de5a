# t1075-log-size — a log costs fewer bytes per file record than Darshan's,
# time bins included, and gives back what the program did: 2 ranks with
# 500 files of their own each (open, a 1-byte write, close: the shape of
# tests/perf/run-bench-logsize), with the operation trace on and off.  The
# log's size over the program's 1,000 files must stay within Darshan 3.5's
# figure for that shape, and its totals must be the program's own.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi

# Darshan 3.5.0's log bytes per file record for 4 ranks x 1,000 such files
# (zlib at its fastest level, no time bins), measured beside ioatlas on
# this machine's build of it (issue 20; tests/perf/run-bench-logsize
# measures it again when Darshan is installed: 59.5 on 2026-11-25, so the
# issue's figure is the stricter).  A log's fixed part (ioatlas: header,
# region table, job region, mount table, failed calls: about 2 KB) weighs 2
# bytes per record over this test's 1,000 records where it weighs 0.5 over
# the benchmark's 4,000: the bound allows those 2 bytes.
darshan_bytes_per_record=50.9
bound=$(awk -v d="$darshan_bytes_per_record" 'BEGIN { printf "%.1f", d + 2 }')
files=1000

for trace in on off; do
	logs=$(ioa_logdir)
	data="$TEST_TMP/data-$trace"
	mkdir -p "$data"
	setting=2MiB
	[ "$trace" = on ] || setting=0
	IOATLAS_TRACE=$setting ioa_mpi_preload "$logs" 2 120 -genv IOATLAS_TRACE "$setting" \
		"$IOA_BUILD_DIR/tests/workloads/mpi-files" "$data" 0 500 1 >"$TEST_TMP/out-$trace"
	ok "2 ranks x 500 files run with the trace $trace" test $? -eq 0
	log=$(ioa_only_log "$logs") || {
		tap_result 1 "a log is written (trace $trace)"
		continue
	}
	size=$(stat -c %s "$log")
	per=$(awk -v s="$size" -v n="$files" 'BEGIN { printf "%.1f", s / n }')
	ok "trace $trace: $per bytes per file record ($size bytes), at most $bound" \
		awk -v p="$per" -v b="$bound" 'BEGIN { exit !(p <= b) }'
	want=$(cat "$TEST_TMP/out-$trace")
	# The program's files only (MPI opens files of its own).
	got=$("$IOA_CMD" parse "$log" | awk -F '\t' '
		$1 == "POSIX" && $6 ~ /\/o-[01]-[0-9]+$/ { sum[$4] += $5 }
		END { printf "opens=%d writes=%d bytes=%d\n", sum["POSIX_OPENS"],
			sum["POSIX_WRITES"], sum["POSIX_BYTES_WRITTEN"] }')
	is "$got" "$want" "trace $trace: the log's totals over the files are the program's"
	records=$(ioa_records "$log" POSIX | grep -c "/o-[01]-[0-9]*$")
	is "$records" "$files" "trace $trace: every file has its record and its name"
	bins=$("$IOA_CMD" parse --bins "$log" 2>/dev/null | grep -c "/o-[01]-[0-9]*")
	ok "trace $trace: and its time bins ($bins lines name the files)" test "$bins" -ge "$files"
done
done_testing
