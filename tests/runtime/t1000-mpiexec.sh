# t1000-mpiexec — the harness runs real MPI programs: a 4-rank job under
# MPICH's mpiexec (oversubscribed on a small machine) completes with every
# rank talking to its neighbours, and mpi_run stops a job that hangs.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_mpi

ring="$IOA_BUILD_DIR/tests/workloads/mpi-ring"

plan 6

mpi_run 4 120 "$ring" 5 >"$TEST_TMP/ring.out" 2>&1
is "$?" 0 "a 4-rank job runs to completion"
out=$(cat "$TEST_TMP/ring.out")
is "$(grep -c '^rank [0-3] of 4$' "$TEST_TMP/ring.out")" 4 "all four ranks report"
like "$out" '^ranks=4 rounds=5 token=20 ranksum=6$' \
	"the token went around the ring five times and the allreduce summed all ranks"

mpi_run 2 60 "$ring" zero >"$TEST_TMP/bad.out" 2>&1
is "$?" 2 "a workload refuses a bad argument with status 2"
is "$(grep -c "^mpi-ring: invalid round count 'zero'" "$TEST_TMP/bad.out")" 1 \
	"and says why, once for the job"

start=$(date +%s)
mpi_run 2 3 sleep 60 >/dev/null 2>&1
status=$?
elapsed=$(($(date +%s) - start))
ok "a hanging job is stopped by its timeout (status $status after ${elapsed}s)" \
	test "$status" -eq 124 -a "$elapsed" -lt 30

done_testing
