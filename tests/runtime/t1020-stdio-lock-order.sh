# t1020-stdio-lock-order — a thread holding a stream's lock (flockfile) does
# POSIX and STDIO I/O while other threads ftell, ftello, fseek and fprintf on
# that stream: the runtime never calls into stdio while it holds its own
# lock, so neither lock waits for the other, and every call is counted.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"

ops="$IOA_BUILD_DIR/tests/runtime/harm-ops"
work="$TEST_TMP/work"
mkdir -p "$work"
n=20000

plan 7

logs=$(ioa_logdir)
run_timeout 60 env IOATLAS_LOGDIR="$logs" IOATLAS_NONMPI=1 \
	LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" "$ops" locks "$work" "$n"
is "$?" 0 "3 threads x $n rounds around a locked stream finish (no deadlock)"
log=$(ioa_only_log "$logs")
is "$(ioa_counter "$log" STDIO 0 "$work/locked" STDIO_SEEKS)" $((2 * n)) "fseek beside it: all counted"
# ftell is no seek (as Darshan counts): in the trace, kept exactly or summarised (only DIR/locked has them).
kept=$("$IOA_CMD" trace --expand "$log" | awk -v f="$work/locked" '$4 == "ftell" && $NF == f' | wc -l)
summarised=$("$IOA_CMD" trace "$log" | awk '$2 == "summary" && $4 == "op" && $6 == "ftell" { s += $7 } END { print s + 0 }')
is "$((kept + summarised))" $((3 * n)) "ftell under the stream's lock and beside it: all in the trace"
is "$(ioa_counter "$log" STDIO 0 "$work/locked" STDIO_WRITES)" $((3 * n)) \
	"fwrite under the lock, fprintf beside it"
is "$(ioa_counter "$log" POSIX 0 "$work/posix" POSIX_WRITES)" $((1 + 3 * n)) \
	"pwrite under the stream's lock and beside it"
is "$(ioa_counter "$log" POSIX 0 "$work/posix" POSIX_READS)" "$n" "pread under the stream's lock"
is "$(ioa_counter "$log" STDIO 0 "$work/other" STDIO_WRITES)" "$n" \
	"fprintf on another stream under the lock"

done_testing
