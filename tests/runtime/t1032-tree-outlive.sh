# t1032-tree-outlive — a child that outlives the tree's root (a daemon, a
# background job) publishes a log of its own, which names the tree (job
# key "tree"); the root's log does not wait for it.  So does a child whose
# logs go to another log folder (IOATLAS_LOGDIR changed on the way).
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"

plan 10

work="$TEST_TMP/work"
mkdir -p "$work"
preload="LD_PRELOAD=$(ioa_preload_list "$IOA_RUNTIME_SO")"
job() { "$IOA_CMD" parse "$1" | sed -n "s/^# $2: //p"; }

logs=$(ioa_logdir)
start=$(date +%s%N)
ok "the root returns while its child runs on" run_timeout 30 env IOATLAS_NONMPI=1 \
	IOATLAS_LOGDIR="$logs" "$preload" sh -c \
	"(sleep 1; echo late > '$work/late') >/dev/null 2>&1 & echo early > '$work/early'"
ok "without waiting for the child (< 0.9 s)" test $(($(date +%s%N) - start)) -lt 900000000
# The background subshell and its sleep end about a second later.
for _ in $(seq 1 100); do
	[ -s "$work/late" ] && [ "$(ioa_logs "$logs" | wc -l)" -ge 3 ] && break
	sleep 0.1
done
sleep 0.2
root_log=$(grep -l . $(ioa_logs "$logs") /dev/null | while read -r l; do
	[ "$l" = /dev/null ] || { [ -n "$(ioa_counter "$l" POSIX 0 "$work/early" POSIX_OPENS)" ] && echo "$l"; }
done)
late_log=$(ioa_logs "$logs" | while read -r l; do
	[ -n "$(ioa_counter "$l" POSIX 0 "$work/late" POSIX_OPENS)" ] && echo "$l"
done)
ok "the root's log holds what the root did" test -n "$root_log"
ok "the child that outlived it has a log of its own" test -n "$late_log" -a "$late_log" != "$root_log"
tree=$(job "$root_log" tree)
like "$tree" "^[0-9]+\\.[0-9]+\\." "the root's log names its tree"
is "$(job "$late_log" tree)" "$tree" "and the child's log names the same tree"
is "$(find "$logs" -name '.tree-*' | wc -l)" 0 "no staging folder is left behind"

logs=$(ioa_logdir)
other=$(ioa_logdir)
ok "a child writes its logs elsewhere" run_timeout 30 env IOATLAS_NONMPI=1 \
	IOATLAS_LOGDIR="$logs" "$preload" sh -c "IOATLAS_LOGDIR='$other' cat '$work/early' >/dev/null"
root_log=$(ioa_only_log "$logs")
child_log=$(ioa_only_log "$other")
is "$(job "$child_log" tree)" "$(job "$root_log" tree)" "a log of its own there, naming the tree"
is "$(find "$logs" "$other" -name '.tree-*' | wc -l)" 0 "and no part left behind"
