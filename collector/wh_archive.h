/*
 * wh_archive — a month of the warehouse moved to an archive server and
 * attached back as foreign partitions (postgres_fdw; docs/scaling.md).
 */
#ifndef WH_ARCHIVE_H
#define WH_ARCHIVE_H

#include <libpq-fe.h>

#include "ioa_buf.h"

/*
 * Moves month ("2026-10") from the warehouse (conn warehouse, as a member
 * of ioatlas_admin) to the archive database (conn archive, migrated to the
 * same version) reached from the warehouse through the postgres_fdw
 * server named server.  Says what it did on stdout.  0 (also when the
 * month is archived already or has no partitions), or -errno with err
 * set; on failure the warehouse is as it was.
 */
int wh_archive(PGconn *warehouse, PGconn *archive, const char *server, const char *month,
	       struct ioa_buf *err);

#endif
