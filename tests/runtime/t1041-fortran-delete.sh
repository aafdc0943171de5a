# t1041-fortran-delete — a Fortran program's scratch files (STATUS='SCRATCH':
# libgfortran's mkostemp in TMPDIR, unlinked at once) and work files closed
# with STATUS='DELETE' are created and removed in the log, its result file
# created and kept (tests/workloads/fortran-scratch.f90).  Ground truth:
# strace -f of the same run, the files opened with O_CREAT in the two empty
# folders (each name once, so each such open made its file) and the names
# unlinked or removed there.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
# Every run here is under strace, where LeakSanitizer cannot work (ptrace).
[ -z "${IOA_SANITIZE:-}" ] || export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
require_cmd gfortran
require_cmd strace
require_cmd python3

plan 6

work="$TEST_TMP/work"
scratch="$TEST_TMP/scratch"
mkdir -p "$work" "$scratch"
ok "the Fortran program builds" \
	gfortran -o "$TEST_TMP/fortran-scratch" "$IOA_SOURCE_DIR/tests/workloads/fortran-scratch.f90"
logs=$(ioa_logdir)
(cd "$work" && IOATLAS_LOGDIR="$logs" IOATLAS_NONMPI=1 TMPDIR="$scratch" run_timeout 60 \
	strace -f -qq -o "$TEST_TMP/strace" -e trace=%file \
	-E LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" "$TEST_TMP/fortran-scratch")
is "$?" 0 "it runs under strace and the runtime"
log=$(ioa_only_log "$logs")

# strace's successful calls on the two folders: "created PATH" and "removed PATH".
python3 - "$TEST_TMP/strace" "$work" "$scratch" >"$TEST_TMP/truth" <<'EOF'
import os, re, sys
trace, work, scratch = sys.argv[1:]
for line in open(trace):
    m = re.search(r'(openat|open|creat|unlinkat|unlink|rmdir)\((?:AT_FDCWD, )?"([^"]*)"(.*)\)\s+=\s+(\d+)', line)
    if not m:
        continue
    call, path, rest = m.group(1), m.group(2), m.group(3)
    path = os.path.normpath(os.path.join(work, path))
    if not (path.startswith(work + "/") or path.startswith(scratch + "/")):
        continue
    if call in ("openat", "open") and "O_CREAT" in rest or call == "creat":
        print("created", path)
    elif call in ("unlink", "unlinkat", "rmdir"):
        print("removed", path)
EOF
"$IOA_CMD" parse --json "$log" | python3 -c '
import json, sys
for r in json.load(sys.stdin)["records"]:
    for flag in ("created", "removed"):
        if r[flag] and r.get("name"):
            print(flag, r["name"])
' | grep -e " $work/" -e " $scratch/" | sort -u >"$TEST_TMP/logged"

is "$(grep -c "^created $scratch/" "$TEST_TMP/truth"):$(grep -c "^removed $scratch/" "$TEST_TMP/truth")" \
	3:3 "strace saw the 3 scratch files made and unlinked (the truth is sound)"
is "$(grep '^created' "$TEST_TMP/logged")" "$(grep '^created' "$TEST_TMP/truth" | sort -u)" \
	"the files the log marks created are the ones strace saw made"
is "$(grep '^removed' "$TEST_TMP/logged")" "$(grep '^removed' "$TEST_TMP/truth" | sort -u)" \
	"the files the log marks removed are the ones strace saw removed"
is "$(comm -12 <(sed -n 's/^created //p' "$TEST_TMP/logged") <(sed -n 's/^removed //p' "$TEST_TMP/logged") | wc -l)" \
	6 "3 scratch and 3 deleted work files are temporary; the result file is not"

done_testing
