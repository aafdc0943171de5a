# slurm-lib.sh — a throwaway single-node Slurm cluster for one test
# (sourced by a test after test-lib.sh).
#
#	require_slurm
#	slurm_start || { echo "Bail out! no Slurm cluster"; exit 255; }
#	id=$(slurm_sbatch --wrap 'hostname')       # SLURM_CONF is set
#	slurm_wait "$id" COMPLETED 60              # its state, with a bound
#
# Debian's slurmctld, slurmd and munged run in the foreground of background
# jobs, with everything they keep under $TEST_TMP/slurm: the configuration,
# the controller's state, slurmd's spool, their logs, the munge key, socket,
# seed and pid files.  Nothing system-wide is read or written (no systemd,
# no /etc/slurm, no /run/munge).  Slurm runs as the test's user (root in
# CI; an unprivileged user's jobs run as well), tracks processes without
# cgroups (proctrack/linuxproc, task/none), and listens on two free ports
# of 127.0.0.1.  The one node is
# the host itself, named as `hostname -s` names it, with SLURM_TEST_CPUS
# CPUs (default 4, whatever the machine has: jobs of a test run side by
# side) and the partition "debug".  SLURM_EPILOG, when set before
# slurm_start, is the nodes' epilog.
#
# When the test ends — however it ends, a watchdog standing in when the test
# shell is killed outright — the daemons are stopped and every process left
# by the cluster is killed: the daemons and the jobs carry IOA_SLURM_ROOT
# in their environment, the daemons from their start, the jobs from
# slurm_sbatch (sbatch passes the submitter's environment on; the test
# shell itself never exports it), and job steps (slurmstepd) hold files
# under $SLURM_ROOT open.  A job submitted otherwise, or with
# --export=NONE, dies with its step.
#
# Time limits: slurmctld looks for jobs past their limit every 30 s, so a
# job with `-t 1` ends 60 to 90 s after it starts (state TIMEOUT); a job
# that ends by its time limit or by scancel gets SIGTERM, then SIGKILL
# KillWait (5) seconds later.

. "$(dirname "${BASH_SOURCE[0]}")/watchdog-lib.sh"

SLURM_TEST_CPUS=${SLURM_TEST_CPUS:-4}

# require_slurm: skips the whole test when Slurm or munge is missing.
require_slurm() {
	require_cmd slurmctld slurmd munged mungekey sbatch squeue scontrol sinfo
}

# slurm_free_port [EXCEPT]: a TCP port of 127.0.0.1 that nothing listens on
# (nor EXCEPT), from the dynamic range.
slurm_free_port() {
	local port tries
	for tries in $(seq 1 100); do
		port=$((20000 + RANDOM % 30000))
		[ "$port" != "${1:-}" ] || continue
		(: </dev/tcp/127.0.0.1/"$port") 2>/dev/null && continue
		echo "$port"
		return 0
	done
	return 1
}

# slurm_write_conf: writes $SLURM_ROOT/slurm.conf.
slurm_write_conf() {
	local ctld_port slurmd_port
	ctld_port=$(slurm_free_port) && slurmd_port=$(slurm_free_port "$ctld_port") || return 1
	cat >"$SLURM_ROOT/slurm.conf" <<EOF
# A throwaway cluster of tests/lib/slurm-lib.sh.
ClusterName=ioatlas-test
SlurmctldHost=$SLURM_NODE(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SLURM_ROOT/munge/munge.socket
StateSaveLocation=$SLURM_ROOT/state
SlurmdSpoolDir=$SLURM_ROOT/spool
SlurmctldPidFile=$SLURM_ROOT/slurmctld.pid
SlurmdPidFile=$SLURM_ROOT/slurmd.pid
SlurmctldLogFile=$SLURM_ROOT/log/slurmctld.log
SlurmdLogFile=$SLURM_ROOT/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$SLURM_ROOT/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MailProg=/bin/true
TmpFS=$SLURM_ROOT/tmp
KillWait=5
MinJobAge=600
InactiveLimit=0
NodeName=$SLURM_NODE NodeAddr=127.0.0.1 CPUs=$SLURM_TEST_CPUS State=UNKNOWN
PartitionName=debug Nodes=$SLURM_NODE Default=YES MaxTime=INFINITE State=UP
EOF
	[ -z "${SLURM_EPILOG:-}" ] || echo "Epilog=$SLURM_EPILOG" >>"$SLURM_ROOT/slurm.conf"
}

# slurm_start: starts munged, slurmctld and slurmd under $TEST_TMP/slurm and
# waits (at most 60 s) for the node to be idle; 0 when jobs can be
# submitted.  Sets SLURM_CONF (for the client commands), SLURM_ROOT, and
# SLURM_NODE (the node's name).
slurm_start() {
	local i state
	SLURM_ROOT=$TEST_TMP/slurm
	SLURM_NODE=$(hostname -s)
	mkdir -p "$SLURM_ROOT"/munge "$SLURM_ROOT"/state "$SLURM_ROOT"/spool \
		"$SLURM_ROOT"/log "$SLURM_ROOT"/tmp || return 1
	# munged wants its socket reachable by everyone, up the whole path.
	chmod 711 "$TEST_TMP" "$SLURM_ROOT" && chmod 755 "$SLURM_ROOT/munge" || return 1
	: >"$SLURM_ROOT/plugstack.conf"
	slurm_write_conf || {
		diag "slurm_start: no free port on 127.0.0.1"
		return 1
	}
	export SLURM_CONF=$SLURM_ROOT/slurm.conf
	# A batch system's variables of the test's own environment would reach the jobs.
	unset SLURM_JOB_ID SLURM_JOBID SLURM_STEP_ID SLURM_ARRAY_JOB_ID SLURM_ARRAY_TASK_ID

	run_timeout 10 mungekey --create --keyfile="$SLURM_ROOT/munge/munge.key" --bits=1024 \
		>"$SLURM_ROOT/log/mungekey.log" 2>&1 || {
		diag "slurm_start: mungekey failed:"
		sed 's/^/#   /' "$SLURM_ROOT/log/mungekey.log"
		return 1
	}
	at_exit "slurm_stop"
	IOA_SLURM_ROOT=$SLURM_ROOT munged --foreground --socket="$SLURM_ROOT/munge/munge.socket" \
		--key-file="$SLURM_ROOT/munge/munge.key" --pid-file="$SLURM_ROOT/munge/munged.pid" \
		--log-file="$SLURM_ROOT/log/munged.log" --seed-file="$SLURM_ROOT/munge/munged.seed" \
		</dev/null >>"$SLURM_ROOT/log/munged.out" 2>&1 &
	SLURM_MUNGED_PID=$!
	slurm_watchdog $$ &
	for i in $(seq 1 100); do
		[ -S "$SLURM_ROOT/munge/munge.socket" ] && break
		kill -0 "$SLURM_MUNGED_PID" 2>/dev/null || break
		sleep 0.1
	done
	[ -S "$SLURM_ROOT/munge/munge.socket" ] || {
		diag "slurm_start: munged did not start:"
		cat "$SLURM_ROOT/log/munged.out" "$SLURM_ROOT/log/munged.log" 2>/dev/null |
			sed -n '1,20p' | sed 's/^/#   /'
		return 1
	}
	IOA_SLURM_ROOT=$SLURM_ROOT slurmctld -D -c -i -f "$SLURM_CONF" </dev/null >>"$SLURM_ROOT/log/slurmctld.out" 2>&1 &
	SLURM_CTLD_PID=$!
	IOA_SLURM_ROOT=$SLURM_ROOT slurmd -D -f "$SLURM_CONF" -N "$SLURM_NODE" </dev/null \
		>>"$SLURM_ROOT/log/slurmd.out" 2>&1 &
	SLURM_SLURMD_PID=$!
	for i in $(seq 1 120); do
		state=$(run_timeout 10 sinfo -h -N -n "$SLURM_NODE" -o %T 2>/dev/null)
		[ "$state" = idle ] && return 0
		kill -0 "$SLURM_CTLD_PID" 2>/dev/null && kill -0 "$SLURM_SLURMD_PID" 2>/dev/null ||
			break
		sleep 0.5
	done
	diag "slurm_start: the node is not idle (state '$state'):"
	slurm_diag
	return 1
}

# slurm_diag: the ends of the daemons' logs, as TAP diagnostics.
slurm_diag() {
	local f
	for f in "$SLURM_ROOT"/log/*; do
		[ -s "$f" ] || continue
		diag "--- $(basename "$f"):"
		tail -n 15 "$f" | sed 's/^/#   /'
	done
}

# slurm_leftovers: the processes the cluster started: daemons and jobs by
# their environment, job steps (slurmstepd, whose environment is its own)
# by what they hold open under $SLURM_ROOT (slurmd's log, the spool).
slurm_leftovers() {
	{
		grep -zlxF "IOA_SLURM_ROOT=$SLURM_ROOT" /proc/[0-9]*/environ
		find /proc/[0-9]*/fd -maxdepth 1 -lname "$SLURM_ROOT/*"
	} 2>/dev/null | cut -d/ -f3 | sort -u
}

# slurm_stop: stops the daemons and kills whatever the cluster left running.
slurm_stop() {
	local pid i
	[ -n "${SLURM_ROOT:-}" ] || return 0
	for pid in ${SLURM_SLURMD_PID:-} ${SLURM_CTLD_PID:-} ${SLURM_MUNGED_PID:-}; do
		kill -TERM "$pid" 2>/dev/null
	done
	for i in $(seq 1 50); do
		[ -z "$(slurm_leftovers)" ] && break
		[ "$i" -eq 20 ] && kill -KILL $(slurm_leftovers) 2>/dev/null
		[ "$i" -gt 20 ] || [ "$i" -lt 10 ] || kill -TERM $(slurm_leftovers) 2>/dev/null
		sleep 0.1
	done
	kill -KILL $(slurm_leftovers) 2>/dev/null
	SLURM_ROOT=
}

# The watchdog: the cluster stops once the test shell is gone, however it went.
slurm_watchdog() {
	after_test_shell "$1" slurm_stop
}

# slurm_sbatch SBATCH_ARGUMENT...: submits a job (sbatch --parsable, with a
# timeout) and prints its id (an array's: the array job id).
slurm_sbatch() {
	local out
	out=$(IOA_SLURM_ROOT=$SLURM_ROOT run_timeout 30 sbatch --parsable "$@") || return 1
	echo "${out%%;*}"
}

# slurm_cancel JOB [SCANCEL_ARGUMENT...]: scancel, with a timeout (--signal
# =USR1 sends a signal instead; --batch to the batch script only).
slurm_cancel() {
	local job=$1
	shift
	run_timeout 10 scancel "$@" "$job"
}

# slurm_state JOB: the job's state as Slurm says it (PENDING, RUNNING,
# COMPLETED, CANCELLED, TIMEOUT, FAILED ...); one line per array task.
slurm_state() {
	run_timeout 10 squeue -h -t all -j "$1" -o %T 2>/dev/null
}

# slurm_wait JOB STATE SECONDS: waits until every task of the job is in
# STATE (an extended regex: 'COMPLETED|FAILED'), at most SECONDS; 0 when it
# is, 1 otherwise — at once when every task has ended in another state (the
# states seen are then in diagnostics).
slurm_wait() {
	local job=$1 want=$2 deadline=$((SECONDS + $3)) states
	local ended='COMPLETED|CANCELLED|FAILED|TIMEOUT|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE|OUT_OF_MEMORY'
	while :; do
		states=$(slurm_state "$job")
		if [ -n "$states" ] && ! printf '%s\n' "$states" | grep -Evqx -- "$want"; then
			return 0
		fi
		[ -n "$states" ] && ! printf '%s\n' "$states" | grep -Evqx -- "$ended" && break
		[ "$SECONDS" -lt "$deadline" ] || break
		sleep 0.5
	done
	diag "slurm_wait: job $job is not $want (within $3 s): $(echo $states)"
	return 1
}

# slurm_job_field JOB FIELD: one field of `scontrol show job` (Partition,
# Account, NodeList, JobName, ArrayJobId ...), as Slurm says it.
slurm_job_field() {
	run_timeout 10 scontrol -o show job "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1
}
