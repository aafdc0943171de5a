# t4003-romio-below — what ROMIO does below the MPI-IO calls, found and
# named (4 MPICH ranks, tests/workloads/mpi-io-romio.c, strace -f as the
# truth of the system calls):
#  - independent strided writes with data sieving: the insights name the
#    write amplification, with the bytes MPI-IO was asked to write (the
#    program's 4 x 256 KiB) and the bytes POSIX wrote and read back (as
#    strace saw them);
#  - collective writes with cb_nodes=4 on one host: ROMIO puts one
#    aggregator per host, so the aggregation analysis finds one (the one
#    rank strace saw writing) and says the hint was not honoured; with
#    cb_nodes=1, that it was.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd strace

prog="$IOA_BUILD_DIR/tests/workloads/mpi-io-romio"
plan 12

# run NAME ARGS...: the job under the runtime and strace; its report as JSON.
run() {
	local name=$1 logs
	shift
	logs=$(ioa_logdir)
	mkdir -p "$TEST_TMP/$name.st"
	# LeakSanitizer cannot run under ptrace: in sanitizer builds these jobs
	# leave leaks to the others (AddressSanitizer still checks them).
	ioa_mpi_preload "$logs" 4 120 -genv IOA_ST "$TEST_TMP/$name.st" \
		${IOA_SANITIZE:+-genv ASAN_OPTIONS "${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"} \
		sh -c 'exec strace -f -y -qq -e trace=pwrite64,pread64,write,read -o "$IOA_ST/rank.$PMI_RANK" "$@"' \
		sh "$prog" "$@" >"$TEST_TMP/$name.out" 2>&1
	is "$?" 0 "$name: the job runs under the runtime and strace" || diag "$(cat "$TEST_TMP/$name.out")"
	"$IOA_CMD" report "$(ioa_only_log "$logs")" --json -o "$TEST_TMP/$name.json"
}

# finding FILE ANALYSIS CODE KEY: a value of a finding's evidence (or its text: KEY "text").
finding() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for a in d["analyses"]:
    if a.get("analysis") == sys.argv[2]:
        for f in a.get("result", a)["findings"]:
            if f["code"] == sys.argv[3]:
                v = f["text"] if sys.argv[4] == "text" else f["evidence"][sys.argv[4]]
                print(int(v) if isinstance(v, float) and v == int(v) else v)' "$@"
}

# strace_bytes DIR FILE CALL: the bytes the ranks' CALL calls on FILE returned.
strace_bytes() {
	cat "$1"/rank.* | awk -v f="<$2>" -v c="$3(" 'index($2, c) == 1 && index($0, f) {
		n = $NF; if (n ~ /^[0-9]+$/) s += n } END { print s + 0 }'
}

# --- data sieving
run sieve sieve "$TEST_TMP/sieve.dat"
is "$(finding "$TEST_TMP/sieve.json" insights write_amplification mpiio_bytes_written)" 1048576 \
	"sieve: the insight counts the 4 x 256 KiB MPI-IO was asked to write"
written=$(strace_bytes "$TEST_TMP/sieve.st" "$TEST_TMP/sieve.dat" pwrite64)
is "$(finding "$TEST_TMP/sieve.json" insights write_amplification posix_bytes_written)" "$written" \
	"sieve: and the $written bytes POSIX wrote, as strace saw them"
read_back=$(strace_bytes "$TEST_TMP/sieve.st" "$TEST_TMP/sieve.dat" pread64)
is "$(finding "$TEST_TMP/sieve.json" insights write_amplification posix_bytes_read)" "$read_back" \
	"sieve: and the $read_back bytes read back first"
like "$(finding "$TEST_TMP/sieve.json" insights write_amplification text)" \
	'^[0-9.]+x write amplification: .*read-modify-write' "sieve: said as read-modify-write"

# --- cb_nodes
# The ranks strace saw writing to FILE.
writers() {
	local k n=0
	for k in 0 1 2 3; do
		grep -q "^[0-9]* *pwrite64([0-9]*<$2>" "$1/rank.$k" && n=$((n + 1))
	done
	echo "$n"
}
run cb4 cb_nodes "$TEST_TMP/cb4.dat" 4
is "$(finding "$TEST_TMP/cb4.json" aggregation aggregation aggregator_count)" \
	"$(writers "$TEST_TMP/cb4.st" "$TEST_TMP/cb4.dat")" "cb_nodes=4: the aggregators strace saw writing"
is "$(finding "$TEST_TMP/cb4.json" aggregation aggregation matches_hints)" False \
	"cb_nodes=4: one host, one aggregator: the hint was not honoured"
like "$(finding "$TEST_TMP/cb4.json" aggregation aggregation text)" 'not as the hints ask$' \
	"cb_nodes=4: and the finding says so"
run cb1 cb_nodes "$TEST_TMP/cb1.dat" 1
is "$(finding "$TEST_TMP/cb1.json" aggregation aggregation aggregator_count)" 1 "cb_nodes=1: one aggregator"
is "$(finding "$TEST_TMP/cb1.json" aggregation aggregation matches_hints)" True \
	"cb_nodes=1: as the hints ask"
