-- 0004_kernels — the I/O kernels published for jobs: a job's report links
-- to them.  The kernel batch adds a row when it publishes a job's kernel
-- into the site repository (url: where the repository serves it).
CREATE TABLE job_kernels (
	job bigint NOT NULL,
	start_time timestamptz NOT NULL,   -- the job's
	name text NOT NULL,
	version text NOT NULL,
	url text NOT NULL,
	published_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (job, start_time, name, version)
);

GRANT SELECT, INSERT, UPDATE, DELETE ON job_kernels TO ioatlas_reader;
GRANT SELECT ON job_kernels TO ioatlas_user;
ALTER TABLE job_kernels ENABLE ROW LEVEL SECURITY;
CREATE POLICY staff ON job_kernels TO ioatlas_ingest, ioatlas_reader USING (true) WITH CHECK (true);
CREATE POLICY own_jobs ON job_kernels FOR SELECT TO ioatlas_user USING (job IN (SELECT id FROM jobs));
