/*
 * ioa_db — the warehouse connection shared by the tools (collector,
 * migrations, analyses, reports): connect from the settings, run statements
 * with parameters (never values spliced into SQL), and stream rows with
 * COPY.  Errors come back as negative errnos with a one-line message in the
 * caller's buffer; -ECONNRESET means the connection is gone (the server
 * went away), which callers treat as "retry later", never as a bad log.
 */
#ifndef IOA_DB_H
#define IOA_DB_H

#include <libpq-fe.h>
#include <stddef.h>
#include <stdint.h>

#include "ioa_buf.h"
#include "ioa_conf.h"

/* The schema every table lives in. */
#define IOA_DB_SCHEMA "ioatlas"

/*
 * Connects with conninfo (libpq keywords or a URI; empty: libpq's defaults
 * from PG* variables, a service file, .pgpass), application_name set to
 * app, search_path to the warehouse schema.  NULL with err set on failure.
 */
PGconn *ioa_db_connect(const char *conninfo, const char *app, struct ioa_buf *err);

/*
 * The warehouse's settings (ioatlas.conf(5), "The warehouse").  A program
 * refuses a key under one of its own prefixes that it does not know, so
 * every program that reads one of them lists them all: IOA_DB_SETTINGS(s)
 * in its settings table.
 */
struct ioa_db_settings {
	char *conninfo;		/* the warehouse (the primary) */
	char *read_conninfo;	/* a streaming read replica for the readers, or "" */
	char *archive_server;	/* the postgres_fdw server of the archive, or "" */
	char *archive_conninfo; /* the archive's database, for `warehouse archive` */
};

/* One key a line, as the settings' checks find them (tests/packaging/t9006). */
/* clang-format off */
#define IOA_DB_SETTINGS(s)                                                                   \
	{"warehouse.conninfo", IOA_SET_TEXT, &(s)->conninfo, "",                             \
	 "libpq connection string (secrets in .pgpass or a service file)"},                  \
	{"warehouse.read_conninfo", IOA_SET_TEXT, &(s)->read_conninfo, "",                   \
	 "libpq connection string of a streaming read replica the readers (dashboard, "      \
	 "reports, history) use; empty: warehouse.conninfo"},                                \
	{"warehouse.archive_server", IOA_SET_TEXT, &(s)->archive_server, "",                 \
	 "the postgres_fdw server (on the warehouse) of the archive's database"},            \
	{"warehouse.archive_conninfo", IOA_SET_TEXT, &(s)->archive_conninfo, "",             \
	 "libpq connection string of the archive's database, for `archive`"}
/* clang-format on */

/*
 * The connection a reader uses (dashboard, reports, history): to
 * s->read_conninfo, a streaming replica, when it is set, else to s->conninfo.  On
 * a replica it first waits, up to wait_s seconds, until the replica has
 * replayed what the primary (conninfo) had written when asked, so that
 * what the nightly just stored is there to read; with the primary out of
 * reach, or the wait over, the replica serves what it has (said once).
 * NULL with err set when the connection fails.
 */
PGconn *ioa_db_connect_read(const struct ioa_db_settings *s, const char *app, double wait_s,
			    struct ioa_buf *err);

/*
 * Runs sql with n text parameters (NULL for SQL NULL).  Returns the result
 * (PGRES_COMMAND_OK or PGRES_TUPLES_OK; PQclear it) or NULL with err set.
 * rc, if given, gets 0, -ECONNRESET (connection lost) or -EIO (the
 * statement failed), and sqlstate, if given, the failure's SQLSTATE.
 */
PGresult *ioa_db_query(PGconn *conn, const char *sql, int n, const char *const *params,
		       struct ioa_buf *err, int *rc, char sqlstate[6]);

/*
 * As ioa_db_query(), for a statement run again and again (sql a string
 * constant): prepared on its connection the first time, executed by name
 * after.  Not thread-safe (a per-process table of what each connection made
 * by ioa_db_connect() has prepared).
 */
PGresult *ioa_db_query_prepared(PGconn *conn, const char *sql, int n, const char *const *params,
				struct ioa_buf *err, int *rc, char sqlstate[6]);

/* As ioa_db_query(), for statements without rows: 0, -ECONNRESET or -EIO. */
int ioa_db_exec(PGconn *conn, const char *sql, int n, const char *const *params,
		struct ioa_buf *err);

/*
 * Runs a script of several statements (a migration: trusted SQL shipped
 * with the program, never built from values); 0, -ECONNRESET or -EIO.
 */
int ioa_db_script(PGconn *conn, const char *sql, struct ioa_buf *err);

/*
 * A script (as ioa_db_script()) run while the caller does other work:
 * ioa_db_send() starts it, ioa_db_wait() waits for every result and gives
 * the first failure (0, -ECONNRESET or -EIO; sqlstate, if given, its
 * SQLSTATE).
 */
int ioa_db_send(PGconn *conn, const char *sql, struct ioa_buf *err);
int ioa_db_wait(PGconn *conn, struct ioa_buf *err, char sqlstate[6]);

/* COPY ... FROM STDIN: begin, send text-format data in pieces, end (0 or as above). */
int ioa_db_copy_begin(PGconn *conn, const char *sql, struct ioa_buf *err);
int ioa_db_copy_put(PGconn *conn, const struct ioa_buf *data, struct ioa_buf *err);
/* sqlstate, if given, gets the failure's SQLSTATE (a row the server refused, say). */
int ioa_db_copy_end(PGconn *conn, struct ioa_buf *err, char sqlstate[6]);

/* COPY text format: a field's text with \, tab, newline and CR escaped. */
int ioa_copy_text(struct ioa_buf *b, const void *bytes, size_t len);
/* bytea in its text form, \x followed by hex: a parameter's value. */
int ioa_bytea_text(struct ioa_buf *b, const void *bytes, size_t len);
/* A bytea field in COPY text format (\\x followed by hex). */
int ioa_copy_bytea(struct ioa_buf *b, const void *bytes, size_t len);

/*
 * COPY binary format (COPY ... FROM STDIN (FORMAT binary)): no text to
 * format or parse, for the big tables.  A stream is the header, rows (each
 * its field count, then its fields), the trailer.  Integers are sent
 * big-endian; timestamps as microseconds since 2000-01-01 UTC.
 */
int ioa_copyb_header(struct ioa_buf *b);
int ioa_copyb_trailer(struct ioa_buf *b);
int ioa_copyb_row(struct ioa_buf *b, uint16_t fields);
int ioa_copyb_i16(struct ioa_buf *b, int16_t v);
int ioa_copyb_i32(struct ioa_buf *b, int32_t v);
int ioa_copyb_i64(struct ioa_buf *b, int64_t v);
int ioa_copyb_f64(struct ioa_buf *b, double v);
int ioa_copyb_bytes(struct ioa_buf *b, const void *bytes, size_t len);
int ioa_copyb_null(struct ioa_buf *b);
/* ns since the Unix epoch as a timestamptz. */
int ioa_copyb_time(struct ioa_buf *b, uint64_t unix_ns);
/* One-dimensional arrays of bigint, integer and double precision, without NULLs. */
int ioa_copyb_i64_array(struct ioa_buf *b, const int64_t *v, uint32_t n);
int ioa_copyb_u32_array(struct ioa_buf *b, const uint32_t *v, uint32_t n);
int ioa_copyb_f64_array(struct ioa_buf *b, const double *v, uint32_t n);

#endif
