# /etc/profile.d/z00-StdEnv.sh — loads the site's standard modules
# (StdEnv.lua, which loads ioatlas) in every login shell, after Lmod's own
# profile script; Lmod's recipe for system default modules.  Batch jobs
# inherit the environment of the shell that submitted them.  Without Lmod
# (removed, or a shell it does not set up) it does nothing.
if type module >/dev/null 2>&1; then
	if [ -z "${__Init_Default_Modules:-}" ]; then
		export __Init_Default_Modules=1
		export LMOD_SYSTEM_DEFAULT_MODULES=${LMOD_SYSTEM_DEFAULT_MODULES:-StdEnv}
		module --initial_load --no_redirect restore
	else
		module refresh
	fi
fi
