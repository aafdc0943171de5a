# t2007-partial — partial logs (job key 31: recovered from a killed job;
# crafted by tests/common/craft-log) in a throwaway warehouse: the
# collector fills jobs.partial and the partial_* columns from the key, with
# each value as the log says it; a complete log stays partial = false with
# the rest NULL; a hostile key (markup, control bytes, 2^70, bytes that are
# not UTF-8 nor text PostgreSQL takes, NUL, garbage lines) never fails the
# ingest of its otherwise good log: its malformed fields are NULL, the job
# still partial, its reason kept in display form.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_pg

craft="$IOA_BUILD_DIR/tests/common/craft-log"
ingest="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-ingest"
export IOATLAS_CONF=/dev/null
export PGTZ=UTC

plan 14
pg_warehouse
q() { psql -X -t -A -U ioatlas -F '|' -c "$1"; }
cd "$TEST_TMP" || exit 1

# 2026-11-28 06:01:00 UTC to 10:00:02 UTC; the ranks recorded until 10:00:01.
start=1795845660000000000
end=1795860002000000000
printf 'how=signal\nsignal=15\nreason=TIMEOUT\nranks=0-127\nmissing=128-255\nuntil_first_ns=1795859990250000000\nuntil_last_ns=1795860001000000000\n' \
	>signal.txt
printf 'how=abort\nabort_code=-7\nranks=0,2-3\n' >abort.txt
{
	printf 'how=signal\nsignal=1180591620717411303424\nabort_code=1180591620717411303424\n'
	printf 'reason=<script>alert(1)</script>\377\376\355\240\200\364\220\200\200\033[2J\r\000x\n'
	printf 'ranks=0-3,<b>\nmissing=-1\nuntil_first_ns=1180591620717411303424\n'
	printf 'until_last_ns=12\ngarbage\n\n<script>=x\n\377\376=\355\240\200\n'
} >hostile.txt
ok "four crafted logs: signal, abort, hostile, complete" sh -c "
	'$craft' good signal.ioa --partial signal.txt --start $start --end $end &&
	'$craft' good abort.ioa --partial abort.txt --start $start --end $end &&
	'$craft' good hostile.ioa --partial hostile.txt --start $start --end $end &&
	'$craft' good complete.ioa --start $start --end $end"
ok "they are ingested" run_timeout 120 "$ingest" "$TEST_TMP/signal.ioa" "$TEST_TMP/abort.ioa" \
	"$TEST_TMP/hostile.ioa" "$TEST_TMP/complete.ioa"
is "$(q "SELECT status, count(*) FROM ingest_ledger GROUP BY 1")" "ingested|4" \
	"every one of them, none quarantined"

# columns LOG: the job's partial columns, as psql prints them.
columns() {
	q "SELECT j.partial, j.partial_how, j.partial_signal, j.partial_abort_code, j.partial_reason,
		j.partial_ranks, j.partial_missing, j.partial_until_first, j.partial_until_last
		FROM jobs j JOIN ingest_ledger l ON l.job = j.id WHERE l.path = '$TEST_TMP/$1'"
}
is "$(columns signal.ioa)" \
	"t|signal|15||TIMEOUT|0-127|128-255|2026-11-28 09:59:50.25+00|2026-11-28 10:00:01+00" \
	"killed by SIGTERM at its time limit: every column filled"
is "$(columns abort.ioa)" "t|abort||-7||0,2-3|||" "MPI_Abort: its code, the ranks, NULL for what the log does not say"
is "$(columns complete.ioa)" "f||||||||" "a complete log: partial false, the rest NULL"
is "$(columns hostile.ioa)" \
	't|signal|||<script>alert(1)</script>\xff\xfe\xed\xa0\x80\xf4\x90\x80\x80\x1b[2J\x0d\x00x||||' \
	"a hostile key: partial, its malformed fields NULL, its reason in display form"
is "$(q "SELECT count(*) FROM jobs WHERE partial_reason IS NOT NULL AND partial_reason !~ '^[[:print:]]*$'")" 0 \
	"no control byte stored"
is "$(q "SELECT count(*) FROM records r JOIN ingest_ledger l ON l.job = r.job WHERE l.path = '$TEST_TMP/hostile.ioa'")" 1 \
	"the hostile log's records are in, as any good log's"
is "$(q "SELECT partial, count(*) FROM job_overview GROUP BY 1 ORDER BY 1")" "f|1
t|3" "job_overview says which jobs are partial"
is "$(q "SELECT count(*) FROM jobs WHERE partial AND partial_how = 'signal' AND partial_reason = 'TIMEOUT'")" 1 \
	"a site can count the jobs killed at their time limit"
ok "a second pass over them changes nothing" run_timeout 60 "$ingest" "$TEST_TMP/signal.ioa" "$TEST_TMP/hostile.ioa"
done_testing
