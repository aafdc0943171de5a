# t1021-create-unprivileged — open(O_CREAT, 0444) and creat(0444) by a user
# who is not root: they succeed as they do without the runtime (which must
# not open the file a second time to learn whether the call created it),
# the files keep mode 0444, nothing is left behind by calls that fail, and
# POSIX_CREATES counts exactly the files created.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"

ops="$IOA_BUILD_DIR/tests/runtime/harm-ops"

# As root (CI), run as an unprivileged user: root's opens pass every check.
as_user() { "$@"; }
if [ "$(id -u)" = 0 ]; then
	require_cmd setpriv
	user=${IOATLAS_TEST_USER:-nobody}
	as_user() { setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups "$@"; }
	# The scratch folder must be reachable by that user.
	chmod 755 "$TEST_TMP"
fi

# run WORK LOGS [preload]: the create pattern in a fresh WORK as the user.
run() {
	mkdir -p "$1/closed" && chmod 555 "$1/closed" && chmod 755 "$1"
	[ "$(id -u)" = 0 ] && chown -R "$user" "$1" "$2"
	if [ "${3:-}" = preload ]; then
		as_user env IOATLAS_LOGDIR="$2" IOATLAS_NONMPI=1 \
			LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" "$ops" create "$1"
	else
		as_user "$ops" create "$1"
	fi
}

plan 8

plain="$TEST_TMP/plain"
mkdir -p "$plain" "$TEST_TMP/nologs"
expected=$(run "$plain" "$TEST_TMP/nologs")
is "$?" 0 "without the runtime the pattern runs"
like "$expected" 'open O_CREAT\|O_WRONLY 0444, new: ok mode 0444' \
	"(and an open that creates a read-only file for writing succeeds)"

work="$TEST_TMP/work"
mkdir -p "$work"
logs=$(ioa_logdir)
got=$(run "$work" "$logs" preload)
is "$?" 0 "under the runtime the pattern runs"
is "$got" "$expected" "every open and creat returns, fails and leaves files exactly as without the runtime"
is "$(stat -c %a "$work/ro-open"):$(stat -c %a "$work/ro-creat")" 444:444 "the new files have mode 0444"
ok "a create that fails leaves no file" test ! -e "$work/closed/new"

log=$(ioa_only_log "$logs")
creates=""
for f in ro-open ro-creat ro-openat ro-rdonly; do
	creates="$creates$(ioa_counter "$log" POSIX 0 "$work/$f" POSIX_CREATES):"
done
is "$creates" "1:1:1:1:" "POSIX_CREATES: each new file created once, opening it again creates nothing"
is "$(ioa_counter "$log" POSIX 0 "$work/ro-open" POSIX_OPENS)" 2 \
	"the successful opens of DIR/ro-open are counted, the failed one is not"

done_testing
