-- 0006_scheduler — what the batch system says of a job besides its id (the
-- log's job keys 24 to 30, docs/log-format.md; today Slurm's), so reports
-- and queries can name a job as the site does: its step, array, partition,
-- account, name and nodes.  Display form; NULL when the log has none.
ALTER TABLE jobs
	ADD COLUMN job_step text,          -- SLURM_STEP_ID (none in a batch script's own step)
	ADD COLUMN array_job_id text,      -- SLURM_ARRAY_JOB_ID: the array's id (job_id: the task's)
	ADD COLUMN array_task_id text,     -- SLURM_ARRAY_TASK_ID
	ADD COLUMN job_partition text,     -- SLURM_JOB_PARTITION
	ADD COLUMN job_account text,       -- SLURM_JOB_ACCOUNT
	ADD COLUMN job_name text,          -- SLURM_JOB_NAME
	ADD COLUMN node_list text;         -- SLURM_JOB_NODELIST, compressed (node[01-04])
