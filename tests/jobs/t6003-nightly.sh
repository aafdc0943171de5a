# t6003-nightly — the nightly kernels: `ioatlas kernel nightly` picks the
# executables with the most bytes from the warehouse, generates, validates
# and publishes a kernel for the biggest job of each, records it so that the
# job's report links to it, is idempotent on a second night, and says so
# plainly when a job's log has gone, without failing the night.  The site's
# caps keep a replay safe on the collector host: a program's run within
# kernel.nightly_max_ranks is taken over a larger one (none: the program is
# passed over, said); a job over kernel.nightly_max_bytes is replayed with
# its bytes scaled down (the kernel's --bytes-scale: the job's calls, its
# bytes times the scale, checked against the job's own files); a replay
# past kernel.nightly_timeout is stopped and said.
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
gt2=$(q "SELECT j.id FROM jobs j JOIN executables e ON e.id = j.exe_id
	WHERE e.display LIKE '%/ground-truth' AND j.nprocs = 2")
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
is "$?" 0 "a job whose log has gone does not fail the night ..."
like "$out" "job $small: no kernel: .*No such file" "... it is said, which job and why"
like "$out" "1 kernels published, 1 failed" "... while the other kernel is still recorded"
ok "and nothing half-made is left in the repository" test ! -e "$repo/kernels/kernel-shapes"

# The caps.  Ranks: ground-truth's 4-rank run is passed over for its 2-rank one.
repo2="$TEST_TMP/repo2"
printf 'kernel.repository = %s\nkernel.nightly_top = 1\nkernel.nightly_max_ranks = 2\n' \
	"$repo2" >"$conf"
out=$(run_timeout 600 "$kernel" nightly --runtime "$runtime" 2>&1)
is "$?" 0 "a night with a 2-rank cap succeeds"
ok "the program's 2-rank run gets the kernel, not its 4-rank one" \
	test -s "$repo2/kernels/ground-truth/$gt2/kernel.c" -a ! -e "$repo2/kernels/ground-truth/$big"
printf 'kernel.repository = %s\nkernel.nightly_top = 2\nkernel.nightly_max_ranks = 1\n' \
	"$repo2" >"$conf"
out=$(run_timeout 600 "$kernel" nightly --runtime "$runtime" 2>&1)
is "$?" 0 "a night where every run is over the cap succeeds"
like "$out" "no kernel: ground-truth's smallest run had 2 ranks, over kernel.nightly_max_ranks \\(1\\)" \
	"the program passed over is said, with the cap"
like "$out" "0 kernels published, 0 failed, 2 over the caps" "both programs are"

# Bytes: the 4-rank job moved 4 MiB and 64 KiB; a 64 KiB cap scales its replay by 1/65.
repo3="$TEST_TMP/repo3"
printf 'kernel.repository = %s\nkernel.nightly_top = 1\nkernel.nightly_max_bytes = 64k\n' \
	"$repo3" >"$conf"
out=$(run_timeout 600 "$kernel" nightly --runtime "$runtime" 2>&1)
is "$?" 0 "a night with a 64 KiB cap succeeds"
like "$out" "kernel ground-truth@$big published \\(replayed with its bytes scaled by 0\\.015[0-9]*\\)" \
	"the 4 MiB job is replayed scaled down, and said"
scale=$(jq -r .validation.bytes_scale "$repo3/kernels/ground-truth/$big/meta.json")
like "$scale" '^0\.015' "meta.json says the scale it was validated at"
# The kernel's own replay at that scale, against the job's files (d1) as the job left them.
export IOATLAS_CONF=/dev/null
job_log=$(q "SELECT l.path FROM ingest_ledger l JOIN jobs j ON j.ledger = l.id WHERE j.id = $big")
ok "the kernel is generated again" "$kernel" gen "$job_log" -o "$TEST_TMP/k1"
out=$(run_timeout 600 "$kernel" validate "$TEST_TMP/k1" "$job_log" --runtime "$runtime" \
	--bytes-scale 0.01 2>&1)
is "$?" 0 "and validates with its bytes scaled by 0.01: the job's calls, 1% of its bytes" ||
	diag "$out"
like "$out" "its bytes scaled by 0\\.01" "the report says the scale"
sizes() { find "$1" -maxdepth 1 -type f -printf '%s\n' | sort -n | tr '\n' ' '; }
want=$(for n in $(sizes "$TEST_TMP/d1"); do echo $((n / 100)); done | sort -n | tr '\n' ' ')
is "$(sizes "$TEST_TMP/k1/run/data")" "$want" "its files are the job's at 1% of their sizes"
fails "a scale of 0 is refused" "$kernel" validate "$TEST_TMP/k1" "$job_log" --bytes-scale 0
export IOATLAS_CONF="$conf"

# Time: each step of a replay stops after kernel.nightly_timeout; the night goes on.
printf 'kernel.repository = %s\nkernel.nightly_top = 1\nkernel.nightly_timeout = 1s\n' \
	"$TEST_TMP/repo4" >"$conf"
out=$(run_timeout 600 "$kernel" nightly --runtime "$runtime" 2>&1)
is "$?" 0 "a night whose replay outlives the 1 s cap succeeds"
like "$out" "no end after 1 s: killed" "the replay is stopped, and said"
like "$out" "0 kernels published, 1 failed" "and counted failed"
printf 'kernel.nightly_max_ranks = 0\n' >"$conf"
fails "a cap of 0 ranks is refused" "$kernel" nightly --repo "$repo"
printf 'kernel.nightly_max_bytes = lots\n' >"$conf"
out=$("$kernel" nightly --repo "$repo" 2>&1)
like "$out" "bad value for kernel.nightly_max_bytes: 'lots' \\(a size" "a cap that is no size is refused"

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
