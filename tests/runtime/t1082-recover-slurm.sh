# t1082-recover-slurm — under a real single-node Slurm (tests/lib/slurm-lib.sh)
# whose nodes run the shipped epilog (packaging/slurm/ioatlas-epilog), MPI
# jobs that end badly still leave logs, with Slurm's ids and word:
#   - a job that hits its one-minute time limit (SIGTERM, then SIGKILL):
#     partial, signal 15, Slurm says TIMEOUT;
#   - a job cancelled with scancel: partial, signal 15 (Slurm says nothing
#     of a cancel while the job completes, when the epilog runs);
#   - an array job of two tasks that end cleanly: a complete log each, with
#     the array's ids, and nothing left to recover.
# Each killed job's log holds every write the program reported before the
# end (tests/workloads/mpi-killed.c), and the epilog leaves no spill behind.
# Seen from another host, a job Slurm says runs is never recovered.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/slurm-lib.sh"
require_mpi
require_slurm
require_cmd mpiexec.mpich srun

plan 27

logs=$(ioa_logdir)
chmod 755 "$logs"
# The epilog runs with Slurm's environment: the log tree and the command are set here.
cat >"$TEST_TMP/epilog" <<EOF
#!/bin/sh
export PATH="$IOA_BUILD_DIR/bin:\$PATH" IOATLAS_LOGDIR="$logs" \
	IOATLAS_EPILOG_LOG="$TEST_TMP/epilog.log"
exec "$IOA_SOURCE_DIR/packaging/slurm/ioatlas-epilog"
EOF
chmod 755 "$TEST_TMP/epilog"
SLURM_EPILOG=$TEST_TMP/epilog
SLURM_TEST_CPUS=8

ok "a single-node Slurm cluster with the ioatlas epilog starts" slurm_start || {
	echo "Bail out! no Slurm cluster"
	exit 255
}

prog="$IOA_BUILD_DIR/tests/workloads/mpi-killed"
cat >"$TEST_TMP/job.sh" <<EOF
#!/bin/bash
work=$TEST_TMP/work.\${SLURM_ARRAY_JOB_ID:-\$SLURM_JOB_ID}\${SLURM_ARRAY_TASK_ID:+.a\$SLURM_ARRAY_TASK_ID}
mkdir -p "\$work" || exit 1
exec mpiexec.mpich -n 2 -genv LD_PRELOAD "$(ioa_preload_list "$IOA_RUNTIME_SO")" \
	-genv IOATLAS_LOGDIR "$logs" "$prog" "\$work" "\$@"
EOF
chmod 755 "$TEST_TMP/job.sh"

# log_of JOB: the log whose job id is JOB.
log_of() {
	local log
	for log in $(ioa_logs "$logs"); do
		"$IOA_CMD" parse "$log" | grep -qx "# jobid: $1" && echo "$log"
	done
}
# wait_log JOB SECONDS: the job's log, once the epilog made it.
wait_log() {
	local i
	for i in $(seq $(($2 * 2))); do
		[ -n "$(log_of "$1")" ] && break
		sleep 0.5
	done
	log_of "$1"
}

timeout_job=$(slurm_sbatch -n 2 -t 1 -o "$TEST_TMP/timeout.out" "$TEST_TMP/job.sh" run)
ok "a job with a one-minute limit is submitted" test -n "$timeout_job"
cancel_job=$(slurm_sbatch -n 2 -o "$TEST_TMP/cancel.out" "$TEST_TMP/job.sh" run)
ok "a job to cancel is submitted" test -n "$cancel_job"
array_job=$(slurm_sbatch -n 2 --array=0-1 -o "$TEST_TMP/array-%a.out" "$TEST_TMP/job.sh" clean 20)
ok "an array job of two tasks is submitted" test -n "$array_job"

# The cancelled job, once both ranks wrote 100 blocks.
work=$TEST_TMP/work.$cancel_job
mpi_killed_wait "$work" 100 60
ok "the job to cancel runs its ranks" test "$(mpi_killed_done "$work" 1)" -ge 100
# Seen from another host (the collector's: no pid to ask there), with no
# grace at all: Slurm's word that the job runs keeps recover off it.
elsewhere=$(run_timeout 30 unshare --uts sh -c 'hostname elsewhere && exec "$0" recover --older-than 0 "$1"' \
	"$IOA_CMD" "$logs" 2>&1)
like "$elsewhere" "still running" "from another host, squeue's word keeps a running job's spills"
is "$(log_of "$cancel_job")" "" "and no log is made of it"
slurm_cancel "$cancel_job"
ok "scancel ends it" slurm_wait "$cancel_job" CANCELLED 60
log=$(wait_log "$cancel_job" 60)
ok "the epilog recovers its log" test -n "$log"
like "$("$IOA_CMD" parse "$log" | grep '^# partial:')" \
	"signal 15 \\(SIGTERM\\).*ranks 0-1" \
	"it is partial: SIGTERM, both ranks"
w0=$(ioa_counter "$log" POSIX 0 "$work/out.0" POSIX_WRITES)
ok "rank 0's writes are all there ($w0 >= $(mpi_killed_done "$work" 0))" \
	test "${w0:-0}" -ge "$(mpi_killed_done "$work" 0)"
w1=$(ioa_counter "$log" POSIX 1 "$work/out.1" POSIX_WRITES)
ok "rank 1's too ($w1 >= $(mpi_killed_done "$work" 1))" test "${w1:-0}" -ge "$(mpi_killed_done "$work" 1)"
like "$("$IOA_CMD" parse "$log")" "^# scheduler: slurm" "its scheduler is Slurm"

# The array's tasks end cleanly: their own logs, no partial mark.
ok "the array's tasks complete" slurm_wait "$array_job" COMPLETED 120
for task in 0 1; do
	id=$(run_timeout 10 squeue -h -t all -j "$array_job" -o '%A %K' | awk -v t=$task '$2 == t { print $1 }')
	log=$(wait_log "$id" 30)
	ok "array task $task: a log" test -n "$log"
	text=$("$IOA_CMD" parse "$log")
	unlike "$text" "^# partial:" "array task $task: complete, not partial"
	like "$text" "^# array_job: $array_job\$" "array task $task: the array's id"
	like "$text" "^# array_task: $task\$" "array task $task: its index"
done

# The time limit: SIGTERM, KillWait, SIGKILL.
ok "the job with a one-minute limit times out" slurm_wait "$timeout_job" TIMEOUT 150
log=$(wait_log "$timeout_job" 60)
ok "the epilog recovers its log" test -n "$log"
like "$("$IOA_CMD" parse "$log" | grep '^# partial:')" \
	"signal 15 \\(SIGTERM\\), scheduler says TIMEOUT.*ranks 0-1" \
	"it is partial: SIGTERM at the time limit"
work=$TEST_TMP/work.$timeout_job
w0=$(ioa_counter "$log" POSIX 0 "$work/out.0" POSIX_WRITES)
ok "rank 0's writes are all there ($w0 >= $(mpi_killed_done "$work" 0))" \
	test "${w0:-0}" -ge "$(mpi_killed_done "$work" 0)" -a "$(mpi_killed_done "$work" 0)" -gt 1000

is "$(find "$logs" -name '.live-*')" "" "no spill is left behind"
[ ! -s "$TEST_TMP/epilog.log" ] || diag "the epilog said:" "$(cat "$TEST_TMP/epilog.log")"
