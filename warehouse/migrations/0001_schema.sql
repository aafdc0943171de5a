-- 0001_schema — the warehouse: the ingest ledger, the jobs and everything
-- a log holds, partitioned by the job's start time (one partition per
-- month, made by ioatlas.ensure_partitions() as logs arrive), the roles and
-- row-level security.  Applied by `ioatlas warehouse migrate` inside one
-- transaction with search_path = ioatlas; never edited once released: a
-- change is a new numbered file.

-- Roles are cluster-wide: made once, reused by every database.
DO $$
BEGIN
	IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ioatlas_admin') THEN
		CREATE ROLE ioatlas_admin NOLOGIN;
	END IF;
	IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ioatlas_ingest') THEN
		CREATE ROLE ioatlas_ingest NOLOGIN;
	END IF;
	IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ioatlas_reader') THEN
		CREATE ROLE ioatlas_reader NOLOGIN;
	END IF;
	IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ioatlas_user') THEN
		CREATE ROLE ioatlas_user NOLOGIN;
	END IF;
END
$$;

COMMENT ON ROLE ioatlas_admin IS 'ioatlas: owns the warehouse, runs migrations';
COMMENT ON ROLE ioatlas_ingest IS 'ioatlas: the collector; adds logs, nothing else';
COMMENT ON ROLE ioatlas_reader IS 'ioatlas: reports, dashboards and analyses; reads everything';
COMMENT ON ROLE ioatlas_user IS 'ioatlas: grant to a user''s own role (named as the Unix user) to see that user''s jobs';


-- Everything below belongs to ioatlas_admin (the first migration runs as a
-- superuser, or a role with CREATEROLE that is a member of ioatlas_admin).
ALTER SCHEMA ioatlas OWNER TO ioatlas_admin;
ALTER TABLE schema_migrations OWNER TO ioatlas_admin;
SET LOCAL ROLE ioatlas_admin;
-- ------------------------------------------------------------ the ledger

-- One row per log file the collector has finished with.  A collector
-- inserts the row in the same transaction as the job's data, so a log is
-- either wholly in the warehouse with its row or not at all: a collector
-- that dies mid-log leaves nothing behind, and the unique path makes a
-- second collector's insert of the same log a no-op.
CREATE TABLE ingest_ledger (
	id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	path text NOT NULL,                -- where the log was found
	size bigint NOT NULL CHECK (size >= 0),
	mtime timestamptz NOT NULL,
	content_hash bytea CHECK (octet_length(content_hash) = 32), -- SHA-256 (none: unreadable)
	status text NOT NULL CHECK (status IN ('ingested', 'duplicate', 'quarantined')),
	error text,                        -- why it was quarantined
	quarantine_path text,              -- where it was moved
	reader_version text NOT NULL,      -- the collector that read it
	collector text NOT NULL,           -- host:pid of that collector
	started_at timestamptz NOT NULL,
	finished_at timestamptz NOT NULL DEFAULT clock_timestamp(),
	job bigint,                        -- jobs.id when ingested
	duplicate_of bigint REFERENCES ingest_ledger (id),
	CHECK ((status = 'quarantined') = (error IS NOT NULL)),
	CHECK (content_hash IS NOT NULL OR status = 'quarantined'),
	CHECK ((status = 'ingested') = (job IS NOT NULL)),
	CHECK ((status = 'duplicate') = (duplicate_of IS NOT NULL))
);
CREATE UNIQUE INDEX ingest_ledger_path ON ingest_ledger (path);
-- The same content under another path is a duplicate, never a second job.
CREATE UNIQUE INDEX ingest_ledger_content ON ingest_ledger (content_hash)
	WHERE status = 'ingested';
CREATE INDEX ingest_ledger_status ON ingest_ledger (status, finished_at);

-- ------------------------------------------------------------ dictionaries

CREATE TABLE users (
	id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	uid bigint NOT NULL,
	name text NOT NULL,
	UNIQUE (uid, name)
);

-- Names are the exact bytes the program used; display is for people.
CREATE TABLE executables (
	id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	path bytea NOT NULL,
	display text NOT NULL
);
CREATE UNIQUE INDEX executables_path ON executables (sha256(path));

-- A name's key is its SHA-256: the collector computes it, so a job's files
-- are loaded without looking each name up.
CREATE TABLE file_names (
	sha256 bytea PRIMARY KEY CHECK (octet_length(sha256) = 32),
	name bytea NOT NULL,
	display text NOT NULL
);

CREATE TABLE file_systems (
	id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	mount_point bytea NOT NULL,
	display text NOT NULL,
	fs_type text NOT NULL
);
CREATE UNIQUE INDEX file_systems_mount ON file_systems (sha256(mount_point), fs_type);

-- The counter arrays' layout, per module (written by the collector that knows it).
CREATE TABLE counter_names (
	module smallint NOT NULL,          -- 0 POSIX, 1 STDIO, 2 MPI-IO
	kind text NOT NULL CHECK (kind IN ('counter', 'fcounter')),
	position integer NOT NULL,         -- 1-based, as in the arrays
	name text NOT NULL,
	PRIMARY KEY (module, kind, position)
);

CREATE TABLE modules (
	id smallint PRIMARY KEY,
	name text NOT NULL UNIQUE
);
INSERT INTO modules VALUES (0, 'POSIX'), (1, 'STDIO'), (2, 'MPI-IO');

-- ------------------------------------------------------------ per job, partitioned

CREATE TABLE jobs (
	id bigint GENERATED ALWAYS AS IDENTITY,
	start_time timestamptz NOT NULL,
	end_time timestamptz NOT NULL,
	ledger bigint NOT NULL,
	scheduler text NOT NULL,
	job_id text NOT NULL,              -- the scheduler's job id
	user_id integer NOT NULL REFERENCES users (id),
	exe_id integer NOT NULL REFERENCES executables (id),
	args bytea,
	args_display text,
	nprocs integer NOT NULL,
	nnodes integer NOT NULL,
	runtime_version text NOT NULL,
	settings text NOT NULL,
	log_flags integer NOT NULL,        -- header flags: 0x1 records folded
	folded boolean NOT NULL,           -- some records folded into overflow records
	bytes_read bigint NOT NULL,        -- over every module record (MPI-IO over POSIX: both)
	bytes_written bigint NOT NULL,
	PRIMARY KEY (id, start_time)
) PARTITION BY RANGE (start_time);
CREATE INDEX jobs_user ON jobs (user_id, start_time);
CREATE INDEX jobs_exe ON jobs (exe_id, start_time);
CREATE INDEX jobs_job_id ON jobs (job_id);
CREATE INDEX jobs_ledger ON jobs (ledger);

-- One row per module record: rank -1 for a file shared by all ranks.
-- Counter arrays follow counter_names; bytes are pulled out for the common
-- questions.  Each row names its file and file system itself (no table
-- between records and names to load and join).
CREATE TABLE records (
	job bigint NOT NULL,
	start_time timestamptz NOT NULL,
	module smallint NOT NULL,
	rank integer NOT NULL,
	record_id bigint NOT NULL,         -- the log's 64-bit id of the file's name
	file bytea,                        -- file_names.sha256 (NULL: the log names none)
	fs integer,                        -- file_systems.id (longest mount prefix), if any
	flags integer NOT NULL,
	bytes_read bigint NOT NULL,
	bytes_written bigint NOT NULL,
	counters bigint[] NOT NULL,
	fcounters double precision[] NOT NULL
) PARTITION BY RANGE (start_time);
CREATE INDEX records_job ON records (job, record_id);
CREATE INDEX records_file ON records (file);

-- The time-resolved view: per record, equal bins from the rank's start.
CREATE TABLE time_bins (
	job bigint NOT NULL,
	start_time timestamptz NOT NULL,
	module smallint NOT NULL,
	rank integer NOT NULL,
	record_id bigint NOT NULL,
	bin_start timestamptz NOT NULL,
	bin_seconds double precision NOT NULL,
	read_bytes bigint[] NOT NULL,
	write_bytes bigint[] NOT NULL,
	read_ops integer[] NOT NULL,
	write_ops integer[] NOT NULL
) PARTITION BY RANGE (start_time);
CREATE INDEX time_bins_job ON time_bins (job);

-- Failed calls by operation and errno (record_id 0: no recorded file).
CREATE TABLE failures (
	job bigint NOT NULL,
	start_time timestamptz NOT NULL,
	module smallint NOT NULL,
	rank integer NOT NULL,
	record_id bigint NOT NULL,
	op text NOT NULL,
	errno integer NOT NULL,
	count bigint NOT NULL
) PARTITION BY RANGE (start_time);
CREATE INDEX failures_job ON failures (job);

-- MPI_File_open hints, per file and rank.
CREATE TABLE hints (
	job bigint NOT NULL,
	start_time timestamptz NOT NULL,
	rank integer NOT NULL,
	record_id bigint NOT NULL,
	hints text NOT NULL
) PARTITION BY RANGE (start_time);
CREATE INDEX hints_job ON hints (job);

-- The operation trace region, kept as the log stored it (zlib).
CREATE TABLE traces (
	job bigint NOT NULL,
	start_time timestamptz NOT NULL,
	seq integer NOT NULL,              -- order of the regions in the log
	compression smallint NOT NULL,     -- 0 none, 1 zlib
	raw_size bigint NOT NULL,
	data bytea NOT NULL
) PARTITION BY RANGE (start_time);
CREATE INDEX traces_job ON traces (job);

-- The job's mount table.
CREATE TABLE job_mounts (
	job bigint NOT NULL,
	start_time timestamptz NOT NULL,
	fs integer NOT NULL REFERENCES file_systems (id)
) PARTITION BY RANGE (start_time);
CREATE INDEX job_mounts_job ON job_mounts (job);

-- Results of the batch analyses, versioned.
CREATE TABLE analysis_results (
	job bigint NOT NULL,
	start_time timestamptz NOT NULL,
	analysis text NOT NULL,
	version integer NOT NULL,
	created_at timestamptz NOT NULL DEFAULT now(),
	confidence double precision,
	result jsonb NOT NULL,
	PRIMARY KEY (job, start_time, analysis, version)
) PARTITION BY RANGE (start_time);

-- ------------------------------------------------------------ partitions

-- The tables partitioned by the job's start time, one partition per month.
CREATE TABLE partitioned_tables (name text PRIMARY KEY);
INSERT INTO partitioned_tables VALUES ('jobs'), ('records'), ('time_bins'), ('failures'), ('hints'), ('traces'), ('job_mounts'), ('analysis_results');

-- Makes the month's partitions holding ts, if missing (safe to call concurrently).
-- Runs as its owner (ioatlas_admin): only the owner may add partitions.
CREATE FUNCTION ensure_partitions(ts timestamptz) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ioatlas, pg_catalog AS $$
DECLARE
	month timestamptz := date_trunc('month', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
	suffix text := to_char(month AT TIME ZONE 'UTC', 'YYYYMM');
	t text;
BEGIN
	IF to_regclass('ioatlas.jobs_' || suffix) IS NOT NULL THEN
		RETURN;
	END IF;
	PERFORM pg_advisory_xact_lock(hashtext('ioatlas.ensure_partitions'));
	FOR t IN SELECT name FROM partitioned_tables ORDER BY name LOOP
		IF to_regclass(format('ioatlas.%I', t || '_' || suffix)) IS NULL THEN
			EXECUTE format('CREATE TABLE ioatlas.%I PARTITION OF ioatlas.%I '
				       'FOR VALUES FROM (%L) TO (%L)',
				       t || '_' || suffix, t, month, month + interval '1 month');
		END IF;
	END LOOP;
END
$$;

-- A job's row and what it needs first (its month's partitions, its user
-- and program in the dictionaries), in one call from the collector.
CREATE FUNCTION ingest_job(p_start timestamptz, p_end timestamptz, p_uid bigint, p_user text,
			   p_exe bytea, p_exe_display text, p_scheduler text, p_job_id text,
			   p_args bytea, p_args_display text, p_nprocs integer, p_nnodes integer,
			   p_version text, p_settings text, p_flags integer, p_folded boolean)
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
			  folded, bytes_read, bytes_written)
		VALUES (p_start, p_end, 0, p_scheduler, p_job_id, u, e, p_args, p_args_display,
			p_nprocs, p_nnodes, p_version, p_settings, p_flags, p_folded, 0, 0)
		RETURNING id INTO j;
	RETURN j;
END
$$;

-- ------------------------------------------------------------ privileges and row-level security

GRANT USAGE ON SCHEMA ioatlas TO ioatlas_ingest, ioatlas_reader, ioatlas_user;

GRANT SELECT, INSERT ON ingest_ledger TO ioatlas_ingest;
GRANT SELECT, INSERT ON users, executables, file_names, file_systems, counter_names,
	jobs, records, time_bins, failures, hints, traces, job_mounts TO ioatlas_ingest;
GRANT UPDATE ON jobs TO ioatlas_ingest;
GRANT UPDATE ON counter_names TO ioatlas_ingest;
GRANT SELECT ON modules, partitioned_tables TO ioatlas_ingest;
-- Functions are everyone's to call unless taken back: these are the collector's.
REVOKE EXECUTE ON FUNCTION ensure_partitions(timestamptz) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION ingest_job(timestamptz, timestamptz, bigint, text, bytea, text, text,
	text, bytea, text, integer, integer, text, text, integer, boolean) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION ensure_partitions(timestamptz) TO ioatlas_ingest;
GRANT EXECUTE ON FUNCTION ingest_job(timestamptz, timestamptz, bigint, text, bytea, text, text,
	text, bytea, text, integer, integer, text, text, integer, boolean) TO ioatlas_ingest;

GRANT SELECT ON ALL TABLES IN SCHEMA ioatlas TO ioatlas_reader;
GRANT INSERT, UPDATE, DELETE ON analysis_results TO ioatlas_reader;

GRANT SELECT ON users, executables, file_names, file_systems, counter_names, modules,
	jobs, records, time_bins, failures, hints, traces, job_mounts, analysis_results
	TO ioatlas_user;

-- A user's own connection sees that user's jobs and what hangs off them;
-- the collector and the readers see everything.
ALTER TABLE jobs ENABLE ROW LEVEL SECURITY;
CREATE POLICY staff ON jobs TO ioatlas_ingest, ioatlas_reader USING (true) WITH CHECK (true);
CREATE POLICY own_jobs ON jobs FOR SELECT TO ioatlas_user
	USING (user_id IN (SELECT id FROM users WHERE name = current_user));

DO $$
DECLARE
	t text;
BEGIN
	FOREACH t IN ARRAY ARRAY['records', 'time_bins', 'failures', 'hints', 'traces', 'job_mounts',
				 'analysis_results'] LOOP
		EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
		EXECUTE format('CREATE POLICY staff ON %I TO ioatlas_ingest, ioatlas_reader '
			       'USING (true) WITH CHECK (true)', t);
		EXECUTE format('CREATE POLICY own_jobs ON %I FOR SELECT TO ioatlas_user '
			       'USING (job IN (SELECT id FROM jobs))', t);
	END LOOP;
END
$$;

-- A user sees their own user row, and the names of the files and programs
-- of their own jobs; the ledger is for staff only (no grant).
ALTER TABLE users ENABLE ROW LEVEL SECURITY;
CREATE POLICY staff ON users TO ioatlas_ingest, ioatlas_reader USING (true) WITH CHECK (true);
CREATE POLICY own_user ON users FOR SELECT TO ioatlas_user USING (name = current_user);

ALTER TABLE executables ENABLE ROW LEVEL SECURITY;
CREATE POLICY staff ON executables TO ioatlas_ingest, ioatlas_reader USING (true) WITH CHECK (true);
CREATE POLICY own_jobs ON executables FOR SELECT TO ioatlas_user
	USING (id IN (SELECT exe_id FROM jobs));

ALTER TABLE file_names ENABLE ROW LEVEL SECURITY;
CREATE POLICY staff ON file_names TO ioatlas_ingest, ioatlas_reader USING (true) WITH CHECK (true);
CREATE POLICY own_jobs ON file_names FOR SELECT TO ioatlas_user
	USING (sha256 IN (SELECT file FROM records));
