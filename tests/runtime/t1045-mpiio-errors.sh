# t1045-mpiio-errors — failed MPI-IO calls are named by the MPI error class
# MPI returned, on MPICH and on Open MPI, whose numbers for the classes
# differ (MPI_ERR_NO_SUCH_FILE: 37 and 42).  tests/workloads/mpi-io-errors.c
# makes four calls fail on each rank (an open of a missing file, of a
# folder for writing, with a forbidden amode, a write to a file opened
# read-only) and prints the class of each as its own mpi.h names it; the
# log's failure table (`ioatlas parse`), its trace (`ioatlas trace`) and the
# job's report (the failed-call findings) must name the same classes, never
# an errno (the MPI class numbers used to be printed as errno: 37 as ENOLCK).
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd mpicc.mpich
require_cmd mpicc.openmpi
require_cmd mpiexec.openmpi
require_cmd python3

plan 14

# check FAMILY: the program built with FAMILY's mpicc, 2 ranks under the runtime (7 checks).
check() {
	local family=$1 prog logs work out log said parsed
	prog="$TEST_TMP/errors-$family"
	logs=$(ioa_logdir)
	work=$(mktemp -d "$TEST_TMP/work.XXXXXX")
	"mpicc.$family" -o "$prog" "$IOA_SOURCE_DIR/tests/workloads/mpi-io-errors.c" || {
		fails "$family: the program builds"
		return
	}
	if [ "$family" = openmpi ]; then
		out=$(ioa_ompi_preload "$logs" 2 120 "$prog" "$work" 2>"$TEST_TMP/$family.err")
	else
		out=$(ioa_mpi_preload "$logs" 2 120 "$prog" "$work" 2>"$TEST_TMP/$family.err")
	fi
	is "$?" 0 "$family: four calls failed on each rank, and the job ends well" ||
		diag "$(cat "$TEST_TMP/$family.err")"
	# "rank call class", as the program's MPI said.
	said=$(awk '$1 == "failed" { print $2, $3, $4 }' <<<"$out" | sort)
	unlike "$said" "unlisted" "$family: every class the program got has a standard name"
	is "$(wc -l <<<"$said")" 8 "$family: the program saw 8 failures"
	log=$(ioa_only_log "$logs")
	parsed=$("$IOA_CMD" parse "$log")
	is "$(awk -F '\t' '$1 == "FAILED" && $2 == "MPI-IO" { print $3, $5, $6, $7 }' <<<"$parsed" | sort)" \
		"$(sed 's/$/ 1/' <<<"$said")" \
		"$family: ioatlas parse names each failed MPI-IO call by the class MPI returned"
	# The trace, in call order per rank: "rank call class".
	is "$(for r in 0 1; do
		"$IOA_CMD" trace --expand --rank "$r" "$log" |
			awk -v r="$r" '$3 == "MPI-IO" && / error=/ {
				call = $4; sub(/.* error=/, ""); print r, call, $0 }'
	done | sort)" "$said" "$family: ioatlas trace names them the same"
	is "$(awk -F '\t' '$1 == "FAILED" && $2 == "MPI-IO" && $6 ~ /^E[A-Z0-9]+$/' <<<"$parsed")" "" \
		"$family: no MPI-IO failure reads as an errno"
	# The report's failed-call findings: per call and class, the failures over the ranks.
	is "$("$IOA_CMD" report "$log" --json -o - | python3 -c '
import json, sys
for f in json.load(sys.stdin)["findings"]:
    e = f["evidence"]
    if f["code"] == "failed_calls" and "mpi_error_class" in e:
        print(e["op"], e["mpi_error_class"], e["count"], e["ranks"])' | sort)" \
		"$(awk '{ print $2, $3 }' <<<"$said" | sort | uniq -c | awk '{ print $2, $3, $1, $1 }')" \
		"$family: the report's failed-call findings name the classes, with their counts"
}

check mpich
check openmpi
