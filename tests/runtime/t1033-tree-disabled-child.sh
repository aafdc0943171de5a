# t1033-tree-disabled-child — a process of the tree with the runtime off
# (IOATLAS_DISABLE=1 in its environment) or killed before its exit writes
# no part; the root neither hangs nor waits for it, and the tree's log
# holds the others.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"

plan 6

work="$TEST_TMP/work"
mkdir -p "$work"
seq 1 1000 >"$work/in"
preload="LD_PRELOAD=$(ioa_preload_list "$IOA_RUNTIME_SO")"
job() { "$IOA_CMD" parse "$1" | sed -n "s/^# $2: //p"; }

logs=$(ioa_logdir)
start=$(date +%s%N)
ok "the tree runs unchanged" run_timeout 30 env IOATLAS_NONMPI=1 IOATLAS_LOGDIR="$logs" \
	"$preload" sh -c "IOATLAS_DISABLE=1 cat '$work/in' '$work/in' >/dev/null; \
	sh -c 'kill -9 \$\$'; cat '$work/in' >/dev/null"
# Waiting on a part would take the runtime's bound on it (RT_TREE_WAIT_MS, 2 s)
# at least; the tree itself takes well under 1 s (1.4 s seen on a loaded machine).
ok "without waiting on the missing parts (< 2 s)" test $(($(date +%s%N) - start)) -lt 2000000000
log=$(ioa_only_log "$logs")
ok "one log" test -n "$log"
is "$(job "$log" nprocs)" 2 "the shell and the cat that recorded"
is "$("$IOA_CMD" parse "$log" | awk -F '\t' -v f="$work/in" \
	'$6 == f && $4 == "POSIX_OPENS" { print $2 ":" $5 }')" 1:1 \
	"nothing of the disabled child (which opened the input twice)"
is "$(ioa_counter "$log" POSIX 1 "$work/in" POSIX_BYTES_READ)" "$(stat -c %s "$work/in")" \
	"the other child's reads"
