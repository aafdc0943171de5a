# t1024-errno-stdio — fscanf, fgets, fread and fgetc on stdin (a pipe), a
# pipe, a FIFO and a regular file leave errno exactly as they do without
# the runtime (whose own position queries fail with ESPIPE on pipes).
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"

ops="$IOA_BUILD_DIR/tests/runtime/harm-ops"
input=$(printf '12 hello\nworld\n34\n')

plan 4

mkdir -p "$TEST_TMP/plain" "$TEST_TMP/work"
expected=$(printf '%s\n' "$input" | "$ops" errno "$TEST_TMP/plain")
is "$?" 0 "without the runtime the pattern runs"
logs=$(ioa_logdir)
got=$(printf '%s\n' "$input" | ioa_preload "$logs" "$ops" errno "$TEST_TMP/work")
is "$?" 0 "under the runtime the pattern runs"
is "$got" "$expected" "every result and errno is as without the runtime"
log=$(ioa_only_log "$logs")
is "$(ioa_counter "$log" STDIO 0 "$TEST_TMP/work/regular" STDIO_READS)" 4 \
	"and the reads of the regular file that returned data are counted (the failed fscanf calls read nothing)"

done_testing
