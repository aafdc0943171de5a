# t1081-recover-term-exit-abort — the other bad ends of an MPI job (MPICH,
# 2 ranks, tests/workloads/mpi-killed.c), each recovered into a log that
# says how it ended, with every write the program reported:
#   - SIGTERM with the default disposition: the ranks die by SIGTERM, as
#     without the runtime (the launcher's status is compared with a run
#     without it), and the log says signal 15;
#   - SIGTERM with the program's own handler: sigaction shows the program
#     its own handler (the program checks), the handler runs on both ranks
#     (it leaves a file and exits 3), and the log says signal 15; MPICH's
#     launcher then says 3, or 9 when it heard first of the SIGKILL it sends
#     the rank left (both happen with and without the runtime), never 15;
#   - exit() after MPI_Init without MPI_Finalize: "exit";
#   - MPI_Abort(7) on rank 0: "abort", code 7;
#   - the signal calls of other signals are the C library's own: a program
#     that makes SIGALRM interrupt a read (siginterrupt, then signal) sees
#     EINTR as without the runtime, and signal(SIGTERM) answers the
#     program's previous handler.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd mpiexec.mpich

plan 32

prog="$IOA_BUILD_DIR/tests/workloads/mpi-killed"
# rank_pids DIR: the ranks working in DIR (not their launcher, whose arguments name it too).
rank_pids() {
	local p
	for p in $(pgrep -f "$1"); do
		[ "$(readlink "/proc/$p/exe")" = "$prog" ] && echo "$p"
	done
}
# gone DIR: waits (10 s at most) until no rank of DIR is left, as an epilog would.
gone() {
	local i
	for i in $(seq 100); do
		[ -z "$(rank_pids "$1")" ] && return 0
		sleep 0.1
	done
	return 1
}
preload=$(ioa_preload_list "$IOA_RUNTIME_SO")

# term_job MODE PRELOAD: runs MODE, SIGTERMs both ranks after 100 writes
# each; sets logs, work, status (the launcher's).
term_job() {
	local mode=$1 with=$2 i
	logs=$(ioa_logdir)
	work=$(mktemp -d "$TEST_TMP/$mode.XXXXXX")
	run_timeout 120 mpiexec.mpich -n 2 -genv LD_PRELOAD "$with" -genv IOATLAS_LOGDIR "$logs" \
		"$prog" "$work" "$mode" >"$work/out" 2>&1 &
	launcher=$!
	mpi_killed_wait "$work" 100
	kill -TERM $(rank_pids "$work")
	wait "$launcher"
	status=$?
	gone "$work"
}

# check_log WHAT PATTERN: recover, one log (in $log), its partial line matches, the writes are there.
check_log() {
	local what=$1 pattern=$2 w0 d0
	ok "$what: recover succeeds" "$IOA_CMD" recover "$logs"
	log=$(ioa_only_log "$logs")
	like "$("$IOA_CMD" parse "$log" 2>&1 | grep '^# partial:')" "$pattern" \
		"$what: the log says how the job ended"
	d0=$(mpi_killed_done "$work" 0)
	w0=$(ioa_counter "$log" POSIX 0 "$work/out.0" POSIX_WRITES)
	ok "$what: rank 0's writes are all there ($w0 >= $d0)" test "${w0:-0}" -ge "${d0:-1}"
	is "$(find "$logs" -name '.live-*')" "" "$what: no spill folder is left"
}

term_job run ""
bare_status=$status
term_job run "$preload"
is "$status" "$bare_status" "default SIGTERM: the launcher ends as without the runtime ($status)"
unlike "$(cat "$work/out")" "ioatlas" "default SIGTERM: the runtime says nothing"
check_log "default SIGTERM" "signal 15 \\(SIGTERM\\).*ranks 0-1"

term_job handler ""
like "$status" '^(3|9)$' "handler: without the runtime, the launcher ends by the handler's exit ($status)"
ok "handler: without the runtime, the program's handler ran" test -f "$work/handled.0"
term_job handler "$preload"
like "$status" '^(3|9)$' "handler: so it does with the runtime ($status)"
ok "handler: the program's handler ran on rank 0" test -f "$work/handled.0"
ok "handler: and on rank 1" test -f "$work/handled.1"
unlike "$(cat "$work/out")" "another handler" "handler: sigaction showed the program its own handler"
check_log "handler" "signal 15 \\(SIGTERM\\)"

logs=$(ioa_logdir)
work=$(mktemp -d "$TEST_TMP/exit.XXXXXX")
run_timeout 120 mpiexec.mpich -n 2 -genv LD_PRELOAD "$preload" -genv IOATLAS_LOGDIR "$logs" \
	"$prog" "$work" exit 50 >"$work/out" 2>&1
gone "$work"
is "$(ioa_logs "$logs")" "" "exit: no log at the end"
ok "exit: a spill folder" test -n "$(find "$logs" -name '.live-*')"
check_log "exit" "exit\\(\\) without MPI_Finalize.*ranks 0-1"
is "$(ioa_counter "$log" POSIX 1 "$work/out.1" POSIX_WRITES)" 50 "exit: rank 1 wrote its 50"

logs=$(ioa_logdir)
work=$(mktemp -d "$TEST_TMP/abort.XXXXXX")
run_timeout 120 mpiexec.mpich -n 2 -genv LD_PRELOAD "$preload" -genv IOATLAS_LOGDIR "$logs" \
	"$prog" "$work" abort 40 >"$work/out" 2>&1
ok "abort: the job ended" test $? -ne 124
gone "$work"
check_log "abort" "MPI_Abort \\(error code 7\\)"
is "$(ioa_counter "$log" POSIX 0 "$work/out.0" POSIX_WRITES)" 40 "abort: rank 0 wrote its 40"

# Other signals are not the runtime's business.
cat >"$TEST_TMP/sigs.c" <<'EOF'
#define _DEFAULT_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static void on(int s) { (void)s; }
static void other(int s) { (void)s; }
int main(void)
{
	int p[2];
	char c;
	ssize_t n;

	if (pipe(p))
		return 1;
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	siginterrupt(SIGALRM, 1);
	signal(SIGALRM, on);
	alarm(1);
	n = read(p[0], &c, 1);
	printf("read %zd %s\n", n, n < 0 ? strerror(errno) : "");
	signal(SIGTERM, on);
	printf("previous SIGTERM handler is ours: %d\n", signal(SIGTERM, other) == on);
	return 0;
}
EOF
ok "a program of signal calls builds" "$IOA_CC" -o "$TEST_TMP/sigs" "$TEST_TMP/sigs.c"
bare=$(run_timeout 10 "$TEST_TMP/sigs")
with=$(IOATLAS_LOGDIR="$(ioa_logdir)" IOATLAS_NONMPI=1 LD_PRELOAD="$preload" run_timeout 10 "$TEST_TMP/sigs")
like "$bare" "Interrupted system call" "without the runtime, SIGALRM interrupts the read"
is "$with" "$bare" "with it (its SIGTERM held), the program sees the same"
