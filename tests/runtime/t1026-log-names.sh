# t1026-log-names — every job step and process gets a log of its own: four
# processes of the same program with the same batch job id, started in the
# same second, on hosts that share a pid (each in a pid namespace of its
# own, where it is pid 1), leave four logs; so do four MPI jobs of one rank.
# Logs are published by an exclusive create: never a rename over a log.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"

ops="$IOA_BUILD_DIR/tests/runtime/harm-ops"
work="$TEST_TMP/work"
mkdir -p "$work"

plan 10

# Waits for the start of the next second, so that what follows starts in it.
next_second() {
	local ns
	ns=$(date +%N)
	sleep "$(awk -v ns="$ns" 'BEGIN { printf "%.3f", (1e9 - ns) / 1e9 + 0.05 }')"
}

# Namespaces need root; as another user the processes simply differ in pid.
pidns() {
	if [ "$(id -u)" = 0 ] && unshare --pid --fork --mount-proc true 2>/dev/null; then
		unshare --pid --fork --mount-proc "$@"
	else
		"$@"
	fi
}

logs=$(ioa_logdir)
next_second
for i in 1 2 3 4; do
	SLURM_JOB_ID=4242 pidns env IOATLAS_LOGDIR="$logs" IOATLAS_NONMPI=1 \
		LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" "$ops" sleep "$work" 300 &
done
wait
is "$(ioa_logs "$logs" | wc -l)" 4 "4 processes, same job id, same second, same pid: 4 logs"
is "$(find "$logs" -name '*.part' | wc -l)" 0 "and no .part file is left"
starts=$(for log in $(ioa_logs "$logs"); do basename "$log"; done |
	sed -n 's/^.*_4242_\([0-9]*\)-.*$/\1/p' | sort -u | wc -l)
is "$starts" 1 "(they started in the same second)"
like "$(ioa_logs "$logs" | head -n 1)" "/[^/]+_harm-ops_4242_[0-9]+-[A-Za-z0-9._-]+-[0-9]+(-[0-9]+)?\\.ioa\$" \
	"named <user>_<exe>_<job>_<start>-<host>-<pid>[-<n>].ioa"

# Job steps, array tasks, and other schedulers' ids are part of the name.
logs=$(ioa_logdir)
SLURM_JOB_ID=77 SLURM_STEP_ID=3 SLURM_ARRAY_JOB_ID=70 SLURM_ARRAY_TASK_ID=5 \
	ioa_preload "$logs" "$ops" sleep "$work" 0
LSB_JOBID=88 LSB_JOBINDEX=2 ioa_preload "$logs" "$ops" sleep "$work" 0
names=$(for log in $(ioa_logs "$logs"); do basename "$log"; done)
like "$names" "_harm-ops_77\\.3\\.a5_" "Slurm: job, step and array task in the name"
like "$names" "_harm-ops_88\\.a2_" "LSF: job and array index in the name"

# An existing log is never replaced: in a pid namespace the process is pid
# 1, so its name is known ahead; logs planted under it for the next seconds
# stay as they were, and the process takes the next free name.
logs=$(ioa_logdir)
if [ "$(id -u)" = 0 ] && unshare --pid --fork --mount-proc true 2>/dev/null; then
	host=$(hostname | cut -d. -f1 | tr -c 'A-Za-z0-9._\n-' '_')
	now=$(date +%s)
	day="$logs/$(date -u +%Y/%m/%d)"
	mkdir -p "$day"
	for t in $(seq "$now" $((now + 5))); do
		echo planted >"$day/$(id -un)_harm-ops_99_$t-$host-1.ioa"
	done
	SLURM_JOB_ID=99 pidns env IOATLAS_LOGDIR="$logs" IOATLAS_NONMPI=1 \
		LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" "$ops" sleep "$work" 0
	is "$(cat "$day"/*_99_*-1.ioa | grep -c '^planted$')" 6 "logs already there are never replaced"
	is "$(ioa_logs "$logs" | wc -l)" 7 "and the new log takes the next free name"
else
	skip "needs root for a pid namespace" "logs already there are never replaced"
	skip "needs root for a pid namespace" "and the new log takes the next free name"
fi

if [ -z "${IOA_MPIEXEC:-}" ]; then
	skip "this build has no MPI" "4 MPI jobs, same job id and second: 4 logs"
	skip "this build has no MPI" "and no .part file is left"
else
	logs=$(ioa_logdir)
	mpi="$IOA_BUILD_DIR/tests/workloads/mpi-io"
	mkdir -p "$work/mpi-1" "$work/mpi-2" "$work/mpi-3" "$work/mpi-4"
	next_second
	for i in 1 2 3 4; do
		SLURM_JOB_ID=4343 pidns env IOATLAS_LOGDIR="$logs" \
			"$IOA_MPIEXEC" -n 1 -genv LD_PRELOAD "$(ioa_preload_list "$IOA_RUNTIME_SO")" \
			-genv IOATLAS_LOGDIR "$logs" "$mpi" fpp "$work/mpi-$i" >/dev/null 2>&1 &
	done
	wait
	is "$(ioa_logs "$logs" | wc -l)" 4 "4 MPI jobs of one rank, same job id and second: 4 logs"
	is "$(find "$logs" -name '*.part' | wc -l)" 0 "and no .part file is left"
fi

done_testing
