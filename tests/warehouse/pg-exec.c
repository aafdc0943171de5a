/*
 * pg-exec — runs one SQL statement with parameters through libpq and prints
 * the result rows, fields separated by tabs, NULL as "\N".  Parameters are
 * sent separately from the statement (never spliced into it), so tests can
 * pass hostile strings as they are.  Connection settings come from the
 * PG* environment variables, as set by pg_start in tests/lib/pg-lib.sh.
 *
 *	pg-exec 'select $1::int + $2::int' 2 3      -> 5
 *
 * Exit status: 0 on success, 1 when the server refused, 2 on usage errors.
 */
#include <libpq-fe.h>
#include <stdio.h>

#include "ioa_log.h"

static void print_rows(const PGresult *res)
{
	int row, col;

	for (row = 0; row < PQntuples(res); row++) {
		for (col = 0; col < PQnfields(res); col++) {
			if (col)
				putchar('\t');
			fputs(PQgetisnull(res, row, col) ? "\\N" : PQgetvalue(res, row, col),
			      stdout);
		}
		putchar('\n');
	}
}

int main(int argc, char **argv)
{
	PGconn *conn;
	PGresult *res;
	int status = 1;

	ioa_log_set_progname("pg-exec");
	if (argc < 2) {
		ioa_error("usage: pg-exec SQL [PARAMETER...]");
		return 2;
	}

	conn = PQconnectdb("");
	if (PQstatus(conn) != CONNECTION_OK) {
		ioa_error("cannot connect to the database: %s", PQerrorMessage(conn));
		goto out;
	}
	res = PQexecParams(conn, argv[1], argc - 2, NULL, (const char *const *)argv + 2, NULL, NULL,
			   0);
	switch (PQresultStatus(res)) {
	case PGRES_TUPLES_OK:
		print_rows(res);
		status = 0;
		break;
	case PGRES_COMMAND_OK:
		status = 0;
		break;
	default:
		ioa_error("statement failed: %s", PQresultErrorMessage(res));
	}
	PQclear(res);
out:
	PQfinish(conn);
	return status;
}
