# t1025-settings-file-bounds — the site file (IOATLAS_CONF) is read only
# when it is a regular file of at most 1 MiB: /dev/zero, a FIFO with no
# writer, a folder or a huge file are refused (said under IOATLAS_DEBUG),
# start-up never blocks, and the program runs and is logged as usual.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"

ops="$IOA_BUILD_DIR/tests/workloads/posix-ops"
work="$TEST_TMP/work"
mkdir -p "$work"

plan 14

mkfifo "$TEST_TMP/fifo"
mkdir "$TEST_TMP/folder"
# Settings that would switch the runtime off, then 2 MiB of comments.
{
	echo "disable = 1"
	head -c $((2 * 1024 * 1024)) /dev/zero | tr '\0' '#'
	echo
} >"$TEST_TMP/huge.conf"

for conf in /dev/zero "$TEST_TMP/fifo" "$TEST_TMP/folder" "$TEST_TMP/huge.conf"; do
	logs=$(ioa_logdir)
	err=$(IOATLAS_CONF="$conf" IOATLAS_DEBUG=1 run_timeout 20 env IOATLAS_LOGDIR="$logs" \
		IOATLAS_NONMPI=1 LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" \
		"$ops" basic "$work" 2>&1)
	is "$?" 0 "IOATLAS_CONF=$conf: the program starts and runs"
	like "$err" "ioatlas: ignoring settings file '$conf': (not a regular file|larger than 1 MiB)" \
		"and the file is refused, said under IOATLAS_DEBUG"
	ok "and its log is written" ioa_only_log "$logs"
done

# A file of exactly the bound is read.
logs=$(ioa_logdir)
{
	echo "disable = 1"
	head -c $((1024 * 1024 - 12)) /dev/zero | tr '\0' '#'
} >"$TEST_TMP/bound.conf"
IOATLAS_CONF="$TEST_TMP/bound.conf" ioa_preload "$logs" "$ops" basic "$work"
is "$(ioa_logs "$logs" | wc -l)" 0 "a file of 1 MiB is read (its disable = 1 holds)"
is "$(stat -c %s "$TEST_TMP/bound.conf")" $((1024 * 1024)) "(the file is 1 MiB)"

done_testing
