# t4002-layer-time — a job's I/O time counts every layer: an IOR-shaped
# collective MPI-IO job (tests/workloads/mpi-io-bw.c, 4 ranks, on MPICH and
# on Open MPI) spends nearly all its I/O time inside MPI-IO calls, which the
# program measures itself.  The report's MPI-IO time, its I/O time over all
# layers (MPI-IO covering the POSIX calls it made, not added to them) and
# the insights' I/O time agree with the program's own sum within 10%, and
# `parse --perf` gives the MPI-IO bandwidth the program measured, as IOR
# measures it, within 10%.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd mpiexec.openmpi
require_cmd mpicc.openmpi

plan 12

# within A B SHARE: |A - B| <= SHARE x B.
within() { awk -v a="$1" -v b="$2" -v s="$3" 'BEGIN { exit !(b > 0 && (a - b) <= s * b && (b - a) <= s * b) }'; }

# run NAME RUNNER PROGRAM: the job under the runtime, its log against its output.
run() {
	local name=$1 runner=$2 program=$3 logs log out json inside bw perf
	logs=$(ioa_logdir)
	out=$TEST_TMP/$name.out
	"$runner" "$logs" 4 180 "$program" "$TEST_TMP/$name.dat" 32 >"$out" 2>"$TEST_TMP/$name.err"
	is "$?" 0 "$name: 4 ranks write and read 128 MiB collectively under the runtime" ||
		diag "$(cat "$TEST_TMP/$name.err")"
	log=$(ioa_only_log "$logs")
	# The program's own: seconds inside MPI-IO calls over all ranks, and IOR's
	# bandwidth of the two phases together (the same bytes each way).
	inside=$(awk '$3 == "mpiio_seconds" { s += $4 } END { print s }' "$out")
	bw=$(awk '$1 == "write_mib_s" { print 2 / (1 / $2 + 1 / $4) }' "$out")
	json=$TEST_TMP/$name.json
	"$IOA_CMD" report "$log" --json -o "$json"
	got() {
		python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
t = d["time"]
ins = [a for a in d["analyses"] if a.get("analysis") == "insights"][0]
ins = ins.get("result", ins)
print({"mpiio": t["mpiio"], "union": t["read"] + t["write"] + t["metadata"],
       "posix": t["posix"], "insights": ins["io_time"]}[sys.argv[2]])' "$json" "$1"
	}
	ok "$name: the report's MPI-IO time is the program's ($(got mpiio) s against $inside s)" \
		within "$(got mpiio)" "$inside" 0.1
	ok "$name: its I/O time over all layers too, POSIX's $(got posix) s inside it ($(got union) s)" \
		within "$(got union)" "$inside" 0.1
	ok "$name: and the insights' I/O time ($(got insights) s)" \
		within "$(got insights)" "$inside" 0.1
	perf=$("$IOA_CMD" parse --perf "$log" |
		awk '/^# MPI-IO module data/ { m = 1 } m && /^# agg_perf_by_slowest:/ { print $3; exit }')
	ok "$name: parse --perf gives the MPI-IO bandwidth the program measured (${perf:-none} MiB/s against $bw)" \
		within "${perf:-0}" "$bw" 0.1
}

run mpich ioa_mpi_preload "$IOA_BUILD_DIR/tests/workloads/mpi-io-bw"
ok "the job builds with mpicc.openmpi" \
	mpicc.openmpi -o "$TEST_TMP/mpi-io-bw-openmpi" "$IOA_SOURCE_DIR/tests/workloads/mpi-io-bw.c"
run openmpi ioa_ompi_preload "$TEST_TMP/mpi-io-bw-openmpi"
is "$(ioa_logs "$TEST_TMP" | wc -l)" 2 "one log per job"
