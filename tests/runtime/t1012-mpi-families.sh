# t1012-mpi-families — one libioatlas.so serves both MPI ABI families: a
# 2-rank mpi4py job on Open MPI and the same job in C built with
# mpicc.openmpi and with mpicc.mpich (and a Fortran MPI-IO program on Open
# MPI, through its profiling interface) run under the preload with the output
# and exit status they have without it, and their MPI-IO counters are what
# the programs say they did; with IOATLAS_DISABLE=1 an Open MPI job runs
# untouched and leaves no log; and programs without MPI (/bin/true,
# python3 -c) run as ever on a machine with both MPIs, the library linking
# neither; a program on an MPI the runtime does not know meets that MPI
# itself, and one that calls an MPI symbol before loading its MPI gets that
# MPI for its later calls.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd mpiexec.openmpi
require_cmd mpicc.openmpi
require_cmd mpicc.mpich
# Debian's python3-mpi4py is built with Open MPI, for the system's python3.
python=/usr/bin/python3
[ -x "$python" ] && "$python" -c 'import mpi4py' 2>/dev/null ||
	skip_all "no mpi4py for $python (python3-mpi4py)"

work="$TEST_TMP/work"
mkdir -p "$work"
src="$IOA_SOURCE_DIR/tests/workloads"

plan 34

# The counters a job's ranks say they moved, summed: "coll_opens 2 coll_writes 2 ...".
said() {
	awk '{ for (i = 3; i < NF; i += 2) if ($i != "first") sum[$i] += $(i + 1) }
		END { printf "coll_opens %d coll_writes %d bytes_written %d indep_reads %d bytes_read %d",
			sum["coll_opens"], sum["coll_writes"], sum["bytes_written"],
			sum["indep_reads"], sum["bytes_read"] }' "$1"
}

# What the log holds of FILE, in the same words.
counted() {
	local log=$1 file=$2
	c() { ioa_counter "$log" MPI-IO -1 "$file" "$1"; }
	printf "coll_opens %s coll_writes %s bytes_written %s indep_reads %s bytes_read %s" \
		"$(c MPIIO_COLL_OPENS)" "$(c MPIIO_COLL_WRITES)" "$(c MPIIO_BYTES_WRITTEN)" \
		"$(c MPIIO_INDEP_READS)" "$(c MPIIO_BYTES_READ)"
}

# check NAME RUNNER COMMAND...: the job without and with the runtime (5 checks).
check() {
	local name=$1 runner=$2 plain preloaded logs log
	shift 2
	plain=$TEST_TMP/$name.plain
	preloaded=$TEST_TMP/$name.preloaded
	"$runner" 2 120 "$@" "$work/$name-plain.dat" >"$plain.out" 2>"$plain.err"
	echo "$?" >"$plain.rc"
	logs=$(ioa_logdir)
	if [ "$runner" = ompi_run ]; then
		ioa_ompi_preload "$logs" 2 120 "$@" "$work/$name.dat" >"$preloaded.out" 2>"$preloaded.err"
	else
		ioa_mpi_preload "$logs" 2 120 "$@" "$work/$name.dat" >"$preloaded.out" 2>"$preloaded.err"
	fi
	echo "$?" >"$preloaded.rc"
	is "$(cat "$plain.rc")" 0 "$name: the job runs without the runtime" ||
		diag "$(cat "$plain.err")"
	is "$(cat "$preloaded.rc")" 0 "$name: and under it, with the same status" ||
		diag "$(cat "$preloaded.err")"
	is "$(sort "$preloaded.out")" "$(sort "$plain.out")" "$name: its output is the same"
	is "$(wc -l <"$preloaded.out")" 2 "$name: both ranks reported what they did"
	log=$(ioa_only_log "$logs")
	is "$(counted "$log" "$work/$name.dat")" "$(said "$preloaded.out")" \
		"$name: the MPI-IO counters are the program's own numbers"
}

check mpi4py ompi_run "$python" "$src/mpi-io-abi.py"

ok "the C job builds with mpicc.openmpi" \
	mpicc.openmpi -o "$TEST_TMP/abi-openmpi" "$src/mpi-io-abi.c"
check openmpi ompi_run "$TEST_TMP/abi-openmpi"

ok "and with mpicc.mpich" mpicc.mpich -o "$TEST_TMP/abi-mpich" "$src/mpi-io-abi.c"
check mpich mpi_run "$TEST_TMP/abi-mpich"

# Open MPI's Fortran bindings enter through the profiling interface, as MPICH's do (t1008).
if command -v mpif90.openmpi >/dev/null; then
	ok "a Fortran MPI-IO program builds with mpif90.openmpi" \
		mpif90.openmpi -o "$TEST_TMP/fortran" "$src/mpi-io-fortran.f90"
	logs=$(ioa_logdir)
	mkdir -p "$work/fortran"
	ok "and runs on 2 Open MPI ranks under the runtime" \
		ioa_ompi_preload "$logs" 2 120 "$TEST_TMP/fortran" "$work/fortran"
	log=$(ioa_only_log "$logs")
	f() { ioa_counter "$log" MPI-IO -1 "$work/fortran/fortran.dat" "$1"; }
	is "$(f MPIIO_COLL_OPENS):$(f MPIIO_COLL_WRITES):$(f MPIIO_BYTES_WRITTEN)" 2:2:8192 \
		"its MPI-IO calls are counted exactly"
else
	for i in 1 2 3; do skip "no mpif90.openmpi (libopenmpi-dev, gfortran)" "Open MPI's Fortran bindings"; done
fi

# Switched off, the Open MPI job meets MPI itself behind every MPI symbol.
logs=$(ioa_logdir)
IOATLAS_DISABLE=1 ioa_ompi_preload "$logs" 2 120 -x IOATLAS_DISABLE=1 \
	"$TEST_TMP/abi-openmpi" "$work/off.dat" >"$TEST_TMP/off.out" 2>"$TEST_TMP/off.err"
is "$?" 0 "IOATLAS_DISABLE=1: an Open MPI job runs" || diag "$(cat "$TEST_TMP/off.err")"
is "$(sed 's/^rank [0-9]*: //' "$TEST_TMP/off.out" | sort -u)" \
	"coll_opens 1 coll_writes 1 bytes_written 4096 indep_reads 1 bytes_read 4096 first $(
		printf A)"$'\n'"coll_opens 1 coll_writes 1 bytes_written 4096 indep_reads 1 bytes_read 4096 first B" \
	"and does what it does without the runtime"
is "$(ioa_logs "$logs")" "" "and leaves no log"

# An MPI the runtime does not know: its calls reach it as they were made.
acme="$TEST_TMP/acme"
mkdir -p "$acme"
ok "an unknown MPI library and a program using it build" \
	sh -c 'cc -shared -fPIC -o "$1/libacme-mpi.so" "$2" &&
		cc -DACME_PROGRAM -o "$1/acme" "$2" -L"$1" -lacme-mpi -Wl,-rpath,"$1"' \
	sh "$acme" "$src/acme-mpi.c"
(cd "$acme" && ./acme x y >plain.out 2>&1)
(cd "$acme" && IOATLAS_DEBUG=1 ioa_preload "$(ioa_logdir)" ./acme x y >preloaded.out 2>preloaded.err)
is "$?:$(cat "$acme/preloaded.out")" "0:$(cat "$acme/plain.out")" \
	"its calls, arguments and results are the program's, under the preload"
like "$(cat "$acme/preloaded.err")" "mpi=unsupported: Acme MPI 1\.0\)" \
	"and the runtime says why it records no MPI (IOATLAS_DEBUG=1)"
acme_logs=$(ioa_logdir)
(cd "$acme" && IOATLAS_NONMPI=0 ioa_preload "$acme_logs" ./acme x y >/dev/null 2>&1)
acme_log=$(ioa_only_log "$acme_logs")
ok "not opted in to non-MPI logs, the process still leaves a log" test -n "$acme_log"
like "$("$IOA_CMD" parse "$acme_log" 2>&1 | grep '^# mpi:')" '^# mpi: unsupported: Acme MPI 1\.0$' \
	"which says why it holds no MPI-IO data"

# A call through the runtime's MPI symbols before any MPI is loaded binds
# nothing: the MPI loaded later gets the calls made after.
ok "a program probing for MPI before loading it builds" \
	cc -DACME_PROBE -o "$acme/probe" "$src/acme-mpi.c" -ldl
is "$(ioa_preload "$(ioa_logdir)" "$acme/probe" "$acme/libacme-mpi.so" 2>&1)" \
	"probe: before MPI, failed"$'\n'"acme: finalize"$'\n'"probe: with MPI, returned 1" \
	"its call before MPI fails; after MPI is loaded, the call reaches it"

# Programs without MPI, on a machine with both MPIs installed.
out=$(LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" /bin/true 2>&1)
is "$?:$out" "0:" "/bin/true runs under the preload, silent"
out=$(LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" "$python" -c 'print(6 * 7)' 2>&1)
is "$?:$out" "0:42" "python3 -c runs under the preload"
is "$(readelf -d "$IOA_RUNTIME_SO" | grep NEEDED | grep -ci mpi)" 0 \
	"libioatlas.so needs no MPI library"
is "$(nm -D --undefined-only "$IOA_RUNTIME_SO" | grep -ci -e mpi -e ompi)" 0 \
	"and refers to no MPI symbol: every MPI is found at run time"

done_testing
