-- 0002_views — views for the questions admins and users ask most, named
-- and documented in docs/warehouse.md.  Each is security_invoker: it reads
-- with the privileges and row-level security of whoever queries it, so a
-- user's own role sees only that user's jobs through it too.  Each keeps
-- the job's start_time, so that a period in the WHERE clause reaches the
-- partitions it needs and no others.

-- One row per job: who, what, how big, how long.
CREATE VIEW job_overview WITH (security_invoker = true) AS
SELECT j.id AS job, j.start_time, j.end_time,
       extract(epoch FROM j.end_time - j.start_time) AS seconds,
       j.scheduler, j.job_id, u.name AS user_name, u.uid, e.display AS executable,
       j.args_display AS args, j.nprocs, j.nnodes, j.bytes_read, j.bytes_written,
       j.runtime_version, j.folded, j.ledger -- ingest_ledger.id (staff only): the log
FROM jobs j
JOIN users u ON u.id = j.user_id
JOIN executables e ON e.id = j.exe_id;

-- One row per job and file system: the bytes each job moved on each.
CREATE VIEW job_file_system_bytes WITH (security_invoker = true) AS
SELECT r.job, r.start_time, fs.display AS mount_point, fs.fs_type,
       sum(r.bytes_read) AS bytes_read, sum(r.bytes_written) AS bytes_written,
       count(*) AS records
FROM records r
JOIN file_systems fs ON fs.id = r.fs
WHERE r.module <> 2 -- MPI-IO bytes are also counted by the POSIX calls beneath them
GROUP BY r.job, r.start_time, fs.display, fs.fs_type;

-- One row per job and file it touched, by name.
CREATE VIEW job_file_names WITH (security_invoker = true) AS
SELECT f.job, f.start_time, f.record_id, n.sha256 AS file, n.display AS file_name,
       fs.display AS mount_point, fs.fs_type
FROM (SELECT DISTINCT job, start_time, record_id, file, fs FROM records) f
JOIN file_names n ON n.sha256 = f.file
LEFT JOIN file_systems fs ON fs.id = f.fs;

-- Every counter of every record, by name: one row per counter.
CREATE VIEW record_counters WITH (security_invoker = true) AS
SELECT r.job, r.start_time, m.name AS module, r.rank, n.display AS file_name, c.name AS counter,
       r.counters[c.position]::numeric AS value -- exact for 64-bit counters and for doubles
FROM records r
JOIN modules m ON m.id = r.module
JOIN counter_names c ON c.module = r.module AND c.kind = 'counter'
LEFT JOIN file_names n ON n.sha256 = r.file
UNION ALL
SELECT r.job, r.start_time, m.name, r.rank, n.display, c.name, r.fcounters[c.position]::numeric
FROM records r
JOIN modules m ON m.id = r.module
JOIN counter_names c ON c.module = r.module AND c.kind = 'fcounter'
LEFT JOIN file_names n ON n.sha256 = r.file;

-- The collector's work by day and outcome.
CREATE VIEW ingest_daily WITH (security_invoker = true) AS
SELECT date_trunc('day', finished_at) AS day, status, count(*) AS logs, sum(size) AS bytes
FROM ingest_ledger
GROUP BY 1, 2;

GRANT SELECT ON job_overview, job_file_system_bytes, job_file_names, record_counters
	TO ioatlas_reader, ioatlas_user;
GRANT SELECT ON ingest_daily TO ioatlas_reader;
