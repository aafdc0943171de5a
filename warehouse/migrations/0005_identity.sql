-- 0005_identity — a job belongs to the owner of its log file, never to the
-- name the log records.  The runtime takes that name from $USER when the
-- node's directory service does not answer, so a user could name any other
-- user there; the collector now passes the owner's uid and the name the
-- collector's host gives that uid (users keeps only those, so row-level
-- security and reports, which key on users.name, follow the owner), and
-- the recorded name travels on as display text in jobs.recorded_user.

-- NULL: ingested before this migration, when users.name was the recorded name.
ALTER TABLE jobs ADD COLUMN recorded_user text;

DROP FUNCTION ingest_job(timestamptz, timestamptz, bigint, text, bytea, text, text, text, bytea,
	text, integer, integer, text, text, integer, boolean);

-- p_uid and p_user: the attributed account (the log's owner, its name on the
-- collector's host); p_recorded_user: what the log says, for display.
CREATE FUNCTION ingest_job(p_start timestamptz, p_end timestamptz, p_uid bigint, p_user text,
			   p_exe bytea, p_exe_display text, p_scheduler text, p_job_id text,
			   p_args bytea, p_args_display text, p_nprocs integer, p_nnodes integer,
			   p_version text, p_settings text, p_flags integer, p_folded boolean,
			   p_recorded_user text)
RETURNS bigint LANGUAGE plpgsql SET search_path = ioatlas, pg_catalog AS $$
DECLARE
	u integer;
	e integer;
	j bigint;
BEGIN
	PERFORM ensure_partitions(p_start);
	SELECT id INTO u FROM users WHERE uid = p_uid AND name = p_user;
	IF u IS NULL THEN
		INSERT INTO users (uid, name) VALUES (p_uid, p_user)
			ON CONFLICT (uid, name) DO NOTHING RETURNING id INTO u;
		IF u IS NULL THEN
			SELECT id INTO u FROM users WHERE uid = p_uid AND name = p_user;
		END IF;
	END IF;
	SELECT id INTO e FROM executables WHERE sha256(path) = sha256(p_exe);
	IF e IS NULL THEN
		INSERT INTO executables (path, display) VALUES (p_exe, p_exe_display)
			ON CONFLICT (sha256(path)) DO NOTHING RETURNING id INTO e;
		IF e IS NULL THEN
			SELECT id INTO e FROM executables WHERE sha256(path) = sha256(p_exe);
		END IF;
	END IF;
	INSERT INTO jobs (start_time, end_time, ledger, scheduler, job_id, user_id, exe_id, args,
			  args_display, nprocs, nnodes, runtime_version, settings, log_flags,
			  folded, bytes_read, bytes_written, recorded_user)
		VALUES (p_start, p_end, 0, p_scheduler, p_job_id, u, e, p_args, p_args_display,
			p_nprocs, p_nnodes, p_version, p_settings, p_flags, p_folded, 0, 0,
			p_recorded_user)
		RETURNING id INTO j;
	RETURN j;
END
$$;

REVOKE EXECUTE ON FUNCTION ingest_job(timestamptz, timestamptz, bigint, text, bytea, text, text,
	text, bytea, text, integer, integer, text, text, integer, boolean, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ingest_job(timestamptz, timestamptz, bigint, text, bytea, text, text,
	text, bytea, text, integer, integer, text, text, integer, boolean, text) TO ioatlas_ingest;

-- The overview shows the recorded name beside the owner's (a new last column).
CREATE OR REPLACE VIEW job_overview WITH (security_invoker = true) AS
SELECT j.id AS job, j.start_time, j.end_time,
       extract(epoch FROM j.end_time - j.start_time) AS seconds,
       j.scheduler, j.job_id, u.name AS user_name, u.uid, e.display AS executable,
       j.args_display AS args, j.nprocs, j.nnodes, j.bytes_read, j.bytes_written,
       j.runtime_version, j.folded, j.ledger, -- ingest_ledger.id (staff only): the log
       j.recorded_user -- the name the log recorded: display only, never who ran it
FROM jobs j
JOIN users u ON u.id = j.user_id
JOIN executables e ON e.id = j.exe_id;
