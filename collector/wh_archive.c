/*
 * wh_archive — `ioatlas warehouse archive MONTH`: a month's partitions moved
 * to an archive server and attached back as foreign tables (postgres_fdw),
 * which queries through the partitioned tables still reach
 * (docs/scaling.md).
 *
 * In one transaction on the warehouse, as its owner: the month's local
 * partitions locked against writes (a late log of that month waits) and
 * renamed aside, the archive's partitions of the month imported in their
 * place as foreign tables (IMPORT FOREIGN SCHEMA), emptied (a run cut
 * short before) and filled with the local rows column by column, the
 * counts on both sides compared, then each local partition detached and
 * dropped and the foreign table attached in its place.  postgres_fdw commits the remote
 * writes with the local transaction and aborts them with it: a failure
 * anywhere leaves the warehouse as it was.  Identifiers reach the DDL only
 * through PostgreSQL's own quoting (format() with %I and %L).
 */
#define _GNU_SOURCE
#include "wh_archive.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ioa_db.h"

/* The text of a one-value query, copied into out; 0 or -errno with err set. */
static int value(PGconn *conn, const char *sql, int n, const char *const *p, char *out, size_t len,
		 struct ioa_buf *err)
{
	int rc;
	PGresult *res = ioa_db_query(conn, sql, n, p, err, &rc, NULL);

	if (!rc && (PQntuples(res) != 1 || PQnfields(res) != 1)) {
		ioa_buf_addf(err, "unexpected answer to: %.60s", sql);
		rc = -EPROTO;
	}
	if (!rc)
		snprintf(out, len, "%s", PQgetisnull(res, 0, 0) ? "" : PQgetvalue(res, 0, 0));
	PQclear(res);
	return rc;
}

/* Runs the statement a query builds (format() with %I, %L: quoted by PostgreSQL). */
static int built(PGconn *conn, const char *builder, int n, const char *const *p,
		 struct ioa_buf *err)
{
	int rc;
	PGresult *res = ioa_db_query(conn, builder, n, p, err, &rc, NULL);

	if (!rc)
		rc = ioa_db_script(conn, PQgetvalue(res, 0, 0), err);
	PQclear(res);
	return rc;
}

static int schema_version(PGconn *conn, char *out, size_t len, struct ioa_buf *err)
{
	return value(conn, "SELECT coalesce(max(version), 0) FROM ioatlas.schema_migrations", 0,
		     NULL, out, len, err);
}

/* "2026-10" to the month's first instant and its partitions' suffix; -EINVAL. */
static int parse_month(const char *month, char *start, size_t slen, char *suffix, size_t xlen)
{
	int y, m;

	if (strlen(month) != 7 || month[4] != '-' || !isdigit((unsigned char)month[0]) ||
	    sscanf(month, "%4d-%2d", &y, &m) != 2 || y < 1970 || m < 1 || m > 12)
		return -EINVAL;
	snprintf(start, slen, "%04d-%02d-01 00:00:00+00", y, m);
	snprintf(suffix, xlen, "%04d%02d", y, m);
	return 0;
}

/* The month's local partitions: their count, and how many are foreign already. */
static int partitions(PGconn *conn, const char *suffix, int *local, int *foreign,
		      struct ioa_buf *err)
{
	static const char sql[] =
		"SELECT count(*) FILTER (WHERE c.relkind = 'r'), count(*) FILTER (WHERE c.relkind "
		"= "
		"'f') FROM ioatlas.partitioned_tables t "
		"JOIN pg_class c ON c.oid = to_regclass(format('ioatlas.%I', t.name || '_' || $1))";
	int rc;
	PGresult *res = ioa_db_query(conn, sql, 1, &suffix, err, &rc, NULL);

	if (!rc) {
		*local = atoi(PQgetvalue(res, 0, 0));
		*foreign = atoi(PQgetvalue(res, 0, 1));
	}
	PQclear(res);
	return rc;
}

/*
 * The rows of table (a dictionary the partitioned tables refer to: users,
 * executables, file systems) that the archive lacks, copied to it with
 * their ids, so that the archive's own foreign keys hold and it can be read
 * on its own: COPY out of the warehouse into a temporary table there, then
 * the rows of ids it does not have.  The table's name and columns come from
 * the catalog, quoted by PostgreSQL (regclass, quote_ident).
 */
static int dictionary(PGconn *p, PGconn *a, const char *table, struct ioa_buf *err)
{
	static const char cols_sql[] =
		"SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute "
		"WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped";
	const char *tp[] = {table};
	char cols[2048];
	struct ioa_buf data = IOA_BUF_INIT((size_t)1 << 30), sql = IOA_BUF_INIT(1 << 16);
	PGresult *res;
	int rc, n;

	rc = value(p, cols_sql, 1, tp, cols, sizeof(cols), err);
	rc = rc ? rc : ioa_buf_addf(&sql, "CREATE TEMP TABLE archive_dictionary (LIKE %s)", table);
	rc = rc ? rc : ioa_db_script(a, sql.data, err);
	ioa_buf_reset(&sql);
	rc = rc ? rc : ioa_buf_addf(&sql, "COPY (SELECT %s FROM %s) TO STDOUT", cols, table);
	res = rc ? NULL : PQexec(p, sql.data);
	if (!rc && PQresultStatus(res) != PGRES_COPY_OUT) {
		ioa_buf_addf(err, "cannot read %s: %s", table, PQerrorMessage(p));
		rc = -EIO;
	}
	PQclear(res);
	ioa_buf_reset(&sql);
	rc = rc ? rc : ioa_buf_addf(&sql, "COPY archive_dictionary (%s) FROM STDIN", cols);
	rc = rc ? rc : ioa_db_copy_begin(a, sql.data, err);
	while (!rc) {
		char *row = NULL;

		if ((n = PQgetCopyData(p, &row, 0)) < 0)
			break;
		ioa_buf_reset(&data);
		rc = ioa_buf_add(&data, row, (size_t)n);
		PQfreemem(row);
		rc = rc ? rc : ioa_db_copy_put(a, &data, err);
	}
	while ((res = PQgetResult(p))) {
		if (!rc && PQresultStatus(res) != PGRES_COMMAND_OK) {
			ioa_buf_addf(err, "cannot read %s: %s", table, PQresultErrorMessage(res));
			rc = -EIO;
		}
		PQclear(res);
	}
	rc = rc ? rc : ioa_db_copy_end(a, err, NULL);
	ioa_buf_reset(&sql);
	rc = rc ? rc
		: ioa_buf_addf(&sql,
			       "INSERT INTO %s (%s) OVERRIDING SYSTEM VALUE SELECT %s FROM "
			       "archive_dictionary ON CONFLICT DO NOTHING",
			       table, cols, cols);
	rc = rc ? rc : ioa_db_script(a, sql.data, err);
	ioa_buf_reset(&data);
	ioa_db_script(a, "DROP TABLE IF EXISTS archive_dictionary", &data);
	ioa_buf_release(&data);
	ioa_buf_release(&sql);
	return rc;
}

/* Every dictionary the partitions refer to, copied to the archive. */
static int dictionaries(PGconn *p, PGconn *a, struct ioa_buf *err)
{
	static const char sql[] =
		"SELECT DISTINCT c.confrelid::regclass::text FROM pg_constraint c "
		"JOIN pg_inherits i ON i.inhrelid = c.conrelid "
		"JOIN ioatlas.partitioned_tables t ON i.inhparent = format('ioatlas.%I', "
		"t.name)::regclass WHERE c.contype = 'f' ORDER BY 1";
	int rc, i;
	PGresult *res = ioa_db_query(p, sql, 0, NULL, err, &rc, NULL);

	for (i = 0; !rc && i < PQntuples(res); i++)
		rc = dictionary(p, a, PQgetvalue(res, i, 0), err);
	PQclear(res);
	return rc;
}

/* Copies and swaps, in the transaction the caller opened; rows: those moved. */
static int move(PGconn *p, const char *server, const char *start, const char *suffix,
		long long *rows, struct ioa_buf *err)
{
	/* The local partitions locked against writes, and renamed out of the way. */
	static const char aside[] =
		"SELECT 'LOCK TABLE ' || string_agg(format('ioatlas.%I', name || '_' || $1), ', ' "
		"ORDER BY name) || ' IN SHARE MODE; ' || string_agg(format('ALTER TABLE "
		"ioatlas.%I RENAME TO %I', name || '_' || $1, name || '_' || $1 || '_local'), '; ' "
		"ORDER BY name) FROM ioatlas.partitioned_tables";
	static const char import[] =
		"SELECT format('IMPORT FOREIGN SCHEMA ioatlas LIMIT TO (%s) FROM SERVER %I INTO "
		"ioatlas', string_agg(format('%I', name || '_' || $1), ', ' ORDER BY name), "
		"$2::text) FROM ioatlas.partitioned_tables";
	/* Every column by name: the archive's columns may stand in another order. */
	static const char copy[] =
		"SELECT string_agg(format('DELETE FROM ioatlas.%1$I; INSERT INTO ioatlas.%1$I "
		"(%2$s) "
		"SELECT %2$s FROM ioatlas.%3$I', t.part, t.cols, t.part || '_local'), '; ' ORDER "
		"BY "
		"t.part) FROM (SELECT p.name || '_' || $1 AS part, "
		"(SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) "
		"FROM pg_attribute a WHERE a.attrelid = format('ioatlas.%I', p.name)::regclass "
		"AND a.attnum > 0 AND NOT a.attisdropped) AS cols "
		"FROM ioatlas.partitioned_tables p) t";
	static const char counts[] =
		"SELECT 'SELECT ' || string_agg(format('(SELECT count(*) FROM ioatlas.%1$I) - "
		"(SELECT count(*) FROM ioatlas.%2$I)', name || '_' || $1 || '_local', name || '_' "
		"|| "
		"$1), ' + ' ORDER BY name) || ', ' || string_agg(format('(SELECT count(*) FROM "
		"ioatlas.%I)', name || '_' || $1 || '_local'), ' + ' ORDER BY name) "
		"FROM ioatlas.partitioned_tables";
	/* A partition must carry its parent's CHECK constraints (declared, on a foreign table). */
	static const char checks[] =
		"SELECT coalesce(string_agg(format('ALTER FOREIGN TABLE ioatlas.%I ADD CONSTRAINT "
		"%I "
		"%s', t.name || '_' || $1, c.conname, pg_get_constraintdef(c.oid)), '; '), 'SELECT "
		"1') FROM ioatlas.partitioned_tables t JOIN pg_constraint c ON c.conrelid = "
		"format('ioatlas.%I', t.name)::regclass AND c.contype = 'c'";
	static const char swap[] =
		"SELECT string_agg(format('ALTER TABLE ioatlas.%1$I DETACH PARTITION ioatlas.%2$I; "
		"DROP TABLE ioatlas.%2$I; ALTER TABLE ioatlas.%1$I ATTACH PARTITION ioatlas.%3$I "
		"FOR VALUES FROM (%4$L) TO (%5$L)', name, name || '_' || $1 || '_local', name || "
		"'_' "
		"|| $1, $2::timestamptz, $2::timestamptz + interval '1 month'), '; ' ORDER BY "
		"name) "
		"FROM ioatlas.partitioned_tables";
	const char *params[] = {suffix, server};
	char text[16384], moved[32] = "0", diff[32] = "";
	PGresult *res;
	int rc;

	rc = built(p, aside, 1, params, err);
	rc = rc ? rc : built(p, import, 2, params, err);
	rc = rc ? rc : built(p, copy, 1, params, err);
	rc = rc ? rc : value(p, counts, 1, params, text, sizeof(text), err);
	if (rc)
		return rc;
	res = ioa_db_query(p, text, 0, NULL, err, &rc, NULL);
	if (!rc) {
		snprintf(diff, sizeof(diff), "%s", PQgetvalue(res, 0, 0));
		snprintf(moved, sizeof(moved), "%s", PQgetvalue(res, 0, 1));
	}
	PQclear(res);
	if (!rc && strcmp(diff, "0")) {
		ioa_buf_addf(err,
			     "the archive holds %s rows fewer than the warehouse after the copy: "
			     "nothing moved",
			     diff);
		return -EIO;
	}
	*rows = strtoll(moved, NULL, 10);
	rc = rc ? rc : built(p, checks, 1, params, err);
	params[1] = start;
	rc = rc ? rc : built(p, swap, 2, params, err);
	if (!rc) {
		const char *rec[] = {start, server, moved};

		rc = ioa_db_exec(p,
				 "INSERT INTO ioatlas.archived_months (month, server, rows) "
				 "VALUES ($1::timestamptz::date, $2, $3::bigint)",
				 3, rec, err);
	}
	return rc;
}

int wh_archive(PGconn *p, PGconn *a, const char *server, const char *month, struct ioa_buf *err)
{
	char start[32], suffix[8], vp[16], va[16];
	const char *params[] = {start};
	struct ioa_buf ignore = IOA_BUF_INIT(1024);
	long long rows = 0;
	int rc, local = 0, foreign = 0;

	if (parse_month(month, start, sizeof(start), suffix, sizeof(suffix))) {
		ioa_buf_addf(err, "'%s' is not a month (YYYY-MM)", month);
		return -EINVAL;
	}
	if (!server[0]) {
		ioa_buf_addstr(err, "no archive server: set warehouse.archive_server (the "
				    "postgres_fdw server, docs/scaling.md)");
		return -EINVAL;
	}
	rc = schema_version(p, vp, sizeof(vp), err);
	rc = rc ? rc : schema_version(a, va, sizeof(va), err);
	if (!rc && strcmp(vp, va)) {
		ioa_buf_addf(err,
			     "the archive's schema is at version %s, the warehouse's at %s: "
			     "migrate the archive first",
			     va, vp);
		return -EINVAL;
	}
	if (!rc) {
		const char *sp[] = {server};
		char found[8];

		rc = value(p, "SELECT count(*) FROM pg_foreign_server WHERE srvname = $1", 1, sp,
			   found, sizeof(found), err);
		if (!rc && strcmp(found, "1")) {
			ioa_buf_addf(err,
				     "no postgres_fdw server '%s' on the warehouse "
				     "(warehouse.archive_server; docs/scaling.md)",
				     server);
			return -EINVAL;
		}
	}
	rc = rc ? rc : partitions(p, suffix, &local, &foreign, err);
	if (!rc && local && foreign) {
		ioa_buf_addf(err,
			     "%s is partly archived (%d partitions foreign, %d local): see "
			     "ioatlas.archived_months",
			     month, foreign, local);
		return -EINVAL;
	}
	if (!rc && !local) {
		printf("warehouse: %s %s\n", month,
		       foreign ? "is archived already" : "has no partitions: nothing to move");
		return 0;
	}
	/* The archive's partitions of the month, as the warehouse's own function makes them. */
	rc = rc ? rc
		: ioa_db_exec(a, "SELECT ioatlas.ensure_partitions($1::timestamptz)", 1, params,
			      err);
	rc = rc ? rc : dictionaries(p, a, err);
	rc = rc ? rc : ioa_db_exec(p, "BEGIN", 0, NULL, err);
	if (rc)
		return rc;
	rc = ioa_db_exec(p,
			 "SELECT set_config('role', 'ioatlas_admin', true) WHERE pg_has_role("
			 "'ioatlas_admin', 'MEMBER') AND current_user <> 'ioatlas_admin'",
			 0, NULL, err);
	rc = rc ? rc : move(p, server, start, suffix, &rows, err);
	rc = rc ? rc : ioa_db_exec(p, "COMMIT", 0, NULL, err);
	if (rc) {
		ioa_db_exec(p, "ROLLBACK", 0, NULL, &ignore);
		ioa_buf_release(&ignore);
		return rc;
	}
	ioa_buf_release(&ignore);
	printf("warehouse: %s archived on server %s: %lld rows moved, its partitions now "
	       "foreign tables\n",
	       month, server, rows);
	return 0;
}
