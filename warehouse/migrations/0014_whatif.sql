-- 0014_whatif — what-if replays of a job's I/O kernel (`ioatlas kernel
-- what-if --job`): the kernel run alternately as the job ran and with one
-- change (a hint at every MPI_File_open, a transfer size, an alignment), the
-- medians of each, and the finding of the job's analyses the change answers,
-- if one: the job's report shows the replay beside that finding.
CREATE TABLE job_whatif (
	job bigint NOT NULL,
	start_time timestamptz NOT NULL,   -- the job's
	change text NOT NULL,              -- the kernel's options that made it: "--hint cb_nodes=4"
	finding text,                      -- the code of the finding it answers, or NULL
	kernel text NOT NULL,              -- the kernel replayed (its folder or name@version)
	runs integer NOT NULL CHECK (runs > 0),
	base_seconds double precision NOT NULL CHECK (base_seconds >= 0),       -- medians
	changed_seconds double precision NOT NULL CHECK (changed_seconds >= 0),
	run_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (job, start_time, change)
);

GRANT SELECT, INSERT, UPDATE, DELETE ON job_whatif TO ioatlas_reader;
GRANT SELECT ON job_whatif TO ioatlas_user;
ALTER TABLE job_whatif ENABLE ROW LEVEL SECURITY;
CREATE POLICY staff ON job_whatif TO ioatlas_ingest, ioatlas_reader USING (true) WITH CHECK (true);
CREATE POLICY own_jobs ON job_whatif FOR SELECT TO ioatlas_user USING (job IN (SELECT id FROM jobs));
