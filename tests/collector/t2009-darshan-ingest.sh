# t2009-darshan-ingest — Darshan logs land in a throwaway warehouse like
# ours: three real logs (Darshan 3.5.0's mix4 and collective4, and a
# big-endian Darshan 3.0.0 log from another site, each owned by the uid it
# records, as the collector's ownership check asks) are ingested, once
# each (again: duplicates); the job's id, ranks, command line and times
# are darshan-parser's; each module's records and their byte counts are
# darshan-parser's (every POSIX, MPI-IO and STDIO record, summed per
# module); jobs.source says where the log came from; a report is made from
# the warehouse, names the program and says what an imported job cannot
# show; a
# log that is not a Darshan log after its first bytes is quarantined with
# a reason that says so.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_pg

ingest="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-ingest"
report="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-report"
data="$IOA_SOURCE_DIR/tests/data/darshan"
export IOATLAS_CONF=/dev/null
export PGTZ=UTC

logs=(mix4 collective4 releases/mpi-io-test-ppc64-3.0.0)
plan $((${#logs[@]} * 6 + 6))
pg_warehouse
q() { psql -X -t -A -U ioatlas -F '|' -c "$1"; }
cd "$TEST_TMP" || exit 1
chmod 711 "$TEST_TMP"

paths=()
for name in "${logs[@]}"; do
	base=$(basename "$name")
	cp "$data/$name.darshan" "$base.darshan"
	chown "$(sed -n 's/^# uid: //p' "$data/$name.parser.txt")" "$base.darshan"
	paths+=("$TEST_TMP/$base.darshan")
done
ok "the logs are ingested" run_timeout 120 "$ingest" "${paths[@]}"
is "$(q "SELECT status, count(*) FROM ingest_ledger GROUP BY 1")" "ingested|${#logs[@]}" \
	"every one of them"

for name in "${logs[@]}"; do
	base=$(basename "$name")
	ref="$data/$name.parser.txt"
	job=$(q "SELECT job FROM ingest_ledger WHERE path = '$TEST_TMP/$base.darshan'")
	start=$(sed -n 's/^# start_time: //p' "$ref")
	is "$(q "SELECT job_id, nprocs, replace(encode(args, 'escape'), '\000', ' '), extract(epoch FROM date_trunc('second', start_time))::bigint
		FROM jobs WHERE id = $job")" \
		"$(sed -n 's/^# jobid: //p' "$ref")|$(sed -n 's/^# nprocs: //p' "$ref")|$(sed -n 's/^# exe: //p' "$ref")|$start" \
		"$base: job id, ranks, command line and start as darshan-parser's"
	# Records and bytes per module, from darshan-parser's lines.
	expected=$(awk -F '\t' '$1 ~ /^(POSIX|MPI-IO|STDIO)$/ && $4 ~ /_OPENS$|_INDEP_OPENS$/ && !seen[$1 $2 $3]++ { n[$1]++ }
		$4 ~ /^(POSIX|MPIIO|STDIO)_BYTES_READ$/ { r[$1] += $5 }
		$4 ~ /^(POSIX|MPIIO|STDIO)_BYTES_WRITTEN$/ { w[$1] += $5 }
		END { for (m in n) print m "|" n[m] "|" r[m] + 0 "|" w[m] + 0 }' "$ref" | LC_ALL=C sort)
	is "$(q "SELECT m.name, count(*), sum(r.bytes_read), sum(r.bytes_written) FROM records r
		JOIN modules m ON m.id = r.module WHERE r.job = $job GROUP BY 1" | LC_ALL=C sort)" \
		"$expected" "$base: records and bytes per module as darshan-parser's"
	is "$(q "SELECT source FROM jobs WHERE id = $job" | sed -n 's/^\(tool\|format\)=//p' | tr '\n' ' ')" \
		"darshan $(sed -n 's/^# darshan log version: //p' "$ref") " "$base: the job says it came from Darshan, and its format"
	ok "$base: a report from the warehouse" "$report" "$job" -o "$base.html"
	like "$(grep -o '<h1>[^<]*</h1>' "$base.html")" \
		"$(sed -n 's/^# exe: \([^ ]*\).*/\1/p' "$ref")" "$base: the report names the program"
	like "$(cat "$base.html")" "Imported from a Darshan log \\(format $(sed -n 's/^# darshan log version: //p' "$ref")[^)]*\\): it has no time bins" \
		"$base: and says what an imported job cannot show"
done

ok "the same logs again" run_timeout 120 "$ingest" "${paths[@]}"
is "$(q "SELECT count(*) FROM jobs")" "${#logs[@]}" "are not ingested twice"

# A log that starts like a Darshan log and breaks after: quarantined, with the reader's word.
head -c 1400 "$data/mix4.darshan" >broken.darshan
ok "a broken Darshan log is refused" sh -c "! '$ingest' '$TEST_TMP/broken.darshan'"
like "$(q "SELECT error FROM ingest_ledger WHERE path = '$TEST_TMP/broken.darshan'")" \
	"Darshan log: .*(outside the file|truncated)" "quarantined, and the reason names the Darshan log's fault"
