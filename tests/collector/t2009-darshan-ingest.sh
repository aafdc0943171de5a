# t2009-darshan-ingest — Darshan logs land in a throwaway warehouse like
# ours: four real logs (Darshan 3.5.0's mix4 and collective4, a
# big-endian Darshan 3.0.0 log from another site, a Darshan 3.4.7 log with
# a Lustre layout) and one crafted with HDF5, PnetCDF and Lustre records
# (t0016; its reference darshan-parser's, from the Darshan build in
# shared/tools), each owned by the uid it records, as the collector's
# ownership check asks, are ingested, once
# each (again: duplicates); the job's id, ranks, command line and times
# are darshan-parser's; each module's records and their byte counts are
# darshan-parser's (every record of every module, summed per module; bytes
# not recorded, -1, count as none); the job's bytes are those of POSIX and
# STDIO only; jobs.source says where the log came from; a report is made from
# the warehouse, names the program and says what an imported job cannot
# show; a
# log that is not a Darshan log after its first bytes is quarantined with
# a reason that says so.  `ioatlas export --darshan JOB_ID` writes each
# job of the warehouse (and one the runtime recorded) as exporting its log
# file does, by darshan-parser's word: job lines, mounts and every counter
# of every record; a job that is not there is an error that says so.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg

ingest="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-ingest"
report="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-report"
export_cmd="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-export"
data="$IOA_SOURCE_DIR/tests/data/darshan"
export IOATLAS_CONF=/dev/null
export PGTZ=UTC

tools=${IOATLAS_DARSHAN_TOOLS:-$IOA_SOURCE_DIR/../shared/tools}/darshan-3.5.0-debian12-mpich.tar.gz
[ -r "$tools" ] || skip_all "no Darshan build to check against ($tools)"
require_cmd python3

logs=(mix4 collective4 releases/mpi-io-test-ppc64-3.0.0 releases/mpi-io-test-x86_64-3.4.7 layers)
plan $((${#logs[@]} * 8 + 6 + 7))
pg_warehouse
q() { psql -X -t -A -U ioatlas -F '|' -c "$1"; }
cd "$TEST_TMP" || exit 1
chmod 711 "$TEST_TMP"

# The crafted log and darshan-parser's word on it, as the real ones have theirs.
mkdir crafted
tar -xzf "$tools" -C crafted
python3 "$IOA_SOURCE_DIR/tests/common/craft-darshan.py" layers new little crafted/layers.darshan
LD_LIBRARY_PATH=crafted/darshan-3.5.0/lib crafted/darshan-3.5.0/bin/darshan-parser \
	crafted/layers.darshan >crafted/layers.parser.txt

paths=()
for name in "${logs[@]}"; do
	base=$(basename "$name")
	src=$data
	[ "$name" = layers ] && src=crafted
	cp "$src/$name.darshan" "$base.darshan"
	chown "$(sed -n 's/^# uid: //p' "$src/$name.parser.txt")" "$base.darshan"
	paths+=("$TEST_TMP/$base.darshan")
done
ok "the logs are ingested" run_timeout 120 "$ingest" "${paths[@]}"
is "$(q "SELECT status, count(*) FROM ingest_ledger GROUP BY 1")" "ingested|${#logs[@]}" \
	"every one of them"

for name in "${logs[@]}"; do
	base=$(basename "$name")
	ref="$data/$name.parser.txt"
	[ "$name" = layers ] && ref=crafted/layers.parser.txt
	job=$(q "SELECT job FROM ingest_ledger WHERE path = '$TEST_TMP/$base.darshan'")
	start=$(sed -n 's/^# start_time: //p' "$ref")
	is "$(q "SELECT job_id, nprocs, replace(encode(args, 'escape'), '\000', ' '), extract(epoch FROM date_trunc('second', start_time))::bigint
		FROM jobs WHERE id = $job")" \
		"$(sed -n 's/^# jobid: //p' "$ref")|$(sed -n 's/^# nprocs: //p' "$ref")|$(sed -n 's/^# exe: //p' "$ref")|$start" \
		"$base: job id, ranks, command line and start as darshan-parser's"
	# Records and bytes per module, from darshan-parser's lines.
	expected=$(awk -F '\t' '$0 !~ /^#/ && NF >= 8 && $1 ~ /^[A-Z0-9_-]+$/ &&
		$4 ~ /_OPENS$|_INDEP_OPENS$|^LUSTRE_NUM_COMPONENTS$/ && !seen[$1 $2 $3]++ { n[$1]++ }
		$0 !~ /^#/ && $4 ~ /^[A-Z0-9_]+_BYTES_READ$/ && $5 > 0 { r[$1] += $5 }
		$0 !~ /^#/ && $4 ~ /^[A-Z0-9_]+_BYTES_WRITTEN$/ && $5 > 0 { w[$1] += $5 }
		END { for (m in n) printf "%s|%d|%.0f|%.0f\n", m, n[m], r[m], w[m] }' "$ref" | LC_ALL=C sort)
	is "$(q "SELECT m.name, count(*), sum(r.bytes_read), sum(r.bytes_written) FROM records r
		JOIN modules m ON m.id = r.module WHERE r.job = $job GROUP BY 1" | LC_ALL=C sort)" \
		"$expected" "$base: records and bytes per module as darshan-parser's ($(echo "$expected" | cut -d '|' -f 1 | tr '\n' ' '))"
	is "$(q "SELECT bytes_read, bytes_written FROM jobs WHERE id = $job")" \
		"$(awk -F '\t' '$0 !~ /^#/ && $4 ~ /^(POSIX|STDIO)_BYTES_READ$/ && $5 > 0 { r += $5 }
			$0 !~ /^#/ && $4 ~ /^(POSIX|STDIO)_BYTES_WRITTEN$/ && $5 > 0 { w += $5 }
			END { printf "%.0f|%.0f\n", r, w }' "$ref")" \
		"$base: the job's bytes are its POSIX and STDIO bytes"
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

# A job of the warehouse exported as its log file exports, as darshan-parser reads both.
dparser() { LD_LIBRARY_PATH=crafted/darshan-3.5.0/lib crafted/darshan-3.5.0/bin/darshan-parser "$@"; }
# exported FILE: darshan-parser's job lines, mounts and records of an export
# (in whatever order: the warehouse keeps no order of records or mounts).
exported() {
	dparser "$1" | grep -E $'^# (exe|uid|jobid|nprocs|start_time|end_time|mount entry):|^[A-Z0-9_-]+\t-?[0-9]+\t[0-9]+\t' |
		LC_ALL=C sort
}
same_export() { # NAME JOB LOG
	"$export_cmd" --darshan -o "job-$1.darshan" "$2" && "$export_cmd" --darshan -o "log-$1.darshan" "$3" &&
		exported "job-$1.darshan" >job.txt && exported "log-$1.darshan" >log.txt
	is "$(diff job.txt log.txt | head -n 4)" "" \
		"$1: export of job $2 from the warehouse is its log's ($(wc -l <log.txt) lines of darshan-parser's)"
}
for name in "${logs[@]}"; do
	base=$(basename "$name")
	same_export "$base" "$(q "SELECT job FROM ingest_ledger WHERE path = '$TEST_TMP/$base.darshan'")" "$base.darshan"
done
mkdir ours
ok "a program runs under the runtime" ioa_preload "$TEST_TMP/ours" sh -c 'echo data >out.txt && cat out.txt >/dev/null'
ours=$(ioa_only_log "$TEST_TMP/ours")
ok "its log is ingested" run_timeout 120 "$ingest" "$ours"
same_export ours "$(q "SELECT job FROM ingest_ledger WHERE path = '$ours'")" "$ours"
ok "with no -o, job-ID.darshan" sh -c "'$export_cmd' --darshan $(q "SELECT max(id) FROM jobs") && test -s job-$(q "SELECT max(id) FROM jobs").darshan"
like "$("$export_cmd" --darshan 999999 2>&1)" "no job 999999 in the warehouse" "a job that is not there is said to be missing"
