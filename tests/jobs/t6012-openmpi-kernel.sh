# t6012-openmpi-kernel — a kernel of an Open MPI job, built and validated on
# Open MPI (validate --mpiexec mpiexec.openmpi: mpicc.openmpi, Open MPI's
# -x for the runtime's variables): tests/workloads/mpi-io-abi.c built with
# mpicc.openmpi, 2 ranks (a collective open, a Write_at_all and a Read_at
# each, a close) under the runtime.  Open MPI's MPI-IO tests locking inside
# MPI_File_open on files it names after the job's (FILE.locktest.RANK): the
# kernel's MPI_File_open makes them after its own names, and validation
# pairs them with the job's.  Every counter of every layer is the job's.
# The what-if replay runs on Open MPI too.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd mpiexec.openmpi
require_cmd mpicc.openmpi

kernel="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-kernel"
export IOATLAS_CONF=/dev/null
runtime=$(ioa_preload_list "$IOA_RUNTIME_SO")
# Open MPI leaks by design at exit: the sanitizer build's leak check stays off in its
# processes (the kernel's ranks inherit this from mpiexec.openmpi).
[ -z "${IOA_SANITIZE:-}" ] || export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

ok "the job is built with mpicc.openmpi" \
	mpicc.openmpi -o "$TEST_TMP/abi" "$IOA_SOURCE_DIR/tests/workloads/mpi-io-abi.c"
logs=$(ioa_logdir)
mkdir -p "$TEST_TMP/data"
ok "and runs on Open MPI under the runtime" \
	ioa_ompi_preload "$logs" 2 120 "$TEST_TMP/abi" "$TEST_TMP/data/abi.dat"
log=$(ioa_only_log "$logs")
like "$("$IOA_BUILD_DIR/bin/ioatlas" trace "$log")" 'abi\.dat\.locktest\.0 .*\[sub,create\]' \
	"Open MPI's MPI_File_open made its lock-test file, as a sub-call"
ok "its kernel is generated" "$kernel" gen "$log" -o "$TEST_TMP/k"
ok "built with mpicc.openmpi, run by mpiexec.openmpi and validated" \
	run_timeout 300 "$kernel" validate "$TEST_TMP/k" "$log" --runtime "$runtime" \
	--mpiexec mpiexec.openmpi
out=$(cat "$TEST_TMP/last.out")
like "$out" "building .* with [^ ]*mpicc\\.openmpi" "the kernel is built for Open MPI"
like "$out" "counters compared: identical" "every counter the job's"
unlike "$out" "no record in the kernel's log" "the lock-test files paired with the job's"
like "$out" "MPI-IO +4 +4 +16384 +16384" "MPI-IO: the job's 4 calls and 16 KiB, the kernel's the same"
ok "what-if on Open MPI" run_timeout 300 "$kernel" what-if "$TEST_TMP/k" --mpiexec mpiexec.openmpi \
	--hint cb_nodes=1 --runs 1 --mode fast
like "$(cat "$TEST_TMP/last.out")" "--hint cb_nodes=1 +[0-9.]+" "times the kernel with the hint"
done_testing
