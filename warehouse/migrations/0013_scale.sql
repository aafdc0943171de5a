-- 0013_scale — the warehouse at a site's scale (docs/scaling.md).
--
-- Every query of the dashboard is served by an index: its periods ("the
-- last 7 days") by the jobs' start time, the collector's work by the
-- ledger's finishing time (tests/history/t7002 plans them all).
CREATE INDEX jobs_start ON jobs (start_time);
CREATE INDEX ingest_ledger_finished ON ingest_ledger (finished_at);

-- Old months on a second server: `ioatlas
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
