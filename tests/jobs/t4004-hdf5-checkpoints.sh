# t4004-hdf5-checkpoints — the checkpoints of a VPIC-IO-shaped parallel
# HDF5 writer (tests/workloads/h5-vpic.py: h5py's MPI-IO driver on Open
# MPI, 4 ranks, 3 steps of 8 particle datasets, 2 s of compute between)
# are found with the operation trace on: three, each of the bytes the
# program asked HDF5 to write plus HDF5's own metadata (under 1% more),
# constant, not AMR.  With the trace off the time bins (16 over the run)
# may be too coarse to tell the steps apart: the analyses then find the
# same, or say that they cannot, never something else.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd mpiexec.openmpi
python=/usr/bin/python3
[ -x "$python" ] && H5PY_ALWAYS_USE_MPI=1 "$python" -c 'import h5py, mpi4py, sys; sys.exit(not h5py.get_config().mpi)' \
	2>/dev/null || skip_all "no h5py with MPI for $python (python3-h5py-mpi)"

plan 9

# run NAME TRACE: the job under the runtime; its report as JSON in NAME.json.
run() {
	local logs
	logs=$(ioa_logdir)
	mkdir -p "$TEST_TMP/$1"
	ioa_ompi_preload "$logs" 4 180 -x IOATLAS_TRACE="$2" "$python" \
		"$IOA_SOURCE_DIR/tests/workloads/h5-vpic.py" "$TEST_TMP/$1/vpic" 3 32768 2 \
		>"$TEST_TMP/$1.out" 2>"$TEST_TMP/$1.err"
	is "$?" 0 "$1: the HDF5 writer runs on 4 Open MPI ranks under the runtime" ||
		diag "$(cat "$TEST_TMP/$1.err")"
	"$IOA_CMD" report "$(ioa_only_log "$logs")" --json -o "$TEST_TMP/$1.json"
}

# result NAME ANALYSIS EXPR: a Python expression over the analysis's result r (ioa_result).
result() { ioa_result "$TEST_TMP/$1.json" "$2" "$3"; }

run traced 1
asked=$(awk '$1 == "steps" { print $6 }' "$TEST_TMP/traced.out")
is "$asked" 4194304 "traced: the program asked for 8 datasets x 4 ranks x 32768 floats a step"
is "$(result traced checkpoints 'r["checkpoints"]')" 3 "traced: three checkpoints"
is "$(result traced checkpoints \
	"all($asked <= p['bytes'] < $asked * 1.01 for p in r['phases'] if p['checkpoint'])")" True \
	"traced: each of the datasets' bytes and HDF5's metadata"
is "$(result traced checkpoints '[sorted(p["files"]) for p in r["phases"] if p["checkpoint"]]')" \
	"[['$TEST_TMP/traced/vpic.0.h5'], ['$TEST_TMP/traced/vpic.1.h5'], ['$TEST_TMP/traced/vpic.2.h5']]" \
	"traced: each step's file in its own checkpoint"
is "$(result traced amr 'r["classification"]')" not_amr "traced: not AMR"

run untraced 0
is "$(result untraced checkpoints \
	"r['checkpoints'] == 3 and all($asked <= p['bytes'] < $asked * 1.01 for p in r['phases'] if p['checkpoint']) or 'coarse_time_bins' in codes")" \
	True "untraced: the same checkpoints, or the bins said too coarse to tell" ||
	diag "$(result untraced checkpoints "[(p['start'], p['end'], p['bytes'], p['checkpoint']) for p in r['phases']], codes")"
is "$(result untraced amr "r['classification'] == 'not_amr' or 'coarse_time_bins' in codes")" True \
	"untraced: not AMR, or too coarse to tell" ||
	diag "$(result untraced amr "r['classification'], r['sizes'], codes")"
