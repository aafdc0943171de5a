# sh-fixture — a shell TAP test that behaves as its argument says, for t0900
# to check test-lib.sh.  Run with IOA_SOURCE_DIR and IOA_BUILD_DIR set.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"

case "$1" in
pass)
	plan 4
	ok "true passes" true
	fails "false fails cleanly" false
	is "a" "a" "strings match"
	like "$(printf 'one\ntwo\n')" '^tw' "a line matches"
	;;
fail)
	ok "false does not pass" sh -c 'echo the-output; exit 3'
	is "a" "b" "strings differ"
	fails "a crash is no clean failure" sh -c 'kill -SEGV $$'
	;;
skip)
	skip_all "fixture has nothing to test"
	;;
miscount)
	plan 2
	ok "only one of two" true
	;;
stop-early)
	# Ends before done_testing, with status 0: the plan still holds.
	plan 2
	ok "only one of two" true
	exit 0
	;;
fail-no-done)
	plan 1
	is "a" "b" "strings differ"
	exit 0
	;;
cleanup)
	# Reports its scratch directory, registers cleanups, then waits to be killed.
	echo "# tmp $TEST_TMP"
	at_exit "echo first-registered >>'$2/order'"
	at_exit "echo second-registered >>'$2/order'"
	if [ "$3" = wait ]; then
		sleep 60 &
		at_exit "kill $!"
		echo "# waiting"
		wait
	fi
	plan 1
	ok "ran" true
	;;
esac
done_testing
