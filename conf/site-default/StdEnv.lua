-- StdEnv: the modules every user has at login (Lmod).  Put this file in a
-- folder of the default MODULEPATH (Debian: /etc/lmod/modules/StdEnv.lua)
-- and lmod-z00-StdEnv.sh in /etc/profile.d/; a job opts out with
-- IOATLAS_DISABLE=1 or `module unload ioatlas` (docs/admin.md).
whatis("Description: the site's standard environment, with ioatlas on")
-- try_load: once the ioatlas packages are removed, logins go on without
-- it (load would stop every login with an error).
try_load("ioatlas")
