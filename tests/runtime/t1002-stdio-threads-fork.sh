# t1002-stdio-threads-fork — STDIO counters (including the standard
# streams), many threads doing I/O at once, a forked child, and the memory
# budget: past it files fold into one overflow record and totals stay exact.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"

ops="$IOA_BUILD_DIR/tests/workloads/posix-ops"
work="$TEST_TMP/work"
mkdir -p "$work"

plan 26

# --- STDIO
logs=$(ioa_logdir)
out=$(ioa_preload "$logs" "$ops" stdio "$work")
is "$?:$out" "0:ok" "the stdio pattern runs, its output unchanged"
log=$(ioa_only_log "$logs")
s() { ioa_counter "$log" STDIO 0 "$work/s.txt" "$1"; }
is "$(s STDIO_OPENS)" 2 "fopen twice"
is "$(s STDIO_WRITES):$(s STDIO_BYTES_WRITTEN)" 7:4012 "fprintf, fputs, fputc and four fwrites"
is "$(s STDIO_READS):$(s STDIO_BYTES_READ)" 3:107 "fgets, fread and fgetc"
is "$(s STDIO_SEEKS)" 2 "fseek and rewind (ftell is no seek, as Darshan counts)"
is "$("$IOA_CMD" trace --expand "$log" | awk -v f="$work/s.txt" '$4 == "ftell" && $NF == f' | wc -l)" 1 \
	"ftell, in the trace"
is "$(s STDIO_FLUSHES)" 1 "fflush"
is "$(s STDIO_MAX_BYTE_WRITTEN):$(s STDIO_MAX_BYTE_READ)" 4011:106 "highest bytes written and read"
is "$(ioa_counter "$log" STDIO 0 '<STDOUT>' STDIO_BYTES_WRITTEN)" 3 "stdout is recorded as <STDOUT>"
is "$(ioa_counter "$log" POSIX 0 "$work/s.txt" POSIX_WRITES)" 0 \
	"stdio's own system calls are not counted again as POSIX"
is "$(ioa_counter "$log" POSIX 0 "$work/s.txt" POSIX_FILENOS)" 1 \
	"fileno hands the stream's file to POSIX"
is "$(ioa_counter "$log" POSIX 0 "$work/s.txt" POSIX_STATS)" 1 \
	"and fstat on that descriptor counts on it"

# --- threads
logs=$(ioa_logdir)
ok "8 threads writing at once run unchanged" ioa_preload "$logs" "$ops" threads "$work" 8
log=$(ioa_only_log "$logs")
all_right=1
for i in 0 1 2 3 4 5 6 7; do
	[ "$(ioa_counter "$log" POSIX 0 "$work/t-$i" POSIX_WRITES)" = 100 ] || all_right=0
	[ "$(ioa_counter "$log" POSIX 0 "$work/t-$i" POSIX_BYTES_WRITTEN)" = 409600 ] || all_right=0
done
ok "each thread's 100 writes of 4 KiB are counted exactly" test "$all_right" = 1

# --- fork
logs=$(ioa_logdir)
ok "a program that forks runs unchanged" ioa_preload "$logs" "$ops" fork "$work"
log=$(ioa_only_log "$logs")
ok "the child leaves no log of its own" test -n "$log"
is "$(ioa_counter "$log" POSIX 0 "$work/parent" POSIX_WRITES)" 2 \
	"the parent's writes before and after the fork are counted once"
is "$(ioa_counter "$log" POSIX 0 "$work/child" POSIX_WRITES)" "" \
	"the child's I/O is not reported as the parent's"

# --- signal handlers doing I/O while the runtime holds its lock
logs=$(ioa_logdir)
run_timeout 120 env IOATLAS_LOGDIR="$logs" IOATLAS_NONMPI=1 LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" \
	"$ops" signals "$work" 20000
is "$?" 0 "I/O from a signal handler, 20,000 times over, neither deadlocks nor corrupts"
is "$(ioa_counter "$(ioa_only_log "$logs")" POSIX 0 "$work/main-posix" POSIX_WRITES)" 20000 \
	"and the program's own writes are all counted"

# --- memory budget
logs=$(ioa_logdir)
IOATLAS_MEMORY=256KiB ioa_preload "$logs" "$ops" many "$work" 300
is "$?" 0 "300 files with a 256 KiB budget run unchanged"
log=$(ioa_only_log "$logs")
totals=$("$IOA_CMD" parse --total "$log")
like "$totals" '^total_POSIX_WRITES: 300$' "the job's write count stays exact"
like "$totals" '^total_POSIX_BYTES_WRITTEN: 3000$' "and so do its bytes"
like "$("$IOA_CMD" parse "$log")" '^# incomplete: some files were folded' \
	"the log says that files were folded"
like "$("$IOA_CMD" parse "$log")" '^# untracked: .*memory_refused_bytes=[1-9]' \
	"and how much memory it was refused"
folded=$("$IOA_CMD" parse "$log" | awk -F '\t' '$4 == "POSIX_OPENS" && $6 ~ /^<folded/ { print $5 }')
ok "the overflow record holds the files past the budget ($folded opens)" \
	test "${folded:-0}" -gt 0 -a "${folded:-0}" -lt 300

done_testing
