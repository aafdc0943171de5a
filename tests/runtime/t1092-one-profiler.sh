# t1092-one-profiler — a process keeps one I/O profiler: with Darshan 3.5
# (the team's build in shared/tools) preloaded beside libioatlas, in
# either order, the program runs unchanged, Darshan writes its log, and
# the runtime stands down, leaving none and saying why under
# IOATLAS_DEBUG.  (The modulefiles refuse to load beside a darshan module,
# t1007; this is the other way round: darshan's module loaded after
# ioatlas, or a preload by hand.)  Alone, the runtime logs as ever.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
tools=${IOATLAS_DARSHAN_TOOLS:-$IOA_SOURCE_DIR/../shared/tools}/darshan-3.5.0-debian12-mpich.tar.gz
[ -r "$tools" ] || skip_all "no Darshan build to run beside ($tools)"

plan 12

prog="$IOA_BUILD_DIR/tests/runtime/sync-time"
mkdir -p "$TEST_TMP/darshan" "$TEST_TMP/data"
ok "Darshan 3.5.0's tools unpack" tar -xzf "$tools" -C "$TEST_TMP/darshan"
darshan="$TEST_TMP/darshan/darshan-3.5.0/lib/libdarshan.so"

# both NAME PRELOAD...: the program with both profilers preloaded in that
# order (a sanitizer build's runtimes first), Darshan's log NAME.darshan.
both() {
	local name=$1 logs
	shift
	logs=$(ioa_logdir)
	echo "$logs" >"$TEST_TMP/$name.logs"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		IOATLAS_LOGDIR="$logs" IOATLAS_NONMPI=1 IOATLAS_DEBUG=1 \
		DARSHAN_ENABLE_NONMPI=1 DARSHAN_LOGFILE="$TEST_TMP/$name.darshan" \
		LD_PRELOAD="$(ioa_preload_list "$@")" "$prog" "$TEST_TMP/data/$name" \
		>"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err"
}

for order in ioatlas-first darshan-first; do
	if [ $order = ioatlas-first ]; then
		both $order "$IOA_RUNTIME_SO" "$darshan"
	else
		both $order "$darshan" "$IOA_RUNTIME_SO"
	fi
	is "$?" 0 "$order: the program runs"
	like "$(cat "$TEST_TMP/$order.out")" "sync_s" "$order: and says what it did"
	ok "$order: Darshan writes its log" test -s "$TEST_TMP/$order.darshan"
	is "$(ioa_logs "$(cat "$TEST_TMP/$order.logs")" | wc -l)" 0 "$order: the runtime leaves none"
	like "$(cat "$TEST_TMP/$order.err")" "runtime off: Darshan is loaded in this process" \
		"$order: and says why"
done

logs=$(ioa_logdir)
ioa_preload "$logs" "$prog" "$TEST_TMP/data/alone" >/dev/null
ok "alone, the runtime logs the same program" ioa_only_log "$logs"
done_testing
