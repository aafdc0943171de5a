# t5004-partial — reports of partial logs (job key 31: recovered from a
# killed job; crafted by tests/common/craft-log), ingested into a throwaway
# warehouse: `ioatlas report` opens the page with one plain sentence on how
# the job ended and what its ranks left, the same from the warehouse and
# straight from the log, and --json carries its fields; a hostile key
# (markup, quotes, control bytes, 2^70, bytes that are not UTF-8) is
# escaped like any name, the page stays valid UTF-8 with only its own
# script (and opens in headless Chromium with no console message when
# there is one); a complete job's report says nothing of it; the
# dashboard marks the partial jobs in its list and counts them.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_pg
require_cmd python3
require_cmd iconv

craft="$IOA_BUILD_DIR/tests/common/craft-log"
tools="$IOA_BUILD_DIR/libexec/ioatlas"
chromium=$(command -v chromium || true)
cd "$TEST_TMP" || exit 1
chmod 711 "$TEST_TMP"

plan 37
ok "a throwaway cluster starts" pg_start
export IOATLAS_CONF=/dev/null
ok "the warehouse is migrated" "$tools/ioatlas-warehouse" migrate
q() { psql -X -t -A -U ioatlas -c "$1"; }

# signal: 2020-06-01 06:01:00 to 10:00:00 UTC, the ranks recorded until 09:59:30
# (far from today: the dashboard's periods count only the others).
printf 'how=signal\nsignal=15\nreason=TIMEOUT\nranks=0-127\nmissing=128-255\nuntil_first_ns=1591005570000000000\nuntil_last_ns=1591005570000000000\n' \
	>signal.txt
printf 'how=killed\nranks=0-3\nmissing=4-7\n' >killed.txt
{
	printf 'how=signal\nsignal=1180591620717411303424\nabort_code=1180591620717411303424\n'
	printf 'reason=<script>alert(1)</script> "q'"'"'uote & \377\376\355\240\200 \033[2J\r\000x\n'
	printf 'ranks=0-3,<img src=x onerror=alert(2)>\nmissing=1180591620717411303424\n'
	printf 'until_last_ns=1180591620717411303424\ngarbage\n\n<script>=x\n'
} >hostile.txt
ok "four crafted logs: signal, killed, hostile, complete" sh -c "
	'$craft' good signal.ioa --partial signal.txt --start 1590991260000000000 --end 1591005600000000000 &&
	'$craft' good killed.ioa --partial killed.txt &&
	'$craft' good hostile.ioa --partial hostile.txt &&
	'$craft' good complete.ioa"
ok "they are ingested" run_timeout 120 "$tools/ioatlas-ingest" "$TEST_TMP/signal.ioa" \
	"$TEST_TMP/killed.ioa" "$TEST_TMP/hostile.ioa" "$TEST_TMP/complete.ioa"
job_of() { q "SELECT job FROM ingest_ledger WHERE path = '$TEST_TMP/$1'"; }
signal_job=$(job_of signal.ioa)
killed_job=$(job_of killed.ioa)
hostile_job=$(job_of hostile.ioa)
complete_job=$(job_of complete.ioa)
like "$signal_job $killed_job $hostile_job $complete_job" '^[0-9]+ [0-9]+ [0-9]+ [0-9]+$' \
	"each is a job of the warehouse"

# banner PAGE: the partial sentence at the top of a page, as the page has it.
banner() { sed -n 's|^<p class="banner partial">\(.*\)</p>$|\1|p' "$1"; }
# json FILE EXPR: a Python expression over the JSON (j), strictly parsed.
json() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]), parse_constant=lambda c: sys.exit("not JSON: " + c))
print(eval(sys.argv[2]))' "$@"
}

# --- killed by SIGTERM at the time limit
sentence="Partial log: the job was killed by signal 15 (SIGTERM) — the scheduler says TIMEOUT (its time limit) — after 3 h 59 m; ranks 0–127 recorded until 2020-06-01 09:59:30 UTC (3 h 58 m after the start); ranks 128–255 left nothing."
ok "a report from the warehouse" "$tools/ioatlas-report" "$signal_job" -o signal-wh.html
is "$(banner signal-wh.html)" "$sentence" "it opens with the sentence: signal, reason, run time, ranks, until when"
is "$(grep -n 'banner partial' signal-wh.html | cut -d: -f1)" "$(($(grep -n '^<h1>' signal-wh.html | cut -d: -f1) + 1))" \
	"right under the title"
ok "a report straight from the log, without a database" \
	env IOATLAS_WAREHOUSE_CONNINFO="host=$TEST_TMP/nowhere" "$tools/ioatlas-report" signal.ioa -o signal-log.html
is "$(banner signal-log.html)" "$sentence" "with the same sentence"
like "$(cat signal-wh.html)" "<li>the job did not end normally: its log was recovered" \
	"and the incomplete-view banner says why the counters stop early"
ok "--json from the warehouse" "$tools/ioatlas-report" "$signal_job" --json -o signal-wh.json
ok "--json from the log" env IOATLAS_WAREHOUSE_CONNINFO="host=$TEST_TMP/nowhere" \
	"$tools/ioatlas-report" signal.ioa --json -o signal-log.json
fields='"|".join(str(j["job"]["partial"][k]) for k in ("how", "signal", "signal_name", "reason", "ranks", "missing", "until_first", "until_last"))'
is "$(json signal-wh.json "$fields")" \
	"signal|15|SIGTERM|TIMEOUT|0-127|128-255|2020-06-01 09:59:30 UTC|2020-06-01 09:59:30 UTC" \
	"the model holds the fields"
is "$(json signal-wh.json 'type(j["job"]["partial"]["signal"]).__name__')" int "the signal a number"
is "$(json signal-log.json "$fields")" "$(json signal-wh.json "$fields")" \
	"the same from the log"
is "$(json signal-wh.json 'j["job"]["partial"]["sentence"]')" "$sentence" "and the sentence the page shows"

# --- killed without a word
killed="Partial log: the job was killed without warning (SIGKILL, out of memory or a crash) after 1 m; ranks 0–3 recorded; ranks 4–7 left nothing."
ok "the killed job's report" "$tools/ioatlas-report" "$killed_job" -o killed.html
is "$(banner killed.html)" "$killed" "says it was killed without warning"

# --- hostile
hostile="Partial log: the job was killed by a signal — the scheduler says &lt;script&gt;alert(1)&lt;/script&gt; &quot;q&#39;uote &amp; \\xff\\xfe\\xed\\xa0\\x80 \\x1b[2J\\x0d\\x00x — after 1 m."
ok "the hostile job's report from the warehouse" "$tools/ioatlas-report" "$hostile_job" -o hostile-wh.html
ok "and from its log" env IOATLAS_WAREHOUSE_CONNINFO="host=$TEST_TMP/nowhere" \
	"$tools/ioatlas-report" hostile.ioa -o hostile-log.html
is "$(banner hostile-wh.html)" "$hostile" "the reason escaped, the malformed fields left out"
is "$(banner hostile-log.html)" "$hostile" "the same from the log"
is "$(cat hostile-wh.html hostile-log.html | grep -c '<script')" 2 "each page holds no script but its own"
is "$(cat hostile-wh.html hostile-log.html | grep -c '<img')" 0 "and no image"
ok "the pages are valid UTF-8" sh -c "iconv -f UTF-8 -t UTF-8 hostile-wh.html hostile-log.html >/dev/null"
ok "--json of the hostile job" "$tools/ioatlas-report" "$hostile_job" --json -o hostile.json
is "$(json hostile.json 'sorted(j["job"]["partial"])')" "['how', 'reason', 'sentence']" \
	"is strict JSON, with only the well-formed fields"
if [ -n "$chromium" ]; then
	run_timeout 120 "$chromium" --headless=new --no-sandbox --disable-gpu \
		--user-data-dir="$TEST_TMP/chromium" --host-resolver-rules="MAP * ~NOTFOUND" \
		--enable-logging=stderr --v=0 --window-size=1280,2000 \
		--screenshot="$TEST_TMP/hostile.png" "file://$TEST_TMP/hostile-wh.html" >/dev/null 2>"$TEST_TMP/console"
	is "$(grep CONSOLE "$TEST_TMP/console")" "" "the page opens in Chromium with no console message (no script of the key ran)"
else
	skip "no chromium (Debian's chromium package)" "the page opens in Chromium with no console message"
fi

# --- a complete job
ok "the complete job's report" "$tools/ioatlas-report" "$complete_job" -o complete.html
is "$(grep -c 'partial log\|Partial log\|banner partial' complete.html)" 0 "says nothing of partial logs"

# --- the dashboard
ok "the dashboard is written" "$tools/ioatlas-dashboard" --out "$TEST_TMP/www"
index=$(cat "$TEST_TMP/www/index.html")
tag='<span class="tag" title="partial log: recovered from a killed job">partial</span>'
like "$index" ">$killed_job</a>$tag</td>" "the killed job is marked partial in the jobs list"
like "$index" ">$hostile_job</a>$tag</td>" "so is the hostile one"
like "$index" ">$complete_job</a></td>" "the complete one is not"
like "$index" '<tr><td>partial: log recovered from a killed job</td><td class="n">2</td></tr>' \
	"coverage counts the partial jobs of the period"
is "$(grep -c "<script" "$TEST_TMP/www/index.html")" 0 "the page holds no script at all"
done_testing
