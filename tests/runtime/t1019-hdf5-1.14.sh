# t1019-hdf5-1.14 — the HDF5 layer on programs linked to HDF5 1.14, the
# newest HDF5 (Debian 12 ships 1.10, which t1017 runs).  HDF5 1.14.5 is
# built here from Debian 13's source (packaging/install-deps fetches it):
# parallel, on MPICH, shared, without optimisation (about 90 s on 2 cores,
# once per machine: see cache below).  The programs are HDF5's own, and one
# of ours for the asynchronous calls no Debian program makes:
#   - 1.14's parallel example (HDF5Examples/C/H5PAR/ph5example.c) on 4
#     MPICH ranks.  ltrace, run on the same program without the runtime,
#     says which HDF5 calls each rank made (tests/lib/hdf5_truth.py).
#     Nothing of the tree under test takes part in ltrace's runs (of HDF5's
#     programs built without sanitizers): they run once per machine for the
#     same programs and tools, the sanitizer pass of .ci/run taking the
#     first pass's (truth_cached).
#   - HDF5's own test of 1.14's multi-dataset calls (testpar/t_pmulti_dset.c:
#     H5Dwrite_multi and H5Dread_multi of up to 5 datasets, and H5Dwrite and
#     H5Dread, with random shapes and selections), its random seed fixed so
#     that its runs repeat, on 2 MPICH ranks under ltrace and under the
#     runtime.
#   - tests/workloads/hdf5-async.c: the _async forms of the file and
#     dataset calls into one event set; it prints what it read and wrote.
# Asserted: the programs' output is what it is without the runtime; one H5F
# record per file and one H5D record per dataset with the opens, reads and
# writes ltrace saw (each part of a multi-dataset call a read or write of
# its dataset), collective where the transfer list said so; bytes and
# accesses as selected; every MPI-IO call counted underneath an HDF5 call;
# the asynchronous calls counted and traced as the calls they ran as.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd ltrace
require_cmd cmake
require_cmd ninja
src=/var/cache/ioatlas/sources/hdf5_1.14.5+repack.orig.tar.gz
python=/usr/bin/python3
[ -r "$src" ] || skip_all "no $src (packaging/install-deps fetches it)"

plan 31

work="$TEST_TMP/work"
mkdir -p "$work/plain" "$work/traced" "$work/ioatlas"
cd "$work" || exit 1
export IOATLAS_CONF=/dev/null
ioa_sanitized_programs
# Built once per machine, into a cache the two passes of the tests share
# (the sanitizer build's too: the library is built without sanitizers
# either way); in the test's own folder when the cache cannot be written.
cache=/var/cache/ioatlas/build/hdf5-1.14.5-mpich
mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ] || cache="$work/hdf5"
S="$cache/hdf5-1.14.5+repack"
B="$cache/build"
if ! [ -f "$cache/built" ]; then
	rm -rf "$S" "$B"
	tar -xzf "$src" -C "$cache"
fi
ok "HDF5 1.14.5 builds from Debian's source (parallel, MPICH, shared)" sh -c "
	[ -f '$cache/built' ] && exit 0
	cmake -S '$S' -B '$B' -G Ninja -DCMAKE_C_COMPILER=gcc -DMPI_C_COMPILER=mpicc.mpich \
		-DCMAKE_BUILD_TYPE=None -DCMAKE_C_FLAGS='-O0 -g0' -DHDF5_ENABLE_PARALLEL=ON \
		-DBUILD_SHARED_LIBS=ON -DBUILD_STATIC_LIBS=OFF -DBUILD_TESTING=ON -DHDF5_TEST_API=OFF \
		-DHDF5_BUILD_TOOLS=OFF -DHDF5_BUILD_EXAMPLES=OFF -DHDF5_BUILD_HL_LIB=OFF \
		-DHDF5_BUILD_FORTRAN=OFF -DHDF5_BUILD_CPP_LIB=OFF -DHDF5_BUILD_JAVA=OFF \
		-DHDF5_ENABLE_Z_LIB_SUPPORT=OFF -DHDF5_ENABLE_SZIP_SUPPORT=OFF >'$work/cmake.log' 2>&1 &&
	ninja -C '$B' -j2 hdf5-shared hdf5_test-shared >'$work/ninja.log' 2>&1 &&
	touch '$cache/built'" || diag "$(tail -n 20 cmake.log ninja.log)"
h5cflags="-I$S/src -I$S/src/H5FDsubfiling -I$B/src $(pkg-config --cflags mpich)"
h5libs="-L$B/bin -lhdf5 $(pkg-config --libs mpich) -Wl,-rpath,$B/bin"
ok "ph5example of 1.14 builds against it" sh -c "
	gcc $san $h5cflags -o ph5 '$S/HDF5Examples/C/H5PAR/ph5example.c' $h5libs &&
	gcc $h5cflags -o ph5-plain '$S/HDF5Examples/C/H5PAR/ph5example.c' $h5libs"
ok "ground truth: it loads HDF5 1.14.5" sh -c "ldd ph5 | grep -q '$B/bin/libhdf5.so.310' &&
	grep -aq 'HDF5 library version: 1.14.5' '$B/bin/libhdf5.so.310'"

# --- ph5example, 4 ranks: ltrace (no runtime), plain, under the runtime.
calls='H5Fcreate+H5Fopen+H5Dcreate2+H5Dopen2+H5Dread+H5Dwrite+H5Dread_multi+H5Dwrite_multi'
calls="$calls+H5Pset_dxpl_mpio+H5Sselect_hyperslab"
# ltrace RANKS DIR OUT PROGRAM ARGS...: the program under ltrace, on MPICH, in DIR.
ltraced() {
	local n=$1 dir=$2 out=$3
	shift 3
	(cd "$dir" && timeout 300 mpiexec.mpich -n "$n" sh -c "exec ltrace -A 64 -s 4096 \
		-F '$IOA_SOURCE_DIR/tests/lib/hdf5.ltrace.conf' -e '$calls' -o '$out.'\$PMI_RANK $*" \
		>"$out.out" 2>&1)
}
# truth_key PROGRAM...: the key of ltrace's runs of these programs (truth_cached).
truth_key() {
	(sha256sum "$@" "$B/bin/libhdf5.so.310" "$IOA_SOURCE_DIR/tests/lib/hdf5.ltrace.conf"
		echo "$calls"; declare -f ltraced ph5_traced pm_traced; ltrace -V
		dpkg-query -W ltrace mpich libmpich-dev 2>/dev/null) | sha256sum | cut -c1-16
}
ph5_traced() {
	mkdir -p "$work/lt" && ltraced 4 "$work/traced" "$work/lt/lt" "$work/ph5-plain" -c -f "$work/traced/" &&
		[ "$(ls "$work"/lt/lt.[0-3] | wc -l)" = 4 ]
}
# t_pmulti_dset's, later.
pm_traced() {
	mkdir -p "$work/pmlt" && ltraced 2 "$work/pm-traced" "$work/pmlt/lt" "$work/pmulti-plain" &&
		[ "$(ls "$work"/pmlt/lt.[01] | wc -l)" = 2 ]
}
ok "ph5example runs under ltrace on 4 ranks" truth_cached t1019-ph5 "$work/lt" "$(truth_key ph5-plain)" ph5_traced
diag "$(cat "$TEST_TMP/last.out")"
ok "and without anything" sh -c "cd '$work/plain' && timeout 120 mpiexec.mpich -n 4 \
	-outfile-pattern '$work/plain.out.%r' '$work/ph5' -c -f '$work/plain/'"
logs=$(ioa_logdir)
ok "and under ioatlas" sh -c "cd '$work/ioatlas' && timeout 120 mpiexec.mpich -n 4 \
	-genv LD_PRELOAD '$(ioa_preload_list "$IOA_RUNTIME_SO")' -genv IOATLAS_LOGDIR '$logs' \
	-outfile-pattern '$work/ioatlas.out.%r' '$work/ph5' -c -f '$work/ioatlas/'"
ok "it checks what it wrote and read back" grep -q "PHDF5 example finished with no errors" ioatlas.out.0
said() { for r in 0 1 2 3; do sed "s#$work/$1/#DIR/#" "$1.out.$r"; done; }
is "$(said ioatlas)" "$(said plain)" "what each rank prints is what it prints without the runtime"
log=$(ioa_only_log "$logs")
"$python" "$IOA_SOURCE_DIR/tests/lib/hdf5_truth.py" lt/lt.[0-9] >truth.txt
diag "what ltrace saw:" "$(cat truth.txt)"
like "$(cat truth.txt)" '^ParaEg1.h5:/Data1 [0-9]+ [1-9][0-9]* [1-9][0-9]* [1-9]' \
	"ground truth: ltrace saw collective reads and writes of ParaEg1.h5:/Data1"
ioa_h5_records "$log" "$work/ioatlas" >ours.txt
is "$(awk '{ print $1, $2, $3, $4 }' ours.txt)" \
	"$(awk '$1 != "access" { print $1, $2, $3, $4 }' truth.txt | LC_ALL=C sort)" \
	"one record per file and dataset, with the opens, reads and writes ltrace saw"
is "$(awk 'NF == 5 { print $1, $5 }' ours.txt)" \
	"$(awk '$1 != "access" && NF == 5 { print $1, ($5 ? "c" : "-") }' truth.txt | LC_ALL=C sort)" \
	"collective transfers where ltrace saw a collective transfer list used"
# Each rank reads and writes a quarter of its dataset, as the program's own check confirms.
is "$(ioa_h5_unshared "$log" 4)" "" "bytes read and written: each call a quarter of the dataset's points times its element size"
is "$(ioa_h5_accesses "$log" "$work/ioatlas")" "$(grep '^access' truth.txt | LC_ALL=C sort)" \
	"each dataset's accesses: the hyperslabs' lengths per dimension and how often, as ltrace saw them selected"

# underneath LOG: "MPI-IO calls, those counted underneath HDF5's calls".
underneath() {
	"$IOA_CMD" parse "$1" | awk -F '\t' '$2 == -1 && $1 == "MPI-IO" && $4 ~ /_(READS|WRITES|OPENS)$/ { m += $5 }
		$2 == -1 && ($1 == "H5D" || $1 == "H5F") && $4 ~ /_MPIIO_SUBCALLS$/ { h += $5 }
		END { print m + 0, h + 0 }'
}
set -- $(underneath "$log")
ok "its MPI-IO opens, reads and writes ($1) all ran inside HDF5 calls ($2 counted there)" \
	test "$1" -gt 0 -a "$2" -ge "$1"

# --- HDF5's test of H5Dwrite_multi and H5Dread_multi, 2 ranks, its seed
# fixed, 2 rounds of each configuration instead of 10 (under the sanitizers
# it runs 20 times slower: its HDF5 allocates with libasan's malloc).
sed 's/seed = (unsigned)time(NULL);/seed = 20261129u;/; s/test_pmdset(10, i);/test_pmdset(2, i);/' \
	"$S/testpar/t_pmulti_dset.c" >pmulti.c
ok "ground truth: t_pmulti_dset's seed is fixed, its rounds 2" \
	sh -c "grep -q 'seed = 20261129u;' pmulti.c && grep -q 'test_pmdset(2, i);' pmulti.c"
# Under the sanitizers the runtime's run needs a program built with them
# (ioa_sanitized_programs); the runs without the runtime take the same
# program built without (20 times faster: its HDF5 then allocates with
# glibc's malloc, not libasan's).
ok "t_pmulti_dset builds against HDF5 1.14 and its test library" sh -c "
	for p in 'pmulti $san' 'pmulti-plain'; do
		set -- \$p
		gcc \$2 $h5cflags -I'$S/test' -I'$S/testpar' -o \$1 pmulti.c -lhdf5_test $h5libs || exit 1
	done"
mkdir -p pm-traced pm-plain pm-ioatlas
ok "it runs under ltrace on 2 ranks" truth_cached t1019-pmulti "$work/pmlt" "$(truth_key pmulti-plain)" pm_traced
diag "$(cat "$TEST_TMP/last.out")"
ok "and without anything" sh -c "cd '$work/pm-plain' && timeout 120 mpiexec.mpich -n 2 \
	'$work/pmulti-plain' >'$work/pm-plain.out' 2>&1"
logs=$(ioa_logdir)
ok "and under ioatlas" sh -c "cd '$work/pm-ioatlas' && timeout 120 mpiexec.mpich -n 2 \
	-genv LD_PRELOAD '$(ioa_preload_list "$IOA_RUNTIME_SO")' -genv IOATLAS_LOGDIR '$logs' \
	'$work/pmulti' >'$work/pm-ioatlas.out' 2>&1"
like "$(cat pm-ioatlas.out)" "Parallel multi dataset tests finished with no errors" \
	"it checks what it wrote and read back"
is "$(cat pm-ioatlas.out)" "$(cat pm-plain.out)" "what it prints is what it prints without the runtime"
"$python" "$IOA_SOURCE_DIR/tests/lib/hdf5_truth.py" pmlt/lt.[0-9] | grep -v '^access' >pm-truth.txt
is "$(grep -c 'H5D\(write\|read\)_multi([2-9]' pmlt/lt.0)" "$(grep -c 'H5D\(write\|read\)_multi([2-9]' pmlt/lt.1)" \
	"ground truth: both ranks made the same multi-dataset calls of 2 datasets or more"
like "$(grep -c 'H5D\(write\|read\)_multi([2-9]' pmlt/lt.0)" '^[1-9][0-9]+$' \
	"and made tens of them or more"
log=$(ioa_only_log "$logs")
is "$(ioa_h5_records "$log" "$work/pm-ioatlas" | awk '{ print $1, $2, $3, $4 }')" \
	"$(awk '{ print $1, $2, $3, $4 }' pm-truth.txt | LC_ALL=C sort)" \
	"one record per dataset, with the opens ltrace saw, and each part of a multi-dataset call a read or write of its dataset"
set -- $(underneath "$log")
ok "its MPI-IO opens, reads and writes ($1) all ran inside HDF5 calls ($2 counted there)" \
	test "$1" -gt 0 -a "$2" -ge "$1"

# --- the asynchronous calls: counted and traced as the calls they ran as.
ok "hdf5-async builds against HDF5 1.14" sh -c "gcc $san $h5cflags -o async \
	'$IOA_SOURCE_DIR/tests/workloads/hdf5-async.c' $h5libs"
plain=$(./async "$work/async-plain.h5" 4096)
logs=$(ioa_logdir)
ours=$(IOATLAS_TRACE=1 ioa_preload "$logs" ./async "$work/async.h5" 4096)
like "$plain" '^writes 4 bytes 16384 reads 2 bytes 32768$' "ground truth: what it says it did"
is "$ours" "$plain" "and says the same under the runtime"
log=$(ioa_only_log "$logs")
ac() { ioa_counter "$log" H5D 0 "$work/async.h5:/a" "$1"; }
fc() { ioa_counter "$log" H5F 0 "$work/async.h5" "$1"; }
set -- $plain
is "$(ac H5D_WRITES) $(ac H5D_BYTES_WRITTEN) $(ac H5D_READS) $(ac H5D_BYTES_READ) $(ac H5D_OPENS)" \
	"$2 $4 $6 $8 3" \
	"its dataset: the writes, reads and bytes it says, opened 3 times (H5Dcreate_async, H5Dopen_async, H5Oopen_async)"
is "$(fc H5F_OPENS) $(fc H5F_FLUSHES)" "2 1" "its file: created and opened again, flushed once"
ops=$("$IOA_CMD" trace "$log" | awk '$1 == "H5D" || $1 == "H5F" { print $2 }' | LC_ALL=C sort -u | tr '\n' ' ')
is "$ops" "H5Dclose H5Dcreate2 H5Dopen2 H5Dread H5Dwrite H5Fclose H5Fcreate H5Fflush H5Fopen H5Oclose H5Oopen H5S_block H5S_extent H5S_hyperslab " \
	"traced as the calls they ran as: nothing named _async"

done_testing
