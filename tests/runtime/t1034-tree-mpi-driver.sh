# t1034-tree-mpi-driver — a Python driver that runs a 2-rank MPI job with
# mpiexec through subprocess: the ranks leave the tree at MPI_Init and
# write the MPI job's log at MPI_Finalize; the driver's tree (Python,
# mpiexec, its proxy) has a log of its own with the driver's I/O.  Neither
# holds the other's data: no MPI-IO record in the tree's log, no record of
# the driver's file in the job's.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd /usr/bin/python3
# Sanitizer builds: LeakSanitizer, preloaded with the runtime, would report
# the Python interpreter's own allocations at exit (and cannot run under
# strace); the runtime's are checked by the shell and cat in t1031-t1033.
case ",${IOA_SANITIZE:-}," in
*,address,*) export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" ;;
esac

plan 10

work="$TEST_TMP/work"
mkdir -p "$work"
cat >"$TEST_TMP/driver.py" <<'PY'
import subprocess, sys
mpiexec, workload, work = sys.argv[1:4]
with open(work + "/driver-out", "w") as f:
    f.write("starting\n" * 100)
subprocess.run([mpiexec, "-n", "2", workload, "shared", work], check=True, timeout=120)
PY
preload="LD_PRELOAD=$(ioa_preload_list "$IOA_RUNTIME_SO")"
job() { "$IOA_CMD" parse "$1" | sed -n "s/^# $2: //p"; }

logs=$(ioa_logdir)
ok "the driver and its MPI job run unchanged" run_timeout 150 env IOATLAS_NONMPI=1 \
	IOATLAS_LOGDIR="$logs" "$preload" /usr/bin/python3 "$TEST_TMP/driver.py" "$IOA_MPIEXEC" \
	"$IOA_BUILD_DIR/tests/workloads/mpi-io" "$work"
is "$(ioa_logs "$logs" | wc -l)" 2 "two logs: the MPI job's and the driver tree's"
mpi_log=$(ioa_logs "$logs" | grep '_mpi-io_')
tree_log=$(ioa_logs "$logs" | grep '_python')
ok "one is the MPI job's" test -n "$mpi_log"
ok "one is the driver's tree's" test -n "$tree_log"
is "$(job "$mpi_log" nprocs)" 2 "the MPI job's log holds its 2 ranks"
is "$(ioa_counter "$mpi_log" MPI-IO -1 "$work/shared.dat" MPIIO_COLL_OPENS)" 2 \
	"with its MPI-IO records, combined over the ranks"
is "$("$IOA_CMD" parse "$tree_log" | awk -F '\t' '$1 == "MPI-IO"' | wc -l)" 0 \
	"the tree's log has no MPI-IO record"
is "$("$IOA_CMD" parse "$tree_log" | grep -c "	$work/[a-z-]*shared.dat\$")" 0 \
	"nor any record of the ranks' files"
is "$(ioa_counter "$tree_log" POSIX 0 "$work/driver-out" POSIX_BYTES_WRITTEN)" 900 \
	"the driver's own I/O is in the tree's log"
is "$("$IOA_CMD" parse "$mpi_log" | grep -c "	$work/driver-out\$")" 0 \
	"and not in the MPI job's"
