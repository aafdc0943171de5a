# t1051-darshan-export — `ioatlas export --darshan` writes logs that
# Darshan's own darshan-parser reads (the Darshan 3.5.0 build in the team's
# shared/tools, unpacked here), with our counters:
#   - real runs under ioatlas (tests/data/darshan/src: mix on 2 MPICH ranks,
#     POSIX, STDIO and a shared file; collective on 2 ranks, MPI-IO): every
#     Darshan-named counter of every record, as `ioatlas parse` prints it,
#     is what darshan-parser prints for the export, under the same name,
#     and no record more or less;
#   - every Darshan log of tests/data/darshan, read and written again:
#     darshan-parser prints the original's counters, names and mounts (but
#     the 3 counters it cannot print of an old big-endian log, t0014);
#   - --anonymize with a site key: darshan-parser reads it, its counters
#     are the original's, and no path component, user, uid or executable
#     name of the run is left in any byte of it (its regions inflated; as
#     whole words: "tmp" of a path is not "tmpfs", a file system type);
#     the same path is the same token in two runs; another key, another
#     token; a key others can read is refused.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd mpicc.mpich
require_cmd python3

tools=${IOATLAS_DARSHAN_TOOLS:-$IOA_SOURCE_DIR/../shared/tools}/darshan-3.5.0-debian12-mpich.tar.gz
[ -r "$tools" ] || skip_all "no Darshan build to check against ($tools)"
data="$IOA_SOURCE_DIR/tests/data/darshan"
export_cmd="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-export"
parse="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-parse"
work="$TEST_TMP/work"
mkdir -p "$work/bin" "$work/darshan"
cd "$work" || exit 1
export IOATLAS_CONF=/dev/null

samples=("$data"/*.darshan "$data"/releases/*.darshan "$data"/bzip2/*.darshan "$data"/none/*.darshan)
plan $((2 + 2 * 3 + ${#samples[@]} * 2 + 10))

ok "Darshan 3.5.0's tools unpack" tar -xzf "$tools" -C "$work/darshan"
dparser() { LD_LIBRARY_PATH="$work/darshan/darshan-3.5.0/lib" "$work/darshan/darshan-3.5.0/bin/darshan-parser" "$@"; }
ok "the programs build" sh -c "mpicc.mpich -o bin/mix '$data/src/mix.c' &&
	mpicc.mpich -o bin/collective '$data/src/collective.c'"

# rows FILE [noid]: "module rank id counter<TAB>value<TAB>name" of the three modules,
# ioatlas's own counters left out (Darshan has no place for them).
rows() {
	awk -F '\t' -v noid="${2:-}" 'NF >= 8 && $1 ~ /^(POSIX|MPI-IO|STDIO)$/ && $0 !~ /^#/ &&
		$4 !~ /_(UNLINKS|MKDIRS|RMDIRS|ACCESS_CHECKS|TRUNCATES|CREATES|FAILED_CALLS|OVERWRITES|OVERWRITE_BYTES|OVERWRITE_FIRST_OFFSET|OVERWRITE_UNTRACKED_BYTES|SET_SIZES|POSIX_SUBCALLS)$/ {
		print $1 " " $2 " " (noid ? "" : $3) " " $4 "\t" $5 (noid ? "" : "\t" $6) }' "$1" | LC_ALL=C sort
}

for run in mix collective; do
	logs="$work/logs-$run-1"
	mkdir -p "$logs" "$work/run/$run"
	ok "$run: runs under ioatlas on 2 ranks" ioa_mpi_preload "$logs" 2 60 "$work/bin/$run" "$work/run/$run"
	log=$(ioa_only_log "$logs")
	ok "$run: exported" "$export_cmd" --darshan "$log" -o "$run.darshan"
	dparser --all "$run.darshan" >"$run.dparser.txt" 2>&1
	"$parse" "$log" >"$run.ours.txt"
	is "$(diff <(rows "$run.ours.txt") <(rows "$run.dparser.txt") | head -n 5)" "" \
		"$run: darshan-parser reads the export: every Darshan counter ($(rows "$run.ours.txt" | wc -l)) as ours, no more, no less"
done

for log in "${samples[@]}"; do
	name=${log#"$data"/}
	ref=${log%.darshan}.parser.txt
	if [ -e "$ref.gz" ]; then gzip -dc "$ref.gz" >ref.txt; else cp "$ref" ref.txt; fi
	rm -f again.darshan
	ok "$name: read and written again" "$export_cmd" --darshan "$log" -o again.darshan
	dparser --all again.darshan >again.txt 2>&1
	# darshan-parser's quirk on old big-endian logs (t0014): 3 counters it cannot print.
	quirk='^$'
	case $name in *ppc64-3.0.*) quirk=' POSIX_F_(META_TIME|MAX_READ_TIME|MAX_WRITE_TIME)	' ;; esac
	is "$(diff <(rows ref.txt | grep -Ev "$quirk"; grep '^# mount entry' ref.txt) \
		<(rows again.txt | grep -Ev "$quirk"; grep '^# mount entry' again.txt) | head -n 3)" "" \
		"$name: darshan-parser prints the original's counters, names and mounts"
done

# --- anonymized
head -c 32 /dev/urandom >key
chmod 600 key
run2="$work/logs-mix-2"
mkdir -p "$run2"
ok "mix runs a second time on the same files" ioa_mpi_preload "$run2" 2 60 "$work/bin/mix" "$work/run/mix"
log1=$(ioa_only_log "$work/logs-mix-1")
log2=$(ioa_only_log "$run2")
ok "anonymized exports of both runs" sh -c "'$export_cmd' --darshan --anonymize --key-file key '$log1' -o anon1.darshan &&
	'$export_cmd' --darshan --anonymize --key-file key '$log2' -o anon2.darshan"
dparser --all anon1.darshan >anon1.txt 2>&1
dparser --all anon2.darshan >anon2.txt 2>&1
like "$(head -n 1 anon1.txt)" "^# darshan log version: 3.41" "darshan-parser reads the anonymized export"
is "$(rows anon1.txt noid | cut -f1-2)" "$(rows mix.ours.txt noid | cut -f1-2)" \
	"with the original's counters, record by record"
# Every byte of the export, its regions inflated.
python3 - anon1.darshan >anon1.bytes <<'EOF'
import sys, zlib
b = open(sys.argv[1], 'rb').read()
out = sys.stdout.buffer
out.write(b)
i = 0
while i < len(b):
    try:
        d = zlib.decompressobj()
        x = d.decompress(b[i:])
        if x and d.eof:
            out.write(x)
            i = len(b) - len(d.unused_data)
            continue
    except zlib.error:
        pass
    i += 1
EOF
# Four bytes at least: the compressed bytes are searched too, and can hold a
# three-letter word between non-word bytes by chance.
secrets=$( (awk -F '\t' '$1 !~ /^#/ && NF >= 8 { print $6 }' mix.ours.txt
	sed -n 's/^# exe: //p; s/^# args: //p; s/^# user: //p' mix.ours.txt) | tr '/ ' '\n\n' |
	grep -v '^<' | awk 'length >= 4' | LC_ALL=C sort -u)
found=""
for s in $secrets; do
	grep -aqwF -- "$s" anon1.bytes && found="$found $s"
done
is "$found" "" "no path component, user or executable name of the run in any byte ($(echo $secrets | wc -w) checked)"
uid=$(sed -n 's/^# uid: //p' mix.ours.txt)
unlike "$(grep '^# uid:' anon1.txt)" "^# uid: $uid\$" "nor its uid"
is "$(awk -F '\t' '$1 == "POSIX" && $4 == "POSIX_OPENS" { print $6 }' anon1.txt | LC_ALL=C sort -u)" \
	"$(awk -F '\t' '$1 == "POSIX" && $4 == "POSIX_OPENS" { print $6 }' anon2.txt | LC_ALL=C sort -u)" \
	"the same paths are the same tokens in two runs"
head -c 32 /dev/urandom >key2
chmod 600 key2
"$export_cmd" --darshan --anonymize --key-file key2 "$log1" -o anon3.darshan
dparser --all anon3.darshan >anon3.txt 2>&1
is "$(comm -12 <(awk -F '\t' '$1 == "POSIX" { print $6 }' anon1.txt | LC_ALL=C sort -u) \
	<(awk -F '\t' '$1 == "POSIX" { print $6 }' anon3.txt | LC_ALL=C sort -u))" "" \
	"another key, other tokens"
chmod 644 key2
ok "a key others can read is refused" sh -c "! '$export_cmd' --darshan --anonymize --key-file key2 '$log1' -o anon4.darshan"
like "$(cat "$TEST_TMP/last.out")" "readable or writable by others" "and says why"
