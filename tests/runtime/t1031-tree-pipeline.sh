# t1031-tree-pipeline — a shell pipeline under nonmpi, `sh -c 'cat in |
# gzip > out'`, leaves one log: the shell (which ends with _exit) and both
# commands as ranks, cat's reads exact.  A root that execs another program
# stays the root (same pid): one log, no staging folder left.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"

plan 9

work="$TEST_TMP/work"
mkdir -p "$work"
seq 1 200000 >"$work/in"
size=$(stat -c %s "$work/in")
preload="LD_PRELOAD=$(ioa_preload_list "$IOA_RUNTIME_SO")"
job() { "$IOA_CMD" parse "$1" | sed -n "s/^# $2: //p"; }

logs=$(ioa_logdir)
ok "the pipeline runs unchanged" run_timeout 30 env IOATLAS_NONMPI=1 IOATLAS_LOGDIR="$logs" \
	"$preload" sh -c "cat '$work/in' | gzip > '$work/out'"
ok "and its output is right" sh -c "gzip -dc '$work/out' | cmp -s - '$work/in'"
log=$(ioa_only_log "$logs")
ok "one log for the pipeline" test -n "$log"
is "$(job "$log" nprocs)" 3 "three processes: the shell, cat and gzip"
procs=$(printf '%b' "$(job "$log" procs)" | awk '{ n = split($5, p, "/"); print p[n] }' |
	LC_ALL=C sort | tr '\n' ' ')
like "$procs" "^cat (dash|bash|sh) gzip $" "each named by its executable ($procs)"
is "$(ioa_counter "$log" POSIX 1 "$work/in" POSIX_BYTES_READ)$(ioa_counter "$log" POSIX 2 \
	"$work/in" POSIX_BYTES_READ)" "$size" "cat's reads of the input, exact ($size bytes)"

logs=$(ioa_logdir)
run_timeout 30 env IOATLAS_NONMPI=1 IOATLAS_LOGDIR="$logs" "$preload" \
	sh -c "exec cat '$work/in'" >/dev/null
log=$(ioa_only_log "$logs")
is "$(job "$log" nprocs)" 1 "a root that execs: one process, one log"
is "$(ioa_counter "$log" POSIX 0 "$work/in" POSIX_BYTES_READ)" "$size" \
	"the program it became is recorded"
is "$(find "$logs" -name '.tree-*' | wc -l)" 0 "no staging folder is left behind"
