-- 0009_layers — the modules above MPI-IO and the Lustre layouts, as
-- Darshan logs bring them (docs/darshan.md; their counters in
-- docs/counters.md): their records land in `records` like the others, under
-- these ids (enum ioa_module, common/ioa_counters.h).  A job's byte totals
-- stay those of POSIX and STDIO: the layers above count the same bytes
-- again.
INSERT INTO modules VALUES
	(3, 'H5F'), (4, 'H5D'), (5, 'PNETCDF_FILE'), (6, 'PNETCDF_VAR'), (7, 'LUSTRE');

CREATE OR REPLACE VIEW job_file_system_bytes WITH (security_invoker = true) AS
SELECT r.job, r.start_time, fs.display AS mount_point, fs.fs_type,
       sum(r.bytes_read) AS bytes_read, sum(r.bytes_written) AS bytes_written,
       count(*) AS records
FROM records r
JOIN file_systems fs ON fs.id = r.fs
WHERE r.module IN (0, 1) -- POSIX and STDIO: the layers above count the same bytes again
GROUP BY r.job, r.start_time, fs.display, fs.fs_type;
