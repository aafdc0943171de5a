# t3000-throwaway-cluster — the harness starts a private PostgreSQL cluster
# in a temporary directory (as an unprivileged user when run as root),
# our libpq client talks to it with bound parameters, and it stops on request.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_pg

pgexec="$IOA_BUILD_DIR/tests/warehouse/pg-exec"

plan 9

ok "a throwaway cluster starts" pg_start
cluster=$PG_ROOT
ok "it listens on a socket in the test's own directory" test -S "$PGHOST/.s.PGSQL.$PGPORT"
is "$("$pgexec" 'select $1::int + $2::int' 2 3 2>&1)" 5 "a query with parameters runs through libpq"
is "$("$pgexec" 'select current_user = $1' ioatlas 2>&1)" t "we are the cluster's own superuser"

hostile="Robert'); drop table students;-- <script>"
"$pgexec" 'create table names (name text not null)' >/dev/null 2>&1
"$pgexec" 'insert into names values ($1)' "$hostile" >/dev/null 2>&1
is "$("$pgexec" 'select name from names' 2>&1)" "$hostile" "hostile text round-trips unchanged"
fails "a bad statement fails with a message" "$pgexec" 'select from nowhere'
like "$(cat "$TEST_TMP/last.out")" '^pg-exec: statement failed: ERROR: +relation "nowhere"' \
	"the message names what failed"

owner=$(stat -c %U "$cluster/data")
ok "the server does not run as root (data owned by '$owner')" test "$owner" != root

pg_stop
fails "the cluster stops on request" "$pgexec" 'select 1'

done_testing
