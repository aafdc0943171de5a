# t1007-modulefiles — `module load ioatlas` with the real Lmod, from an
# installed tree: the Lmod and the Tcl modulefile both set LD_PRELOAD and
# nothing the site file says (the log directory is the site file's), an
# MPI job started after the load leaves one log, and opting out
# (IOATLAS_DISABLE=1, module unload) leaves none; a conflicting profiler's
# module refuses ioatlas; the site-wide recipe for Lmod loads it at login,
# and once ioatlas is gone logins go on without an error.  (Environment
# Modules, which cannot be installed beside Lmod, are tested in the Debian
# package's root: t9004.)
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
lmod_init=/usr/share/lmod/lmod/init/bash
[ -r "$lmod_init" ] || skip_all "Lmod is not installed ($lmod_init)"

prefix="$TEST_TMP/prefix"
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$IOA_BUILD_DIR/CMakeCache.txt")
mpiio="$IOA_BUILD_DIR/tests/workloads/mpi-io"
work="$TEST_TMP/work"
mkdir -p "$work"
unset LD_PRELOAD IOATLAS_LOGDIR MODULEPATH LOADEDMODULES _LMFILES_

plan 20

ok "the tree installs" run_timeout 120 cmake --install "$IOA_BUILD_DIR" --prefix "$prefix"
. "$lmod_init"

# module_did: takes note of the LD_PRELOAD a module command left, for the
# jobs.  A sanitizer build's runtime cannot be preloaded into every command
# this shell runs (the sanitizers' runtimes must come first), so there the
# shell itself goes on without it.
module_did() {
	job_preload=${LD_PRELOAD:-}
	[ -z "$IOA_SANITIZER_PRELOAD" ] || export LD_PRELOAD=
}

# run_job LOGDIR: the 4-rank MPI-IO job with the preload the modules set,
# logs under LOGDIR.
run_job() {
	local preload=$job_preload
	[ -z "$preload" ] || preload=$(ioa_preload_list "$preload")
	IOATLAS_LOGDIR="$1" LD_PRELOAD="$preload" mpi_run 4 120 "$mpiio" shared "$work" \
		>/dev/null 2>&1
}

module use "$prefix/share/lmod/modulefiles"
ok "module load ioatlas (Lmod modulefile)" module load ioatlas
module_did
is "$job_preload" "$prefix/$libdir/libioatlas.so" "it preloads the installed runtime"
is "${IOATLAS_LOGDIR-unset}" unset "and leaves the log directory to the site file"
like "$(module help ioatlas 2>&1)" "IOATLAS_DISABLE=1" "module help says how to opt out"
like "$(module whatis ioatlas 2>&1)" "I/O characterization" "module whatis describes it"

logs=$(ioa_logdir)
ok "an MPI job started after the load runs" run_job "$logs"
ok "and leaves its log" ioa_only_log "$logs"

# The site file's logdir is where a job's log goes: nothing overrides it.
logs=$(ioa_logdir)
printf 'logdir = %s\n' "$logs" >"$TEST_TMP/site.conf"
preload=$(ioa_preload_list "$job_preload")
IOATLAS_CONF="$TEST_TMP/site.conf" LD_PRELOAD="$preload" mpi_run 4 120 "$mpiio" shared "$work" \
	>/dev/null 2>&1
ok "a job after the load logs where the site file says" ioa_only_log "$logs"

logs=$(ioa_logdir)
IOATLAS_DISABLE=1 run_job "$logs"
is "$(ioa_logs "$logs" | wc -l)" 0 "IOATLAS_DISABLE=1 opts one run out"

module unload ioatlas
module_did
logs=$(ioa_logdir)
run_job "$logs"
is "$job_preload:$(ioa_logs "$logs" | wc -l)" ":0" "module unload turns it off"

module unuse "$prefix/share/lmod/modulefiles"
module use "$prefix/share/modulefiles"
ok "module load ioatlas (Tcl modulefile)" module load ioatlas
module_did
logs=$(ioa_logdir)
run_job "$logs"
ok "the Tcl modulefile also leads to a log" ioa_only_log "$logs"
module unload ioatlas
module_did

mkdir -p "$TEST_TMP/other/darshan"
printf 'whatis("a conflicting profiler")\n' >"$TEST_TMP/other/darshan/3.4.lua"
module use "$TEST_TMP/other"
module load darshan
fails "ioatlas refuses to load beside darshan" module load ioatlas
module_did
is "$job_preload" "" "and preloads nothing"
module unload darshan
module unuse "$TEST_TMP/other"
module unuse "$prefix/share/modulefiles"

# The site-wide default (conf/site-default/): a login shell runs the
# profile script, which loads StdEnv, which loads ioatlas; a job opts out.
mkdir -p "$TEST_TMP/core"
cp "$prefix/share/ioatlas/site-default/StdEnv.lua" "$TEST_TMP/core/"
login_env=$(env -i HOME="$HOME" PATH="$PATH" USER="$(id -un)" \
	MODULEPATH="$TEST_TMP/core:$prefix/share/lmod/modulefiles" bash -c "
	. '$lmod_init'
	. '$prefix/share/ioatlas/site-default/lmod-z00-StdEnv.sh' 2>/dev/null
	echo \"\$LOADEDMODULES|\$LD_PRELOAD\"")
is "$login_env" "ioatlas/$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' \
	"$IOA_BUILD_DIR/CMakeCache.txt"):StdEnv|$prefix/$libdir/libioatlas.so" \
	"the Lmod site-wide recipe loads ioatlas at login (StdEnv)"
job_preload=${login_env#*|}
logs=$(ioa_logdir)
run_job "$logs"
ok "a job of that login leaves a log" ioa_only_log "$logs"

# The packages removed (the modulefiles gone, the site's StdEnv and profile
# script left behind): a login still starts, without ioatlas or an error.
gone_env=$(env -i HOME="$HOME" PATH="$PATH" USER="$(id -un)" \
	MODULEPATH="$TEST_TMP/core" bash -c "
	. '$lmod_init'
	. '$prefix/share/ioatlas/site-default/lmod-z00-StdEnv.sh'
	echo \"\$LOADEDMODULES|\${LD_PRELOAD:-}\"" 2>"$TEST_TMP/gone.err")
is "$gone_env|$(cat "$TEST_TMP/gone.err")" "StdEnv||" \
	"without ioatlas, the recipe's login loads StdEnv alone, silently"
# Lmod removed too (apt's autoremove after the purge): the profile script,
# still there, does nothing, silently, in sh and bash.
for shell in sh bash; do
	is "$(env -i HOME="$HOME" PATH="$PATH" $shell -c \
		". '$prefix/share/ioatlas/site-default/lmod-z00-StdEnv.sh'; echo \"rc \$?\"" 2>&1)" "rc 0" \
		"without Lmod, the profile script is silent in $shell"
done

done_testing
