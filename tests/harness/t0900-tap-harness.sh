# t0900-tap-harness — the harness cannot let a failure pass: the C helper
# and the shell library exit non-zero on failed or missing tests, skips are
# reported as TAP skips, cleanups run even when a test is killed, and CTest,
# through our registration, counts TAP skips as skipped and "not ok" as
# failed even when the program exits 0.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_cmd ctest cmake prove

fixture="$IOA_BUILD_DIR/tests/harness/tap-fixture"
shfixture="$IOA_SOURCE_DIR/tests/harness/sh-fixture.sh"

# run_fixture NAME COMMAND...: runs a fixture, output to $TEST_TMP/NAME.out,
# status to $TEST_TMP/NAME.status.
run_fixture() {
	local name=$1
	shift
	"$@" >"$TEST_TMP/$name.out" 2>&1
	echo $? >"$TEST_TMP/$name.status"
}
status_of() { cat "$TEST_TMP/$1.status"; }
output_of() { cat "$TEST_TMP/$1.out"; }

plan 28

# --- the C helper ---
run_fixture c-pass "$fixture" pass
is "$(status_of c-pass)" 0 "C: a passing test exits 0"
like "$(output_of c-pass)" '^ok 3 - bytes match$' "C: results are numbered TAP lines"
like "$(output_of c-pass)" '^# lines$' "C: multi-line diagnostics stay comments"

run_fixture c-fail "$fixture" fail
is "$(status_of c-fail)" 2 "C: the exit status counts the failures"
like "$(output_of c-fail)" '^not ok 2 - arithmetic is off$' "C: a failure prints 'not ok'"
like "$(output_of c-fail)" '^#      got: 4$' "C: is_int shows what it got"
like "$(output_of c-fail)" '^1\.\.3$' "C: without a plan, the count is printed at the end"

run_fixture c-skip "$fixture" skip
is "$(status_of c-skip):$(head -n 1 "$TEST_TMP/c-skip.out")" \
	"0:1..0 # SKIP fixture has nothing to test" "C: skip_all is a TAP skip that exits 0"

run_fixture c-miscount "$fixture" miscount
is "$(status_of c-miscount)" 255 "C: running fewer tests than planned fails"

# --- the shell library ---
run_fixture sh-pass bash "$shfixture" pass
is "$(status_of sh-pass)" 0 "sh: a passing test exits 0"

run_fixture sh-fail bash "$shfixture" fail
is "$(status_of sh-fail)" 3 "sh: the exit status counts the failures"
like "$(output_of sh-fail)" '^#   the-output$' "sh: a failed command's output is shown"
like "$(output_of sh-fail)" '^not ok 3 - a crash is no clean failure$' \
	"sh: a command killed by a signal is no clean failure"

run_fixture sh-skip bash "$shfixture" skip
is "$(status_of sh-skip):$(head -n 1 "$TEST_TMP/sh-skip.out")" \
	"0:1..0 # SKIP fixture has nothing to test" "sh: skip_all is a TAP skip that exits 0"

run_fixture sh-miscount bash "$shfixture" miscount
is "$(status_of sh-miscount)" 255 "sh: running fewer tests than planned fails"
run_fixture sh-stop-early bash "$shfixture" stop-early
is "$(status_of sh-stop-early)" 255 "sh: so does a test that stops early without done_testing"
run_fixture sh-fail-no-done bash "$shfixture" fail-no-done
is "$(status_of sh-fail-no-done)" 1 "sh: and one that failed, whatever status it exits with"

mkdir "$TEST_TMP/normal"
run_fixture sh-cleanup bash "$shfixture" cleanup "$TEST_TMP/normal"
inner_tmp=$(sed -n 's/^# tmp //p' "$TEST_TMP/sh-cleanup.out")
is "$(cat "$TEST_TMP/normal/order" 2>&1)" "second-registered
first-registered" "sh: cleanups run at exit, newest first"
ok "sh: the scratch directory is removed at exit" test ! -e "$inner_tmp"

mkdir "$TEST_TMP/killed"
bash "$shfixture" cleanup "$TEST_TMP/killed" wait >"$TEST_TMP/sh-killed.out" 2>&1 &
victim=$!
for _ in $(seq 100); do
	grep -q '^# waiting' "$TEST_TMP/sh-killed.out" && break
	sleep 0.1
done
kill -TERM "$victim"
wait "$victim"
is "$?" 143 "sh: a test killed with SIGTERM exits 143"
is "$(cat "$TEST_TMP/killed/order" 2>&1)" "second-registered
first-registered" "sh: and still runs its cleanups"

# --- CTest, through our registration function ---
project="$TEST_TMP/ctest-project"
mkdir -p "$project"
tap_script() { printf '#!/bin/sh\n%s\n' "$2" >"$project/$1.t" && chmod +x "$project/$1.t"; }
tap_script pass 'echo 1..1; echo ok 1 - fine'
tap_script skip 'echo "1..0 # SKIP nothing here"'
tap_script notok 'echo 1..1; echo "not ok 1 - broken"; exit 0'
tap_script exitfail 'echo 1..1; echo ok 1 - fine; exit 1'
tap_script hang 'echo 1..1; sleep 30'
cat >"$project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(harness_selftest NONE)
list(APPEND CMAKE_MODULE_PATH "$IOA_SOURCE_DIR/cmake")
include(IoatlasTesting)
enable_testing()
foreach(t pass skip notok exitfail)
  ioatlas_register_test(fixture \${t} "\${CMAKE_CURRENT_SOURCE_DIR}/\${t}.t" 20)
endforeach()
ioatlas_register_test(fixture hang "\${CMAKE_CURRENT_SOURCE_DIR}/hang.t" 2)
CMAKE
ok "ctest: the scratch project configures" \
	run_timeout 60 cmake -S "$project" -B "$project/build"
(cd "$project/build" && run_timeout 60 ctest) >"$TEST_TMP/ctest.out" 2>&1
ctest_out=$(cat "$TEST_TMP/ctest.out")
like "$ctest_out" 'fixture/pass .*Passed' "ctest: a passing TAP test passes"
like "$ctest_out" 'fixture/skip .*Skipped' "ctest: '1..0 # SKIP' is counted as skipped"
like "$ctest_out" 'fixture/notok .*Failed' "ctest: 'not ok' fails even when the exit status is 0"
like "$ctest_out" 'fixture/exitfail .*Failed' "ctest: a non-zero exit fails"
like "$ctest_out" 'fixture/hang .*Timeout' "ctest: a hanging test is stopped by its timeout"

# --- prove runs the same .t files ---
# (the unit tests of common/: the folder also holds minutes of fuzzing and crafted logs;
# t0004 alone took 20 s in CI's plain build, and the sanitizer build's ran past 60 s)
ok "prove runs the compiled C tests" run_timeout 300 prove \
	"$IOA_BUILD_DIR"/tests/common/t000[1-4]-*.t

done_testing
