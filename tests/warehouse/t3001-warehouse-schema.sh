# t3001-warehouse-schema — `ioatlas warehouse migrate` builds the schema in
# a throwaway cluster, again as a no-op, two at once without a clash; a
# database newer than the program is refused; then the pgTAP suite checks
# the tables, roles and row-level security.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_pg

wh="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-warehouse"
# The newest migration in the source tree: what a fresh database ends at.
latest=$(find "$IOA_SOURCE_DIR/warehouse/migrations" -name '[0-9][0-9][0-9][0-9]_*.sql' |
	sed 's|.*/0*\([0-9]*\)_.*|\1|' | sort -n | tail -n 1)

ok "a throwaway cluster starts" pg_start
psql -X -q -c 'CREATE DATABASE fresh' -c 'CREATE DATABASE race' >/dev/null
export PGDATABASE=fresh IOATLAS_CONF=/dev/null

is "$("$wh" status 2>&1 | head -n 1)" "warehouse schema: 0" "an empty database is at version 0"
out=$("$wh" migrate 2>&1)
like "$out" '^warehouse: applied 0001_schema$' "migrate applies the first migration"
like "$out" '^warehouse: applied 0002_views$' "and the next, in order"
like "$out" "^warehouse: schema at version $latest\$" "and says where the schema is"
is "$("$wh" migrate 2>&1)" "warehouse: schema at version $latest (nothing to do)" "a second migrate is a no-op"
is "$(psql -X -t -A -c 'SELECT count(*) FROM ioatlas.schema_migrations')" "$latest" "each recorded once"

# Two at once on a fresh database: one applies, the other finds nothing to do.
PGDATABASE=race "$wh" migrate >"$TEST_TMP/m1" 2>&1 &
PGDATABASE=race "$wh" migrate >"$TEST_TMP/m2" 2>&1
wait $!
is "$(cat "$TEST_TMP/m1" "$TEST_TMP/m2" | grep -c 'applied 0001_schema')" 1 \
	"two migrations at once: the schema is applied once"
is "$(PGDATABASE=race psql -X -t -A -c 'SELECT count(*) FROM ioatlas.schema_migrations')" "$latest" \
	"and recorded once"

psql -X -q -c "INSERT INTO ioatlas.schema_migrations (version, name) VALUES (9999, '9999_future')"
fails "a database newer than this ioatlas is refused" "$wh" migrate
like "$(cat "$TEST_TMP/last.out")" "schema is at version 9999, newer than this ioatlas knows \($latest\): upgrade ioatlas" \
	"with a message that says what to do"
like "$("$wh" status 2>&1)" "newer than this ioatlas" "status says so too"
psql -X -q -c 'DELETE FROM ioatlas.schema_migrations WHERE version = 9999'

IOATLAS_WAREHOUSE_CONNINFO="host=$TEST_TMP/nowhere connect_timeout=2" \
	fails "no database: a clean failure" "$wh" migrate
like "$(cat "$TEST_TMP/last.out")" "^ioatlas warehouse: cannot connect to the warehouse: .*No such file" \
	"that says it cannot connect"

printf 'warehouse.conninfo = dbname=fresh\nwarehouse.connifno = typo\n' >"$TEST_TMP/bad.conf"
IOATLAS_CONF="$TEST_TMP/bad.conf" fails "a typo in the site settings is refused" "$wh" status
like "$(cat "$TEST_TMP/last.out")" "bad.conf:2: unknown setting 'warehouse.connifno'" \
	"naming the file and line"

pgtap_run "$IOA_SOURCE_DIR/tests/warehouse/pgtap/schema.sql"

done_testing
