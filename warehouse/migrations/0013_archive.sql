-- 0013_archive — old months on a second server (docs/scaling.md): `ioatlas
-- warehouse archive` copies a month's partitions to an archive server,
-- checks the copy, and attaches them back as foreign tables (postgres_fdw)
-- that every query through the partitioned tables still reaches (the
-- partitions are keyed per month since 0012, as foreign partitions need).
-- The server and its user mapping are the admin's (CREATE EXTENSION
-- postgres_fdw needs a superuser); this records what was moved where.
CREATE TABLE archived_months (
	month date PRIMARY KEY,
	server text NOT NULL,
	archived_at timestamptz NOT NULL DEFAULT now(),
	rows bigint NOT NULL -- rows moved, over every partitioned table
);
GRANT SELECT ON archived_months TO ioatlas_reader;
