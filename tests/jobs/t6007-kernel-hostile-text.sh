# t6007-kernel-hostile-text — text from a log never becomes code in a
# kernel.  Real programs (python3, cp run from a folder named with "*/")
# create files whose names hold "*/", quotes, backslashes, newlines,
# trigraphs, "%n" and bytes that are not UTF-8; crafted logs (log-hostile)
# carry "*/ system(...); /*", "#error" lines and the same bytes in every
# string field: job keys, file names, mounts, failed calls, MPI-IO hints
# and, in one variant, the trace's call names.  Each kernel is generated
# with the names kept, compiles with trigraphs on and warnings as errors,
# holds no byte of the hostile text outside string literals, replays the
# names byte for byte (compared with the program's own listing of what it
# made, and with the crafted name table), and runs nothing else: no PWNED
# file appears anywhere.  A file named like a standard stream leaves the
# stream its name.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd /usr/bin/python3

kernel="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-kernel"
hostile="$IOA_BUILD_DIR/tests/jobs/log-hostile"
mpicc=$(command -v mpicc.mpich || command -v mpicc)
py=/usr/bin/python3
export IOATLAS_CONF=/dev/null
cd "$TEST_TMP" || exit 1

# outside_literals KERNEL_C: the kernel's text with its string literals emptied.
outside_literals() {
	"$py" -c 'import re, sys
src = open(sys.argv[1], "rb").read()
sys.stdout.buffer.write(re.sub(rb"\"(?:[^\"\\\n]|\\.)*\"", b"\"\"", src))' "$1"
}

# kernel_checks NAME LOG RANKS: generates NAME's kernel from LOG with its
# names, checks its text, builds it strictly and runs it into data-NAME.
kernel_checks() {
	local name=$1 log=$2 ranks=$3 k="$TEST_TMP/k-$1"
	ok "$name: a kernel is generated with the job's names" \
		"$kernel" gen "$log" --keep-names -o "$k"
	unlike "$(outside_literals "$k/kernel.c" | tr -d '\0')" 'PWNED|system|#error' \
		"$name: no log text outside string literals"
	is "$(LC_ALL=C grep -c '??' "$k/kernel.c")" 0 "$name: no trigraph anywhere"
	is "$(LC_ALL=C grep -c -P '[^\x09\x0a\x20-\x7e]' "$k/kernel.c")" 0 \
		"$name: only printable ASCII in the kernel"
	ok "$name: it builds with trigraphs on and warnings as errors" \
		"$mpicc" -std=c11 -trigraphs -Wall -Wextra -Werror -o "$k/kernel" "$k/kernel.c"
	mkdir -p "$TEST_TMP/data-$name"
	ok "$name: it makes its inputs" mpi_run "$ranks" 60 "$k/kernel" --prepare \
		--data-dir "$TEST_TMP/data-$name"
	ok "$name: it runs" mpi_run "$ranks" 60 "$k/kernel" --data-dir "$TEST_TMP/data-$name"
}

# --- real programs
made="$TEST_TMP/made"
mkdir -p "$made" "$TEST_TMP/logs-py"
cat >"$TEST_TMP/mk.py" <<'EOF'
import os, sys
d = sys.argv[1].encode()
names = [b'end*comment', b'a"quote', b'back\\slash', b'new\nline',
         b'tri??=graph??(', b'pct%n%s', b'bad\xff\xfeutf8', b'open_*']
os.mkdir(os.path.join(d, b'dir*'))
names.append(b'dir*/inside')
for i, n in enumerate(names):
    fd = os.open(os.path.join(d, n), os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o644)
    os.write(fd, b'x' * (100 * (i + 1)))
    os.close(fd)
with open(os.path.join(d, names[2]), 'rb') as f:
    f.read()
for n in sorted(os.listdir(d)):
    sys.stdout.buffer.write(n + b'\0')
EOF
ioa_preload "$TEST_TMP/logs-py" "$py" "$TEST_TMP/mk.py" "$made" >"$TEST_TMP/made.list"
is "$?" 0 "python3 makes files with hostile names under the runtime (and lists them)"
pylog=$(ioa_only_log "$TEST_TMP/logs-py")
# cp, run from a folder whose path holds "*/ system(...); /*", copies to a hostile name.
bindir="$TEST_TMP/bin*/ system(\"touch PWNED\"); /*"
mkdir -p "$bindir" "$TEST_TMP/logs-cp"
cp "$(command -v cp)" "$bindir/cp"
copy=$'copy"\n%n??=\xff'
ok "cp from that folder copies to a name with a quote, a newline, %n and a trigraph" \
	ioa_preload "$TEST_TMP/logs-cp" "$bindir/cp" "$made/a\"quote" "$made/$copy"
cplog=$(ioa_only_log "$TEST_TMP/logs-cp")

kernel_checks python "$pylog" 1
ok "python: every name the program made (its own listing), made by the kernel byte for byte" \
	"$py" -c 'import os, sys
made = set(open(sys.argv[1], "rb").read().split(b"\0")[:-1]) | {b"inside"}
sys.exit(0 if len(made) == 10 and made <= set(os.listdir(sys.argv[2].encode())) else 1)' \
	"$TEST_TMP/made.list" "$TEST_TMP/data-python"

kernel_checks cp "$cplog" 1
ok "cp: the copy's name replayed byte for byte" test -f "$TEST_TMP/data-cp/$copy"

# A file named as the runtime names a standard stream ("<STDOUT>"), made
# before the program writes to its standard output: in the kernel the
# stream keeps the name, the file is named apart, and each gets its writes.
mkdir -p "$TEST_TMP/logs-std" "$TEST_TMP/std"
ok "python3 writes a file named <STDOUT>, then to its standard output" \
	ioa_preload "$TEST_TMP/logs-std" "$py" -c 'import os, sys
fd = os.open(os.path.join(sys.argv[1], "<STDOUT>"), os.O_CREAT | os.O_WRONLY, 0o644)
os.write(fd, b"x" * 300)
os.close(fd)
os.write(1, b"to the stream\n")' "$TEST_TMP/std" >"$TEST_TMP/std.out"
stdlog=$(ioa_only_log "$TEST_TMP/logs-std")
ok "std: a kernel with the job's names" "$kernel" gen "$stdlog" --keep-names -o "$TEST_TMP/k-std"
like "$(tr -d '\n\t' <"$TEST_TMP/k-std/kernel.c")" '"f[0-9]+_<STDOUT>",' "std: the file named apart"
ok "std: validated" run_timeout 300 "$kernel" validate "$TEST_TMP/k-std" "$stdlog" \
	--runtime "$(ioa_preload_list "$IOA_RUNTIME_SO")"
like "$(cat "$TEST_TMP/last.out")" "counters compared: identical" \
	"std: the file's writes on the file, the stream's on the stream"

# --- crafted logs: every string field hostile
mkdir -p "$TEST_TMP/logs-mpi" "$TEST_TMP/work"
ok "a 4-rank MPI-IO job with hints runs under the runtime" \
	ioa_mpi_preload "$TEST_TMP/logs-mpi" 4 120 "$IOA_BUILD_DIR/tests/workloads/mpi-io" \
	shared "$TEST_TMP/work"
mpilog=$(ioa_only_log "$TEST_TMP/logs-mpi")
for src in python mpi; do
	case $src in python) log=$pylog ranks=1 ;; mpi) log=$mpilog ranks=4 ;; esac
	kernel_checks "$src-orig" "$log" "$ranks"
	ok "$src: crafted: every string field of the log made hostile" \
		sh -c '"$1" "$2" "$3" >"$4"' sh "$hostile" "$log" "$TEST_TMP/$src-h.ioa" "$TEST_TMP/$src.map"
	like "$("$IOA_CMD" parse "$TEST_TMP/$src-h.ioa" | head -20)" 'PWNED' \
		"$src: the crafted log reads back with its hostile text"
	kernel_checks "$src-h" "$TEST_TMP/$src-h.ioa" "$ranks"
	ok "$src: crafted names replayed byte for byte (the original kernel's files, renamed)" \
		"$py" -c 'import os, sys
m = open(sys.argv[1], "rb").read().split(b"\0")[:-1]
new = dict(zip(m[0::2], m[1::2]))
want = {new.get(n, n) for n in os.listdir(sys.argv[2].encode())}
got = set(os.listdir(sys.argv[3].encode()))
sys.exit(0 if want == got and got else 1)' "$TEST_TMP/$src.map" "$TEST_TMP/data-$src-orig" \
		"$TEST_TMP/data-$src-h"
	ok "$src: crafted call names too" \
		sh -c '"$1" --calls "$2" "$3" >/dev/null' sh "$hostile" "$log" "$TEST_TMP/$src-c.ioa"
	kernel_checks "$src-c" "$TEST_TMP/$src-c.ioa" "$ranks"
	like "$(cat "$TEST_TMP/k-$src-c/kernel.c")" 'a call not replayed' \
		"$src: calls it cannot know are said not replayed, without their names"
done

is "$(find "$TEST_TMP" /tmp -name PWNED 2>/dev/null | head -3)" "" "nothing else ran: no PWNED anywhere"
done_testing
