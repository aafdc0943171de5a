-- pgTAP: the warehouse's schema, roles and row-level security, on a
-- database `ioatlas warehouse migrate` brought up to date.  Everything runs
-- in one transaction that is rolled back.
BEGIN;
CREATE EXTENSION IF NOT EXISTS pgtap;
SET search_path = ioatlas, public;
SELECT plan(72);

-- The schema and its tables.
SELECT has_schema('ioatlas');
SELECT views_are('ioatlas', ARRAY['job_overview', 'job_file_system_bytes', 'job_file_names',
	'record_counters', 'ingest_daily', 'application_history'], 'the views of docs/warehouse.md');
SELECT tables_are('ioatlas', ARRAY['schema_migrations', 'ingest_ledger', 'users', 'executables',
	'file_names', 'file_systems', 'counter_names', 'modules', 'jobs', 'records', 'time_bins',
	'failures', 'hints', 'traces', 'job_mounts', 'analysis_results', 'partitioned_tables',
	'job_kernels', 'applications', 'application_builds', 'job_history', 'history_changes',
	'history_checked', 'archived_months', 'job_whatif'], 'the warehouse has exactly its tables (partitions come later)');
SELECT col_type_is('ioatlas', 'file_names', 'name', 'bytea', 'file names are bytes, not text');
SELECT col_type_is('ioatlas', 'executables', 'path', 'bytea', 'executable paths are bytes');
SELECT col_type_is('ioatlas', 'records', 'counters', 'bigint[]', 'counters are 64-bit');
SELECT col_type_is('ioatlas', 'traces', 'data', 'bytea', 'traces are kept as stored (compressed)');
SELECT is((SELECT count(*)::int FROM pg_partitioned_table p JOIN pg_class c ON c.oid = p.partrelid
	   JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'ioatlas'), 9,
	  'nine tables are partitioned by the job''s start time');
SELECT is(max(version), (SELECT count(*)::int FROM schema_migrations), 'the schema records its version') FROM schema_migrations;
SELECT col_type_is('ioatlas', 'jobs', 'rank_nodes', 'integer[]', 'where each rank ran');
SELECT has_index('ioatlas', 'ingest_ledger', 'ingest_ledger_path', 'a log path is in the ledger once');
SELECT has_index('ioatlas', 'ingest_ledger', 'ingest_ledger_content', 'content is ingested once');
SELECT has_index('ioatlas', 'jobs', 'jobs_user', 'jobs of a user');
SELECT has_index('ioatlas', 'records', 'records_file', 'jobs that touched a file');
SELECT has_index('ioatlas', 'jobs', 'jobs_start', 'jobs of a period (the dashboard)');
SELECT has_index('ioatlas', 'job_history', 'job_history_app', 'an application''s runs in order');
SELECT has_index('ioatlas', 'job_history', 'job_history_user', 'a user''s runs in order');

-- Partitions appear on demand, and twice is harmless.
SELECT lives_ok($$SELECT ensure_partitions('2026-03-15 12:00+00')$$, 'partitions for a month');
SELECT lives_ok($$SELECT ensure_partitions('2026-03-01 00:00+00')$$, 'again: no-op');
SELECT has_table('ioatlas', 'jobs_202603', 'the month''s jobs partition exists');
SELECT has_table('ioatlas', 'records_202603', 'and its records partition');
SELECT has_table('ioatlas', 'job_history_202603', 'and its history partition');
SELECT has_pk('ioatlas', 'jobs_202603', 'keyed per month (a month may move to another server)');
SELECT hasnt_pk('ioatlas', 'jobs', 'not on the parent, which a foreign partition would refuse');

-- Roles.
SELECT has_role('ioatlas_admin');
SELECT has_role('ioatlas_ingest');
SELECT has_role('ioatlas_reader');
SELECT has_role('ioatlas_user');
SELECT is((SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'ioatlas'),
	  'ioatlas_admin', 'the admin role owns the schema');
SELECT is((SELECT tableowner FROM pg_tables WHERE schemaname = 'ioatlas' AND tablename = 'jobs'),
	  'ioatlas_admin', 'and its tables');

-- Two users, a job each, with a file each; a reader and a collector.
CREATE ROLE alice LOGIN IN ROLE ioatlas_user;
CREATE ROLE bob LOGIN IN ROLE ioatlas_user;
CREATE ROLE dash LOGIN IN ROLE ioatlas_reader;
CREATE ROLE collector LOGIN IN ROLE ioatlas_ingest;
INSERT INTO users (uid, name) VALUES (1001, 'alice'), (1002, 'bob');
INSERT INTO executables (path, display) VALUES ('\x2f612f617070'::bytea, '/a/app'),
	('\x2f622f636f6465'::bytea, '/b/code');
INSERT INTO file_names (sha256, name, display)
	SELECT sha256(n), n, d FROM (VALUES ('\x2f612f64617461'::bytea, '/a/data'),
	('\x2f622f73656372ff'::bytea, '/b/secr\xff')) v(n, d);
INSERT INTO ingest_ledger (path, size, mtime, content_hash, status, reader_version, collector,
			   started_at, job)
	VALUES ('/logs/a.ioa', 1, now(), sha256('a'), 'ingested', 't', 'h:1', now(), 1),
	       ('/logs/b.ioa', 1, now(), sha256('b'), 'ingested', 't', 'h:1', now(), 2);
INSERT INTO jobs (id, start_time, end_time, ledger, scheduler, job_id, user_id, exe_id, nprocs,
		  nnodes, runtime_version, settings, log_flags, folded, bytes_read, bytes_written)
	OVERRIDING SYSTEM VALUE
	SELECT v.id, '2026-03-15 12:00+00', '2026-03-15 13:00+00', v.id, 'none', v.job, u.id,
	       e.id, 4, 1, '0.1.0', '', 0, false, 0, 100
	FROM (VALUES (1, 'j1', 'alice', '/a/app'), (2, 'j2', 'bob', '/b/code')) v(id, job, who, exe)
	JOIN users u ON u.name = v.who JOIN executables e ON e.display = v.exe;
INSERT INTO records SELECT j.id, j.start_time, 0, 0, 7, f.sha256, NULL, 0, 0, 100, '{1,2}', '{0.5}'
	FROM jobs j
	JOIN file_names f ON (j.id = 1 AND f.display = '/a/data') OR (j.id = 2 AND f.display LIKE '/b/%');
INSERT INTO job_kernels (job, start_time, name, version, url)
	SELECT id, start_time, 'k' || id, '1', 'https://kernels.example/k' || id FROM jobs;
INSERT INTO job_whatif (job, start_time, change, finding, kernel, runs, base_seconds, changed_seconds)
	SELECT id, start_time, '--hint cb_nodes=' || id, 'aggregation', 'k' || id, 3, 1, 0.5 FROM jobs;
INSERT INTO counter_names VALUES (0, 'counter', 1, 'POSIX_OPENS'), (0, 'counter', 2, 'POSIX_FILENOS'),
	(0, 'fcounter', 1, 'POSIX_F_OPEN_START_TIMESTAMP');

-- Applications: a program by name, an interpreter by its script, a build across renames.
SELECT is(application_name('/usr/bin/python3.11', '/usr/bin/python3.11 -u /home/a/run.py -n 4'),
	  'python3.11 run.py', 'an interpreter''s application is named by its script');
SELECT is(application_name('/a/bin/vpic', '/a/bin/vpic deck.in'), 'vpic',
	  'a program''s by its base name');
SELECT is(application_name('', NULL), '(unknown)', 'no name: unknown');
INSERT INTO executables (path, display) VALUES ('\x2f612f6170702d7632'::bytea, '/a/app-v2');
UPDATE jobs SET build_id = 'ab12',
	app_id = job_application(user_id, exe_id, args_display, 'ab12', false);
SELECT is(job_application((SELECT id FROM users WHERE name = 'alice'),
			  (SELECT id FROM executables WHERE display = '/a/app-v2'), NULL, 'ab12', false),
	  (SELECT app_id FROM jobs WHERE id = 1),
	  'a renamed binary of a build the user ran keeps its application');
SELECT isnt(job_application((SELECT id FROM users WHERE name = 'alice'),
			    (SELECT id FROM executables WHERE display = '/a/app-v2'), NULL, 'cd34',
			    false),
	    (SELECT app_id FROM jobs WHERE id = 1), 'another build under another name is another');
SELECT is(job_application((SELECT id FROM users WHERE name = 'alice'),
			  (SELECT id FROM executables WHERE display = '/a/app'), NULL, 'ef56', false),
	  (SELECT app_id FROM jobs WHERE id = 1), 'a rebuilt binary under its name keeps it');
SELECT isnt((SELECT app_id FROM jobs WHERE id = 2), (SELECT app_id FROM jobs WHERE id = 1),
	    'the same build id run by another user is that user''s own application');
DO $$ BEGIN PERFORM job_history_add(id, start_time) FROM jobs; END $$;

-- A user's own connection sees that user's jobs only.
SET ROLE alice;
SELECT results_eq('SELECT job_id FROM jobs', ARRAY['j1'], 'alice sees her job, not bob''s');
SELECT results_eq('SELECT count(*)::int FROM records', ARRAY[1], 'and only her records');
SELECT results_eq('SELECT display FROM file_names', ARRAY['/a/data'], 'and only her files'' names');
SELECT results_eq('SELECT display FROM executables', ARRAY['/a/app'], 'and only her programs');
SELECT results_eq('SELECT name FROM users', ARRAY['alice'], 'and only herself among the users');
SELECT results_eq('SELECT name FROM job_kernels', ARRAY['k1'], 'and only her jobs'' kernels');
SELECT results_eq('SELECT kernel FROM job_whatif', ARRAY['k1'], 'and only her jobs'' what-if replays');
SELECT results_eq('SELECT job_id FROM job_overview', ARRAY['j1'],
		  'views show her only her jobs too (security_invoker)');
SELECT results_eq('SELECT file_name FROM job_file_names', ARRAY['/a/data'], 'and her files');
SELECT results_eq($$SELECT value FROM record_counters WHERE counter = 'POSIX_OPENS'$$,
		  ARRAY[1::numeric], 'and her counters, by name');
SELECT results_eq('SELECT name FROM applications ORDER BY name', ARRAY['app', 'app-v2'],
		  'and only her applications');
SELECT results_eq('SELECT job_id FROM application_history', ARRAY['j1'],
		  'and her jobs'' history only');
SELECT throws_ok('SELECT * FROM ingest_daily', '42501', NULL, 'the ledger''s view is staff only');
SELECT throws_ok('SELECT * FROM ingest_ledger', '42501', NULL, 'the ledger is not hers to read');
SELECT throws_ok($$SELECT ensure_partitions('2040-01-01')$$, '42501', NULL,
		 'nor the owner''s partition function hers to call');
SELECT throws_ok($$INSERT INTO jobs (start_time, end_time, ledger, scheduler, job_id, user_id,
	exe_id, nprocs, nnodes, runtime_version, settings, log_flags, folded, bytes_read,
	bytes_written) VALUES (now(), now(), 1, 'x', 'x', 1, 1, 1, 1, 'x', '', 0, false, 0, 0)$$,
	'42501', NULL, 'nor may she add jobs');
RESET ROLE;
SET ROLE bob;
SELECT results_eq('SELECT job_id FROM jobs', ARRAY['j2'], 'bob sees his job only');
SELECT results_eq('SELECT display FROM file_names', ARRAY['/b/secr\xff'],
		  'and his file, whose name is not UTF-8, in display form');
RESET ROLE;

-- The reader sees everything and writes only analysis results.
SET ROLE dash;
SELECT results_eq('SELECT count(*)::int FROM jobs', ARRAY[2], 'a reader sees every job');
SELECT results_eq('SELECT count(*)::int FROM ingest_ledger', ARRAY[2], 'and the ledger');
SELECT lives_ok($$INSERT INTO analysis_results (job, start_time, analysis, version, result)
	VALUES (1, '2026-03-15 12:00+00', 'checkpoints', 1, '{}')$$, 'a reader writes analysis results');
SELECT throws_ok('DELETE FROM jobs', '42501', NULL, 'but deletes no job');
SELECT throws_ok($$INSERT INTO users (uid, name) VALUES (5, 'mallory')$$, '42501', NULL,
		 'and adds no user');
RESET ROLE;

-- The collector adds, and cannot take away.
SET ROLE collector;
SELECT lives_ok($$INSERT INTO users (uid, name) VALUES (1003, 'carol')$$, 'the collector adds users');
SELECT lives_ok($$SELECT ensure_partitions('2031-07-04 00:00+00')$$,
		'and makes partitions through the owner''s function');
SELECT lives_ok($$SELECT job_history_add(id, start_time) FROM jobs$$,
		'and adds the jobs'' history rows');
SELECT results_eq('SELECT job, files, nprocs FROM job_history ORDER BY job',
		  $$VALUES (1::bigint, 1, 4), (2::bigint, 1, 4)$$, 'one per job, its files counted');
SELECT results_eq('SELECT count(*)::int FROM jobs', ARRAY[2], 'it sees every job (to deduplicate)');
SELECT throws_ok('DELETE FROM records', '42501', NULL, 'it deletes no records');
SELECT throws_ok($$UPDATE ingest_ledger SET status = 'quarantined', error = 'x'$$, '42501', NULL,
		 'nor rewrites the ledger');
SELECT throws_ok('DROP TABLE records', '42501', NULL, 'nor drops tables');
RESET ROLE;
SELECT has_table('ioatlas', 'jobs_203107', 'the partition it asked for exists');

-- The ledger's rules.
SELECT throws_ok($$INSERT INTO ingest_ledger (path, size, mtime, content_hash, status,
	reader_version, collector, started_at, job) VALUES ('/logs/a.ioa', 1, now(), sha256('c'),
	'ingested', 't', 'h:1', now(), 1)$$, '23505', NULL, 'a path is ingested once');
SELECT throws_ok($$INSERT INTO ingest_ledger (path, size, mtime, content_hash, status,
	reader_version, collector, started_at, job) VALUES ('/logs/copy.ioa', 1, now(), sha256('a'),
	'ingested', 't', 'h:1', now(), 1)$$, '23505', NULL, 'the same content is ingested once');
SELECT throws_ok($$INSERT INTO ingest_ledger (path, size, mtime, content_hash, status,
	reader_version, collector, started_at) VALUES ('/logs/q.ioa', 1, now(), sha256('q'),
	'quarantined', 't', 'h:1', now())$$, '23514', NULL, 'a quarantined log says why');

SELECT * FROM finish();
ROLLBACK;
