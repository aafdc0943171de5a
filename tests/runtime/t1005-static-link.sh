# t1005-static-link — programs linked statically against libioatlas.a with
# the flags of `ioatlas-config --ld-flags` (no LD_PRELOAD) are instrumented
# as preloaded ones are: the same exact counters, and an MPI job's log.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi

config="$IOA_BUILD_DIR/bin/ioatlas-config"
src="$IOA_SOURCE_DIR/tests/workloads"
work="$TEST_TMP/work"
mkdir -p "$work"

plan 10

flags=$("$config" --ld-flags)
# A sanitizer build's libioatlas.a needs the sanitizers at link time too.
san_flags=${IOA_SANITIZE:+-fsanitize=$IOA_SANITIZE}
like "$flags" '-Wl,--wrap=open,' "ioatlas-config prints the --wrap flags"
ok "a POSIX program links against libioatlas.a" \
	"$IOA_CC" $san_flags -o "$TEST_TMP/ops" "$src/posix-ops.c" $flags
ok "the static program does not load libioatlas.so" \
	sh -c "! ldd '$TEST_TMP/ops' | grep -q libioatlas"

logs=$(ioa_logdir)
ok "it runs unchanged" env IOATLAS_LOGDIR="$logs" IOATLAS_NONMPI=1 "$TEST_TMP/ops" basic "$work"
log=$(ioa_only_log "$logs")
c() { ioa_counter "$log" POSIX 0 "$work/data" "$1"; }
is "$(c POSIX_WRITES):$(c POSIX_BYTES_WRITTEN):$(c POSIX_OVERWRITE_BYTES)" 11:10100:100 \
	"and its writes are counted exactly, as under LD_PRELOAD"
is "$(c POSIX_READS):$(c POSIX_BYTES_READ):$(c POSIX_STRIDE1_STRIDE)" 5:2010:1500 \
	"and its reads"

ok "an MPI program links against libioatlas.a with mpicc" \
	mpicc.mpich $san_flags -o "$TEST_TMP/mpi-io" "$src/mpi-io.c" $flags
logs=$(ioa_logdir)
IOATLAS_LOGDIR="$logs" mpi_run 4 120 "$TEST_TMP/mpi-io" shared "$work"
is "$?" 0 "the 4-rank job runs unchanged"
log=$(ioa_only_log "$logs")
is "$(ioa_counter "$log" MPI-IO -1 "$work/shared.dat" MPIIO_COLL_WRITES)" 4 \
	"its MPI-IO calls are counted through the profiling interface"
is "$(ioa_counter "$log" POSIX -1 "$work/posix-shared.dat" POSIX_BYTES_WRITTEN)" 16384 \
	"and its own POSIX calls through --wrap"

done_testing
