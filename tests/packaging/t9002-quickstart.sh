# t9002-quickstart — the README's quick start works from a checkout: it
# builds and installs ioatlas into its own var/ directory, runs the sample
# MPI programs under `module load ioatlas`, and shows their logs.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_mpi

var="$TEST_TMP/var"

plan 6

IOATLAS_VAR="$var" run_timeout 900 "$IOA_SOURCE_DIR/packaging/quickstart" >"$TEST_TMP/out" 2>&1
is "$?" 0 "packaging/quickstart succeeds"
out=$(cat "$TEST_TMP/out")
like "$out" '^==> \[5/5\] done$' "it shows its progress to the last step"
logs=$(find "$var/logs" -name '*.ioa' | wc -l)
is "$logs" 2 "the two sample jobs left one log each"
like "$out" "	POSIX	-1	4	0	16384	$var/work/posix-shared.dat$" \
	"it prints the shared file the sample wrote from 4 ranks"
like "$out" "^  MPI-IO File_write_at_all $var/work/shared.dat offset=" \
	"it prints the trace of the sample job, MPI-IO calls and all"
like "$out" "^Read one: +$var/prefix/bin/ioatlas parse $var/logs/" "and says where to look next"

done_testing
