# t0015-darshan-hostile — hostile Darshan logs (tests/common/craft-darshan.py)
# cost what they hold, not what they claim, and say what is wrong with them
# (found by a review with sanitizers and mutation fuzzing):
#   - a job region that inflates to 64 MiB is refused at Darshan's 4096
#     bytes, at once;
#   - a start time past 2^63 ns is refused, not wrapped;
#   - a record of rank 2^31 - 1 is summed by --perf in little memory;
#   - 50,000 DXT file records with a host each are read in bounded time;
#   - an anonymized export keeps neither the job id, nor a name, nor the
#     id of a record that no name stands for (a hash of one);
#   - Lustre records whose component, stripe or OST counts claim more than
#     the record holds (2^62 components, 2^62 stripes, a component with
#     more stripes than its record, a version 1 record 2^60 OSTs wide)
#     are refused, each with a message that says so.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_cmd python3

craft="$IOA_SOURCE_DIR/tests/common/craft-darshan.py"
parse="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-parse"
trace="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-trace"
export_cmd="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-export"
export IOATLAS_CONF=/dev/null
cd "$TEST_TMP" || exit 1

plan $((12 + 4))

ok "the hostile logs are crafted" sh -c "python3 '$craft' job-bomb bomb.darshan &&
	python3 '$craft' bad-time time.darshan && python3 '$craft' big-rank rank.darshan &&
	python3 '$craft' dxt-hosts 50000 hosts.darshan && python3 '$craft' unnamed unnamed.darshan"

ok "a job region of 64 MiB is refused within 10 s" sh -c "! timeout 10 '$parse' bomb.darshan"
like "$("$parse" bomb.darshan 2>&1)" "the job region inflates past Darshan's 4096 bytes" "and says so"
like "$("$parse" time.darshan 2>&1)" "a start or end time out of range" \
	"a start time past 2^63 ns is refused, and said"
# Peak memory of a command, in KiB (getrusage: a sanitizer build cannot run under ulimit -v).
peak_kib() {
	python3 -c 'import resource, subprocess, sys
out = open(sys.argv[1], "w")
rc = subprocess.run(sys.argv[2:], stdout=out, timeout=60).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if rc == 0 else -1)' "$@"
}
kib=$(peak_kib rank.txt "$parse" --all rank.darshan)
ok "a record of rank 2^31 - 1: --all within 512 MiB (${kib} KiB)" \
	test "${kib:--1}" -ge 0 -a "${kib:--1}" -lt 524288
like "$(cat rank.txt)" "# unique files: slowest_rank: 2147483647" "with that rank the slowest"
ok "50,000 DXT hosts read within 30 s" sh -c "timeout 30 '$trace' hosts.darshan >hosts.txt"
is "$(grep -vc '^#' hosts.txt)" 50000 "every segment listed"
is "$(grep -v '^#' hosts.txt | cut -f3 | sort -u | wc -l)" 50000 "each with its host"

head -c 32 /dev/urandom >key
chmod 600 key
ok "an anonymized export of a record without a name" \
	"$export_cmd" --darshan --anonymize --key-file key unnamed.darshan -o anon.darshan
"$parse" anon.darshan >anon.txt
# Field by field: a keyed id or token may hold any digits, "987654" among them.
is "$(awk -F '\t' '/secret-project/ || $3 == "244837814094590" || $0 == "# jobid: 987654"' \
	anon.txt | wc -l)" 0 "keeps no name, no unnamed record's id and no job id"
is "$(awk -F '\t' '$1 == "POSIX" && $4 == "POSIX_OPENS"' anon.txt | wc -l)" 2 "and both records"

python3 "$craft" lustre-lies lustre.darshan
for i in 0 1 2 3; do
	like "$(timeout 10 "$parse" "lustre.darshan.$i" 2>&1)" \
		"cannot read log .*LUSTRE (region: a record cut short|record with 5 stripes in a component)" \
		"Lustre record $i claiming more than it holds is refused, and said"
done
