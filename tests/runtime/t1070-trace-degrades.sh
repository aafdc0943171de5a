# t1070-trace-degrades — a trace the grammar cannot fold degrades instead
# of falling off a cliff: 2 ranks x 10^6 pread/pwrite at xorshift offsets
# (tests/workloads/trace-random.c) leave a log of at most 4 MiB whose trace
# keeps at least the first 65,536 calls of each rank exactly (the test
# regenerates the program's sequence and compares call by call) and
# summarises the rest: the exact calls and the summary's together are every
# call the program made (its own count) and the POSIX counters' reads and
# writes.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd python3

calls=1000000
ranks=2
plan $((3 + ranks * 5))

export IOATLAS_INCLUDE_PATHS=
work="$TEST_TMP/work"
mkdir -p "$work"
logs=$(ioa_logdir)
started=$(date +%s.%N)
ok "2 ranks x $calls random pread/pwrite run unchanged under the runtime" \
	ioa_mpi_preload "$logs" "$ranks" 300 "$IOA_BUILD_DIR/tests/workloads/trace-random" "$calls" "$work"
diag "the run took $(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
log=$(ioa_only_log "$logs") || log=/nonexistent
bytes=$(stat -c %s "$log" 2>/dev/null || echo 0)
ok "the log is at most 4 MiB ($bytes bytes)" test "$bytes" -gt 0 -a "$bytes" -le $((4 << 20))
ok "its trace is readable" sh -c '"$1" trace "$2" >"$3"' sh "$IOA_CMD" "$log" "$work/trace.txt"

# want RANK COUNT: the first COUNT calls of RANK's sequence, as "op offset".
want() {
	python3 -c '
import sys
rank, n = int(sys.argv[1]), int(sys.argv[2])
x, mask = 88172645463325292 + rank, (1 << 64) - 1
out = []
for _ in range(n):
    x ^= (x << 13) & mask
    x ^= x >> 7
    x ^= (x << 17) & mask
    out.append("%s %d" % ("pwrite" if x >> 40 & 1 else "pread", (x % 16384) * 4096))
print("\n".join(out))' "$@"
}

for r in $(seq 0 $((ranks - 1))); do
	# The exact calls on the data file, in order, as the trace gives them back.
	"$IOA_CMD" trace --expand --rank "$r" "$log" >"$work/expand.$r" 2>&1
	awk -v f="/d-random.$r" '!/^#/ && ($4 == "pread" || $4 == "pwrite") && index($11, f) { print $4, $5 }' \
		"$work/expand.$r" >"$work/got.$r"
	kept=$(wc -l <"$work/got.$r")
	want "$r" "$kept" >"$work/want.$r"
	ok "rank $r: the first $kept calls are kept exactly (offsets and ops are the program's xorshift sequence)" \
		cmp -s "$work/want.$r" "$work/got.$r"
	ok "rank $r: at least 65,536 calls are kept exactly ($kept)" test "$kept" -ge 65536
	# What the summary counted on the data file, and what the program counted.
	summed=$(awk -v f="/d-random.$r" -v r="$r" '$2 == "summary" && $3 == r && $4 == "file" && index($NF, f) {
		print $6 + $8, $6, $8 }' "$work/trace.txt")
	summed=${summed:-0 0 0}
	read -r own reads writes <<EOF_COUNT
$(awk '{ print $2, $4, $6 }' "$work/count.$r")
EOF_COUNT
	exact_reads=$(awk '$1 == "pread"' "$work/got.$r" | wc -l)
	is "$((kept + ${summed%% *}))" "$own" \
		"rank $r: the exact calls and the summary's cover every call the program made ($kept + ${summed%% *})"
	counters=$(($(ioa_counter "$log" POSIX "$r" "$work/d-random.$r" POSIX_READS) + \
		$(ioa_counter "$log" POSIX "$r" "$work/d-random.$r" POSIX_WRITES)))
	is "$((kept + ${summed%% *}))" "$counters" "rank $r: and equal the POSIX counters' reads and writes"
	summed_reads=$(printf '%s\n' "$summed" | awk '{ print $2 }')
	is "$((exact_reads + summed_reads))" "$reads" "rank $r: the summary counts reads apart from writes"
done
