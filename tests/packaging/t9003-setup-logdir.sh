# t9003-setup-logdir — `ioatlas setup-logdir` makes the log tree's date
# folders ahead with the site's owner, group and mode 3773: a user's job
# (run as nobody) writes its log there but cannot list the folder, the
# collector's group can, and reads the log, which took the folder's group; a second run changes nothing; a folder set wrong
# is set right; bad requests are refused.  Hostile users (nobody) cannot
# turn it against the system: symbolic links planted as day folders are
# reported and left alone (what they point at keeps its owner and mode), a
# folder or file a user made in a day's place is reported and skipped while
# the other days are still made; a day folder a job made (setup-logdir did
# not run) has the tree's group and mode, and setup-logdir takes it over
# with the job's log in it.  Its systemd unit and timer (daily, at boot)
# pass systemd-analyze verify.
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

# Hostile users plant things where future days go (the parents are the tree's, 3773).
day() { date -u -d "+$1 days" +%Y/%m/%d; }
ok "the next 8 days are made" "$setup" --logdir "$tree" --group daemon --days 8
for n in 3 4 5 6; do rmdir "$tree/$(day $n)"; done
mkdir "$TEST_TMP/victim-dir"
chmod 700 "$TEST_TMP/victim-dir"
printf 'secret\n' >"$TEST_TMP/victim-file"
chmod 600 "$TEST_TMP/victim-file"
ok "a user plants a symbolic link to a root folder as a day" \
	as_nobody ln -s "$TEST_TMP/victim-dir" "$tree/$(day 3)"
ok "another to a root file" as_nobody ln -s "$TEST_TMP/victim-file" "$tree/$(day 4)"
ok "makes a future day's folder" as_nobody mkdir "$tree/$(day 5)"
ok "and touches a file in another day's place" as_nobody touch "$tree/$(day 6)"
rm -rf "$tree/$(day 7)"
out=$(run_timeout 30 "$setup" --logdir "$tree" --group daemon --days 9 2>&1)
is "$?" 1 "setup-logdir says that something needs a look"
like "$out" "'$tree/$(day 3)' is a symbolic link" "it reports the link to a folder"
like "$out" "'$tree/$(day 4)' is a symbolic link" "and to a file"
like "$out" "'$tree/$(day 5)' was made by uid [0-9]+" "the user's folder"
like "$out" "'$tree/$(day 6)' is in the way: not a folder" "and the file"
like "$out" "5 days ready, [0-9]+ folders made, 0 set right, 4 left as they are" \
	"the run went on over the other days"
is "$(stat -c '%a %U %G' "$TEST_TMP/victim-dir" "$TEST_TMP/victim-file" | tr '\n' ' ')" \
	"700 root root 600 root root " "what the links point at keeps its mode and owner"
ok "the links are left as they are" test -L "$tree/$(day 3)" -a -L "$tree/$(day 4)"
is "$(stat -c '%U' "$tree/$(day 5)")" nobody "the user's folder is not taken over"
is "$(stat -c '%a %G' "$tree/$(day 7)" "$tree/$(day 8)" | tr '\n' ' ')" "3773 daemon 3773 daemon " \
	"the days after them are made"
rm -rf "$tree/$(day 3)" "$tree/$(day 4)" "$tree/$(day 5)" "$tree/$(day 6)"

# setup-logdir did not run for today: the user's job makes the day folder.
jobs_tree="$TEST_TMP/jobs-tree"
ok "a tree with no day folder yet" "$setup" --logdir "$jobs_tree" --group daemon --days 1
rmdir "$jobs_tree/$today"
mkdir -m 777 "$TEST_TMP/nobody-data"
ok "a job (umask 022) runs under the runtime and makes today's folder" \
	as_nobody sh -c 'umask 022; exec "$@"' sh env IOATLAS_LOGDIR="$jobs_tree" \
	IOATLAS_NONMPI=1 LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" \
	"$IOA_BUILD_DIR/tests/workloads/posix-ops" basic "$TEST_TMP/nobody-data"
is "$(stat -c '%a %U %G' "$jobs_tree/$today")" "3773 nobody daemon" \
	"it has the tree's group (set-group-ID) and mode, as setup-logdir makes them"
job_log=$(find "$jobs_tree/$today" -name 'nobody_posix-ops_*.ioa')
is "$(stat -c '%a %G' "$job_log")" "440 daemon" "the job's log is there, in the collector's group"
out=$(run_timeout 30 "$setup" --logdir "$jobs_tree" --group daemon --days 1 2>&1)
is "$?" 0 "setup-logdir accepts the job's folder"
like "$out" "0 folders made, 0 set right, 1 taken over from jobs" "and takes it over"
is "$(stat -c '%a %U %G' "$jobs_tree/$today")" "3773 root daemon" "the tree's owner has it"
ok "with the job's log in it" test -f "$job_log"

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

# The unit and timer a site enables (systemctl enable --now
# ioatlas-setup-logdir.timer), pointed at this build's program.
for unit in ioatlas-setup-logdir.service ioatlas-setup-logdir.timer; do
	sed "s|^ExecStart=[^ ]*|ExecStart=$setup|" "$IOA_BUILD_DIR/share/ioatlas/$unit" \
		>"$TEST_TMP/$unit"
done
ok "the setup-logdir unit passes systemd-analyze verify" \
	systemd-analyze verify "$TEST_TMP/ioatlas-setup-logdir.service"
ok "and its timer" systemd-analyze verify "$TEST_TMP/ioatlas-setup-logdir.timer"
like "$(tr '\n' ' ' <"$TEST_TMP/ioatlas-setup-logdir.timer")" "OnCalendar=.*Persistent=true" \
	"which runs daily and catches up a missed day"

done_testing
