# t6003-nightly — the nightly kernels: `ioatlas kernel nightly` picks the
# executables with the most bytes from the warehouse, generates, validates
# and publishes a kernel for the biggest job of each, records it so that the
# job's report links to it, is idempotent on a second night, and says so
# plainly when a job's log has gone.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_pg
require_mpi

wh="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-warehouse"
ingest="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-ingest"
kernel="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-kernel"
report="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-report"
gt="$IOA_BUILD_DIR/tests/jobs/ground-truth"
shapes="$IOA_BUILD_DIR/tests/jobs/kernel-shapes"
runtime=$(ioa_preload_list "$IOA_RUNTIME_SO")

ok "a throwaway cluster starts" pg_start
ok "the warehouse is migrated" env IOATLAS_CONF=/dev/null "$wh" migrate
q() { psql -X -t -A -U ioatlas -c "$1"; }

# Three jobs of two programs: ground-truth twice (the fixed checkpoints move
# more bytes than the small-request job), kernel-shapes once, smaller.
logs=$(ioa_logdir)
mkdir -p "$TEST_TMP/d1" "$TEST_TMP/d2" "$TEST_TMP/d3"
ioa_mpi_preload "$logs" 4 120 "$gt" fixed "$TEST_TMP/d1" >/dev/null
ioa_mpi_preload "$logs" 2 120 "$gt" small "$TEST_TMP/d2" >/dev/null
ioa_mpi_preload "$logs" 2 120 "$shapes" token "$TEST_TMP/d3" >/dev/null
is "$(ioa_logs "$logs" | wc -l)" 3 "three jobs left logs"
ok "they are ingested" env IOATLAS_CONF=/dev/null "$ingest" $(ioa_logs "$logs")
big=$(q "SELECT j.id FROM jobs j JOIN executables e ON e.id = j.exe_id
	WHERE e.display LIKE '%/ground-truth' ORDER BY j.bytes_read + j.bytes_written DESC LIMIT 1")
small=$(q "SELECT j.id FROM jobs j JOIN executables e ON e.id = j.exe_id
	WHERE e.display LIKE '%/kernel-shapes'")
like "$big $small" '^[0-9]+ [0-9]+$' "the warehouse has both programs' jobs"

# The site's settings choose the repository and how many programs.
repo="$TEST_TMP/repo"
conf="$TEST_TMP/ioatlas.conf"
printf 'kernel.repository = %s\nkernel.repository_url = https://kernels.example/site\nkernel.nightly_top = 1\n' \
	"$repo" >"$conf"
export IOATLAS_CONF="$conf"
out=$(run_timeout 600 "$kernel" nightly --runtime "$runtime" 2>&1)
is "$?" 0 "the nightly batch succeeds"
like "$out" "1 kernels published, 0 failed" "the top program by bytes gets its kernel"
ok "published under the program's name and the job's id" \
	test -s "$repo/kernels/ground-truth/$big/kernel.c"
like "$(cat "$repo/kernels/ground-truth/$big/meta.json")" '"identical":true' \
	"validated with identical I/O before it was published"
ok "not the smaller program's" test ! -e "$repo/kernels/kernel-shapes"
is "$(q "SELECT name || '@' || version || ' ' || url FROM job_kernels")" \
	"ground-truth@$big https://kernels.example/site/kernels/ground-truth/$big/" \
	"the warehouse records it with its URL"
ok "the job's report is written" env -C "$TEST_TMP" "$report" "$big"
ok "and links to it" grep -qF \
	"<a href=\"https://kernels.example/site/kernels/ground-truth/$big/\">ground-truth@$big</a>" \
	"$TEST_TMP/job-$big.html"

out=$(run_timeout 600 "$kernel" nightly --runtime "$runtime" --top 2 2>&1)
is "$?" 0 "a second night with two programs succeeds"
ok "the smaller program gets its kernel now" test -s "$repo/kernels/kernel-shapes/$small/kernel.c"
is "$(q "SELECT count(*) FROM job_kernels")" 2 "the first kernel is not recorded twice"
is "$(ls "$repo/kernels/ground-truth")" "$big" "nor published twice"

rm -r "$repo/kernels/kernel-shapes"
rm "$(q "SELECT l.path FROM ingest_ledger l JOIN jobs j ON j.ledger = l.id WHERE j.id = $small")"
out=$(run_timeout 600 "$kernel" nightly --runtime "$runtime" --top 2 2>&1)
is "$?" 1 "a job whose log has gone fails the night ..."
like "$out" "job $small: no kernel: .*No such file" "... saying which job and why"
like "$out" "1 kernels published, 1 failed" "... while the other kernel is still recorded"
ok "and nothing half-made is left in the repository" test ! -e "$repo/kernels/kernel-shapes"

printf 'kernel.nightly_top = many\n' >"$conf"
out=$("$kernel" nightly --repo "$repo" 2>&1)
is "$?" 1 "garbage settings are refused"
like "$out" "ioatlas.conf:1" "naming the file and line"
printf '' >"$conf"
out=$("$kernel" nightly 2>&1)
is "$?" 2 "no repository is a usage error"
like "$out" "kernel.repository or --repo" "saying where to name one"
fails "a zero --top is refused" "$kernel" nightly --repo "$repo" --top 0
out=$(IOATLAS_WAREHOUSE_CONNINFO="host=$TEST_TMP/nowhere" "$kernel" nightly --repo "$repo" 2>&1)
is "$?" 1 "no warehouse is an error"
like "$out" "nowhere" "naming where it looked"

pg_stop
done_testing
