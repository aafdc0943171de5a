# t0016-darshan-layers — Darshan's HDF5, PnetCDF and Lustre modules, in
# and out.  No program here makes Darshan 3.5 write them (its build in the
# team's shared/tools has neither HDF5 nor PnetCDF nor Lustre), so
# tests/common/craft-darshan.py writes logs of them from the format's
# documentation, with varied values: H5F, H5D, PNETCDF_FILE, PNETCDF_VAR
# and LUSTRE records at each module version Darshan 3.0 to 3.5 wrote (sets
# "new", "mid" and "old"), on either byte order.  Darshan's own
# darshan-parser (3.5.0, unpacked here) is the judge:
#   - `ioatlas parse` prints every counter of every record as darshan-parser
#     prints it for the little-endian log (its older versions brought up to
#     today's as darshan-parser brings them), for the big-endian log too
#     (the same values), and no record more or less;
#   - `ioatlas export --darshan` writes them again in Darshan 3.5's format,
#     and darshan-parser reads the export with the same values;
#   - the log's source line lists none of these modules as left out.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
require_cmd python3

tools=${IOATLAS_DARSHAN_TOOLS:-$IOA_SOURCE_DIR/../shared/tools}/darshan-3.5.0-debian12-mpich.tar.gz
[ -r "$tools" ] || skip_all "no Darshan build to check against ($tools)"
parse="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-parse"
export_cmd="$IOA_BUILD_DIR/libexec/ioatlas/ioatlas-export"
craft="$IOA_SOURCE_DIR/tests/common/craft-darshan.py"
export IOATLAS_CONF=/dev/null
cd "$TEST_TMP" || exit 1

sets="new mid old"
plan $((1 + 3 * (2 + 2 * 4)))

ok "Darshan 3.5.0's tools unpack" tar -xzf "$tools"
dparser() { LD_LIBRARY_PATH="$TEST_TMP/darshan-3.5.0/lib" "$TEST_TMP/darshan-3.5.0/bin/darshan-parser" "$@"; }

layers='H5F|H5D|PNETCDF_FILE|PNETCDF_VAR|LUSTRE'
# rows FILE: "module rank id counter<TAB>value<TAB>name<TAB>mount<TAB>type" of every module.
rows() {
	awk -F '\t' 'NF >= 8 && $1 ~ /^(POSIX|MPI-IO|STDIO|'"$layers"')$/ && $0 !~ /^#/ {
		print $1 " " $2 " " $3 " " $4 "\t" $5 "\t" $6 "\t" $7 "\t" $8 }' "$1" | LC_ALL=C sort
}

for set in $sets; do
	python3 "$craft" layers "$set" little "$set-little.darshan"
	dparser "$set-little.darshan" >"$set.ref" 2>"$set.ref.err"
	rows "$set.ref" >"$set.ref.rows"
	# Every module of the set is there for darshan-parser (old: no PNETCDF_VAR yet).
	want=5
	[ "$set" = old ] && want=4
	is "$(cut -d ' ' -f 1 "$set.ref.rows" | grep -Ex "$layers" | sort -u | wc -l)" "$want" \
		"$set: darshan-parser reads the crafted log: $want of these modules, $(wc -l <"$set.ref.rows") counters"
	is "$(cat "$set.ref.err")" "" "$set: darshan-parser has nothing to complain of"
	for order in little big; do
		log=$set-$order.darshan
		[ -e "$log" ] || python3 "$craft" layers "$set" "$order" "$log"
		ok "$set, $order-endian: parse reads it" "$parse" "$log"
		cp "$TEST_TMP/last.out" ours.txt
		is "$(diff "$set.ref.rows" <(rows ours.txt) | head -n 4)" "" \
			"$set, $order-endian: every counter as darshan-parser's, no more, no less"
		unlike "$(grep '^# source:' ours.txt)" "left_out=[^\\]*($layers)" \
			"$set, $order-endian: no module of these left out"
		"$export_cmd" --darshan -o "$set-$order.export.darshan" "$log" &&
			dparser "$set-$order.export.darshan" >export.txt 2>&1
		is "$(diff "$set.ref.rows" <(rows export.txt) | head -n 4)" "" \
			"$set, $order-endian: darshan-parser reads the export with the same counters"
	done
done
done_testing
