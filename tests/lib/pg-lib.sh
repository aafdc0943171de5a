# pg-lib.sh — a throwaway PostgreSQL cluster for one test (sourced by
# test-lib.sh).
#
#	pg_start || bail "no database"
#	psql -c 'select 1'        # PGHOST, PGPORT, PGUSER, PGDATABASE are set
#
# The cluster lives under $TEST_TMP, listens only on a Unix socket in a
# private directory, trusts local connections, and is stopped when the test
# exits — also when the test shell is killed outright, by a watchdog that
# outlives it.  PostgreSQL refuses to run as root, so when the test runs as
# root the server runs as IOATLAS_TEST_USER (default: nobody).
#
# The server binaries are taken from IOATLAS_PG_BINDIR, else the newest
# Debian (/usr/lib/postgresql/N/bin) or PGDG RHEL (/usr/pgsql-N/bin)
# installation, else initdb on PATH.

. "$(dirname "${BASH_SOURCE[0]}")/watchdog-lib.sh"

pg_bindir() {
	local dir
	if [ -n "${IOATLAS_PG_BINDIR:-}" ]; then
		echo "$IOATLAS_PG_BINDIR"
		return 0
	fi
	for dir in $(ls -d /usr/lib/postgresql/*/bin /usr/pgsql-*/bin 2>/dev/null | sort -V -r); do
		[ -x "$dir/initdb" ] && { echo "$dir"; return 0; }
	done
	dir=$(command -v initdb 2>/dev/null) || return 1
	dirname "$dir"
}

# require_pg: skips the whole test when no PostgreSQL server is installed.
require_pg() {
	pg_bindir >/dev/null || skip_all "no PostgreSQL server (initdb) is installed"
}

# pg_as_owner COMMAND [ARG...]: runs a server command as the cluster's owner.
pg_as_owner() {
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u "$PG_OWNER" -- "$@"
	else
		"$@"
	fi
}

# pg_initdb ROOT: a cluster's data under ROOT/data, its superuser ioatlas,
# trusting local connections (its log in ROOT/initdb.log).
pg_initdb() {
	pg_as_owner "$PG_BINDIR/initdb" -D "$1/data" -U ioatlas --auth=trust \
		--no-locale -E UTF8 --no-sync >"$1/initdb.log" 2>&1
}

# pg_ctl_start ROOT: starts the cluster of ROOT/data, listening only on its
# socket in ROOT/sock (its log in ROOT/server.log); 0 when it accepts queries.
pg_ctl_start() {
	pg_as_owner "$PG_BINDIR/pg_ctl" -D "$1/data" -l "$1/server.log" -w -t 60 \
		-o "-c listen_addresses='' -c unix_socket_directories='$1/sock' -c fsync=off -c max_connections=40" \
		start >/dev/null 2>&1
}

# pg_start: initialises and starts the cluster; 0 when it accepts queries.
pg_start() {
	local bindir
	bindir=$(pg_bindir) || {
		diag "pg_start: no PostgreSQL server installation found"
		return 1
	}
	PG_BINDIR=$bindir
	PG_OWNER=$(id -un)
	PG_ROOT=$TEST_TMP/pg
	mkdir -p "$PG_ROOT" || return 1
	if [ "$(id -u)" -eq 0 ]; then
		PG_OWNER=${IOATLAS_TEST_USER:-nobody}
		chmod 711 "$TEST_TMP" && chown "$PG_OWNER" "$PG_ROOT" || return 1
	fi
	pg_as_owner mkdir -m 700 "$PG_ROOT/data" || return 1
	pg_as_owner mkdir -m 755 "$PG_ROOT/sock" || return 1

	pg_initdb "$PG_ROOT" || {
		diag "pg_start: initdb failed:"
		sed 's/^/#   /' "$PG_ROOT/initdb.log"
		return 1
	}
	at_exit "pg_stop"
	pg_ctl_start "$PG_ROOT" || {
		diag "pg_start: the server did not start:"
		sed -n '1,40p' "$PG_ROOT/server.log" | sed 's/^/#   /'
		return 1
	}
	pg_watchdog $$ &

	export PGHOST="$PG_ROOT/sock" PGPORT=5432 PGUSER=ioatlas PGDATABASE=postgres
	unset PGPASSWORD PGSERVICE PGSERVICEFILE PGSSLMODE
}

# The watchdog: the server stops once the test shell is gone, however it went.
pg_watchdog() {
	after_test_shell "$1" pg_as_owner "$PG_BINDIR/pg_ctl" -D "$PG_ROOT/data" -m immediate stop
}

# pg_resume: starts the cluster again after pg_stop (the same data).
pg_resume() {
	pg_ctl_start "$PG_ROOT"
}

# pg_warehouse: a throwaway cluster (pg_start) with the warehouse migrated
# and the collector's role (BYPASSRLS, in ioatlas_ingest), which libpq uses
# from then on (IOATLAS_WAREHOUSE_CONNINFO); two checks of the test's plan.
pg_warehouse() {
	ok "a throwaway cluster starts" pg_start
	ok "the warehouse is migrated" \
		run_timeout 60 "$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-warehouse" migrate
	psql -X -q -c 'CREATE ROLE collector LOGIN BYPASSRLS IN ROLE ioatlas_ingest'
	export IOATLAS_WAREHOUSE_CONNINFO="user=collector"
}

# pg_more_start NAME [initdb | replica]: a second cluster beside the first
# (pg_start first), under $TEST_TMP/pg-NAME with its socket in
# $TEST_TMP/pg-NAME/sock (for libpq: host=$TEST_TMP/pg-NAME/sock), stopped
# when the test ends, however it ends.  initdb (the default): an empty one,
# its superuser ioatlas (an archive server, say); replica: a streaming
# replica of the first, copied with pg_basebackup and following it (-R).
# 0 when it accepts queries.
pg_more_start() {
	local root=$TEST_TMP/pg-$1 how=${2:-initdb}
	mkdir -p "$root" || return 1
	[ "$(id -u)" -ne 0 ] || chown "$PG_OWNER" "$root" || return 1
	pg_as_owner mkdir -m 755 "$root/sock" || return 1
	if [ "$how" = replica ]; then
		pg_as_owner "$PG_BINDIR/pg_basebackup" -h "$PG_ROOT/sock" -U ioatlas -D "$root/data" \
			-R -X stream -c fast >"$root/basebackup.log" 2>&1
	else
		pg_initdb "$root"
	fi || {
		diag "pg_more_start $1: $how failed:"
		sed 's/^/#   /' "$root"/*.log
		return 1
	}
	at_exit "pg_as_owner '$PG_BINDIR/pg_ctl' -D '$root/data' -m fast -w -t 30 stop >/dev/null 2>&1"
	pg_ctl_start "$root" || {
		diag "pg_more_start $1: the server did not start:"
		sed -n '1,40p' "$root/server.log" | sed 's/^/#   /'
		return 1
	}
	after_test_shell $$ pg_as_owner "$PG_BINDIR/pg_ctl" -D "$root/data" -m immediate stop &
}

pg_stop() {
	[ -n "${PG_ROOT:-}" ] || return 0
	pg_as_owner "$PG_BINDIR/pg_ctl" -D "$PG_ROOT/data" -m fast -w -t 30 stop >/dev/null 2>&1
}

# pgtap_run FILE: runs a pgTAP file with psql; each of its results becomes a
# result of this test ("pgTAP: ..."), its diagnostics are passed on, and a
# file that stops early (an SQL error) is a failure.
pgtap_run() {
	local out status line
	out=$(psql -X -q -t -A -v ON_ERROR_STOP=1 -f "$1" 2>&1)
	status=$?
	while IFS= read -r line; do
		case $line in
		"ok "*) tap_result 0 "pgTAP: ${line#ok * - }" ;;
		"not ok "*) tap_result 1 "pgTAP: ${line#not ok * - }" ;;
		"#"*) echo "$line" ;;
		esac
	done <<<"$out"
	[ "$status" -eq 0 ] && return 0
	tap_result 1 "pgTAP: $(basename "$1") runs to its end"
	diag "$out"
}
