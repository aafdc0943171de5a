# t1060-slurm-jobs — MPI jobs submitted with sbatch to a real single-node
# Slurm (tests/lib/slurm-lib.sh) leave logs that say which job they were, as
# Slurm says it: job id, step, array job and task ids, partition, account,
# job name and allocated nodes.  Ground truth is what Slurm told each rank
# (its SLURM_* environment, written by the rank before it runs the program)
# and `scontrol show job`, taken inside the job.
#
#	a plain job: MPICH's mpiexec in the batch script (its ranks run in a
#	             step, started by srun)
#	an array job of two tasks, each the same
#	a job of two srun steps, MPICH ranks started by srun --mpi=pmi2
#
# The collector then stores the same in a throwaway warehouse.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/slurm-lib.sh"
require_mpi
require_slurm
require_pg
require_cmd mpiexec.mpich srun

plan 35

ok "a single-node Slurm cluster starts" slurm_start || {
	echo "Bail out! no Slurm cluster"
	exit 255
}

# The batch script: the job's ground truth beside its logs, then the MPI
# program (mpi-io shared: 2 ranks, known I/O), each rank first writing the
# environment Slurm gave it.  Its folder is the job's id, or the array's id
# and the task's index.
cat >"$TEST_TMP/job.sh" <<'EOF'
#!/bin/bash
dir=$T1060_DIR/${SLURM_ARRAY_JOB_ID:-$SLURM_JOB_ID}${SLURM_ARRAY_TASK_ID:+.a$SLURM_ARRAY_TASK_ID}
mkdir -p "$dir/logs" "$dir/work" || exit 1
# (of an array's id, scontrol shows every task: keep this job's own record)
timeout 10 scontrol -o show job "$SLURM_JOB_ID" | grep "^JobId=$SLURM_JOB_ID " >"$dir/scontrol" ||
	exit 1
rank_env='env | grep ^SLURM_ | sort >"$0.$SLURM_STEP_ID.${PMI_RANK:-$SLURM_PROCID}"; exec "$@"'
case $1 in
mpiexec)
	timeout 60 mpiexec.mpich -n 2 -genv LD_PRELOAD "$T1060_PRELOAD" \
		-genv IOATLAS_LOGDIR "$dir/logs" \
		sh -c "$rank_env" "$dir/env" "$T1060_PROG" shared "$dir/work" || exit 1
	;;
srun)
	for step in 1 2; do
		timeout 60 srun --mpi=pmi2 -n 2 \
			--export="ALL,LD_PRELOAD=$T1060_PRELOAD,IOATLAS_LOGDIR=$dir/logs" \
			sh -c "$rank_env" "$dir/env" "$T1060_PROG" shared "$dir/work" || exit 1
	done
	;;
esac
echo done >"$dir/done"
EOF
export T1060_DIR=$TEST_TMP/jobs T1060_PROG=$IOA_BUILD_DIR/tests/workloads/mpi-io
export T1060_PRELOAD=$(ioa_preload_list "$IOA_RUNTIME_SO")
mkdir -p "$T1060_DIR"

# key LOG NAME: a job key of the log, as `ioatlas parse` shows it.
key() {
	"$IOA_CMD" parse "$1" | sed -n "s/^# $2: //p"
}

# sched FIELD DIR: a field of the job as `scontrol show job` said it in the job.
sched() {
	tr ' ' '\n' <"$2/scontrol" | sed -n "s/^$1=//p"
}

# envof DIR STEP VAR: a variable Slurm gave rank 0 of the step.
envof() {
	sed -n "s/^$3=//p" "$1/env.$2.0" 2>/dev/null
}

# truth DIR STEP: the job as Slurm gave it, in the order of recorded():
# job id, step, array job and task ids, partition, account, name, nodes.
truth() {
	printf '%s|' "$(sched JobId "$1")" "$(envof "$1" "$2" SLURM_STEP_ID)" \
		"$(sched ArrayJobId "$1")" "$(sched ArrayTaskId "$1")" "$(sched Partition "$1")" \
		"$(sched Account "$1")" "$(sched JobName "$1")"
	sched NodeList "$1"
}

# recorded LOG: the same as the log records it.
recorded() {
	local k
	for k in jobid step array_job array_task partition account job_name; do
		printf '%s|' "$(key "$1" "$k")"
	done
	key "$1" nodelist
}

# check_log DIR LOG STEP WHAT: the log's Slurm keys are Slurm's; the log is
# kept for the collector, and the row its job should have in $TEST_TMP/rows.
check_log() {
	local dir=$1 log=$2 step=$3
	local tree=$TEST_TMP/all/${log#"$dir"/logs/}
	mkdir -p "${tree%/*}" && cp "$log" "$tree" && truth "$dir" "$step" >>"$TEST_TMP/rows"
	is "$(key "$log" scheduler): $(recorded "$log")" "slurm: $(truth "$dir" "$step")" \
		"$4: job id, step, array job and task, partition, account, name and nodes are Slurm's"
	is "$(key "$log" nprocs)" 2 "$4: the log holds both ranks"
	is "$(ioa_counter "$log" POSIX -1 "$dir/work/posix-shared.dat" POSIX_BYTES_WRITTEN)" 8192 \
		"$4: and their I/O (two 4096-byte blocks)"
}

# --- a plain job: mpiexec in the batch script
plain=$(slurm_sbatch -p debug -A t1060-acct -J t1060-plain -n 2 -o "$TEST_TMP/plain.out" \
	"$TEST_TMP/job.sh" mpiexec)
ok "sbatch takes a plain job" test -n "$plain"
ok "and it completes" slurm_wait "$plain" COMPLETED 90 || sed 's/^/#   /' "$TEST_TMP/plain.out"
dir=$T1060_DIR/$plain
log=$(ioa_only_log "$dir/logs")
ok "it leaves exactly one log" test -n "$log"
ok "its ranks ran in a step of their own, started by srun ($(envof "$dir" 0 SLURM_STEP_ID))" \
	test "$(envof "$dir" 0 SLURM_STEP_ID)" = 0
is "$(sched Partition "$dir")|$(sched Account "$dir")|$(sched JobName "$dir")" \
	"debug|t1060-acct|t1060-plain" "Slurm's record is the job as submitted (the ground truth is sound)"
check_log "$dir" "$log" 0 "plain job"
like "$(basename "$log")" "_${plain}\\.0_" "the log's name carries the job and its step"

# --- an array job of two tasks
array=$(slurm_sbatch -p debug -A t1060-acct -J t1060-array -n 2 --array=0-1 \
	-o "$TEST_TMP/array-%a.out" "$TEST_TMP/job.sh" mpiexec)
ok "sbatch takes an array job of two tasks" test -n "$array"
ok "and both tasks complete" slurm_wait "$array" COMPLETED 120 ||
	cat "$TEST_TMP"/array-*.out | sed 's/^/#   /'
for task in 0 1; do
	dir=$T1060_DIR/$array.a$task
	log=$(ioa_only_log "$dir/logs")
	is "$(sched ArrayJobId "$dir"):$(sched ArrayTaskId "$dir")" "$array:$task" \
		"array task $task: Slurm's ids are the array's (the ground truth is sound)"
	check_log "$dir" "$log" 0 "array task $task"
done

# --- a job of two srun steps
steps=$(slurm_sbatch -p debug -A t1060-acct -J t1060-steps -n 2 -o "$TEST_TMP/steps.out" \
	"$TEST_TMP/job.sh" srun)
ok "sbatch takes a job of two srun steps" test -n "$steps"
ok "and it completes" slurm_wait "$steps" COMPLETED 90 || sed 's/^/#   /' "$TEST_TMP/steps.out"
dir=$T1060_DIR/$steps
logs=$(ioa_logs "$dir/logs")
is "$(printf '%s\n' "$logs" | grep -c .)" 2 "it leaves one log per step"
for step in 0 1; do
	log=$(grep "_${steps}\\.${step}_" <<<"$logs")
	check_log "$dir" "$log" "$step" "srun step $step"
done

ok "every job ran to its end" test -f "$T1060_DIR/$plain/done" -a -f "$T1060_DIR/$steps/done"

# --- the collector stores them
export IOATLAS_CONF=/dev/null IOATLAS_LOGDIR=$TEST_TMP/all
pg_warehouse
ok "ioatlasd --once ingests the five logs" run_timeout 120 "$IOA_BUILD_DIR/sbin/ioatlasd" --once
is "$(psql -X -t -A -U ioatlas -c "SELECT count(*) FROM ingest_ledger WHERE status = 'ingested'")" 5 \
	"all five are ingested"
is "$(psql -X -t -A -U ioatlas -F '|' -c "SELECT job_id, job_step, array_job_id, array_task_id,
	job_partition, job_account, job_name, node_list FROM ioatlas.jobs" | LC_ALL=C sort)" \
	"$(LC_ALL=C sort "$TEST_TMP/rows")" \
	"each job's row has Slurm's ids, partition, account, name and nodes"
done_testing
