-- 0012_history — across jobs (docs/warehouse.md, "History"): which
-- application each job ran, the figures its history is drawn from, and the
-- changes the nightly finds in an application's runs.
--
-- An application is one user's program by name: the executable's base name,
-- or for an interpreter (python, perl, bash ...) the interpreter and its
-- script's base name.  A job whose build (the executable's GNU build id, job
-- key 35) the user ran before belongs to that build's application, whatever
-- the executable is called now: a renamed or copied binary keeps its
-- history.  A rebuilt binary under the same name keeps it too (same name,
-- new build).  Jobs ingested before this migration are named without a
-- build.

ALTER TABLE jobs
	ADD COLUMN build_id text CHECK (build_id ~ '^[0-9a-f]{2,128}$'),
	ADD COLUMN app_id integer;

CREATE TABLE applications (
	id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	user_id integer NOT NULL REFERENCES users (id),
	name text NOT NULL,
	UNIQUE (user_id, name)
);

CREATE INDEX applications_name ON applications (name);

CREATE TABLE application_builds (
	user_id integer NOT NULL REFERENCES users (id),
	build_id text NOT NULL,
	app_id integer NOT NULL REFERENCES applications (id),
	PRIMARY KEY (user_id, build_id)
);
CREATE INDEX application_builds_app ON application_builds (app_id);

-- The name of the program a command line ran (display forms: the
-- executable, and the arguments joined by spaces, argv[0] first).
CREATE FUNCTION application_name(p_exe text, p_args text) RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = ioatlas, pg_catalog AS $$
	SELECT CASE WHEN base ~ '^(python|perl|ruby|julia|Rscript|R|bash|sh|dash|zsh|ksh|tclsh|lua|node)[0-9.]*$'
		    AND script IS NOT NULL THEN base || ' ' || script
		    ELSE base END
	FROM (SELECT coalesce(nullif(regexp_replace(coalesce(p_exe, ''), '^.*/', ''), ''),
			      '(unknown)') AS base,
		     (SELECT regexp_replace(a, '^.*/', '')
		      FROM unnest((string_to_array(p_args, ' '))[2:]) WITH ORDINALITY AS t (a, i)
		      WHERE a <> '' AND a !~ '^-' ORDER BY i LIMIT 1) AS script) n
$$;

-- The application of a job (its user, executable, arguments' display form,
-- build id or NULL; an imported job's executable holds its arguments too).
CREATE FUNCTION job_application(p_user integer, p_exe integer, p_args text, p_build text,
				p_imported boolean)
RETURNS integer LANGUAGE plpgsql SET search_path = ioatlas, pg_catalog AS $$
DECLARE
	a integer;
	exe text;
	args text := p_args;
	n text;
BEGIN
	IF p_build IS NOT NULL THEN
		SELECT app_id INTO a FROM application_builds
			WHERE user_id = p_user AND build_id = p_build;
		IF a IS NOT NULL THEN
			RETURN a;
		END IF;
	END IF;
	SELECT display INTO exe FROM executables WHERE id = p_exe;
	IF p_imported AND args IS NULL AND position(' ' IN exe) > 0 THEN
		args := exe;
		exe := split_part(exe, ' ', 1);
	END IF;
	n := application_name(exe, args);
	INSERT INTO applications (user_id, name) VALUES (p_user, n)
		ON CONFLICT (user_id, name) DO NOTHING RETURNING id INTO a;
	IF a IS NULL THEN
		SELECT id INTO a FROM applications WHERE user_id = p_user AND name = n;
	END IF;
	IF p_build IS NOT NULL THEN
		INSERT INTO application_builds (user_id, build_id, app_id) VALUES (p_user, p_build, a)
			ON CONFLICT (user_id, build_id) DO NOTHING;
	END IF;
	RETURN a;
END
$$;

-- One row per job: the figures of its history.  Times are per rank (the
-- records' sums over ranks divided by the job's ranks).  io_seconds and the
-- bytes count each file once, at its highest layer: a file with an MPI-IO
-- record by that record (its POSIX calls beneath are the same bytes), any
-- other by its POSIX record; STDIO's on top.  The layer arrays are by module
-- id (1 POSIX, 2 STDIO, 3 MPI-IO: modules.id + 1), each layer on its own.
CREATE TABLE job_history (
	job bigint NOT NULL,
	start_time timestamptz NOT NULL,
	app_id integer NOT NULL,
	user_id integer NOT NULL,
	seconds double precision NOT NULL,	-- run time
	nprocs integer NOT NULL,
	io_seconds double precision NOT NULL,	-- reads, writes and metadata
	meta_seconds double precision NOT NULL,
	bytes_read bigint NOT NULL,
	bytes_written bigint NOT NULL,
	files integer NOT NULL,			-- files the records name
	layer_seconds double precision[] NOT NULL,
	layer_meta_seconds double precision[] NOT NULL,
	layer_bytes_read bigint[] NOT NULL,
	layer_bytes_written bigint[] NOT NULL,
	layer_ops bigint[] NOT NULL		-- reads and writes
) PARTITION BY RANGE (start_time);
CREATE INDEX job_history_app ON job_history (app_id, start_time);
CREATE INDEX job_history_user ON job_history (user_id, start_time);

-- A month's partitions may move to another server (0013, docs/scaling.md),
-- and PostgreSQL refuses a foreign partition under a unique index or a
-- foreign key on its parent.  So the partitioned tables' keys (jobs,
-- analysis_results, job_history) and foreign keys (jobs to users and
-- executables, job_mounts to file_systems) are each partition's instead:
-- every local partition has them, and ensure_partitions() gives them to
-- each new one.  Every key holds start_time, the partition key: a key per
-- month is the same key.  Writers that relied on the parent's key (ON
-- CONFLICT) delete and insert instead.
ALTER TABLE partitioned_tables ADD COLUMN constraints text; -- each partition's, ';' between
INSERT INTO partitioned_tables (name, constraints)
	VALUES ('job_history', 'PRIMARY KEY (job, start_time)');
UPDATE partitioned_tables SET constraints = 'PRIMARY KEY (id, start_time); '
	'FOREIGN KEY (user_id) REFERENCES ioatlas.users (id); '
	'FOREIGN KEY (exe_id) REFERENCES ioatlas.executables (id)' WHERE name = 'jobs';
UPDATE partitioned_tables SET constraints = 'PRIMARY KEY (job, start_time, analysis, version)'
	WHERE name = 'analysis_results';
UPDATE partitioned_tables SET constraints = 'FOREIGN KEY (fs) REFERENCES ioatlas.file_systems (id)'
	WHERE name = 'job_mounts';
ALTER TABLE jobs DROP CONSTRAINT jobs_pkey, DROP CONSTRAINT jobs_user_id_fkey,
	DROP CONSTRAINT jobs_exe_id_fkey;
ALTER TABLE analysis_results DROP CONSTRAINT analysis_results_pkey;
ALTER TABLE job_mounts DROP CONSTRAINT job_mounts_fs_fkey;

-- The ALTER TABLE that gives a partition of table t its constraints (NULL: none).
CREATE FUNCTION partition_constraints(p_table text, p_part text) RETURNS text
LANGUAGE sql STABLE SET search_path = ioatlas, pg_catalog AS $$
	SELECT format('ALTER TABLE ioatlas.%I ADD ', p_part) || replace(constraints, '; ', ', ADD ')
	FROM partitioned_tables WHERE name = p_table AND constraints IS NOT NULL
$$;

DO $$
DECLARE
	t record;
BEGIN
	FOR t IN SELECT partition_constraints(p.name, c.relname) AS ddl
		 FROM partitioned_tables p
		 JOIN pg_inherits i ON i.inhparent = format('ioatlas.%I', p.name)::regclass
		 JOIN pg_class c ON c.oid = i.inhrelid
		 WHERE p.constraints IS NOT NULL AND c.relkind = 'r' LOOP
		EXECUTE t.ddl;
	END LOOP;
END
$$;

-- A month has its partitions when every partitioned table has one (a table
-- added later gets its partitions for the months that exist already), each
-- with its table's constraints.
CREATE OR REPLACE FUNCTION ensure_partitions(ts timestamptz) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ioatlas, pg_catalog AS $$
DECLARE
	month timestamptz := date_trunc('month', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
	suffix text := to_char(month AT TIME ZONE 'UTC', 'YYYYMM');
	t record;
BEGIN
	IF NOT EXISTS (SELECT 1 FROM partitioned_tables
		       WHERE to_regclass(format('ioatlas.%I', name || '_' || suffix)) IS NULL) THEN
		RETURN;
	END IF;
	PERFORM pg_advisory_xact_lock(hashtext('ioatlas.ensure_partitions'));
	FOR t IN SELECT name, partition_constraints(name, name || '_' || suffix) AS ddl
		 FROM partitioned_tables ORDER BY name LOOP
		IF to_regclass(format('ioatlas.%I', t.name || '_' || suffix)) IS NULL THEN
			EXECUTE format('CREATE TABLE ioatlas.%I PARTITION OF ioatlas.%I '
				       'FOR VALUES FROM (%L) TO (%L)',
				       t.name || '_' || suffix, t.name, month, month + interval '1 month');
			IF t.ddl IS NOT NULL THEN
				EXECUTE t.ddl;
			END IF;
		END IF;
	END LOOP;
END
$$;

-- A job's history row, from its records (the collector calls it as it
-- ingests the job; again, it replaces the row).  As the owner: the
-- collector needs no right to write or delete history rows.
CREATE FUNCTION job_history_add(p_job bigint, p_start timestamptz) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = ioatlas, pg_catalog AS $$
BEGIN
	DELETE FROM job_history WHERE job = p_job AND start_time = p_start;
	WITH p AS MATERIALIZED (
		SELECT m.id AS module,
		       (SELECT position FROM counter_names c WHERE c.module = m.id
			AND c.kind = 'fcounter' AND c.name = m.prefix || '_F_READ_TIME') AS rt,
		       (SELECT position FROM counter_names c WHERE c.module = m.id
			AND c.kind = 'fcounter' AND c.name = m.prefix || '_F_WRITE_TIME') AS wt,
		       (SELECT position FROM counter_names c WHERE c.module = m.id
			AND c.kind = 'fcounter' AND c.name = m.prefix || '_F_META_TIME') AS mt,
		       (SELECT position FROM counter_names c WHERE c.module = m.id
			AND c.kind = 'counter' AND c.name = m.prefix || '_BYTES_READ') AS br,
		       (SELECT position FROM counter_names c WHERE c.module = m.id
			AND c.kind = 'counter' AND c.name = m.prefix || '_BYTES_WRITTEN') AS bw,
		       ARRAY(SELECT position FROM counter_names c WHERE c.module = m.id
			     AND c.kind = 'counter' AND c.name = ANY (m.ops)) AS ops
		FROM (VALUES (0::smallint, 'POSIX', ARRAY['POSIX_READS', 'POSIX_WRITES']),
			     (1::smallint, 'STDIO', ARRAY['STDIO_READS', 'STDIO_WRITES']),
			     (2::smallint, 'MPIIO', ARRAY['MPIIO_INDEP_READS', 'MPIIO_INDEP_WRITES',
				'MPIIO_COLL_READS', 'MPIIO_COLL_WRITES', 'MPIIO_SPLIT_READS',
				'MPIIO_SPLIT_WRITES', 'MPIIO_NB_READS', 'MPIIO_NB_WRITES']))
			AS m (id, prefix, ops)
	), r AS (
		-- Counters a job imported from another tool did not record read -1: none.
		SELECT rec.module, rec.record_id, rec.file,
		       greatest(coalesce(rec.fcounters[p.rt], 0), 0) +
		       greatest(coalesce(rec.fcounters[p.wt], 0), 0) +
		       greatest(coalesce(rec.fcounters[p.mt], 0), 0) AS t,
		       greatest(coalesce(rec.fcounters[p.mt], 0), 0) AS mt,
		       greatest(coalesce(rec.counters[p.br], 0), 0) AS br,
		       greatest(coalesce(rec.counters[p.bw], 0), 0) AS bw,
		       (SELECT coalesce(sum(greatest(rec.counters[i], 0)), 0)
			FROM unnest(p.ops) AS i) AS ops,
		       rec.module = 0 AND EXISTS (SELECT 1 FROM records x
			WHERE x.job = p_job AND x.record_id = rec.record_id AND x.module = 2
			AND x.start_time = p_start) AS beneath
		FROM records rec
		JOIN p ON p.module = rec.module
		WHERE rec.job = p_job AND rec.start_time = p_start
	)
	INSERT INTO job_history (job, start_time, app_id, user_id, seconds, nprocs, io_seconds,
				 meta_seconds, bytes_read, bytes_written, files, layer_seconds,
				 layer_meta_seconds, layer_bytes_read, layer_bytes_written, layer_ops)
	SELECT j.id, j.start_time, j.app_id, j.user_id,
	       extract(epoch FROM j.end_time - j.start_time), j.nprocs,
	       coalesce(sum(r.t) FILTER (WHERE NOT r.beneath), 0) / greatest(j.nprocs, 1),
	       coalesce(sum(r.mt) FILTER (WHERE NOT r.beneath), 0) / greatest(j.nprocs, 1),
	       coalesce(sum(r.br) FILTER (WHERE NOT r.beneath), 0),
	       coalesce(sum(r.bw) FILTER (WHERE NOT r.beneath), 0),
	       count(DISTINCT r.file),
	       ARRAY[coalesce(sum(r.t) FILTER (WHERE r.module = 0), 0) / greatest(j.nprocs, 1),
		     coalesce(sum(r.t) FILTER (WHERE r.module = 1), 0) / greatest(j.nprocs, 1),
		     coalesce(sum(r.t) FILTER (WHERE r.module = 2), 0) / greatest(j.nprocs, 1)],
	       ARRAY[coalesce(sum(r.mt) FILTER (WHERE r.module = 0), 0) / greatest(j.nprocs, 1),
		     coalesce(sum(r.mt) FILTER (WHERE r.module = 1), 0) / greatest(j.nprocs, 1),
		     coalesce(sum(r.mt) FILTER (WHERE r.module = 2), 0) / greatest(j.nprocs, 1)],
	       ARRAY[coalesce(sum(r.br) FILTER (WHERE r.module = 0), 0),
		     coalesce(sum(r.br) FILTER (WHERE r.module = 1), 0),
		     coalesce(sum(r.br) FILTER (WHERE r.module = 2), 0)]::bigint[],
	       ARRAY[coalesce(sum(r.bw) FILTER (WHERE r.module = 0), 0),
		     coalesce(sum(r.bw) FILTER (WHERE r.module = 1), 0),
		     coalesce(sum(r.bw) FILTER (WHERE r.module = 2), 0)]::bigint[],
	       ARRAY[coalesce(sum(r.ops) FILTER (WHERE r.module = 0), 0),
		     coalesce(sum(r.ops) FILTER (WHERE r.module = 1), 0),
		     coalesce(sum(r.ops) FILTER (WHERE r.module = 2), 0)]::bigint[]
	FROM jobs j
	LEFT JOIN r ON true
	WHERE j.id = p_job AND j.start_time = p_start AND j.app_id IS NOT NULL
	GROUP BY j.id, j.start_time, j.app_id, j.user_id, j.end_time, j.nprocs;
END
$$;

-- The changes the nightly found in an application's runs (`ioatlas history
-- --update`): a metric's level moved at job (the first run after the change)
-- and stayed there.  before and after are the medians of the runs compared;
-- p_value is the one-sided exact rank test's (Mann-Whitney) of the runs
-- after against those before; notified_at: when the site's hook was told.
CREATE TABLE history_changes (
	id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	app_id integer NOT NULL REFERENCES applications (id),
	metric text NOT NULL CHECK (metric IN ('io_time_per_byte', 'meta_seconds', 'files',
					       'bandwidth')),
	job bigint NOT NULL,
	start_time timestamptz NOT NULL,
	kind text NOT NULL CHECK (kind IN ('regression', 'improvement')),
	before double precision NOT NULL,
	after double precision NOT NULL,
	runs_before integer NOT NULL,
	runs_after integer NOT NULL,
	p_value double precision NOT NULL,
	previous_job bigint NOT NULL,		-- the last run before the change
	found_at timestamptz NOT NULL DEFAULT now(),
	notified_at timestamptz,
	UNIQUE (app_id, metric, job)
);
CREATE INDEX history_changes_job ON history_changes (job);
CREATE INDEX history_changes_found ON history_changes (found_at);

-- How far each application's runs were looked at for changes.
CREATE TABLE history_checked (
	app_id integer PRIMARY KEY REFERENCES applications (id),
	through timestamptz NOT NULL
);

-- One row per job of an application's history, with its insight codes.
CREATE VIEW application_history WITH (security_invoker = true) AS
SELECT h.job, h.start_time, a.id AS app_id, a.name AS application, u.name AS user_name,
       j.job_account AS account, j.job_id, j.build_id, h.nprocs, h.seconds, h.io_seconds,
       h.io_seconds / nullif(h.seconds, 0) AS io_share, h.meta_seconds, h.bytes_read,
       h.bytes_written, h.files,
       -- bytes over the time spent reading and writing them (metadata apart)
       (h.bytes_read + h.bytes_written) / nullif(h.io_seconds - h.meta_seconds, 0) AS bandwidth,
       h.layer_seconds, h.layer_bytes_read, h.layer_bytes_written, h.layer_ops,
       ARRAY(SELECT (h.layer_bytes_read[i] + h.layer_bytes_written[i]) /
		    nullif(h.layer_seconds[i] - h.layer_meta_seconds[i], 0)
	     FROM generate_series(1, 3) AS i ORDER BY i) AS layer_bandwidth,
       ARRAY(SELECT DISTINCT f->>'code'
	     FROM analysis_results r, jsonb_array_elements(r.result->'findings') AS f
	     WHERE r.job = h.job AND r.start_time = h.start_time AND r.analysis = 'insights'
	     ORDER BY 1) AS codes
FROM job_history h
JOIN applications a ON a.id = h.app_id
JOIN users u ON u.id = h.user_id
JOIN jobs j ON j.id = h.job AND j.start_time = h.start_time;

-- Every existing job: its application, its history row; every existing
-- month: its job_history partition.
DO $$
DECLARE
	m record;
BEGIN
	FOR m IN SELECT to_date(right(c.relname, 6), 'YYYYMM')::timestamp AT TIME ZONE 'UTC' AS month
		 FROM pg_inherits i
		 JOIN pg_class c ON c.oid = i.inhrelid
		 WHERE i.inhparent = 'ioatlas.jobs'::regclass LOOP
		PERFORM ensure_partitions(m.month);
	END LOOP;
END
$$;
UPDATE jobs SET app_id = job_application(user_id, exe_id, args_display, NULL, source IS NOT NULL)
	WHERE app_id IS NULL;
SELECT job_history_add(id, start_time) FROM jobs;

-- ------------------------------------------------------------ privileges and row-level security

GRANT SELECT, INSERT ON applications, application_builds TO ioatlas_ingest;
GRANT SELECT ON job_history TO ioatlas_ingest;
REVOKE EXECUTE ON FUNCTION job_application(integer, integer, text, text, boolean) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION job_history_add(bigint, timestamptz) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION job_application(integer, integer, text, text, boolean) TO ioatlas_ingest;
GRANT EXECUTE ON FUNCTION job_history_add(bigint, timestamptz) TO ioatlas_ingest;

GRANT SELECT ON applications, application_builds, job_history, history_changes, history_checked,
	application_history TO ioatlas_reader;
GRANT INSERT, UPDATE ON history_changes, history_checked TO ioatlas_reader;

GRANT SELECT ON applications, job_history, history_changes, application_history TO ioatlas_user;

ALTER TABLE applications ENABLE ROW LEVEL SECURITY;
CREATE POLICY staff ON applications TO ioatlas_ingest, ioatlas_reader USING (true) WITH CHECK (true);
CREATE POLICY own_apps ON applications FOR SELECT TO ioatlas_user
	USING (user_id IN (SELECT id FROM users WHERE name = current_user));

ALTER TABLE job_history ENABLE ROW LEVEL SECURITY;
CREATE POLICY staff ON job_history TO ioatlas_ingest, ioatlas_reader USING (true) WITH CHECK (true);
CREATE POLICY own_jobs ON job_history FOR SELECT TO ioatlas_user
	USING (job IN (SELECT id FROM jobs));

ALTER TABLE history_changes ENABLE ROW LEVEL SECURITY;
CREATE POLICY staff ON history_changes TO ioatlas_reader USING (true) WITH CHECK (true);
CREATE POLICY own_apps ON history_changes FOR SELECT TO ioatlas_user
	USING (app_id IN (SELECT id FROM applications));
