# test-lib.sh — the shell side of the ioatlas TAP harness.
#
# A shell test sources this file, states its plan, and records results:
#
#	. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
#	plan 2
#	ok "the tool prints its version" "$IOA_BUILD_DIR/bin/ioatlas" --version
#	is "$(cat out)" "expected" "the output is right"
#	done_testing
#
# Tests are started through the .t wrappers that CMake generates in the build
# tree (tests/<component>/tNNNN-topic.t), which set IOA_SOURCE_DIR,
# IOA_BUILD_DIR, IOA_MPIEXEC and IOA_SANITIZE; ctest and prove run the same
# wrappers.
#
# Every test gets a private directory $TEST_TMP (removed at exit unless
# IOATLAS_TEST_KEEP=1) and a cleanup stack (at_exit) that runs on exit and on
# SIGINT/SIGTERM, so servers started by a test stop with it.  done_testing
# exits non-zero when anything failed or the count missed the plan.

: "${IOA_SOURCE_DIR:?run shell tests through their .t wrapper in the build tree}"
: "${IOA_BUILD_DIR:?run shell tests through their .t wrapper in the build tree}"

# hwloc's plugins leak inside MPICH's start-up, from modules that are
# unloaded before LeakSanitizer reports, so no suppression can name them:
# in sanitizer builds every MPI job a test starts, itself or through a
# tool (kernel validation), runs without them.
[ -z "${IOA_SANITIZE:-}" ] || export HWLOC_PLUGINS_PATH=/nonexistent

tap_planned=
tap_run=0
tap_failed=0
tap_cleanups=

# --- TAP ------------------------------------------------------------------

plan() {
	tap_planned=$1
	echo "1..$1"
}

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

diag() {
	printf '%s\n' "$@" | sed 's/^/# /'
}

# tap_result PASS DESCRIPTION: records one result (PASS is 0 for a pass).
tap_result() {
	tap_run=$((tap_run + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_run - $2"
	else
		tap_failed=$((tap_failed + 1))
		echo "not ok $tap_run - $2"
	fi
	return "$1"
}

# ok DESCRIPTION COMMAND [ARG...]: passes when the command exits 0.  Its
# output is kept in $TEST_TMP/last.out and shown only when it fails.
ok() {
	local description=$1 status
	shift
	"$@" >"$TEST_TMP/last.out" 2>&1
	status=$?
	tap_result "$status" "$description" && return 0
	diag "command failed with status $status: $*"
	sed -n '1,40p' "$TEST_TMP/last.out" | sed 's/^/#   /'
	return 1
}

# fails DESCRIPTION COMMAND [ARG...]: passes when the command exits non-zero
# (but was not killed by a signal, which is a crash, not a refusal).
fails() {
	local description=$1 status
	shift
	"$@" >"$TEST_TMP/last.out" 2>&1
	status=$?
	if [ "$status" -ne 0 ] && [ "$status" -lt 128 ]; then
		tap_result 0 "$description"
		return 0
	fi
	tap_result 1 "$description"
	diag "expected a clean failure, got status $status from: $*"
	return 1
}

# skip REASON DESCRIPTION: a check that cannot run here (TAP "# skip").
# Only for checks that need a privilege the test lacks; CI has them all.
skip() {
	tap_run=$((tap_run + 1))
	echo "ok $tap_run - $2 # skip $1"
}

# is GOT EXPECTED DESCRIPTION: string equality.
is() {
	[ "$1" = "$2" ]
	tap_result $? "$3" && return 0
	diag "     got: '$1'" "expected: '$2'"
	return 1
}

# like TEXT EXTENDED_REGEX DESCRIPTION: TEXT has a line that matches.
like() {
	printf '%s\n' "$1" | grep -Eq -- "$2"
	tap_result $? "$3" && return 0
	diag "no line of:" "$1" "matches: $2"
	return 1
}

# unlike TEXT EXTENDED_REGEX DESCRIPTION: no line of TEXT matches.
unlike() {
	! printf '%s\n' "$1" | grep -Eq -- "$2"
	tap_result $? "$3" && return 0
	diag "a line of:" "$1" "matches: $2"
	return 1
}

done_testing() {
	if [ -z "$tap_planned" ]; then
		echo "1..$tap_run"
	elif [ "$tap_run" -ne "$tap_planned" ]; then
		diag "planned $tap_planned tests but ran $tap_run"
		exit 255
	fi
	[ "$tap_failed" -eq 0 ] || diag "failed $tap_failed of $tap_run tests"
	exit $((tap_failed > 254 ? 254 : tap_failed))
}

# --- cleanup and scratch space --------------------------------------------

# at_exit COMMAND: runs COMMAND (a string, evaluated) when the test ends,
# newest first.
at_exit() {
	tap_cleanups="$1
$tap_cleanups"
}

tap_run_cleanups() {
	local status=$? cmd
	trap - EXIT INT TERM
	while IFS= read -r cmd; do
		[ -n "$cmd" ] && eval "$cmd" >/dev/null 2>&1
	done <<CLEANUPS
$tap_cleanups
CLEANUPS
	# A test that ends without done_testing is held to its plan and its
	# results all the same: one that stopped early never passes.
	if [ "$status" -eq 0 ] && [ -n "$tap_planned" ] && [ "$tap_run" -ne "$tap_planned" ]; then
		diag "planned $tap_planned tests but ran $tap_run"
		status=255
	elif [ "$status" -eq 0 ] && [ "$tap_failed" -gt 0 ]; then
		status=$((tap_failed > 254 ? 254 : tap_failed))
	fi
	exit "$status"
}
trap tap_run_cleanups EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/ioatlas-test.XXXXXX") || {
	echo "Bail out! cannot create a scratch directory under ${TMPDIR:-/tmp}"
	exit 255
}
if [ "${IOATLAS_TEST_KEEP:-0}" = 1 ]; then
	echo "# keeping scratch directory $TEST_TMP"
else
	at_exit "rm -rf '$TEST_TMP'"
fi

# Open MPI 4 makes its session directory, ompi.HOST.UID, under /tmp with a
# mkdir that fails when another test's mpiexec makes it at the same moment
# (open-mpi/ompi#8510).  Each test gets its own base, named so that the
# runtime's default exclusion of /tmp/ompi.* and $TMPDIR/ompi.* still keeps
# Open MPI's own files out of the logs.
OMPI_MCA_orte_tmpdir_base=$(mktemp -d "${TMPDIR:-/tmp}/ompi.ioatlas-test.XXXXXX") || {
	echo "Bail out! cannot create Open MPI's session base under ${TMPDIR:-/tmp}"
	exit 255
}
export OMPI_MCA_orte_tmpdir_base
at_exit "rm -rf '$OMPI_MCA_orte_tmpdir_base'"

# require_cmd NAME...: skips the whole test when a command is missing.
require_cmd() {
	local name
	for name in "$@"; do
		command -v "$name" >/dev/null 2>&1 || skip_all "'$name' is not installed"
	done
}

# --- commands that may hang -----------------------------------------------

# run_timeout SECONDS COMMAND [ARG...]: runs the command, killing it (and,
# ten seconds later, hard) when it outlives SECONDS; status 124 on timeout.
run_timeout() {
	local seconds=$1
	shift
	timeout --kill-after=10 "$seconds" "$@"
}

# mpi_run RANKS SECONDS COMMAND [ARG...]: runs COMMAND under MPICH's mpiexec
# with RANKS processes (oversubscribing the cores if need be) and a timeout.
mpi_run() {
	local ranks=$1 seconds=$2
	shift 2
	[ -n "${IOA_MPIEXEC:-}" ] || {
		diag "mpi_run: this build has no MPI (IOATLAS_WITH_MPI=OFF)"
		return 127
	}
	run_timeout "$seconds" "$IOA_MPIEXEC" -n "$ranks" "$@"
}

# require_mpi: skips the whole test when the build has no MPI.
require_mpi() {
	[ -n "${IOA_MPIEXEC:-}" ] || skip_all "this build has no MPI (IOATLAS_WITH_MPI=OFF)"
}

. "$IOA_SOURCE_DIR/tests/lib/pg-lib.sh"
