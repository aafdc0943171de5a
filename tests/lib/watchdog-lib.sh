# watchdog-lib.sh — what the throwaway servers' and clusters' libraries
# (pg-lib.sh, slurm-lib.sh) share: a watchdog that stops them when the test
# shell is killed outright, where no exit trap runs.

# after_test_shell PID COMMAND...: started in the background, runs COMMAND
# once the test shell PID is gone, however it went (the servers' and
# clusters' watchdogs).  It lets go of every inherited descriptor first
# (bash keeps copies of a redirected stdout above fd 10), or the test's
# reader would wait for it; and it counts a zombie as gone, since the reader
# reaps the test only after seeing end-of-file.
after_test_shell() {
	local fd state
	exec </dev/null >/dev/null 2>&1
	for fd in $(ls /proc/$BASHPID/fd); do
		[ "$fd" -gt 2 ] && eval "exec $fd>&-"
	done
	while read -r _ _ state _ </proc/"$1"/stat && [ "$state" != Z ]; do
		sleep 1
	done 2>/dev/null
	shift
	"$@"
}
