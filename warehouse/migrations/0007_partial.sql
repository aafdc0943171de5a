-- 0007_partial — jobs whose log was recovered from what their processes
-- left (a job killed by its time limit, the OOM killer, a crash, exit()
-- without MPI_Finalize, MPI_Abort): the log's job key 31 `partial`
-- (common/ioa_logfmt.h), so that queries, reports and the dashboard can
-- tell such a job from a complete one and say how it ended.  A log
-- without the key is complete: partial false, the rest NULL.  The
-- collector keeps a field only when it is well formed (common/
-- ioa_partial.h); a malformed one is NULL, the job still partial.
ALTER TABLE jobs
	ADD COLUMN partial boolean NOT NULL DEFAULT false, -- the log was recovered, not written at the end
	ADD COLUMN partial_how text                        -- how the processes ended
		CHECK (partial_how IN ('signal', 'killed', 'exit', 'abort')),
	ADD COLUMN partial_signal integer,      -- how = signal: its number (1-127, as Linux numbers them)
	ADD COLUMN partial_abort_code integer,  -- how = abort: MPI_Abort's error code
	ADD COLUMN partial_reason text,         -- the scheduler's word (TIMEOUT, CANCELLED ...), display form
	ADD COLUMN partial_ranks text,          -- the ranks recovered, "0-3,5"
	ADD COLUMN partial_missing text,        -- the ranks that left nothing, "4-7"
	ADD COLUMN partial_until_first timestamptz, -- the least current recovered rank recorded until then
	ADD COLUMN partial_until_last timestamptz;  -- the most current one until then

-- The overview says which jobs are partial (a new last column).
CREATE OR REPLACE VIEW job_overview WITH (security_invoker = true) AS
SELECT j.id AS job, j.start_time, j.end_time,
       extract(epoch FROM j.end_time - j.start_time) AS seconds,
       j.scheduler, j.job_id, u.name AS user_name, u.uid, e.display AS executable,
       j.args_display AS args, j.nprocs, j.nnodes, j.bytes_read, j.bytes_written,
       j.runtime_version, j.folded, j.ledger, -- ingest_ledger.id (staff only): the log
       j.recorded_user, -- the name the log recorded: display only, never who ran it
       j.partial        -- recovered from a killed job's leftovers (jobs.partial_*: how)
FROM jobs j
JOIN users u ON u.id = j.user_id
JOIN executables e ON e.id = j.exe_id;
