# t6005-repository-hostile — `kernel list`, `search` and `pull` against a
# hostile repository, served by a real HTTP server on 127.0.0.1 (python3's
# http.server, which can also stall on purpose): a package with too many
# files, too large a file, too large a total, a file larger than meta.json
# says, an index or a meta.json too large to take, a meta.json whose file
# list is not a list, and a server that sends
# its headers and then nothing are refused with a clear message, quickly,
# leaving nothing behind; names, versions and other text from the server
# reach the terminal without control bytes (C0, DEL, C1, ESC sequences).
# The packages are made by hand (no MPI, no validation): fast.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_cmd python3 sha256sum

kernel="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-kernel"
export IOATLAS_CONF=/dev/null
www="$TEST_TMP/www"
mkdir -p "$www"

# pkg TREE [DECLARED-SIZE]: makes TREE a repository holding fpp@1 whose files
# are what TREE/kernels/fpp/1 holds (made before), each declared of its size
# or of DECLARED-SIZE; meta.json and index.json written last.
pkg() {
	local tree=$1 declared=${2:-} dir="$1/kernels/fpp/1" f sep="" files="" size
	for f in $(cd "$dir" && LC_ALL=C ls); do
		size=${declared:-$(stat -c %s "$dir/$f")}
		files="$files$sep{\"name\":\"$f\",\"sha256\":\"$(sha256sum <"$dir/$f" | cut -c1-64)\",\"size\":$size}"
		sep=","
	done
	printf '{"name":"fpp","version":"1","published":"2026-01-01T00:00:00Z","provenance":{"ranks":4},"files":[%s]}\n' \
		"$files" >"$dir/meta.json"
	printf '{"format":1,"kernels":[{"name":"fpp","version":"1","path":"kernels/fpp/1/","ranks":4,"published":"2026-01-01T00:00:00Z"}]}\n' \
		>"$tree/index.json"
}
# kfiles TREE: the kernel's folder of TREE with a small kernel.c and Makefile.
kfiles() {
	mkdir -p "$1/kernels/fpp/1"
	printf 'int main(void) { return 0; }\n' >"$1/kernels/fpp/1/kernel.c"
	printf 'kernel: kernel.c\n\t$(MPICC) -o kernel kernel.c\n' >"$1/kernels/fpp/1/Makefile"
}
# nothing_left NAME: no folder named TEST_TMP/NAME or TEST_TMP/NAME.* is there.
nothing_left() {
	is "$(ls -d "$TEST_TMP/$1" "$TEST_TMP/$1".* 2>/dev/null)" "" "$2"
}
# no_control FILE DESCRIPTION: FILE has no C0 byte but tab and newline, no DEL, no C1 byte.
no_control() {
	local bad
	bad=$(LC_ALL=C grep -caP '[\x00-\x08\x0b-\x1f\x7f-\x9f]' "$1")
	is "$bad" 0 "$2"
	[ "$bad" = 0 ] || od -c "$1" | sed -n '1,12p' | sed 's/^/#   /'
}

kfiles "$www/good" && pkg "$www/good"
# 17 files: one more than a package may hold.
kfiles "$www/many"
for i in $(seq 15); do printf '%s\n' "$i" >"$www/many/kernels/fpp/1/f$i"; done
pkg "$www/many"
# A file declared of 100 MiB (its checksum is right: only its size is wrong).
kfiles "$www/big" && pkg "$www/big" 104857600
# Files of 40 MiB each: each may be, not both.
kfiles "$www/total" && pkg "$www/total" 41943040
# A file larger than meta.json says, with the right checksum.
kfiles "$www/liar" && pkg "$www/liar" 10
# An index of 17 MiB, a meta.json of 2 MiB (valid JSON, padded).
kfiles "$www/bigindex" && pkg "$www/bigindex"
{ head -c $((17 << 20)) /dev/zero | tr '\0' ' '; cat "$www/bigindex/index.json"; } >"$www/bigindex/i" &&
	mv "$www/bigindex/i" "$www/bigindex/index.json"
kfiles "$www/bigmeta" && pkg "$www/bigmeta"
{ head -c $((2 << 20)) /dev/zero | tr '\0' ' '; cat "$www/bigmeta/kernels/fpp/1/meta.json"; } \
	>"$www/bigmeta/m" && mv "$www/bigmeta/m" "$www/bigmeta/kernels/fpp/1/meta.json"
# A meta.json whose "files" is not a list (json-c asserts on it as one).
kfiles "$www/notlist" && pkg "$www/notlist"
sed -i 's/"files":\[.*\]}/"files":"kernel.c"}/' "$www/notlist/kernels/fpp/1/meta.json"
# A good package whose kernel.c stalls (the server's rule, below).
kfiles "$www/slow" && pkg "$www/slow"
# Terminal control in every text an index gives: ESC [ 2 J (clear screen),
# BEL, CR, DEL, a raw C1 byte (0x9b, CSI) and U+009B in UTF-8.
mkdir -p "$www/noise"
printf '{"format":1,"kernels":[{"name":"fp\\u001b[2Jp\\u0007x\\r\\u007f\x9by\\u009bz","version":"1\\u001b]0;owned\\u0007","path":"kernels/fpp/1/","ranks":4,"published":"\\u001b[31mred\\u009b"}]}\n' \
	>"$www/noise/index.json"
# A package whose file name and checksum carry the same.
kfiles "$www/noisemeta" && pkg "$www/noisemeta"
sed -i 's/"name":"kernel.c","sha256":"[0-9a-f]*"/"name":"\\u001b[2J..\/x\\u0007\\r\\u009b","sha256":"\\u001b[2J"/' \
	"$www/noisemeta/kernels/fpp/1/meta.json"

# The server: files of $www, except that /stall/... and /slow/.../kernel.c
# send their headers (no length) and one byte, then nothing for a minute;
# /flood/... sends 64 MiB of blanks, no length said.
cat >"$TEST_TMP/server.py" <<'EOF'
import http.server, re, sys, time
root, portfile = sys.argv[1], sys.argv[2]
class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=root, **k)
    def log_message(self, *a):
        pass
    def do_GET(self):
        if re.match(r'^/stall/|^/slow/.*/kernel\.c$', self.path):
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b'{')
            self.wfile.flush()
            time.sleep(60)
            return
        if self.path.startswith('/flood/'):
            self.send_response(200)
            self.end_headers()
            try:
                for i in range(64):
                    self.wfile.write(b' ' * (1 << 20))
            except OSError:
                pass
            return
        super().do_GET()
http.server.ThreadingHTTPServer.daemon_threads = True
server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
with open(portfile + '.new', 'w') as f:
    f.write(str(server.server_address[1]))
import os; os.rename(portfile + '.new', portfile)
server.serve_forever()
EOF
python3 "$TEST_TMP/server.py" "$www" "$TEST_TMP/port" 2>"$TEST_TMP/server.log" &
server=$!
at_exit "kill $server"
for i in $(seq 100); do [ -s "$TEST_TMP/port" ] && break; sleep 0.1; done
ok "the server starts on 127.0.0.1" test -s "$TEST_TMP/port"
url="http://127.0.0.1:$(cat "$TEST_TMP/port")"

ok "a good package is pulled" run_timeout 30 "$kernel" pull fpp --from "$url/good/" -o "$TEST_TMP/p-good"
ok "whole" cmp "$TEST_TMP/p-good/kernel.c" "$www/good/kernels/fpp/1/kernel.c"

fails "a package of 17 files" run_timeout 30 "$kernel" pull fpp --from "$url/many/" -o "$TEST_TMP/p-many"
like "$(cat "$TEST_TMP/last.out")" "meta.json: refused: 17 files \(a package holds at most 16\)" \
	"is refused, saying why"
nothing_left p-many "and leaves nothing behind"

fails "a file of 100 MiB" run_timeout 30 "$kernel" pull fpp --from "$url/big/" -o "$TEST_TMP/p-big"
like "$(cat "$TEST_TMP/last.out")" "meta.json: refused: 'Makefile' is larger than a package may be \(104857600 bytes, at most 67108864\)" \
	"is refused before it is fetched"
nothing_left p-big "and leaves nothing behind"
fails "files of 80 MiB together" run_timeout 30 "$kernel" pull fpp --from "$url/total/" -o "$TEST_TMP/p-total"
like "$(cat "$TEST_TMP/last.out")" "meta.json: refused: the files add up to more than a package may be \(83886080 bytes, at most 67108864\)" \
	"are refused"
nothing_left p-total "and leave nothing behind"
fails "a file larger than meta.json says" \
	run_timeout 30 "$kernel" pull fpp --from "$url/liar/" -o "$TEST_TMP/p-liar"
like "$(cat "$TEST_TMP/last.out")" "/liar/kernels/fpp/1/(Makefile|kernel.c): refused: larger than meta.json says \(10 bytes\)" \
	"is cut off and refused"
nothing_left p-liar "and leaves nothing behind"

fails "a meta.json whose files are not a list" \
	run_timeout 30 "$kernel" pull fpp --from "$url/notlist/" -o "$TEST_TMP/p-notlist"
like "$(cat "$TEST_TMP/last.out")" "notlist/kernels/fpp/1/meta.json: not a kernel's metadata" \
	"is refused, not a crash"
nothing_left p-notlist "and leaves nothing behind"

fails "an index of 17 MiB" run_timeout 30 "$kernel" list --from "$url/bigindex/"
like "$(cat "$TEST_TMP/last.out")" "bigindex/index.json: refused: larger than an index may be \(16777216 bytes\)" \
	"is refused"
fails "an index that does not end" run_timeout 30 "$kernel" list --from "$url/flood/"
like "$(cat "$TEST_TMP/last.out")" "flood/index.json: refused: larger than an index may be \(16777216 bytes\)" \
	"is cut off at the limit"
fails "a meta.json of 2 MiB" run_timeout 30 "$kernel" pull fpp --from "$url/bigmeta/" -o "$TEST_TMP/p-bigmeta"
like "$(cat "$TEST_TMP/last.out")" "meta.json: refused: larger than a meta.json may be \(1048576 bytes\)" \
	"is refused"
nothing_left p-bigmeta "and leaves nothing behind"

# A stalled server: abandoned after kernel.stall_timeout (2 s here), not waited for.
export IOATLAS_KERNEL_STALL_TIMEOUT=2
start=$(date +%s)
fails "a server that stalls on the index" run_timeout 20 "$kernel" list --from "$url/stall/"
took=$(($(date +%s) - start))
like "$(cat "$TEST_TMP/last.out")" "stall/index.json: the transfer stalled \(under 1024 bytes/s for 2 s: kernel.stall_timeout\)" \
	"is abandoned, saying so"
ok "within a few seconds of the stall timeout ($took s)" test "$took" -lt 8
start=$(date +%s)
fails "a server that stalls on a kernel's file" \
	run_timeout 20 "$kernel" pull fpp --from "$url/slow/" -o "$TEST_TMP/p-slow"
took=$(($(date +%s) - start))
like "$(cat "$TEST_TMP/last.out")" "slow/kernels/fpp/1/kernel.c: the transfer stalled" "is abandoned"
ok "as quickly ($took s)" test "$took" -lt 8
nothing_left p-slow "and leaves nothing behind"
unset IOATLAS_KERNEL_STALL_TIMEOUT

# Terminal control from the server never reaches the terminal.
"$kernel" list --from "$url/noise/" >"$TEST_TMP/list.out" 2>&1
is "$?" 0 "list shows an index whose names carry terminal control"
no_control "$TEST_TMP/list.out" "without a control byte"
like "$(cat "$TEST_TMP/list.out")" '^fp\\x1b\[2Jp\\x07x\\x0d\\x7f\\x9by\\xc2\\x9bz@1\\x1b]0;owned\\x07	4 ranks	\\x1b\[31mred\\xc2\\x9b$' \
	"escaped, so they still read"
"$kernel" search fp --from "$url/noise/" >"$TEST_TMP/search.out" 2>&1
is "$?" 0 "search finds it"
no_control "$TEST_TMP/search.out" "and shows it without a control byte"
fails "a file name with terminal control" run_timeout 30 "$kernel" pull fpp --from "$url/noisemeta/" \
	-o "$TEST_TMP/p-noise"
cp "$TEST_TMP/last.out" "$TEST_TMP/pull.out"
like "$(cat "$TEST_TMP/pull.out")" "refused: the file name '\\\\x1b\[2J\.\./x\\\\x07\\\\x0d\\\\xc2\\\\x9b' would leave the folder" \
	"is refused"
no_control "$TEST_TMP/pull.out" "and the message quotes it without a control byte"
nothing_left p-noise "and nothing is left"
done_testing
