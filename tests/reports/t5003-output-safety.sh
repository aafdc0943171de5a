# t5003-output-safety — outputs a hostile user cannot pre-empt (the user
# is nobody, the tool runs as root): `ioatlas report -o` refuses to replace
# what is not a regular file (a device node like /dev/null stays one) and
# never writes through a symbolic link another user planted, as the target
# or as a folder on its way, while following root's own links; `ioatlas
# dashboard` refuses an output folder that another user made, that others
# may write in, or that is a link another user planted, saying what to do,
# and makes a missing one the running user's, mode 755.  No database: the
# report is made from a log, and the dashboard stops before its queries.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
[ "$(id -u)" = 0 ] || skip_all "the hostile user is played by nobody, with root as the victim"
require_cmd setpriv
require_cmd mknod

report="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-report"
dashboard="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-dashboard"
: >"$TEST_TMP/empty.conf"
export IOATLAS_CONF="$TEST_TMP/empty.conf" # not /dev/null, which a broken build could replace
export IOATLAS_WAREHOUSE_CONNINFO="host=$TEST_TMP/nowhere connect_timeout=2"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
chmod 711 "$TEST_TMP"
shared="$TEST_TMP/shared" # like /tmp: every user writes, sticky
mkdir -m 1777 "$shared"
mkdir "$TEST_TMP/work"
logs=$(ioa_logdir)
ioa_preload "$logs" "$IOA_BUILD_DIR/tests/workloads/posix-ops" basic "$TEST_TMP/work"
log=$(ioa_only_log "$logs")
cd "$TEST_TMP" || exit 1

ok "a report is written to a new file" run_timeout 60 "$report" "$log" -o new.html
ok "and over an old one" run_timeout 60 "$report" "$log" -o new.html
is "$(stat -c '%F %a' new.html)" "regular file 600" "a regular file, the owner's only"

# A device node (a private /dev/null: the real one is not risked on a broken build).
mknod "$TEST_TMP/null" c 1 3
out=$(run_timeout 60 "$report" "$log" -o "$TEST_TMP/null" 2>&1)
is "$?" 1 "a report onto a device node is refused"
like "$out" "^ioatlas report: cannot write report '$TEST_TMP/null': not a regular file" \
	"saying that it is not a regular file"
is "$(stat -c '%F %t:%T' "$TEST_TMP/null")" "character special file 1:3" "the device node is intact"
# The machine's /dev/null only once a private node is known to be safe.
if [ "$(stat -c '%F' "$TEST_TMP/null")" = "character special file" ]; then
	out=$(run_timeout 60 "$report" "$log" -o /dev/null 2>&1)
	like "$out" "cannot write report '/dev/null': not a regular file" "the real /dev/null too"
	is "$(stat -c '%F %t:%T' /dev/null)" "character special file 1:3" "which stays a device"
else
	skip "a private device node was replaced" "the real /dev/null too"
	skip "a private device node was replaced" "which stays a device"
fi
mkfifo "$TEST_TMP/fifo"
fails "so is a FIFO" run_timeout 60 "$report" "$log" -o "$TEST_TMP/fifo"
ok "which stays one" test -p "$TEST_TMP/fifo"

# Symbolic links another user planted: as the target, and as a folder on the way.
printf 'keep\n' >victim-file
mkdir -m 755 victim-dir
ok "nobody plants a link to root's file where root's report goes" \
	as_nobody ln -s "$TEST_TMP/victim-file" "$shared/report.html"
out=$(run_timeout 60 "$report" "$log" -o "$shared/report.html" 2>&1)
is "$?" 1 "the report is refused"
like "$out" "cannot write report '$shared/report.html': a symbolic link another user owns" \
	"saying why"
ok "the link is left as it is" test -L "$shared/report.html"
is "$(cat victim-file)" "keep" "and root's file too"
ok "nobody plants a link to root's folder as a folder" \
	as_nobody ln -s "$TEST_TMP/victim-dir" "$shared/site"
out=$(run_timeout 60 "$report" "$log" -o "$shared/site/report.html" 2>&1)
like "$out" "cannot write report '$shared/site/report.html': a symbolic link another user owns" \
	"a report through it is refused"
is "$(ls -A victim-dir)" "" "and nothing lands in root's folder"
ln -s "$TEST_TMP/own-target.html" own-link.html
ok "root's own link is followed" run_timeout 60 "$report" "$log" -o own-link.html
ok "the report is where it points" test -s own-target.html -a -L own-link.html

# The dashboard's output folder.
ok "nobody makes the folder the dashboard will write" as_nobody mkdir "$shared/www"
out=$(run_timeout 60 "$dashboard" --out "$shared/www" 2>&1)
is "$?" 1 "the dashboard refuses it"
like "$out" "^ioatlas dashboard: cannot use output folder '$shared/www': owned by another user \\(uid [0-9]+\\)" \
	"saying whose it is"
like "$out" "remove it" "and what to do"
ok "nothing is written in it" test -z "$(ls -A "$shared/www")"
mkdir -m 777 open-www
out=$(run_timeout 60 "$dashboard" --out "$TEST_TMP/open-www" 2>&1)
like "$out" "cannot use output folder '$TEST_TMP/open-www': writable by other users" \
	"a folder others may write in is refused"
ok "nothing is written in it" test -z "$(ls -A open-www)"
ok "nobody plants a link as the folder" as_nobody ln -s "$TEST_TMP/victim-dir" "$shared/www2"
out=$(run_timeout 60 "$dashboard" --out "$shared/www2" 2>&1)
like "$out" "cannot use output folder '$shared/www2': a symbolic link another user owns" \
	"it is refused"
is "$(ls -A victim-dir)" "" "and nothing lands where it points"
out=$(run_timeout 60 "$dashboard" --out "$TEST_TMP/www" 2>&1)
unlike "$out" "output folder" "a missing folder is made (the database is missing here)"
is "$(stat -c '%U %a' "$TEST_TMP/www" "$TEST_TMP/www/users" | tr '\n' ' ')" "root 755 root 755 " \
	"the running user's, mode 755"

done_testing
