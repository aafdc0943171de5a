# t1040-file-creates — files made by stdio and the temporary-file calls
# (fopen in every creating mode, freopen, tmpfile, the mkstemp family,
# mkdtemp, O_TMPFILE) are known as created, and those removed (remove() of
# a file or an empty folder, unlink) as removed: the program knows which
# files it made (it asked whether each existed before) and removed, and
# what /proc called its unnamed files (tests/workloads/file-life.c).  Every
# call's result, errno and file mode (umask 027) are the same without the
# runtime.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_cmd python3

prog="$IOA_BUILD_DIR/tests/workloads/file-life"
plan 17

mkdir -p "$TEST_TMP/plain" "$TEST_TMP/work"
ok "the program runs without the runtime" \
	sh -c "timeout 60 '$prog' creates '$TEST_TMP/plain' >'$TEST_TMP/plain.out'"
logs=$(ioa_logdir)
work="$TEST_TMP/work"
ioa_preload "$logs" "$prog" creates "$work" >"$TEST_TMP/work.out"
is "$?" 0 "and under the runtime"
log=$(ioa_only_log "$logs")
is "$(grep '^r ' "$TEST_TMP/work.out")" "$(grep '^r ' "$TEST_TMP/plain.out")" \
	"every call's result, errno and file mode are the program's own"

# MODULE NAME CREATED REMOVED, one line per record, from the log.
"$IOA_CMD" parse --json "$log" | python3 -c '
import json, sys
for r in json.load(sys.stdin)["records"]:
    if r.get("name"):
        print(r["module"], r["name"], int(r["created"]), int(r["removed"]), sep="\t")
' >"$TEST_TMP/records"
flagged() { # FLAG-COLUMN: the names, any module, with that flag, under $work or unnamed
	awk -F '\t' -v c="$1" -v w="$work/" '$c == 1 && index($2, w) == 1 { print $2 }' \
		"$TEST_TMP/records" | grep -v '/#[0-9]*\(~[0-9]*\)\{0,1\}$' | sort -u
}
is "$(flagged 3)" "$(sed -n 's/^c //p' "$TEST_TMP/work.out" | sort -u)" \
	"the files and folders it made are the ones marked created"
is "$(flagged 4)" "$(sed -n 's/^x //p' "$TEST_TMP/work.out" | sort -u)" \
	"the ones it removed are the ones marked removed"
created_by() { awk -F '\t' -v m="$1" -v f="$2" '$1 == m && $2 == f { print $3 $4 }' "$TEST_TMP/records"; }
is "$(created_by STDIO "$work/w1"):$(created_by STDIO "$work/a1"):$(created_by STDIO "$work/x1")" \
	10:10:10 "fopen w, a and wx: created (and opened again with w, a+, wx: not twice)"
is "$(created_by STDIO "$work/w3"):$(created_by STDIO "$work/w4"):$(created_by STDIO "$work/f1")" \
	10:10:10 "w+c, a mode too long to take an x, freopen: created"
is "$(created_by STDIO "$work/w2"):$(created_by POSIX "$work/w2")" 11:01 \
	"a stream's file removed with remove(): both its records know"

# Unnamed files: tmpfile, tmpfile64 (in /tmp) and O_TMPFILE (in $work).
unnamed=$(sed -n 's/^t //p' "$TEST_TMP/work.out")
want=$(for n in $unnamed; do echo "$n"; done | awk '{ n[$0]++; print (n[$0] > 1 ? $0 "~" n[$0] : $0) }')
got=$(for n in $want; do awk -F '\t' -v f="$n" '$2 == f && $3 == 1 && $4 == 1 { print $1; exit }' \
	"$TEST_TMP/records"; done | tr '\n' ' ')
is "$got" "STDIO STDIO POSIX " \
	"each file without a name is a record created and removed, named as /proc names it (~2 when the number comes again)"

c() { ioa_counter "$log" POSIX 0 "$1" "$2"; }
mk=$(sed -n "s|^c \($work/m[0-9].*\)|\1|p" "$TEST_TMP/work.out")
is "$(for f in $mk; do c "$f" POSIX_CREATES; done | awk '{ s += $1 } END { print s }')" 8 \
	"each of the 8 mkstemp-family calls counts one create"
dt=$(sed -n "s|^c \($work/d.*\)|\1|p" "$TEST_TMP/work.out")
is "$(c "$dt" POSIX_MKDIRS):$(c "$dt" POSIX_RMDIRS):$(c "$dt" POSIX_UNLINKS)" 1:1:0 \
	"mkdtemp makes a folder, remove() of it counts as rmdir"
removed=$(sed -n "s|^x \($work/m[0246].*\)|\1|p" "$TEST_TMP/work.out")
is "$(for f in $removed; do c "$f" POSIX_UNLINKS; done | awk '{ s += $1 } END { print s }')" 4 \
	"remove() of a file counts as an unlink"
"$IOA_CMD" parse --json "$log" | python3 -c '
import json, sys
for f in json.load(sys.stdin)["failures"]:
    if f["operation"] == "remove":
        print(f.get("name"), f["errno"], f["count"])
' >"$TEST_TMP/failures"
is "$(sort "$TEST_TMP/failures")" "$work/full ENOTEMPTY 1
$work/nothing ENOENT 1" "failed removes are failures of remove, on their file"

# The temporary-file analysis (ioatlas report, straight from the log) finds
# every file made and removed (folders aside: the mkdtemp one) and every unnamed one.
temps=$(comm -12 <(sed -n 's/^c //p' "$TEST_TMP/work.out" | sort) <(sed -n 's/^x //p' "$TEST_TMP/work.out" | sort) |
	grep -vc "^$work/d[^/]*$")
"$IOA_CMD" report "$log" --json -o - >"$TEST_TMP/report.json"
is "$(python3 -c '
import json, sys
for a in json.load(open(sys.argv[1]))["analyses"]:
    if a.get("analysis") == "tempfiles":
        print(a["result"]["temporary_file_count"])
' "$TEST_TMP/report.json")" "$((temps + $(grep -c '^t ' "$TEST_TMP/work.out")))" \
	"the temporary-file analysis finds all of them (stdio-made and unnamed ones too)"

# The static link: libioatlas.a with ioatlas-config's --wrap flags knows every new wrapper.
flags=$("$IOA_BUILD_DIR/bin/ioatlas-config" --ld-flags)
for call in remove truncate truncate64 mkstemp mkostemps64 mkdtemp tmpfile tmpfile64; do
	case $flags in *"--wrap=$call,"* | *"--wrap=$call") ;; *) missing_wrap="$missing_wrap $call" ;; esac
done
is "${missing_wrap:-none}" none "ioatlas-config --ld-flags wraps remove, truncate, the mkstemp family, mkdtemp, tmpfile"
ok "file-life links against libioatlas.a" \
	"$IOA_CC" ${IOA_SANITIZE:+-fsanitize=$IOA_SANITIZE} -o "$TEST_TMP/file-life-static" \
	"$IOA_SOURCE_DIR/tests/workloads/file-life.c" $flags
mkdir -p "$TEST_TMP/static"
logs=$(ioa_logdir)
IOATLAS_LOGDIR="$logs" IOATLAS_NONMPI=1 "$TEST_TMP/file-life-static" creates "$TEST_TMP/static" \
	>"$TEST_TMP/static.out"
log=$(ioa_only_log "$logs")
work="$TEST_TMP/static"
"$IOA_CMD" parse --json "$log" | python3 -c '
import json, sys
for r in json.load(sys.stdin)["records"]:
    if r.get("name"):
        print(r["module"], r["name"], int(r["created"]), int(r["removed"]), sep="\t")
' >"$TEST_TMP/records"
is "$(flagged 3):$(flagged 4)" \
	"$(sed -n 's/^c //p' "$TEST_TMP/static.out" | sort -u):$(sed -n 's/^x //p' "$TEST_TMP/static.out" | sort -u)" \
	"statically linked, the same files are marked created and removed"

done_testing
