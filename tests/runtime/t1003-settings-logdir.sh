# t1003-settings-logdir — the runtime never harms its program: with a
# missing, unwritable or full log directory, garbage settings, or turned
# off, the program's output and exit status are unchanged; the log lands
# only where it should, complete or not at all, with mode 0440.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"

ops="$IOA_BUILD_DIR/tests/workloads/posix-ops"
work="$TEST_TMP/work"
mkdir -p "$work"

plan 24

# The program's own view: output and status, with and without the runtime.
expected=$("$ops" stdio "$work"; echo "status $?")

logs=$(ioa_logdir)
is "$(ioa_preload "$logs" "$ops" stdio "$work"; echo "status $?")" "$expected" \
	"with a good log directory the program is unchanged"
log=$(ioa_only_log "$logs")
is "$(stat -c %a "$log")" 440 "the log is read-only (0440)"
like "$log" "^$logs/[0-9]{4}/[0-9]{2}/[0-9]{2}/[^/]+_posix-ops_nojob_[0-9]+-[A-Za-z0-9._-]+-[0-9]+\\.ioa$" \
	"under LOGDIR/YYYY/MM/DD/<user>_<exe>_<job>_<start>-<host>-<pid>.ioa"
is "$(find "$logs" -name '*.part' | wc -l)" 0 "and no .part file is left"
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$IOA_BUILD_DIR/CMakeCache.txt")
like "$("$IOA_CMD" parse "$log")" "^# runtime_version: $version\$" "the log carries the runtime's version"
is "$(stat -c %a "$(dirname "$log")")" 1773 \
	"date folders are created as setup-logdir makes them: sticky, open to write, not to list"

logs=$(ioa_logdir)
SLURM_JOB_ID=4242 ioa_preload "$logs" "$ops" basic "$work"
job_log=$(ioa_only_log "$logs")
like "$job_log" "_posix-ops_4242_" "a Slurm job id names the log"

is "$(ioa_preload "$TEST_TMP/does/not/exist" "$ops" stdio "$work"; echo "status $?")" \
	"$expected" "a missing log directory's parent changes nothing for the program"

ro="$TEST_TMP/readonly"
mkdir -p "$ro"
chmod 0555 "$ro"
# Root writes anywhere: run as nobody then, with a work directory, the
# runtime and the program where nobody can reach them.
own="$TEST_TMP/own"
mkdir -p "$own/work"
cp "$IOA_RUNTIME_SO" "$ops" "$own/"
run_as=()
if [ "$(id -u)" -eq 0 ]; then
	run_as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
	chmod 0711 "$TEST_TMP"
	chmod 0777 "$own/work"
	chmod 0755 "$own"
fi
is "$("${run_as[@]}" env IOATLAS_LOGDIR="$ro" IOATLAS_NONMPI=1 \
	LD_PRELOAD="$(ioa_preload_list "$own/libioatlas.so")" "$own/posix-ops" stdio "$own/work"; echo "status $?")" \
	"$expected" "an unwritable log directory changes nothing for the program"
is "$(find "$ro" -type f | wc -l)" 0 "and no log or partial file is left there"

# A full disk: a log directory on a tiny file system.
full="$TEST_TMP/full"
mkdir -p "$full"
if mount -t tmpfs -o size=16k tmpfs "$full" 2>/dev/null; then
	at_exit "umount '$full'"
	dd if=/dev/zero of="$full/filler" bs=4k count=16 2>/dev/null
	is "$(ioa_preload "$full" "$ops" stdio "$work"; echo "status $?")" "$expected" \
		"a full log file system changes nothing for the program"
	is "$(find "$full" -name '*.ioa*' | wc -l)" 0 "and leaves neither a log nor a .part file"
else
	skip "mounting a small tmpfs needs root" "a full log file system changes nothing"
	skip "mounting a small tmpfs needs root" "no partial log on a full file system"
fi

# Garbage settings: ignored, reported once under IOATLAS_DEBUG, never fatal.
logs=$(ioa_logdir)
out=$(IOATLAS_MEMORY=lots IOATLAS_NONMPI=maybe IOATLAS_DEBUG=1 \
	IOATLAS_LOGDIR="$logs" LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" "$ops" stdio "$work" 2>"$TEST_TMP/err")
is "$out" "ok" "garbage settings do not stop the program"
like "$(cat "$TEST_TMP/err")" "^ioatlas: ignoring bad setting IOATLAS_MEMORY 'lots'" \
	"a bad value is reported under IOATLAS_DEBUG"
is "$(grep -c 'IOATLAS_MEMORY' "$TEST_TMP/err")" 1 "once"
out=$(IOATLAS_MEMORY=lots IOATLAS_LOGDIR="$logs" LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" \
	"$ops" stdio "$work" 2>"$TEST_TMP/err")
is "$(cat "$TEST_TMP/err")" "" "and silently ignored without it"

conf="$TEST_TMP/ioatlas.conf"
printf '# site file\nlogdir = %s\nnonmpi = yes\nthis line is garbage\nmemory = 8MiB\n' \
	"$(ioa_logdir)" >"$conf"
IOATLAS_CONF="$conf" LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" "$ops" basic "$work"
site_logs=$(sed -n 's/^logdir = //p' "$conf")
ok "the site file's settings apply, its garbage line ignored" ioa_only_log "$site_logs"
printf 'collector.quarantine = /q\nwarehouse.conninfo = service=x\n' >>"$conf"
IOATLAS_CONF="$conf" IOATLAS_DEBUG=1 LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" \
	"$ops" basic "$work" 2>"$TEST_TMP/err"
is "$(grep -cE 'collector|warehouse' "$TEST_TMP/err")" 0 \
	"the tools' dotted keys in the site file are not the runtime's to complain about"

# A budget too small for the runtime's own tables: it stays off, the program runs.
logs=$(ioa_logdir)
out=$(IOATLAS_MEMORY=64KiB IOATLAS_DEBUG=1 ioa_preload "$logs" "$ops" stdio "$work" 2>"$TEST_TMP/err")
is "$?:$out:$(ioa_logs "$logs" | wc -l)" "0:ok:0" \
	"when the runtime cannot start it switches itself off and the program runs unchanged"
like "$(cat "$TEST_TMP/err")" "^ioatlas: runtime off: memory budget too small" "and says why under IOATLAS_DEBUG"

# Off switches.
logs=$(ioa_logdir)
IOATLAS_DISABLE=1 ioa_preload "$logs" "$ops" basic "$work"
is "$(ioa_logs "$logs" | wc -l)" 0 "IOATLAS_DISABLE=1 leaves no log"
logs=$(ioa_logdir)
IOATLAS_NONMPI=0 ioa_preload "$logs" "$ops" basic "$work"
is "$(ioa_logs "$logs" | wc -l)" 0 "non-MPI programs leave no log unless opted in"
logs=$(ioa_logdir)
IOATLAS_NONMPI=0 IOATLAS_NONMPI_EXES=cat:posix-ops ioa_preload "$logs" "$ops" basic "$work"
is "$(ioa_logs "$logs" | wc -l)" 1 "a program on the site's non-MPI list is logged"
logs=$(ioa_logdir)
IOATLAS_EXCLUDE_EXES="$(dirname "$ops")" ioa_preload "$logs" "$ops" basic "$work"
is "$(ioa_logs "$logs" | wc -l)" 0 "an excluded executable (by path prefix) is not instrumented"

done_testing
