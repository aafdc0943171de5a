/*
 * ioa_db — the warehouse connection (see ioa_db.h).
 */
#include "ioa_db.h"

#include <errno.h>
#include <string.h>

/* The server's one-line message: libpq's ends with a newline and may hold more lines. */
static void set_error(struct ioa_buf *err, const char *what, const char *msg)
{
	size_t n = strcspn(msg, "\n");

	ioa_buf_reset(err);
	ioa_buf_addf(err, "%s: %.*s", what, (int)n, msg);
}

static int conn_rc(PGconn *conn)
{
	return PQstatus(conn) == CONNECTION_OK ? -EIO : -ECONNRESET;
}

PGconn *ioa_db_connect(const char *conninfo, const char *app, struct ioa_buf *err)
{
	const char *keys[] = {"dbname", "application_name", "options", NULL};
	const char *values[] = {conninfo ? conninfo : "", app,
				"-c search_path=" IOA_DB_SCHEMA " -c client_min_messages=warning",
				NULL};
	PGconn *conn;

	/* expand_dbname: conninfo may be keywords or a URI; what it sets wins over app and options.
	 */
	conn = PQconnectdbParams(keys, values, 1);
	if (!conn) {
		set_error(err, "cannot connect to the warehouse", "out of memory");
		return NULL;
	}
	if (PQstatus(conn) != CONNECTION_OK) {
		set_error(err, "cannot connect to the warehouse", PQerrorMessage(conn));
		PQfinish(conn);
		return NULL;
	}
	return conn;
}

PGresult *ioa_db_query(PGconn *conn, const char *sql, int n, const char *const *params,
		       struct ioa_buf *err, int *rc, char sqlstate[6])
{
	PGresult *res = PQexecParams(conn, sql, n, NULL, params, NULL, NULL, 0);
	ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
	const char *state;

	if (sqlstate)
		sqlstate[0] = '\0';
	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
		if (rc)
			*rc = 0;
		return res;
	}
	state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	if (sqlstate && state)
		snprintf(sqlstate, 6, "%s", state);
	set_error(err, "statement failed", res ? PQresultErrorMessage(res) : PQerrorMessage(conn));
	if (rc)
		*rc = conn_rc(conn);
	PQclear(res);
	return NULL;
}

int ioa_db_exec(PGconn *conn, const char *sql, int n, const char *const *params,
		struct ioa_buf *err)
{
	int rc;
	PGresult *res = ioa_db_query(conn, sql, n, params, err, &rc, NULL);

	PQclear(res);
	return rc;
}

int ioa_db_script(PGconn *conn, const char *sql, struct ioa_buf *err)
{
	PGresult *res = PQexec(conn, sql);
	ExecStatusType st = res ? PQresultStatus(res) : PGRES_FATAL_ERROR;
	int rc = 0;

	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		set_error(err, "statement failed",
			  res ? PQresultErrorMessage(res) : PQerrorMessage(conn));
		rc = conn_rc(conn);
	}
	PQclear(res);
	return rc;
}

int ioa_db_copy_begin(PGconn *conn, const char *sql, struct ioa_buf *err)
{
	PGresult *res = PQexec(conn, sql);
	int ok = res && PQresultStatus(res) == PGRES_COPY_IN;

	if (!ok)
		set_error(err, "COPY failed",
			  res ? PQresultErrorMessage(res) : PQerrorMessage(conn));
	PQclear(res);
	return ok ? 0 : conn_rc(conn);
}

int ioa_db_copy_put(PGconn *conn, const struct ioa_buf *data, struct ioa_buf *err)
{
	if (!data->len || PQputCopyData(conn, data->data, (int)data->len) == 1)
		return 0;
	set_error(err, "COPY failed", PQerrorMessage(conn));
	return conn_rc(conn);
}

int ioa_db_copy_end(PGconn *conn, struct ioa_buf *err)
{
	PGresult *res;
	int rc = 0;

	if (PQputCopyEnd(conn, NULL) != 1) {
		set_error(err, "COPY failed", PQerrorMessage(conn));
		return conn_rc(conn);
	}
	while ((res = PQgetResult(conn))) {
		if (PQresultStatus(res) != PGRES_COMMAND_OK && !rc) {
			set_error(err, "COPY failed", PQresultErrorMessage(res));
			rc = conn_rc(conn);
		}
		PQclear(res);
	}
	return rc;
}

int ioa_copy_text(struct ioa_buf *b, const void *bytes, size_t len)
{
	const unsigned char *p = bytes;
	size_t i, start = 0;
	int rc = 0;

	for (i = 0; i < len && !rc; i++) {
		const char *esc = p[i] == '\\'	 ? "\\\\"
				  : p[i] == '\t' ? "\\t"
				  : p[i] == '\n' ? "\\n"
				  : p[i] == '\r' ? "\\r"
						 : NULL;

		if (!esc)
			continue;
		rc = ioa_buf_add(b, p + start, i - start);
		rc = rc ? rc : ioa_buf_addstr(b, esc);
		start = i + 1;
	}
	return rc ? rc : ioa_buf_add(b, p + start, len - start);
}

int ioa_copy_bytea(struct ioa_buf *b, const void *bytes, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = bytes;
	size_t i;
	int rc = ioa_buf_grow(b, 3 + 2 * len);

	if (rc)
		return rc;
	memcpy(b->data + b->len, "\\\\x", 3);
	b->len += 3;
	for (i = 0; i < len; i++) {
		b->data[b->len++] = hex[p[i] >> 4];
		b->data[b->len++] = hex[p[i] & 15];
	}
	b->data[b->len] = '\0';
	return 0;
}
