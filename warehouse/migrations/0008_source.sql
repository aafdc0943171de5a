-- 0008_source — jobs whose log was imported from another tool's (a
-- Darshan log: docs/darshan.md): the log's job key 32 `source`
-- (common/ioa_logfmt.h), its fields as the collector keeps them
-- (common/ioa_source.h: tool, format, library, compression, incomplete,
-- left_out, skipped; "name=value" lines, each value in display form), so
-- that queries and reports can tell such a job, and what it cannot have
-- (time bins, an operation trace, ioatlas's own counters), from one the
-- runtime recorded.  NULL: the runtime's own log.
ALTER TABLE jobs
	ADD COLUMN source text;
