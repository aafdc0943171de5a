/*
 * ioa_db — the warehouse connection (see ioa_db.h).
 */
#include "ioa_db.h"

#include <errno.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include <sys/socket.h>

#include "ioa_fault.h"
#include "ioa_log.h"

/* The server's one-line message: libpq's ends with a newline and may hold more lines. */
static void set_error(struct ioa_buf *err, const char *what, const char *msg)
{
	size_t n = strcspn(msg, "\n");

	ioa_buf_reset(err);
	ioa_buf_addf(err, "%s: %.*s", what, (int)n, msg);
}

/*
 * A fault point of test builds on a call to the server: when it fires the
 * connection is cut, as when the server goes away, and the call then
 * fails as it would.
 */
static PGconn *faulty(PGconn *conn, const char *point)
{
	(void)point; /* unused where faults are not compiled in */
	if (IOA_FAULT(point) && conn && PQsocket(conn) >= 0)
		shutdown(PQsocket(conn), SHUT_RDWR);
	return conn;
}

static int conn_rc(PGconn *conn)
{
	return PQstatus(conn) == CONNECTION_OK ? -EIO : -ECONNRESET;
}

/* The statements each connection has prepared (ioa_db_query_prepared), by their text's address. */
#define PREPARED_MAX 64
static struct {
	const PGconn *conn;
	const char *sql;
} prepared[PREPARED_MAX];

static void forget_prepared(const PGconn *conn)
{
	size_t i;

	for (i = 0; i < PREPARED_MAX; i++)
		if (prepared[i].conn == conn)
			prepared[i].conn = NULL;
}

PGconn *ioa_db_connect(const char *conninfo, const char *app, struct ioa_buf *err)
{
	const char *keys[] = {"dbname", "application_name", "options", NULL};
	const char *values[] = {conninfo ? conninfo : "", app,
				"-c search_path=" IOA_DB_SCHEMA " -c client_min_messages=warning",
				NULL};
	PGconn *conn;

	/*
	 * expand_dbname: conninfo may be keywords or a URI; app and options,
	 * later in the arrays, win over what it sets.
	 */
	conn = IOA_FAULT("db-connect") ? NULL : PQconnectdbParams(keys, values, 1);
	if (!conn) {
		set_error(err, "cannot connect to the warehouse", "out of memory");
		return NULL;
	}
	if (PQstatus(conn) != CONNECTION_OK) {
		set_error(err, "cannot connect to the warehouse", PQerrorMessage(conn));
		PQfinish(conn);
		return NULL;
	}
	/* A new connection may have the address of a closed one: it has prepared nothing. */
	forget_prepared(conn);
	return conn;
}

static PGresult *checked(PGconn *conn, PGresult *res, struct ioa_buf *err, int *rc,
			 char sqlstate[6]);

PGconn *ioa_db_connect_read(const struct ioa_db_settings *s, const char *app, double wait_s,
			    struct ioa_buf *err)
{
	const char *read_conninfo = s->read_conninfo, *conninfo = s->conninfo;
	struct ioa_buf ignore = IOA_BUF_INIT(IOA_LOG_LINE_MAX);
	PGconn *primary, *replica;
	char lsn[64] = "";
	double waited = 0;

	if (!read_conninfo || !read_conninfo[0])
		return ioa_db_connect(conninfo, app, err);
	primary = ioa_db_connect(conninfo, app, &ignore);
	if (primary) {
		PGresult *res = ioa_db_query(primary,
					     "SELECT CASE WHEN pg_is_in_recovery() THEN NULL "
					     "ELSE pg_current_wal_lsn()::text END",
					     0, NULL, &ignore, NULL, NULL);

		if (res && !PQgetisnull(res, 0, 0))
			snprintf(lsn, sizeof(lsn), "%s", PQgetvalue(res, 0, 0));
		PQclear(res);
		PQfinish(primary);
	}
	replica = ioa_db_connect(read_conninfo, app, err);
	while (replica && lsn[0]) {
		const char *p[] = {lsn};
		PGresult *res = ioa_db_query(replica,
					     "SELECT NOT pg_is_in_recovery() OR "
					     "pg_last_wal_replay_lsn() >= $1::pg_lsn",
					     1, p, &ignore, NULL, NULL);
		int caught_up = !res || !strcmp(PQgetvalue(res, 0, 0), "t");

		PQclear(res);
		if (caught_up)
			break;
		if (waited >= wait_s) {
			ioa_warning(
				"the read replica has not replayed the primary's writes up to %s "
				"after %.0f s: reading what it has",
				lsn, waited);
			break;
		}
		nanosleep(&(struct timespec){0, 100000000}, NULL);
		waited += 0.1;
	}
	ioa_buf_release(&ignore);
	return replica;
}

PGresult *ioa_db_query(PGconn *conn, const char *sql, int n, const char *const *params,
		       struct ioa_buf *err, int *rc, char sqlstate[6])
{
	return checked(conn,
		       PQexecParams(faulty(conn, "db-query"), sql, n, NULL, params, NULL, NULL, 0),
		       err, rc, sqlstate);
}

/* The result's verdict, as ioa_db_query() gives it. */
static PGresult *checked(PGconn *conn, PGresult *res, struct ioa_buf *err, int *rc,
			 char sqlstate[6])
{
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

PGresult *ioa_db_query_prepared(PGconn *conn, const char *sql, int n, const char *const *params,
				struct ioa_buf *err, int *rc, char sqlstate[6])
{
	char name[32];
	size_t i, slot = PREPARED_MAX;

	for (i = 0; i < PREPARED_MAX; i++) {
		if (prepared[i].conn == conn && prepared[i].sql == sql)
			break;
		if (!prepared[i].conn && slot == PREPARED_MAX)
			slot = i;
	}
	if (i == PREPARED_MAX) {
		/* Nothing left to remember it by: run it as it is. */
		if (slot == PREPARED_MAX)
			return ioa_db_query(conn, sql, n, params, err, rc, sqlstate);
		PGresult *made;

		snprintf(name, sizeof(name), "ioatlas_%zu", slot);
		made = checked(conn, PQprepare(faulty(conn, "db-query"), name, sql, n, NULL), err,
			       rc, sqlstate);
		if (!made)
			return NULL;
		PQclear(made);
		prepared[slot].conn = conn;
		prepared[slot].sql = sql;
		i = slot;
	}
	snprintf(name, sizeof(name), "ioatlas_%zu", i);
	return checked(conn,
		       PQexecPrepared(faulty(conn, "db-query"), name, n, params, NULL, NULL, 0),
		       err, rc, sqlstate);
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
	PGresult *res = PQexec(faulty(conn, "db-query"), sql);
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

int ioa_db_send(PGconn *conn, const char *sql, struct ioa_buf *err)
{
	if (PQsendQuery(faulty(conn, "db-query"), sql))
		return 0;
	set_error(err, "statement failed", PQerrorMessage(conn));
	return conn_rc(conn);
}

int ioa_db_wait(PGconn *conn, struct ioa_buf *err, char sqlstate[6])
{
	PGresult *res;
	int rc = 0, failed;

	if (sqlstate)
		sqlstate[0] = '\0';
	while ((res = PQgetResult(faulty(conn, "db-query")))) {
		/* checked() clears a failed result; only the first failure is told. */
		failed = PQresultStatus(res) != PGRES_COMMAND_OK &&
			 PQresultStatus(res) != PGRES_TUPLES_OK;
		if (failed && !rc)
			checked(conn, res, err, &rc, sqlstate);
		else
			PQclear(res);
	}
	return rc;
}

int ioa_db_copy_begin(PGconn *conn, const char *sql, struct ioa_buf *err)
{
	PGresult *res = PQexec(faulty(conn, "db-copy"), sql);
	int ok = res && PQresultStatus(res) == PGRES_COPY_IN;

	if (!ok)
		set_error(err, "COPY failed",
			  res ? PQresultErrorMessage(res) : PQerrorMessage(conn));
	PQclear(res);
	return ok ? 0 : conn_rc(conn);
}

int ioa_db_copy_put(PGconn *conn, const struct ioa_buf *data, struct ioa_buf *err)
{
	if (!data->len || PQputCopyData(faulty(conn, "db-copy"), data->data, (int)data->len) == 1)
		return 0;
	set_error(err, "COPY failed", PQerrorMessage(conn));
	return conn_rc(conn);
}

int ioa_db_copy_end(PGconn *conn, struct ioa_buf *err, char sqlstate[6])
{
	PGresult *res;
	int rc = 0;

	if (sqlstate)
		sqlstate[0] = '\0';
	if (PQputCopyEnd(faulty(conn, "db-copy"), NULL) != 1) {
		set_error(err, "COPY failed", PQerrorMessage(conn));
		return conn_rc(conn);
	}
	while ((res = PQgetResult(conn))) {
		if (PQresultStatus(res) != PGRES_COMMAND_OK && !rc) {
			const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);

			if (sqlstate && state)
				snprintf(sqlstate, 6, "%s", state);
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

int ioa_bytea_text(struct ioa_buf *b, const void *bytes, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = bytes;
	size_t i;
	int rc = ioa_buf_grow(b, 2 + 2 * len);

	if (rc)
		return rc;
	b->data[b->len++] = '\\';
	b->data[b->len++] = 'x';
	for (i = 0; i < len; i++) {
		b->data[b->len++] = hex[p[i] >> 4];
		b->data[b->len++] = hex[p[i] & 15];
	}
	b->data[b->len] = '\0';
	return 0;
}

int ioa_copy_bytea(struct ioa_buf *b, const void *bytes, size_t len)
{
	/* COPY's text format takes the backslash of \x escaped. */
	int rc = ioa_buf_addstr(b, "\\");

	return rc ? rc : ioa_bytea_text(b, bytes, len);
}

/* ------------------------------------------------------------ COPY binary */

#define OID_INT4   23u
#define OID_INT8   20u
#define OID_FLOAT8 701u

static void put_be(unsigned char *p, uint64_t v, unsigned n)
{
	while (n--) {
		p[n] = (unsigned char)v;
		v >>= 8;
	}
}

static int add_be(struct ioa_buf *b, uint64_t v, unsigned n)
{
	int rc = ioa_buf_grow(b, n);

	if (rc)
		return rc;
	put_be((unsigned char *)b->data + b->len, v, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int ioa_copyb_header(struct ioa_buf *b)
{
	static const char sig[11] = "PGCOPY\n\377\r\n";
	int rc = ioa_buf_add(b, sig, sizeof(sig));

	rc = rc ? rc : add_be(b, 0, 4);	  /* flags */
	return rc ? rc : add_be(b, 0, 4); /* header extension */
}

int ioa_copyb_trailer(struct ioa_buf *b)
{
	return add_be(b, 0xffff, 2);
}

int ioa_copyb_row(struct ioa_buf *b, uint16_t fields)
{
	return add_be(b, fields, 2);
}

int ioa_copyb_i16(struct ioa_buf *b, int16_t v)
{
	int rc = add_be(b, 2, 4);

	return rc ? rc : add_be(b, (uint16_t)v, 2);
}

int ioa_copyb_i32(struct ioa_buf *b, int32_t v)
{
	int rc = add_be(b, 4, 4);

	return rc ? rc : add_be(b, (uint32_t)v, 4);
}

int ioa_copyb_i64(struct ioa_buf *b, int64_t v)
{
	int rc = add_be(b, 8, 4);

	return rc ? rc : add_be(b, (uint64_t)v, 8);
}

int ioa_copyb_f64(struct ioa_buf *b, double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	return ioa_copyb_i64(b, (int64_t)bits);
}

int ioa_copyb_bytes(struct ioa_buf *b, const void *bytes, size_t len)
{
	int rc = len > INT32_MAX ? -EOVERFLOW : add_be(b, len, 4);

	return rc ? rc : ioa_buf_add(b, bytes, len);
}

int ioa_copyb_null(struct ioa_buf *b)
{
	return add_be(b, 0xffffffffu, 4);
}

int ioa_copyb_time(struct ioa_buf *b, uint64_t unix_ns)
{
	/* PostgreSQL's epoch is 2000-01-01 00:00:00 UTC, 946684800 s after Unix's. */
	return ioa_copyb_i64(b, (int64_t)(unix_ns / 1000u) - (int64_t)946684800 * 1000000);
}

/* An array's header: one dimension of n elements from index 1, no NULLs. */
static int array_header(struct ioa_buf *b, uint32_t n, uint32_t oid, uint32_t elem)
{
	uint64_t len = 20 + (uint64_t)n * (4 + elem);
	int rc = len > INT32_MAX ? -EOVERFLOW : ioa_buf_grow(b, (size_t)len + 4);

	rc = rc ? rc : add_be(b, len, 4);
	rc = rc ? rc : add_be(b, 1, 4);	  /* dimensions */
	rc = rc ? rc : add_be(b, 0, 4);	  /* no NULLs */
	rc = rc ? rc : add_be(b, oid, 4); /* element type */
	rc = rc ? rc : add_be(b, n, 4);
	return rc ? rc : add_be(b, 1, 4); /* lower bound */
}

/* Elements of 8 bytes (bigint, or the bits of double precision), big-endian. */
static int array8(struct ioa_buf *b, const void *v, uint32_t n, uint32_t oid)
{
	const unsigned char *in = v;
	uint32_t i;
	int rc = array_header(b, n, oid, 8);
	unsigned char *p;

	if (rc)
		return rc;
	p = (unsigned char *)b->data + b->len;
	for (i = 0; i < n; i++, p += 12) {
		uint64_t bits;

		memcpy(&bits, in + (size_t)i * 8, sizeof(bits));
		put_be(p, 8, 4);
		put_be(p + 4, bits, 8);
	}
	b->len += (size_t)n * 12;
	b->data[b->len] = '\0';
	return 0;
}

int ioa_copyb_i64_array(struct ioa_buf *b, const int64_t *v, uint32_t n)
{
	return array8(b, v, n, OID_INT8);
}

int ioa_copyb_u32_array(struct ioa_buf *b, const uint32_t *v, uint32_t n)
{
	uint32_t i;
	int rc = array_header(b, n, OID_INT4, 4);
	unsigned char *p;

	if (rc)
		return rc;
	p = (unsigned char *)b->data + b->len;
	for (i = 0; i < n; i++, p += 8) {
		put_be(p, 4, 4);
		put_be(p + 4, v[i] > INT32_MAX ? INT32_MAX : v[i], 4);
	}
	b->len += (size_t)n * 8;
	b->data[b->len] = '\0';
	return 0;
}

int ioa_copyb_f64_array(struct ioa_buf *b, const double *v, uint32_t n)
{
	return array8(b, v, n, OID_FLOAT8);
}
