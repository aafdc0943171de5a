-- 0011_user_roles — each user's own login role, so that `ioatlas jobs` and
-- `ioatlas report JOB_ID` work for a job's owner with nothing to set up:
-- PostgreSQL's peer authentication on the warehouse's Unix socket (or
-- Kerberos, gss, across hosts) maps the account the user is logged in as
-- to the role of the same name, and row-level security (0001) shows that
-- role its user's jobs only.  Nobody types a name.
--
-- create_user_roles() makes the role of every user with jobs in the
-- warehouse who lacks one: LOGIN, a member of ioatlas_user, no password (so
-- it logs in only where pg_hba.conf takes the system's word: peer, gss).
-- A role of that name that exists already is never changed: it is
-- reported, a member of ioatlas_user or not (a Unix account named as a
-- service role gains nothing here).  Names PostgreSQL reserves (pg_*,
-- public, none ...) or longer than a role name may be are refused one by
-- one with PostgreSQL's reason; a user the collector's host had no name
-- for (uid:N) is skipped.  The nightly (its `users` step) and `ioatlas
-- warehouse users` call it.
--
-- Making roles needs CREATEROLE, which no service account should hold (in
-- PostgreSQL up to 15 it may grant itself nearly anything).  So, when this
-- migration runs as a superuser (as docs/admin.md has it), the function
-- belongs to ioatlas_roles, a role nobody logs in as, that may create
-- roles, and runs with its rights (SECURITY DEFINER): readers (the
-- nightly) may call it, and it can do nothing but the above.  Run by a
-- non-superuser, the function runs with its caller's rights instead, and
-- only a caller with CREATEROLE makes roles.

CREATE FUNCTION create_user_roles()
RETURNS TABLE (user_name text, outcome text)
LANGUAGE plpgsql SET search_path = ioatlas, pg_catalog AS $$
DECLARE
	n text;
BEGIN
	FOR n IN SELECT DISTINCT u.name FROM users u ORDER BY 1 LOOP
		user_name := n;
		IF n ~ '^uid:[0-9]+$' THEN
			outcome := 'skipped: the collector''s host knows no name for this uid';
		ELSIF octet_length(n) > 63 THEN
			outcome := 'refused: longer than a role name may be (63 bytes)';
		ELSIF EXISTS (SELECT FROM pg_roles r WHERE r.rolname = n) THEN
			outcome := CASE WHEN pg_has_role(n, 'ioatlas_user', 'MEMBER')
				THEN 'exists' ELSE 'exists, not in ioatlas_user: left alone' END;
		ELSE
			BEGIN
				EXECUTE format('CREATE ROLE %I LOGIN IN ROLE ioatlas_user', n);
				EXECUTE format('COMMENT ON ROLE %I IS %L', n,
					'ioatlas: the Unix user''s own role (sees their jobs)');
				outcome := 'created';
			EXCEPTION WHEN reserved_name OR invalid_name OR syntax_error
					OR duplicate_object THEN
				outcome := 'refused: ' || SQLERRM;
			END;
		END IF;
		RETURN NEXT;
	END LOOP;
END
$$;

REVOKE EXECUTE ON FUNCTION create_user_roles() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION create_user_roles() TO ioatlas_reader;

RESET ROLE;
DO $$
BEGIN
	IF (SELECT rolsuper FROM pg_roles WHERE rolname = session_user) THEN
		IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ioatlas_roles') THEN
			CREATE ROLE ioatlas_roles NOLOGIN CREATEROLE;
		END IF;
		COMMENT ON ROLE ioatlas_roles IS
			'ioatlas: makes users'' own roles, through create_user_roles() only';
		GRANT ioatlas_user TO ioatlas_roles WITH ADMIN OPTION;
		GRANT USAGE ON SCHEMA ioatlas TO ioatlas_roles;
		GRANT SELECT ON ioatlas.users TO ioatlas_roles;
		CREATE POLICY make_roles ON ioatlas.users FOR SELECT TO ioatlas_roles USING (true);
		ALTER FUNCTION ioatlas.create_user_roles() OWNER TO ioatlas_roles;
		ALTER FUNCTION ioatlas.create_user_roles() SECURITY DEFINER;
	END IF;
END
$$;
SET LOCAL ROLE ioatlas_admin;
