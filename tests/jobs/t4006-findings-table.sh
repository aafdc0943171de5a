# t4006-findings-table — the table of findings (jobs/analyses/an_findings.h, printed
# by `ioatlas analyze --findings`) and docs/analyses.md agree both ways:
# every code of the table is documented, every code the page's tables name
# is in the table; codes are unique; every insight has advice (at least
# for POSIX and MPI-IO); every setting the table names is one the site
# file has (docs/analyses.md's settings table).
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"

doc="$IOA_SOURCE_DIR/docs/analyses.md"
IOA_CMD="$IOA_BUILD_DIR/bin/ioatlas"
plan 7

cd "$TEST_TMP" || exit 1
"$IOA_CMD" analyze --findings >table.txt
ok "ioatlas analyze --findings prints the table" test -s table.txt
is "$(awk -F '\t' 'NF != 5' table.txt)" "" "five tab-separated columns a row"
is "$(cut -f1 table.txt | sort | uniq -d)" "" "every code once"
is "$(cut -f1 table.txt | while read -r code; do
	grep -q "\`$code\`" "$doc" || echo "$code"
done)" "" "every code is documented in docs/analyses.md"
# Codes in the first column of the page's finding tables (rows of `code` or `a`, `b`).
is "$(sed -n '/^## Insights/,/^## Settings/p' "$doc" | grep -o '^| `[a-z_]*`\(, `[a-z_]*`\)*' |
	grep -o '[a-z_]\+' | while read -r code; do
		cut -f1 table.txt | grep -qx "$code" || echo "$code"
	done)" "" "every code the page's insight table names is in the table"
is "$(awk -F '\t' '$2 == "insight" && $5 !~ /posix,mpiio/ { print $1 }' table.txt)" "" \
	"every insight has advice for POSIX and MPI-IO"
is "$(cut -f3 table.txt | tr ',' '\n' | tr -d ' ' | grep -v '^-$' | sort -u | while read -r s; do
	grep -q "^| \`$s\` |" "$doc" || echo "$s"
done)" "" "every setting the table names is a documented setting"
