# t5001-report — `ioatlas report` for real MPI jobs, from the warehouse and
# straight from a log: the page opens in headless Chromium with no console
# message and no network request (its own Content-Security-Policy would
# report one), screenshots are kept as artifacts, a job whose file names
# are hostile HTML renders them as text, --json holds the same findings,
# a finding's ranks and files open to their drill-downs (from the trace, or
# the counters), the page fits a laptop's window and prints whole, and bad
# input gets a clear error.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg
require_mpi
require_cmd pdftotext
chromium=$(command -v chromium || true)
[ -n "$chromium" ] || skip_all "no chromium (Debian's chromium package)"

wh="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-warehouse"
ingest="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-ingest"
analyze="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-analyze"
report="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-report"
gt="$IOA_BUILD_DIR/tests/jobs/ground-truth"
artifacts="$IOA_BUILD_DIR/tests/reports/artifacts"
mkdir -p "$artifacts"

ok "a throwaway cluster starts" pg_start
export IOATLAS_CONF=/dev/null
ok "the warehouse is migrated" "$wh" migrate
q() { psql -X -t -A -U ioatlas -c "$1"; }

logs=$(ioa_logdir)
data="$TEST_TMP/data"
mkdir -p "$data"
ioa_mpi_preload "$logs" 4 120 "$gt" amr "$data" >/dev/null
amr_log=$(ioa_logs "$logs")
hostile="$data/<script>alert(1)</script>"
ioa_preload "$logs" touch "$hostile" "$data/a\"b'c&d" "$data/<img src=x onerror=alert(2)>"
hostile_log=$(ioa_logs "$logs" | grep -vxF "$amr_log")
"$ingest" "$amr_log" "$hostile_log" >/dev/null
amr_job=$(q "SELECT job FROM job_overview WHERE executable LIKE '%/ground-truth'")
hostile_job=$(q "SELECT job FROM job_overview WHERE executable LIKE '%/touch'")
like "$amr_job $hostile_job" '^[0-9]+ [0-9]+$' "the two jobs are in the warehouse"
ok "they are analysed" "$analyze"

# open_page PAGE PNG: opens a page in headless Chromium, offline, saves its
# screenshot; prints the console's messages (nothing for a clean page).
open_page() {
	rm -f "$2"
	run_timeout 120 "$chromium" --headless=new --no-sandbox --disable-gpu \
		--user-data-dir="$TEST_TMP/chromium" --host-resolver-rules="MAP * ~NOTFOUND" \
		--enable-logging=stderr --v=0 --window-size=1280,4000 \
		--screenshot="$2" "file://$1" >/dev/null 2>"$TEST_TMP/console"
	[ -s "$2" ] || echo "chromium made no screenshot of $1"
	grep 'CONSOLE' "$TEST_TMP/console"
	return 0
}

# The kernels published for the job (the kernel batch adds these rows).
q "INSERT INTO job_kernels (job, start_time, name, version, url) SELECT id, start_time,
	'amr-kernel', '1', 'https://kernels.example/amr-kernel/1/' FROM jobs WHERE id = $amr_job;
	INSERT INTO job_kernels (job, start_time, name, version, url) SELECT id, start_time,
	'evil', '1', 'javascript:alert(3)' FROM jobs WHERE id = $amr_job" >/dev/null

cd "$TEST_TMP"
ok "a report from the warehouse" "$report" "$amr_job"
page="$TEST_TMP/job-$amr_job.html"
is "$(stat -c %a "$page")" 600 "written readable by its owner only"
is "$(open_page "$page" "$artifacts/t5001-warehouse.png")" "" \
	"it opens in Chromium with no console message and no network request"
ok "and its screenshot is kept" test -s "$artifacts/t5001-warehouse.png"
is "$(grep -o '<script' "$page" | wc -l)" 1 "the page's only script is its own"
like "$(cat "$page")" "adaptive mesh refinement likely" "its findings come first ..."
like "$(cat "$page")" "<h2>Findings</h2>" "... under their heading"
ok "the time plots are drawn" grep -q '<h2>Time</h2>' "$page"
ok "it links to the job's I/O kernel" \
	grep -qF '<a href="https://kernels.example/amr-kernel/1/">amr-kernel@1</a>' "$page"
ok "but never to a script URL" grep -qF '<li>evil@1 (javascript:alert(3))</li>' "$page"
ok "checkpoints are marked with their bytes" grep -q 'fill="#fde9c8"' "$page"
# What Chromium made of the page: axes with units, the heatmap's colour scale, tooltips.
dom=$(run_timeout 120 "$chromium" --headless=new --no-sandbox --disable-gpu \
	--user-data-dir="$TEST_TMP/chromium" --host-resolver-rules="MAP * ~NOTFOUND" \
	--dump-dom "file://$page" 2>/dev/null)
is "$(grep -o "time since the job's start (s)" <<<"$dom" | wc -l)" 2 \
	"in Chromium, both time plots have a time axis in seconds"
like "$dom" '<text x="[0-9.]+" y="[0-9.]+" text-anchor="middle">[0-9.]+ s</text>' "with ticks labelled in seconds"
like "$dom" "Colour: bytes moved in a cell" "the heatmap has its colour scale"
like "$dom" '<rect [^>]*><title>384 KiB</title></rect><text [^>]*>384 KiB</text>' \
	"whose top swatch is the largest cell, in IEC units"
like "$dom" '<title>rank [0-3], [0-9.e+-]+-[0-9.e+-]+ s: [0-9.]+ (B|KiB|MiB)</title>' \
	"each heatmap cell's tooltip says its rank, its time and its bytes"
like "$dom" '<title>[0-9.e+-]+-[0-9.e+-]+ s: written [0-9.]+ (B|KiB|MiB), read 0 B</title>' \
	"each moment's bar says what was written and read"
like "$dom" '<title>rank 0: [0-9.]+ (B|KiB|MiB)</title>' "each rank's bar says its bytes"
like "$dom" '<title>checkpoint 1: 240 KiB, spread across ranks \(cv\) [0-9.]+</title>' \
	"each checkpoint's bar its bytes and spread"
like "$dom" '>request size \(reads/writes\)<' "the request sizes have their axis"
like "$dom" '<title>writes of 10-100 KiB: [1-9][0-9]*</title>' "in IEC units, as tooltips say"
unlike "$dom" '[0-9] (kB|KB|MB|GB)[^a-zA-Z]' "and no decimal unit anywhere"
like "$(cat "$page")" '<details><summary class="muted">evidence \(confidence [0-9.]+\)</summary><table class="evidence"><tr><th>[a-z ]+</th><td>' \
	"a finding's evidence is a table in words"
unlike "$(cat "$page")" '<pre>[[:space:]]*\{' "not raw JSON"
like "$(cat "$page")" '<th>file</th><td><a href="#file-[0-9]+">[^<]*/amr\.[0-9]+</a>' \
	"a file in the evidence links to its row of the files table"
ok "which is there" grep -qE '<tr id="file-[0-9]+"><td class="name">(<details class="drill"><summary>)?[^<]*/amr\.[0-9]+<' "$page"
settings=$(sed -n '/<td class="name settings">/,/<\/td>/p' "$page")
like "$settings" '^logdir=' "the job's settings one per line"
unlike "$settings" '\\n' "never with a literal \\n"

ok "a report straight from the log, without a database" \
	env IOATLAS_WAREHOUSE_CONNINFO="host=$TEST_TMP/nowhere" "$report" "$amr_log" -o log.html
is "$(open_page "$TEST_TMP/log.html" "$artifacts/t5001-log.png")" "" \
	"it opens with no console message either"
like "$(cat log.html)" "adaptive mesh refinement likely" "with the same finding, analysed on the spot"

ok "the hostile job's report" "$report" "$hostile_job" -o hostile.html
is "$(open_page "$TEST_TMP/hostile.html" "$artifacts/t5001-hostile.png")" "" \
	"it opens with no console message (no script of the names ran)"
ok "a name with a script shows as text" grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' hostile.html
ok "so does a name with an image" grep -qF '&lt;img src=x onerror=alert(2)&gt;' hostile.html
ok "and one with quotes and an ampersand" grep -qF 'a&quot;b&#39;c&amp;d' hostile.html
is "$(grep -o '<script' hostile.html | wc -l)" 1 "the page holds no script but its own"
is "$(grep -c '<img' hostile.html)" 0 "and no image"

ok "--json" "$report" "$amr_job" --json -o amr.json
# json FILE EXPR: EXPR over the file's JSON as :'j'::jsonb, by PostgreSQL.
json() { psql -X -t -A -U ioatlas -v j="$(cat "$1")" <<<"SELECT $2"; }
is "$(json amr.json "jsonb_array_length(:'j'::jsonb -> 'findings')")" \
	"$(grep -c '<div class="finding' "$page")" "the JSON holds the page's findings"
is "$(json amr.json ":'j'::jsonb #>> '{job,ranks}'")" 4 "and the job's facts"
# The drill-down: amr.2, 48 KiB a part, ranks carrying 1, 4, 2 and 8 parts in 64 KiB writes
# (tests/jobs/ground-truth.c), each rank's own place in the shared file.
is "$(python3 -c 'import json, sys
f = json.load(open("amr.json"))["file_ranks"][sys.argv[1]]["ranks"]
print(" ".join("%d:%d:%d:%d" % (r["rank"], r["bytes_written"], r["writes"], round(100 * r["sequential"])) for r in f))' \
	"$data/amr.2")" "3:393216:6:100 1:196608:3:100 2:98304:2:100 0:49152:1:100" \
	"a shared file's ranks: their bytes, writes and sequential share, the most bytes first"
like "$(cat "$page")" "<details class=\"drill\"><summary>$data/amr.2</summary><table class=\"evidence\"><tr><th>rank</th>" \
	"the files table opens a file to its ranks' calls"

# A rank a finding names opens to its files: the AMR head writer is rank 3, which
# carries 8 parts of 48 KiB of amr.2 in 64 KiB writes (tests/jobs/ground-truth.c).
like "$(cat "$page")" '<th>head rank</th><td><a href="#rank-3">3</a></td>' \
	"a rank in a finding's evidence links to its files"
like "$(cat "$page")" '<details class="drill" id="rank-3"><summary>rank 3: 5 files, ' \
	"which the page lists under Ranks"
is "$(python3 -c 'import json, sys
f = [x for x in json.load(open("amr.json"))["rank_files"]["3"]["files"] if x["file"] == sys.argv[1]]
print(" ".join("%d:%d" % (x["bytes_written"], x["writes"]) for x in f))' "$data/amr.2")" \
	"393216:6" "with its bytes and writes on each file"
dom=$(run_timeout 120 "$chromium" --headless=new --no-sandbox --disable-gpu \
	--user-data-dir="$TEST_TMP/chromium" --host-resolver-rules="MAP * ~NOTFOUND" \
	--dump-dom "file://$page#rank-3" 2>/dev/null)
like "$dom" '<details class="drill" id="rank-3" open="">' "in Chromium, following the link opens the rank's files"
file_row=$(grep -oE '<tr id="file-[0-9]+"><td class="name"><details class="drill"><summary>[^<]*/amr\.2<' "$page" |
	grep -oE 'file-[0-9]+')
dom=$(run_timeout 120 "$chromium" --headless=new --no-sandbox --disable-gpu \
	--user-data-dir="$TEST_TMP/chromium" --host-resolver-rules="MAP * ~NOTFOUND" \
	--dump-dom "file://$page#$file_row" 2>/dev/null)
like "$dom" "<tr id=\"$file_row\"><td class=\"name\"><details class=\"drill\" open=\"\">" \
	"and a link to a file's row opens its ranks"

# On a laptop's screen and narrower, nothing scrolls sideways: the plots shrink with
# the window (each has its viewBox) rather than being cut.
is "$(grep -o '<svg [^>]*>' "$page" | grep -vc 'viewBox="0 0 [0-9]* [0-9]*"')" 0 "every plot scales"
for width in 1366 800; do
	sed 's|</body>|<script>document.body.dataset.fit = document.documentElement.scrollWidth <= document.documentElement.clientWidth</script></body>|' \
		"$page" >fit.html
	like "$(run_timeout 120 "$chromium" --headless=new --no-sandbox --disable-gpu \
		--user-data-dir="$TEST_TMP/chromium" --host-resolver-rules="MAP * ~NOTFOUND" \
		--window-size=$width,768 --dump-dom "file://$TEST_TMP/fit.html" 2>/dev/null)" \
		'<body data-fit="true">' "in a window $width pixels wide, the page fits its width"
done
# Printed, every finding's evidence and every drill-down is open.
ok "the page prints to PDF in Chromium" run_timeout 120 "$chromium" --headless=new --no-sandbox \
	--disable-gpu --user-data-dir="$TEST_TMP/chromium" --host-resolver-rules="MAP * ~NOTFOUND" \
	--no-pdf-header-footer --print-to-pdf="$artifacts/t5001-print.pdf" "file://$page"
printed=$(pdftotext -layout "$artifacts/t5001-print.pdf" -)
like "$printed" 'head rank +3' "with the findings' evidence"
like "$printed" 'rank 3: 5 files, ' "the ranks' files"
like "$printed" '[^ ]*/amr\.2 +POSIX +-1' "and the files"
# Rank 3 wrote 8 parts of 16 KiB x growth (1, 2, 3, 3, 3): 384 KiB in 6 writes to amr.2-4.
is "$(grep -cE '^ +3 +0 +6 +0 ?B +384 KiB +100%' <<<"$printed")" 3 \
	"with rank 3's calls on each checkpoint file it wrote 384 KiB of"

# Without a trace, the drill-downs come from the counters.  A file per process:
# each rank's own record, 16 writes of 64 KiB, each after the previous one.
logs_fpp=$(ioa_logdir)
ioa_mpi_preload "$logs_fpp" 2 120 -genv IOATLAS_TRACE 0 "$gt" fpp "$data" >/dev/null
ok "an untraced file-per-process job's report" "$report" "$(ioa_logs "$logs_fpp")" --json -o fpp.json
is "$(python3 -c 'import json, sys
f = json.load(open("fpp.json"))["file_ranks"][sys.argv[1]]
print(f["source"], " ".join("%d:%d:%d:%d" % (r["rank"], r["bytes_written"], r["writes"],
	round(100 * r["sequential"])) for r in f["ranks"]))' "$data/fpp.1")" "counters 1:1048576:16:100" \
	"a file opens to its rank's writes, bytes and sequential share, from the counters"
# A shared file keeps only the sum and its fastest and slowest rank: a rank the
# findings name shows what the counters keep of it, on each of amr.N, where rank R
# wrote parts[R] x steps[N] x 16 KiB (parts 1, 4, 2, 8; steps 1, 2, 3, 3, 3).
logs_amr=$(ioa_logdir)
mkdir -p "$data/untraced"
ioa_mpi_preload "$logs_amr" 4 120 -genv IOATLAS_TRACE 0 "$gt" amr "$data/untraced" >/dev/null
ok "an untraced AMR job's report" "$report" "$(ioa_logs "$logs_amr")" --json -o amr0.json
is "$(python3 -c 'import json, re
m = json.load(open("amr0.json"))
parts, steps = [1, 4, 2, 8], [1, 2, 3, 3, 3]
rows = bad = 0
for rank, r in m["rank_files"].items():
    for e in r["extremes"]:
        n = int(re.search(r"amr\.([0-9])$", e["file"]).group(1))
        rows += 1
        bad += e["bytes"] != parts[int(rank)] * steps[n] * 16384
shared = m["file_ranks"][[f for f in m["file_ranks"] if f.endswith("/amr.2")][0]]
print("rows" if rows else "none", bad, shared.get("combined"))')" \
	"rows 0 True" "each named rank's bytes on the shared files it was fastest or slowest on"

# A stored result of another shape (a hand-edited or foreign row) costs its
# findings, never the page: json-c would abort on lists that are not lists.
q "UPDATE analysis_results SET result = '{\"findings\": 5, \"common_sizes\": {\"a\": 1}}'
	WHERE job = $amr_job AND analysis IN ('insights', 'access');
	UPDATE analysis_results SET result = '{\"findings\": [7, \"x\", null], \"sizes\": 3, \"rank_cv\": \"y\"}'
	WHERE job = $amr_job AND analysis = 'amr';
	UPDATE analysis_results SET result = '{\"findings\": {}, \"phases\": [1, {\"start\": \"x\"}]}'
	WHERE job = $amr_job AND analysis = 'checkpoints'" >/dev/null
ok "a report whose stored results have another shape" "$report" "$amr_job" -o odd.html
like "$(cat odd.html)" "<h2>Files</h2>" "is still whole"

fails "a job the warehouse lacks" "$report" 999999
like "$(cat "$TEST_TMP/last.out")" "no such job in the warehouse" "is a clear error"
printf 'not a log' >bad.ioa
fails "a file that is not a log" "$report" bad.ioa
like "$(cat "$TEST_TMP/last.out")" "bad.ioa: " "is a clear error naming it"
is "$(ls bad.ioa.html 2>/dev/null)" "" "and leaves no page behind"
done_testing
