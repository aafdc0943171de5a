/*
 * ioatlas warehouse — looks after the warehouse's schema.
 *
 *	ioatlas warehouse migrate     apply the migrations the database lacks
 *	ioatlas warehouse status      the schema version, and this program's
 *	ioatlas warehouse users       make the login role of each user with jobs
 *	                              who lacks one (peer authentication)
 *	ioatlas warehouse archive M   move month M to the archive server, attached
 *	                              back as foreign partitions (wh_archive.h)
 *
 * The connection comes from the site settings (warehouse.conninfo, or
 * IOATLAS_WAREHOUSE_CONNINFO; empty: libpq's PG* variables, service file and
 * .pgpass), never from the command line.  Migrations run in one transaction
 * under an advisory lock, so two at once cannot interleave; a database whose
 * schema is newer than this program knows is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_conf.h"
#include "ioa_db.h"
#include "ioa_log.h"
#include "ioa_opts.h"
#include "ioa_migrations.h"
#include "ioa_parse.h"
#include "wh_archive.h"

static struct ioa_db_settings db;

static const struct ioa_setting settings[] = {
	IOA_DB_SETTINGS(&db),
};

static void usage(FILE *out)
{
	fprintf(out, "usage: ioatlas warehouse migrate | status | users | archive YYYY-MM\n"
		     "\n"
		     "  migrate     apply the schema migrations the warehouse lacks (idempotent)\n"
		     "  status      print the warehouse's schema version and this program's\n"
		     "  users       make the login role of each user with jobs who lacks one\n"
		     "              (named as the Unix user, in ioatlas_user, no password: users\n"
		     "              then reach their own jobs by peer authentication); needs\n"
		     "              CREATEROLE\n"
		     "  archive YYYY-MM  move that month's partitions to the archive server and\n"
		     "              attach them back as foreign tables (postgres_fdw), which\n"
		     "              queries still reach; as the warehouse's owner (ioatlas_admin)\n"
		     "  -h, --help  this help\n"
		     "\n"
		     "The connection is the setting warehouse.conninfo; archive also needs\n"
		     "warehouse.archive_server and warehouse.archive_conninfo (ioatlas.conf(5),\n"
		     "docs/scaling.md).\n");
}

static int latest_known(void)
{
	return ioa_migration_count ? ioa_migrations[ioa_migration_count - 1].version : 0;
}

/* The applied version (0: none), or a negative errno. */
static int applied_version(PGconn *conn, struct ioa_buf *err)
{
	PGresult *res = ioa_db_query(
		conn, "SELECT coalesce(max(version), 0) FROM " IOA_DB_SCHEMA ".schema_migrations",
		0, NULL, err, NULL, NULL);
	int version = -EIO;

	if (res && ioa_parse_int(PQgetvalue(res, 0, 0), 0, 1 << 30, &version))
		version = -EIO;
	PQclear(res);
	return version;
}

static int migrate(PGconn *conn, struct ioa_buf *err)
{
	char version_text[16];
	int current, rc;
	size_t i, applied = 0;

	rc = ioa_db_exec(conn, "BEGIN", 0, NULL, err);
	rc = rc ? rc
		: ioa_db_exec(conn, "SELECT pg_advisory_xact_lock(hashtext('ioatlas.migrate'))", 0,
			      NULL, err);
	rc = rc ? rc
		: ioa_db_exec(conn, "CREATE SCHEMA IF NOT EXISTS " IOA_DB_SCHEMA, 0, NULL, err);
	rc = rc ? rc
		: ioa_db_exec(conn,
			      "CREATE TABLE IF NOT EXISTS " IOA_DB_SCHEMA ".schema_migrations ("
			      "version integer PRIMARY KEY, name text NOT NULL, "
			      "applied_at timestamptz NOT NULL DEFAULT now(), "
			      "applied_by text NOT NULL DEFAULT session_user)",
			      0, NULL, err);
	current = rc ? rc : applied_version(conn, err);
	if (current < 0) {
		ioa_db_exec(conn, "ROLLBACK", 0, NULL, err);
		return current;
	}
	if (current > latest_known()) {
		ioa_db_exec(conn, "ROLLBACK", 0, NULL, err);
		ioa_buf_reset(err);
		ioa_buf_addf(
			err,
			"the warehouse's schema is at version %d, newer than this ioatlas knows "
			"(%d): upgrade ioatlas",
			current, latest_known());
		return -EPROTO;
	}
	for (i = 0; i < ioa_migration_count && !rc; i++) {
		const struct ioa_migration *m = &ioa_migrations[i];
		const char *params[2] = {version_text, m->name};

		if (m->version <= current)
			continue;
		snprintf(version_text, sizeof(version_text), "%d", m->version);
		rc = ioa_db_exec(conn, "SET LOCAL search_path = " IOA_DB_SCHEMA, 0, NULL, err);
		/* Later migrations run as the owner the first one made. */
		if (!rc && current > 0)
			rc = ioa_db_exec(conn, "SET LOCAL ROLE ioatlas_admin", 0, NULL, err);
		rc = rc ? rc : ioa_db_script(conn, m->sql, err);
		if (rc) {
			char what[IOA_LOG_LINE_MAX];

			snprintf(what, sizeof(what), "migration %s: %s", m->name, ioa_buf_str(err));
			ioa_buf_reset(err);
			ioa_buf_addstr(err, what);
			break;
		}
		rc = ioa_db_exec(conn,
				 "INSERT INTO " IOA_DB_SCHEMA ".schema_migrations (version, name) "
				 "VALUES ($1::integer, $2)",
				 2, params, err);
		rc = rc ? rc : ioa_db_exec(conn, "RESET ROLE", 0, NULL, err);
		current = m->version;
		applied++;
		if (!rc)
			printf("warehouse: applied %s\n", m->name);
	}
	rc = rc ? rc : ioa_db_exec(conn, "COMMIT", 0, NULL, err);
	if (rc) {
		struct ioa_buf ignore = IOA_BUF_INIT(1024);

		ioa_db_exec(conn, "ROLLBACK", 0, NULL, &ignore);
		ioa_buf_release(&ignore);
		return rc;
	}
	printf("warehouse: schema at version %d%s\n", current, applied ? "" : " (nothing to do)");
	return 0;
}

static int status(PGconn *conn, struct ioa_buf *err)
{
	PGresult *res = ioa_db_query(conn, "SELECT to_regclass($1) IS NOT NULL", 1,
				     (const char *const[]){IOA_DB_SCHEMA ".schema_migrations"}, err,
				     NULL, NULL);
	int version = 0, exists;

	if (!res)
		return -EIO;
	exists = !strcmp(PQgetvalue(res, 0, 0), "t");
	PQclear(res);
	if (exists && (version = applied_version(conn, err)) < 0)
		return version;
	printf("warehouse schema: %d\nthis ioatlas: %d\n", version, latest_known());
	if (version < latest_known())
		printf("run 'ioatlas warehouse migrate' to bring the warehouse up to date\n");
	else if (version > latest_known())
		printf("the warehouse is newer than this ioatlas: upgrade ioatlas\n");
	return 0;
}

/* Each user's own role (create_user_roles(), migration 0011), one line per user. */
static int users(PGconn *conn, struct ioa_buf *err)
{
	PGresult *res = ioa_db_query(
		conn, "SELECT user_name, outcome FROM " IOA_DB_SCHEMA ".create_user_roles()", 0,
		NULL, err, NULL, NULL);
	int i, made = 0;

	if (!res) {
		ioa_buf_addstr(err, " (making roles needs a role with CREATEROLE that reads every "
				    "user: see docs/admin.md, users' own roles)");
		return -EACCES;
	}
	for (i = 0; i < PQntuples(res); i++) {
		printf("%s: %s\n", PQgetvalue(res, i, 0), PQgetvalue(res, i, 1));
		made += !strcmp(PQgetvalue(res, i, 1), "created");
	}
	printf("warehouse: %d roles made, %d users\n", made, PQntuples(res));
	PQclear(res);
	return 0;
}

int main(int argc, char **argv)
{
	struct ioa_buf err = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	PGconn *conn = NULL, *archive = NULL;
	const char *what;
	int status_code = IOA_EXIT_FAIL, rc, c;
	static const struct option longs[] = {
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};

	ioa_log_set_progname("ioatlas warehouse");
	while ((c = ioa_getopt(argc, argv, "h", longs)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return IOA_EXIT_OK;
		}
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	what = optind < argc ? argv[optind] : "";
	if (!strcmp(what, "archive")
		    ? optind != argc - 2
		    : optind != argc - 1 || (strcmp(what, "migrate") && strcmp(what, "status") &&
					     strcmp(what, "users"))) {
		usage(stderr);
		return IOA_EXIT_USAGE;
	}
	if (ioa_conf_load(settings, sizeof(settings) / sizeof(settings[0]), &err)) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	conn = ioa_db_connect(db.conninfo, "ioatlas warehouse", &err);
	if (!conn) {
		ioa_error("%s", ioa_buf_str(&err));
		goto out;
	}
	if (!strcmp(what, "archive")) {
		archive = ioa_db_connect(db.archive_conninfo, "ioatlas warehouse archive", &err);
		rc = archive ? wh_archive(conn, archive, db.archive_server, argv[optind + 1], &err)
			     : -EIO;
	} else {
		rc = !strcmp(what, "migrate")  ? migrate(conn, &err)
		     : !strcmp(what, "status") ? status(conn, &err)
					       : users(conn, &err);
	}
	if (rc)
		ioa_error("%s", ioa_buf_str(&err));
	else
		status_code = IOA_EXIT_OK;
out:
	PQfinish(archive);
	PQfinish(conn);
	ioa_conf_free(settings, sizeof(settings) / sizeof(settings[0]));
	ioa_buf_release(&err);
	return status_code;
}
