# t1044-nwchem-tempfiles — a real NWChem run (SCF of water on 2 MPICH
# ranks, tests/workloads/nwchem-h2o.nw), written by nobody here: the files
# it made and removed in its folders (scratch, permanent, the input's and
# $HOME) are the ones the log marks created and removed and the ones the
# tempfiles analysis reports, and the log's failed calls are NWChem's own,
# none of the MPI library's start-up.
#
# Ground truth: strace -f -ff -ttt -y of each rank, the runtime's run and a
# second, identical run without the runtime (the runtime changes the calls
# the kernel sees: an open with O_CREAT is first tried with O_EXCL, remove
# asks first whether its path is a folder).  Replaying every process's
# successful opens, unlinks and renames in time order from the listing of
# the folders before the run tells which open made its file (an O_CREAT
# open of a name that did not exist); the replay checks itself (an O_EXCL
# open must fail exactly when the name exists).  Both runs must make and
# remove the same files.  The failures are those of the run without the
# runtime, every failed call on a name in the folders, less the MPI
# library's: strace -k gives each call's stack, and a call with MPICH or
# its helpers (UCX, hwloc, libfabric, PMI) on it is theirs (UCX reads
# ucx.conf in the working folder and $HOME as it loads).
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
# Every run here is under strace, where LeakSanitizer cannot work (ptrace).
[ -z "${IOA_SANITIZE:-}" ] || export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
require_mpi
require_cmd mpiexec.mpich
require_cmd strace
require_cmd python3
require_cmd nwchem.mpich

plan 15

# nwchem NAME LOGDIR [STRACE-OPTION...]: the calculation in fresh folders
# under $TEST_TMP/NAME, each rank under strace (traces in
# $TEST_TMP/NAME/strace/trace.PID), the runtime preloaded when LOGDIR is not
# empty; the folders' listing before the run in $TEST_TMP/NAME/before.
# ARMCI-MPI's shared-memory windows give NWChem wrong sums on Debian 12's
# MPICH (the SCF never converges on 2 ranks): plain windows instead.
nwchem() {
	local logs=$2 dir=$TEST_TMP/$1
	shift 2
	mkdir -p "$dir/work" "$dir/scratch" "$dir/perm" "$dir/home" "$dir/strace"
	sed -e "s|@SCRATCH@|$dir/scratch|" -e "s|@PERMANENT@|$dir/perm|" \
		"$IOA_SOURCE_DIR/tests/workloads/nwchem-h2o.nw" >"$dir/work/h2o.nw"
	find "$dir/work" "$dir/scratch" "$dir/perm" "$dir/home" -mindepth 1 >"$dir/before"
	(cd "$dir/work" && HOME="$dir/home" run_timeout 120 mpiexec.mpich -n 2 \
		${logs:+-genv IOATLAS_LOGDIR "$logs"} -genv ARMCI_USE_WIN_ALLOCATE 0 \
		strace -f -ff -ttt -y -qq "$@" -o "$dir/strace/trace" -e trace=%file \
		${logs:+-E LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")"} \
		nwchem.mpich h2o.nw >"$dir/out" 2>&1)
}

# truth NAME: "created PATH", "removed PATH" and, one line per failed call,
# "failed OP ERRNO PATH" ("library ..." when the MPI library's) for the
# folders of run NAME, from its traces.
truth() {
	local dir=$TEST_TMP/$1
	python3 - "$dir" "$dir"/strace/trace.* <<'EOF'
import os, re, sys
dir, traces = sys.argv[1], sys.argv[2:]
roots = [os.path.join(dir, d) + "/" for d in ("work", "scratch", "perm", "home")]
cwd = os.path.join(dir, "work")
ours = lambda p: any(p.startswith(r) for r in roots)
exists = set(line.rstrip("\n") for line in open(os.path.join(dir, "before")))
# The MPI library and its helpers, on a call's stack (strace -k).
mpi = re.compile(r'/lib(mpich|mpi|ucs|ucp|uct|ucm|hwloc|fabric|pmi)[^/]*\.so')
calls = []
for trace in traces:
    for line in open(trace):
        if line.startswith(" > "):
            if mpi.search(line):
                calls[-1][5] = True
            continue
        m = re.match(r'(\d+\.\d+) (\w+)\((.*)\)\s+= (-?\d+)(?: (E\w+))?', line)
        if m:
            calls.append([float(m.group(1)), m.group(2), m.group(3), int(m.group(4)), m.group(5), False])
calls.sort(key=lambda c: c[0])
# The failures counted as the log names their calls.
kind = {"openat": "open", "open": "open", "creat": "open", "newfstatat": "stat", "stat": "stat",
        "lstat": "stat", "statx": "stat", "faccessat": "access", "faccessat2": "access",
        "access": "access", "unlinkat": "unlink", "unlink": "unlink"}
for t, call, args, rc, err, library in calls:
    at = re.match(r'\d+<([^>]*)>', args)  # a folder's descriptor (strace -y)
    paths = [os.path.normpath(os.path.join(at.group(1) if at else cwd, p))
             for p in re.findall(r'"([^"]*)"', args)]
    if not paths or not any(ours(p) for p in paths):
        continue
    path = paths[0]
    if rc < 0:
        if call == "unlinkat" and "AT_REMOVEDIR" in args:
            call = "rmdir"
        print("library" if library else "failed", kind.get(call, call), err, path)
        if call in ("openat", "open") and "O_EXCL" in args and err == "EEXIST" and path not in exists:
            sys.exit("an exclusive open of %s failed though the replay has no such file" % path)
        continue
    if call in ("openat", "open", "creat"):
        if "O_EXCL" in args and path in exists:
            sys.exit("an exclusive open of %s succeeded though the replay has the file" % path)
        if (call == "creat" or "O_CREAT" in args) and path not in exists:
            exists.add(path)
            print("created", path)
    elif call in ("unlink", "unlinkat", "rmdir"):
        exists.discard(path)
        print("removed", path)
    elif call.startswith("rename"):
        exists.discard(path)
        exists.add(paths[1])
        print("removed", path)
EOF
}

logs=$(ioa_logdir)
nwchem traced "$logs"
is "$?" 0 "NWChem runs on 2 MPICH ranks under strace and the runtime"
log=$(ioa_only_log "$logs")
nwchem plain "" -k
is "$?" 0 "and under strace alone"
# The ranks' sums come in any order: the last digits may differ.
energy() { awk '/Total SCF energy/ { printf "%.8f\n", $NF }' "$TEST_TMP/$1/out"; }
like "$(energy plain)" '^-74\.96' "water's energy ($(energy plain) hartree)"
is "$(energy traced)" "$(energy plain)" "the same under the runtime"

truth traced >"$TEST_TMP/traced.truth"
is "$?" 0 "the runtime's run replays soundly"
truth plain >"$TEST_TMP/plain.truth"
is "$?" 0 "and the other run"
# files KIND RUN: the paths strace saw KIND (created, removed) in RUN, the
# run's folder replaced by "/".
files() { sed -n "s|^$1 $TEST_TMP/$2/|/|p" "$TEST_TMP/$2.truth" | sort -u; }
is "$(files created traced; files removed traced)" "$(files created plain; files removed plain)" \
	"both runs make and remove the same files"
temporary() { comm -12 <(files created "$1") <(files removed "$1"); }
temps=$(temporary traced | wc -l)
ok "strace saw NWChem make and remove $temps files in its folders (the truth is not empty)" \
	test "$temps" -gt 0

# From the log: "created PATH" and "removed PATH", any module's record.
d="$TEST_TMP/traced"
"$IOA_CMD" parse --json "$log" | python3 -c '
import json, sys
for r in json.load(sys.stdin)["records"]:
    for flag in ("created", "removed"):
        if r[flag] and r.get("name"):
            print(flag, r["name"])
' | grep -e " $d/work/" -e " $d/scratch/" -e " $d/perm/" -e " $d/home/" | sort -u >"$d.logged"
is "$(grep '^created' "$d.logged")" "$(grep '^created' "$d.truth" | sort -u)" \
	"the files the log marks created are the ones NWChem made"
is "$(grep '^removed' "$d.logged")" "$(grep '^removed' "$d.truth" | sort -u)" \
	"the ones it marks removed are the ones NWChem removed"

# The temporary-file analysis, straight from the log.
"$IOA_CMD" report "$log" --json -o - | python3 -c '
import json, sys
for a in json.load(sys.stdin)["analyses"]:
    if a.get("analysis") == "tempfiles":
        for f in a["result"]["temporary_files"]:
            print(f["file"])
' | sort -u >"$d.temps"
is "$(sed "s|^$d/|/|" "$d.temps")" "$(temporary traced)" \
	"the tempfiles analysis reports exactly the $temps files NWChem made and removed"

# Failed calls: every FAILED line is on a file in NWChem's folders (none of
# the MPI library's probing); which calls failed (operation, errno, file)
# are those NWChem made in the run without the runtime, the MPI library's
# left out by their stacks; how often, over the ranks, is what strace saw
# in the same run (NWChem's tests of its folders repeat as they will),
# less the runtime's own attempts (an exclusive open failing with EEXIST:
# NWChem makes none) and the MPI library's.
"$IOA_CMD" parse "$log" | awk -F '\t' '$1 == "FAILED" { print $8 }' | sort -u >"$d.failed-names"
is "$(grep -v -e "^$d/work/" -e "^$d/scratch/" -e "^$d/perm/" -e "^$d/home/" "$d.failed-names")" "" \
	"no failed call outside NWChem's folders (the MPI library's start-up is its own)"
"$IOA_CMD" parse "$log" | awk -F '\t' '$1 == "FAILED" {
	op = $5
	if (op ~ /^(open|open64|openat|openat64|creat|creat64|fopen|fopen64|freopen|freopen64)$/) op = "open"
	else if (op ~ /^(stat|stat64|lstat|lstat64|fstatat|fstatat64|statx)$/) op = "stat"
	else if (op ~ /^(faccessat)$/) op = "access"
	else if (op ~ /^(unlinkat|remove)$/) op = "unlink"
	n[op " " $6 " " $8] += $7
} END { for (k in n) print k, n[k] }' | sed "s|^\([^ ]* [^ ]*\) $d/|\1 /|" | sort >"$d.failed"
# KIND RUN: the failed calls strace saw of that kind ("failed", "library"), "OP ERRNO PATH".
calls() { sed -n "s|^$1 \([^ ]* [^ ]*\) $TEST_TMP/$2/|\1 /|p" "$TEST_TMP/$2.truth"; }
is "$(cut -d ' ' -f 1-3 "$d.failed")" "$(calls failed plain | sort -u)" \
	"the calls that failed are those NWChem made without the runtime ($(calls failed plain | sort -u | wc -l), $(calls library plain | wc -l) of the MPI library's left out)"
is "$(calls failed plain | grep -c '^open EEXIST ')" 0 "NWChem itself makes no exclusive open that fails"
is "$(cat "$d.failed")" "$(calls failed traced | grep -v '^open EEXIST ' | grep -vxF -f <(calls library plain | sort -u) |
	sort | uniq -c | awk '{ print $2, $3, $4, $1 }')" \
	"and each failed as often as strace saw in the same run"

done_testing
