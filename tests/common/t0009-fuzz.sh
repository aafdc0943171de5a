# t0009-fuzz — every reader's fuzzer (tests/fuzz/run-fuzz: the log reader,
# the trace decoder with regrouping and expansion, the site settings
# parser, what a kernel repository sends) is built with clang's libFuzzer and sanitizers and runs for a
# bounded time from its corpus, on every build: a crash, a leak, undefined
# behaviour, an input that runs past 10 s or 2 GB fails the test and leaves
# the input in tests/common/fuzz-artifacts/ of the build tree (add it to the
# corpus with the fix).  IOATLAS_FUZZ_SECONDS sets the time per target
# (default 6).
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_cmd clang
seconds=${IOATLAS_FUZZ_SECONDS:-6}
artifacts="$IOA_BUILD_DIR/tests/common/fuzz-artifacts"

printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return d && n ? 0 : 0; }\n' \
	>"$TEST_TMP/probe.c"
clang -fsanitize=fuzzer "$TEST_TMP/probe.c" -o "$TEST_TMP/probe" >/dev/null 2>&1 ||
	skip_all "clang cannot link libFuzzer (Debian's libclang-rt-14-dev)"

rm -rf "$artifacts"
ok "the fuzzers build and run ${seconds} s each without a finding" \
	run_timeout $((seconds * 4 + 150)) "$IOA_SOURCE_DIR/tests/fuzz/run-fuzz" --check "$seconds" "$artifacts"
cp "$TEST_TMP/last.out" "$TEST_TMP/fuzz.out"
n=0
for target in logr trace conf krepo; do
	n=$((n + 1))
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$TEST_TMP/fuzz.out" | sed -n "${n}p")
	ok "$target ran (${runs:-no} executions)" test "${runs:-0}" -gt 100
done
is "$(ls "$artifacts" | grep -E '^(logr|trace|conf|krepo)-' || true)" "" "and left no crashing input"
done_testing
