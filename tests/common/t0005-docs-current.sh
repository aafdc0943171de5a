# t0005-docs-current — the pages generated from tables are current: the
# counters page matches the counter table, and the runtime guide documents
# every setting of the settings table.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"

plan 2

"$IOA_BUILD_DIR/cli/gen-counters-doc" >"$TEST_TMP/counters.md"
ok "docs/counters.md matches the counter table (regenerate: build/cli/gen-counters-doc > docs/counters.md)" \
	diff -u "$IOA_SOURCE_DIR/docs/counters.md" "$TEST_TMP/counters.md"

missing=""
for key in $(sed -n 's/^[[:space:]]*X(\([a-z_]*\), \(BOOL\|PATH\|NAME\|SIZE\|LIST\),.*/\1/p' \
	"$IOA_SOURCE_DIR/runtime/rt_config.h"); do
	grep -q "^| \`$key\` " "$IOA_SOURCE_DIR/docs/runtime.md" || missing="$missing $key"
done
is "${missing:-none}" "none" "docs/runtime.md documents every setting"

done_testing
