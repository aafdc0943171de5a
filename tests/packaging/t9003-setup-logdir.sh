# t9003-setup-logdir — `ioatlas setup-logdir` makes the log tree's date
# folders ahead with the site's owner, group and mode 3773: a user's job
# (run as nobody) writes its log there but cannot list the folder, the
# collector's group can, and reads the log, which took the folder's group; a second run changes nothing; a folder set wrong
# is set right; bad requests are refused.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
[ "$(id -u)" = 0 ] || skip_all "owners and groups are given by root"
require_cmd setpriv

setup="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-setup-logdir"
export IOATLAS_CONF=/dev/null
chmod 711 "$TEST_TMP"
tree="$TEST_TMP/logs"
today=$(date -u +%Y/%m/%d)

out=$("$setup" --logdir "$tree" --group daemon --days 3 2>&1)
is "$?" 0 "the tree is made"
like "$out" "3 days ready, [0-9]+ folders made, 0 set right" "and it says what it did"
is "$(find "$tree" -mindepth 3 -maxdepth 3 -type d | wc -l)" 3 "a folder per day"
is "$(find "$tree" -type d ! -perm 3773 | wc -l)" 0 "every folder is mode 3773"
is "$(find "$tree" -type d ! -group daemon | wc -l)" 0 "in the collector's group"
is "$(stat -c %a "$tree/$(date -u -d tomorrow +%Y/%m/%d)")" 3773 "tomorrow's is ready too"

# A user's job writes its log; the user cannot list the folder, the group can.
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
ok "a job run as another user writes its log in today's folder" \
	as_nobody env IOATLAS_LOGDIR="$tree" IOATLAS_NONMPI=1 \
	LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" true
log=$(find "$tree" -mindepth 4 -name 'nobody_*.ioa')
is "$(printf '%s\n' "$log" | grep -c .)" 1 "the log is there"
fails "that user cannot list the folder (log names carry users and programs)" \
	as_nobody ls "$(dirname "$log")"
ok "the collector's group can" \
	setpriv --reuid=nobody --regid=daemon --clear-groups ls "$(dirname "$log")"
is "$(stat -c '%a %U %G' "$log")" "440 nobody daemon" \
	"the log takes the folder's group, which its user is not in"
ok "so the collector's group reads it" \
	setpriv --reuid=daemon --regid=daemon --clear-groups head -c 4 "$log"

out=$("$setup" --logdir "$tree" --group daemon --days 3 2>&1)
like "$out" "0 folders made, 0 set right" "a second run changes nothing"
chmod 755 "$tree/$today"
chgrp root "$tree/$today"
out=$("$setup" --logdir "$tree" --group daemon --days 3 2>&1)
like "$out" "0 folders made, 1 set right" "a folder set wrong is set right"
is "$(stat -c '%a %G' "$tree/$today")" "3773 daemon" "its mode and group back"

log_group_conf="$TEST_TMP/ioatlas.conf"
printf 'logdir = %s/other\nlog_group = daemon\n' "$TEST_TMP" >"$log_group_conf"
ok "the tree and group come from the site settings too" \
	env IOATLAS_CONF="$log_group_conf" "$setup" --days 1
is "$(stat -c '%a %G' "$TEST_TMP/other/$today")" "3773 daemon" "made there"

out=$("$setup" --logdir "$tree" 2>&1)
is "$?" 2 "no group is refused"
like "$out" "--group or the log_group setting" "saying where to name it"
fails "an unknown group is refused" "$setup" --logdir "$tree" --group no-such-group
fails "so is a number of days that is not one" "$setup" --logdir "$tree" --group daemon --days x
fails "and a relative tree" "$setup" --logdir logs --group daemon
touch "$TEST_TMP/file-tree"
out=$("$setup" --logdir "$TEST_TMP/file-tree" --group daemon 2>&1)
is "$?" 1 "a file in the way fails"
like "$out" "is in the way: not a folder" "saying so"

done_testing
