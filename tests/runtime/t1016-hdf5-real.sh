# t1016-hdf5-real — a real parallel HDF5 program, written by nobody here,
# under the runtime: h5py's MPI-IO driver (Debian's python3-h5py-mpi, on
# Open MPI with mpi4py) creates a file on 2 ranks, each rank writes its slice
# of one dataset collectively (tests/workloads/h5py-mpio.py).  Run without
# and with the preload, the job has the same status, output, file contents
# and system calls on the file; the one log it leaves holds MPI-IO writes of
# at least the bytes the ranks asked for, and POSIX counters equal to what
# strace -f saw the job write to the file (ground truth, not our output).
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_cmd mpiexec.openmpi
require_cmd strace
require_cmd h5dump
python=/usr/bin/python3
[ -x "$python" ] && H5PY_ALWAYS_USE_MPI=1 "$python" -c \
	'import sys, h5py; sys.exit(not h5py.get_config().mpi)' 2>/dev/null ||
	skip_all "no h5py with MPI for $python (python3-h5py-mpi)"

plan 13

work="$TEST_TMP/work"
mkdir -p "$work"
prog="$IOA_SOURCE_DIR/tests/workloads/h5py-mpio.py"
n=65536

# job NAME PRELOAD: the 2-rank job writing $work/NAME.h5, each rank under
# strace -ff (one trace file per process, so no call is split), with
# LD_PRELOAD=PRELOAD given to the traced program only.
job() {
	local name=$1 preload=$2
	mkdir -p "$TEST_TMP/$name.strace"
	ompi_run 2 120 -x IOATLAS_LOGDIR="$logs" \
		strace -ff -yy -s 0 -e trace=write,pwrite64,writev,pwritev,pwritev2 \
		-o "$TEST_TMP/$name.strace/trace" -E LD_PRELOAD="$preload" \
		"$python" "$prog" "$work/$name.h5" "$n" >"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err"
}

# traced NAME: "calls bytes" the job's processes wrote to $work/NAME.h5, by strace.
traced() {
	cat "$TEST_TMP/$1.strace"/trace.* |
		awk -v f="<$work/$1.h5>" 'index($0, f) && $NF ~ /^[0-9]+$/ { c++; b += $NF }
			END { printf "%d %d\n", c, b }'
}

# summed LOG MODULE FILE COUNTER: the counter over all of FILE's records.
summed() {
	"$IOA_CMD" parse "$1" | awk -F '\t' -v m="$2" -v f="$3" -v c="$4" \
		'$1 == m && $6 == f && $4 == c { n += $5 } END { print n + 0 }'
}

# The values, not the file's name (h5dump prints it first).
dump() { h5dump -d x "$work/$1.h5" | sed 1d; }

logs=$(ioa_logdir)
job plain ""
is "$?" 0 "h5py on 2 Open MPI ranks runs without the runtime" || diag "$(cat "$TEST_TMP/plain.err")"
plain_logs=$(ioa_logs "$logs")
logs=$(ioa_logdir)
job preloaded "$(ioa_preload_list "$IOA_RUNTIME_SO")"
is "$?" 0 "and under it, with the same status" || diag "$(cat "$TEST_TMP/preloaded.err")"
is "$(sort "$TEST_TMP/preloaded.out")" "$(sort "$TEST_TMP/plain.out")" "its output is the same"
is "$(wc -l <"$TEST_TMP/preloaded.out")" 2 "both ranks said what they wrote"
is "$plain_logs" "" "without the preload, no log"

like "$(h5dump -H "$work/preloaded.h5")" "SIMPLE \{ \( $((2 * n)) \) / \( $((2 * n)) \) \}" \
	"the file holds the dataset, 2 ranks' slices long"
ok "with the values the job writes without the runtime" \
	cmp <(dump preloaded) <(dump plain)
truth=$(traced preloaded)
is "$truth" "$(traced plain)" "and the same writes to the file, by strace"

log=$(ioa_only_log "$logs")
ok "the job leaves one log" test -n "$log"
h5="$work/preloaded.h5"
coll=$(summed "$log" MPI-IO "$h5" MPIIO_COLL_WRITES)
indep=$(summed "$log" MPI-IO "$h5" MPIIO_INDEP_WRITES)
diag "MPI-IO writes of the file: $coll collective, $indep independent; by strace: $truth (calls bytes)"
ok "its MPI-IO writes of the file are counted" test "$((coll + indep))" -gt 0
asked=$(awk '{ for (i = 3; i < NF; i += 2) if ($i == "dataset_bytes") b += $(i + 1) }
	END { print b + 0 }' "$TEST_TMP/preloaded.out")
mpiio_bytes=$(summed "$log" MPI-IO "$h5" MPIIO_BYTES_WRITTEN)
ok "MPI-IO bytes written ($mpiio_bytes) are at least the dataset's bytes the ranks wrote ($asked)" \
	test "$asked" -gt 0 -a "$mpiio_bytes" -ge "$asked"
is "$(summed "$log" POSIX "$h5" POSIX_BYTES_WRITTEN)" "${truth#* }" \
	"POSIX bytes written to the file are what strace saw"
is "$(summed "$log" POSIX "$h5" POSIX_WRITES)" "${truth% *}" \
	"and so are its POSIX writes"

done_testing
