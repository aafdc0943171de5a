# t1017-hdf5-layer — the HDF5 layer (H5F and H5D records) on real programs
# nobody here wrote, against ground truth that is not ours:
#   - HDF5's parallel example (ph5example.c of libhdf5-doc, built with
#     h5pcc.mpich -shlib) on 4 MPICH ranks.  ltrace, run on the same
#     program without the runtime, says which HDF5 calls each rank made,
#     with what: file names, dataset names, the identifiers they returned,
#     the transfer lists set collective.  h5py, reading the files back,
#     says each dataset's shape, element size and chunks.
#     Built again as h5pcc builds by default, HDF5 linked statically, with
#     libioatlas.a (ioatlas-config --ld-flags, no preload), the same
#     program makes the same calls: the records ltrace's calls call for.
#   - h5py's MPI-IO driver on 2 Open MPI ranks (tests/workloads/h5py-mpio.py):
#     Python loads libhdf5 with a scope of its own, out of the preload's
#     dlsym(RTLD_NEXT); the ranks say what they wrote.  Chunked in pieces
#     its slices are or are not made of, chunk_mismatch says so or not.
# Asserted: the program's output and files are what they are without the
# runtime; one H5F record per file and one H5D record per dataset
# ("<file>:/<dataset>"); opens, reads, writes, collective transfers as
# ltrace saw them; bytes as the points each rank selects (a 1/ranks share of
# the dataset per write, which the program's own read-back check confirms)
# times the element size; shapes, element sizes and chunks as the file
# holds them; and the MPI-IO calls each dataset's calls issued underneath.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_mpi
require_cmd h5pcc.mpich
require_cmd ltrace
require_cmd mpiexec.openmpi
require_cmd patchelf
h5ex=/usr/share/doc/libhdf5-doc/examples/ph5example.c.gz
[ -r "$h5ex" ] || skip_all "no $h5ex (libhdf5-doc)"
python=/usr/bin/python3
"$python" -c 'import h5py' 2>/dev/null || skip_all "no h5py for $python (python3-h5py)"
H5PY_ALWAYS_USE_MPI=1 "$python" -c 'import sys, h5py; sys.exit(not h5py.get_config().mpi)' \
	2>/dev/null || skip_all "no h5py with MPI for $python (python3-h5py-mpi)"

plan 59

work="$TEST_TMP/work"
mkdir -p "$work/plain" "$work/traced" "$work/ioatlas"
cd "$work" || exit 1
export IOATLAS_CONF=/dev/null
ioa_sanitized_programs
gzip -dc "$h5ex" >ph5example.c
ok "ph5example builds with h5pcc.mpich -shlib" h5pcc.mpich $san -shlib -o ph5shared ph5example.c
ok "ground truth: it loads libhdf5 (shared)" sh -c 'ldd ph5shared | grep -q "libhdf5[._]"'

# --- ground truth: ltrace, without the runtime.  The prototypes make it
# print names as strings and identifiers as numbers (hid_t is 64 bits).
calls='H5Fcreate+H5Fopen+H5Fclose+H5Dcreate2+H5Dopen2+H5Dread+H5Dwrite+H5Dclose+H5Pset_dxpl_mpio+H5Sselect_hyperslab'
calls="$calls+H5Pset_all_coll_metadata_ops+H5Pset_coll_metadata_write"
ok "ph5example runs under ltrace on 4 ranks" sh -c "cd '$work/traced' && timeout 300 \
	mpiexec.mpich -n 4 sh -c 'exec ltrace -s 4096 -F \"$IOA_SOURCE_DIR/tests/lib/hdf5.ltrace.conf\" -e \"$calls\" \
		-o \"$work/lt.\$PMI_RANK\" \"$work/ph5shared\" -c -f \"$work/traced/\"' >'$work/traced.out' 2>&1"
ok "and without anything" sh -c "cd '$work/plain' && timeout 120 mpiexec.mpich -n 4 \
	-outfile-pattern '$work/plain.out.%r' '$work/ph5shared' -c -f '$work/plain/'"
logs=$(ioa_logdir)
ok "and under ioatlas" sh -c "cd '$work/ioatlas' && IOATLAS_LOGDIR='$logs' timeout 120 \
	mpiexec.mpich -n 4 -genv LD_PRELOAD '$(ioa_preload_list "$IOA_RUNTIME_SO")' \
	-genv IOATLAS_LOGDIR '$logs' -outfile-pattern '$work/ioatlas.out.%r' \
	'$work/ph5shared' -c -f '$work/ioatlas/'"
ok "it checks what it wrote and read back" grep -q "PHDF5 tests finished with no errors" ioatlas.out.0
said() { for r in 0 1 2 3; do sed "s#$work/$1/#DIR/#" "$1.out.$r"; done; }
is "$(said ioatlas)" "$(said plain)" "what each rank prints is what it prints without the runtime"
# What HDF5 asks of MPI is what it asks without the runtime: the runtime's
# own questions make no MPI call (a copy of an MPI-IO file's access list,
# H5Fget_access_plist, would duplicate its communicator: a collective call
# at every open, every rank held until all had made it).  Counted by a tool
# preloaded before the runtime (tests/workloads/count-shim.c).
shim="$IOA_BUILD_DIR/tests/workloads/libcount-shim.so"
mkdir -p "$work/shim" "$work/shim-ioatlas"
(cd "$work/shim" && timeout 120 mpiexec.mpich -n 4 -genv LD_PRELOAD "$(ioa_preload_list "$shim")" \
	"$work/ph5shared" -c -f "$work/shim/" >/dev/null 2>"$work/shim.err")
(cd "$work/shim-ioatlas" && timeout 120 mpiexec.mpich -n 4 \
	-genv LD_PRELOAD "$(ioa_preload_list "$shim" "$IOA_RUNTIME_SO")" -genv IOATLAS_LOGDIR "$(ioa_logdir)" \
	"$work/ph5shared" -c -f "$work/shim-ioatlas/" >/dev/null 2>"$work/shim-ioatlas.err")
like "$(shim_count "$work/shim.err" dups)" '^[1-9][0-9]*$' \
	"ground truth: ph5example's HDF5 duplicates communicators (MPI_Comm_dup, counted in front of it)"
is "$(shim_count "$work/shim-ioatlas.err" dups)" "$(shim_count "$work/shim.err" dups)" \
	"as many under the runtime: its questions to HDF5 at each open make no MPI call"
for f in ParaEg0.h5 ParaEg1.h5; do
	ok "$f holds what it holds without the runtime" \
		"$python" -c 'import sys, h5py, numpy
a, b = (h5py.File(p, "r") for p in sys.argv[1:])
sys.exit(sorted(a) != sorted(b) or any(not numpy.array_equal(a[k][()], b[k][()]) for k in a))' \
		"plain/$f" "ioatlas/$f"
done
log=$(ioa_only_log "$logs")
ok "the job leaves one log" test -n "$log"
is "$(grep -c 'MPI_Comm_dup' ph5example.c)" 0 "ground truth: ph5example duplicates no communicator itself (its source)"
is "$("$IOA_CMD" trace --expand "$log" | awk '$3 == "MPI" && $4 == "Comm_dup" { n[$10 ~ /under/]++ }
	END { print (n[1] > 0 ? "traced" : "none"), n[0] + 0 }')" "traced 0" \
	"every copy HDF5 made (H5Pset_fapl_mpio's too, outside any traced call) traced as HDF5's, underneath"

# truth: per file and dataset what ltrace saw over all ranks (tests/lib/hdf5_truth.py).
"$python" "$IOA_SOURCE_DIR/tests/lib/hdf5_truth.py" lt.* >truth.txt
diag "what ltrace saw:" "$(cat truth.txt)"
like "$(cat truth.txt)" '^ParaEg1.h5:/Data1 [0-9]+ [0-9]+ [1-9][0-9]* [1-9]' \
	"ground truth: ltrace saw collective writes of ParaEg1.h5's datasets"

ioa_h5_records "$log" "$work/ioatlas" >ours.txt
is "$(awk '{ print $1, $2, $3, $4 }' ours.txt)" \
	"$(awk '$1 != "access" { print $1, $2, $3, $4 }' truth.txt | LC_ALL=C sort)" \
	"one record per file and dataset, with the opens, reads and writes ltrace saw"
is "$(awk 'NF == 5 { print $1, $5 }' ours.txt)" \
	"$(awk '$1 != "access" && NF == 5 { print $1, ($5 ? "c" : "-") }' truth.txt | LC_ALL=C sort)" \
	"collective transfers where ltrace saw a collective transfer list used"

# The files as HDF5 reads them back: "file:/dataset ndims points element_size chunk_D1".
"$python" - ioatlas/ParaEg0.h5 ioatlas/ParaEg1.h5 >facts.txt <<'EOF'
import sys, h5py
for path in sys.argv[1:]:
    f = h5py.File(path, 'r')
    for k in sorted(f):
        d = f[k]
        print('%s:/%s %d %d %d %d' % (path.split('/')[-1], k, d.ndim, d.size, d.dtype.itemsize,
                                      d.chunks[-1] if d.chunks else 0))
EOF
facts() {
	"$IOA_CMD" parse "$log" | awk -F '\t' -v dir="$work/ioatlas/" '
		$1 == "H5D" && $2 == -1 { name = $6; sub(dir, "", name); v[name, $4] = $5; n[name] = 1 }
		END { for (k in n) print k, v[k, "H5D_DATASPACE_NDIMS"], v[k, "H5D_DATASPACE_NPOINTS"],
			v[k, "H5D_DATATYPE_SIZE"], v[k, "H5D_CHUNK_SIZE_D1"] }' | LC_ALL=C sort
}
is "$(facts)" "$(cat facts.txt)" "each dataset's dimensions, points, element size and chunks as the file holds them"

# Bytes: each rank selects a 1/4 share of the dataset per read or write.
is "$(ioa_h5_unshared "$log" 4)" "" "bytes read and written: each call a quarter of the dataset's points times 4 bytes"
is "$("$IOA_CMD" parse "$log" | awk -F '\t' '$1 == "H5D" && $4 == "H5D_REGULAR_HYPERSLAB_SELECTS" { s += $5 }
	$1 == "H5D" && ($4 == "H5D_READS" || $4 == "H5D_WRITES") { n += $5 }
	END { print (s == n && n > 0) ? "all" : s " of " n }')" all \
	"every read and write a regular hyperslab (the program's H5Sselect_hyperslab blocks)"
is "$(ioa_h5_accesses "$log" "$work/ioatlas")" "$(grep '^access' truth.txt | LC_ALL=C sort)" \
	"each dataset's accesses: the hyperslabs' lengths per dimension and how often, as ltrace saw them selected"

# Multi-layer: what each dataset's reads and writes issued underneath.
sub=$("$IOA_CMD" parse "$log" | awk -F '\t' '$1 == "H5D" && $2 == -1 { v[$6, $4] = $5; n[$6] = 1 }
	END { for (k in n) if (v[k, "H5D_MPIIO_SUBCALLS"] < v[k, "H5D_READS"] + v[k, "H5D_WRITES"]) print k }')
is "$sub" "" "every dataset read and write issued MPI-IO calls, counted on the dataset"
mpiio=$("$IOA_CMD" parse "$log" | awk -F '\t' '$1 == "MPI-IO" && $2 == -1 &&
	($4 ~ /_(READS|WRITES|OPENS)$/) { n += $5 } END { print n + 0 }')
above=$("$IOA_CMD" parse "$log" | awk -F '\t' '($1 == "H5D" || $1 == "H5F") && $2 == -1 &&
	$4 ~ /_MPIIO_SUBCALLS$/ { n += $5 } END { print n + 0 }')
ok "the MPI-IO opens, reads and writes ($mpiio) all ran inside HDF5 calls ($above counted there)" \
	test "$mpiio" -gt 0 -a "$above" -ge "$mpiio"
is "$("$IOA_CMD" parse "$log" | awk -F '\t' '$1 == "H5F" && $4 == "H5F_USE_MPIIO" && $5 != 1 { print $6 }')" "" \
	"both files went through MPI-IO"

# Collective metadata: ltrace saw the program ask for none; every rank opens each file.
is "$(cat lt.* | grep -c 'H5Pset_\(all_coll_metadata_ops\|coll_metadata_write\)(')" 0 \
	"ground truth: ph5example never sets collective metadata (ltrace)"
opened=$(for f in ParaEg0.h5 ParaEg1.h5; do echo "$f $(grep -l "H5F\(create\|open\)(\"[^\"]*/$f\"" lt.* | wc -l)"; done)
printf 'analyze.coll_metadata_ranks = 4\n' >ranks4.conf
IOATLAS_CONF=ranks4.conf "$IOA_CMD" report "$log" --json -o meta4.json
"$IOA_CMD" report "$log" --json -o meta16.json
is "$(ioa_result "$work/meta4.json" insights \
	"'\\n'.join(sorted('%s %d' % (x['file'].rsplit('/', 1)[1], x['ranks']) for x in f('independent_metadata')['evidence']['files']))")" \
	"$opened" "independent_metadata (4 ranks or more): both files, each opened by the ranks ltrace saw open it"
is "$(ioa_result "$work/meta16.json" insights "'independent_metadata' in codes")" False \
	"and not at the default of 16 ranks"

# The report's files table names the layers and counts each record by its own counters;
# its file systems carry the bytes that reached them (POSIX and STDIO), once.
"$IOA_CMD" report "$log" --json -o report.json
is "$(ioa_report_files report.json H5D "$work/ioatlas")" \
	"$("$IOA_CMD" parse "$log" | awk -F '\t' -v dir="$work/ioatlas/" '$1 == "H5D" { n = $6; sub(dir, "", n)
		v[n, $4] = $5; k[n] = 1 }
		END { for (x in k) print x, v[x, "H5D_READS"], v[x, "H5D_WRITES"], v[x, "H5D_BYTES_READ"] + v[x, "H5D_BYTES_WRITTEN"] }' |
		LC_ALL=C sort)" \
	"the report's files table: each dataset's reads, writes and bytes, as an H5D record"
is "$("$python" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(int(sum(f["bytes_read"] + f["bytes_written"] for f in d["filesystems"])))' report.json)" \
	"$("$IOA_CMD" parse "$log" | awk -F '\t' '($1 == "POSIX" && $4 ~ /^POSIX_BYTES_(READ|WRITTEN)$/) ||
		($1 == "STDIO" && $4 ~ /^STDIO_BYTES_(READ|WRITTEN)$/) { n += $5 } END { print n + 0 }')" \
	"and its file systems the bytes of the POSIX and STDIO records alone"

# --- HDF5 linked statically (h5pcc's default) with libioatlas.a: HDF5's calls
# reach the runtime through --wrap.  The program and its arguments are the
# ones ltrace watched, so its calls are the ones ltrace saw.
mkdir -p "$work/static"
ok "ph5example links HDF5 and libioatlas.a statically (h5pcc.mpich, ioatlas-config --ld-flags)" \
	h5pcc.mpich $san -o ph5static ph5example.c $("$IOA_BUILD_DIR/bin/ioatlas-config" --ld-flags)
ok "ground truth: no shared libhdf5 nor libioatlas in it" \
	sh -c '! ldd ph5static | grep -q "libhdf5\|libioatlas"'
logs=$(ioa_logdir)
ok "it runs on 4 MPICH ranks, no preload" sh -c "cd '$work/static' && IOATLAS_LOGDIR='$logs' \
	timeout 120 mpiexec.mpich -n 4 -genv IOATLAS_LOGDIR '$logs' '$work/ph5static' -c \
	-f '$work/static/' >'$work/static.out' 2>&1"
is "$(ioa_h5_records "$(ioa_only_log "$logs")" "$work/static" | awk '{ print $1, $2, $3, $4 }')" \
	"$(awk '$1 != "access" { print $1, $2, $3, $4 }' truth.txt | LC_ALL=C sort)" \
	"linked statically: one record per file and dataset, with the opens, reads and writes ltrace saw"

# --- h5py on Open MPI: libhdf5 loaded by Python, found all the same.
logs=$(ioa_logdir)
prog="$IOA_SOURCE_DIR/tests/workloads/h5py-mpio.py"
n=65536
ompi_run 2 120 -x IOATLAS_LOGDIR="$logs" -x LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" \
	"$python" "$prog" "$work/py.h5" "$n" read >py.out 2>py.err
is "$?" 0 "h5py on 2 Open MPI ranks runs under ioatlas, each reading back and checking what it wrote" ||
	diag "$(cat py.err)"
log=$(ioa_only_log "$logs")
asked=$(awk '{ for (i = 3; i < NF; i += 2) if ($i == "dataset_bytes") b += $(i + 1) } END { print b + 0 }' py.out)
pyc() { ioa_counter "$log" H5D -1 "$work/py.h5:/x" "$1"; }
is "$(pyc H5D_WRITES)" 2 "h5py: its dataset written once by each rank"
is "$(pyc H5D_BYTES_WRITTEN)" "$asked" "h5py: the bytes the ranks say they wrote ($asked)"
read=$(awk '{ for (i = 3; i < NF; i += 2) if ($i == "read_bytes") b += $(i + 1) } END { print b + 0 }' py.out)
is "$(pyc H5D_OPENS) $(pyc H5D_READS) $(pyc H5D_BYTES_READ)" "4 2 $read" \
	"h5py: created by each rank, opened again (H5Oopen) and read back once by each, the bytes they say ($read)"
is "$(pyc H5D_USE_MPIIO_COLLECTIVE)" 1 "h5py: collectively (dset.collective)"
is "$(pyc H5D_DATASPACE_NPOINTS) $(pyc H5D_DATATYPE_SIZE)" \
	"$("$python" -c 'import sys, h5py; d = h5py.File(sys.argv[1], "r")["x"]; print(d.size, d.dtype.itemsize)' "$work/py.h5")" \
	"h5py: the dataset's points and element size as the file holds them"

# --- chunks against accesses: each rank writes its slice of n elements of a
# dataset chunked in pieces of 3/4 of a slice (each write cuts through
# chunks), then of half a slice (whole chunks).  Truth: the slice the ranks
# say they wrote, and the chunks h5py reads back from the file.
for chunk in $((n * 3 / 4)) $((n / 2)); do
	logs=$(ioa_logdir)
	ompi_run 2 120 -x IOATLAS_LOGDIR="$logs" -x LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO")" \
		"$python" "$prog" "$work/chunk$chunk.h5" "$n" write "$chunk" >chunk.out 2>chunk.err ||
		diag "$(cat chunk.err)"
	"$IOA_CMD" report "$(ioa_only_log "$logs")" --json -o "chunk$chunk.json"
	truth=$("$python" -c 'import sys, h5py
c = h5py.File(sys.argv[1], "r")["x"].chunks[0]
n = [int(l.split()[3]) for l in open(sys.argv[2])]
print("cut" if any(e % c for e in n) else "whole", c)' "$work/chunk$chunk.h5" chunk.out)
	said=$(ioa_result "chunk$chunk.json" insights \
		"('cut ' + f('chunk_mismatch')['evidence']['datasets'][0]['chunk']) if 'chunk_mismatch' in codes else 'whole $chunk'")
	is "$said" "$truth" "slices of $n elements in chunks of $chunk: chunk_mismatch when a slice is not whole chunks"
done

# --- a failed call: HDF5's error stack, which h5py turns into its message, is
# the program's own, as is errno; the failure is recorded on the file.
missing() {
	"$python" -c 'import errno, sys, h5py
try:
    h5py.File(sys.argv[1], "r")
except OSError as e:
    print(e.errno, e)' "$work/missing.h5" 2>&1
}
plain=$(missing)
logs=$(ioa_logdir)
preloaded=$(ioa_preload "$logs" missing)
like "$plain" "^2 .*No such file" "ground truth: h5py says ENOENT and HDF5's reason opening a missing file"
is "$preloaded" "$plain" "and says the same under the runtime"
log=$(ioa_only_log "$logs")
is "$(ioa_counter "$log" H5F 0 "$work/missing.h5" H5F_FAILED_CALLS)" 1 \
	"the failed open is counted on the file"
like "$("$IOA_CMD" parse "$log" | grep FAILED)" "H5Fopen.*ENOENT" "by call and errno"

# --- what the layer must not disturb (tests/workloads/hdf5-harm.c): the program's own
# v1 error handler and error stack, errno, a dataset at a group read with H5S_ALL, a fork.
ok "hdf5-harm builds with h5pcc.mpich -shlib" \
	h5pcc.mpich $san -shlib -o hdf5-harm "$IOA_SOURCE_DIR/tests/workloads/hdf5-harm.c"
mkdir -p "$work/harm-plain" "$work/harm"
./hdf5-harm "$work/harm-plain" >harm-plain.out 2>&1
is "$?" 0 "it runs without the runtime"
logs=$(ioa_logdir)
ioa_preload "$logs" ./hdf5-harm "$work/harm" >harm.out 2>&1
is "$?" 0 "and under it"
like "$(cat harm-plain.out)" "handler calls: 1" "ground truth: its handler ran once, for its own failed open"
is "$(sed "s#$work/harm/#DIR/#g" harm.out)" "$(sed "s#$work/harm-plain/#DIR/#g" harm-plain.out)" \
	"what it prints is the same: errno, its handler's calls, its error stack"
log=$(ioa_only_log "$logs")
hc() { ioa_counter "$log" H5D 0 "$work/harm/harm.h5:/g/d" "$1"; }
is "$(hc H5D_WRITES) $(hc H5D_READS) $(hc H5D_BYTES_WRITTEN) $(hc H5D_BYTES_READ)" "1 1 96 96" \
	"the dataset opened at a group: a write and a read of its 24 ints"
is "$(hc H5D_REGULAR_HYPERSLAB_SELECTS) $(hc H5D_IRREGULAR_HYPERSLAB_SELECTS) $(hc H5D_POINT_SELECTS)" \
	"0 0 0" "whole-dataset selections (H5S_ALL) count as no selection kind, as Darshan's"
is "$(hc H5D_DATASPACE_NDIMS) $(hc H5D_DATASPACE_NPOINTS) $(hc H5D_DATATYPE_SIZE)" "2 24 4" \
	"its shape and element size"
is "$("$IOA_CMD" parse "$log" | awk -F '\t' '$6 ~ /nope/' | head -n 1)" "" \
	"no record for the dataset that is not there"
is "$(ioa_counter "$log" H5F 0 "$work/harm/harm.h5" H5F_FAILED_CALLS)" 1 \
	"its failed open counts on the file"
is "$("$IOA_CMD" parse "$log" | awk -F '\t' -v f="$work/harm/child.h5:/c" '$1 == "H5D" && $6 == f && $4 == "H5D_WRITES" { print $5 }')" 1 \
	"the forked child's dataset, written in its own arena"

# --- two copies of HDF5 in one process (two Python wheels, each bundling libhdf5 under
# its own name, loaded with their own scopes): each module's calls reach its own copy.
lib=$(ldd ./hdf5-harm | awk '$1 ~ /^libhdf5/ { print $3; exit }')
mkdir -p copies/a copies/b copies/out-plain copies/out
for c in a b; do
	cp "$lib" "copies/$c/libhdf5-$c$c$c$c.so.103"
	patchelf --set-soname "libhdf5-$c$c$c$c.so.103" "copies/$c/libhdf5-$c$c$c$c.so.103"
	mpicc.mpich $san -DMODULE -shared -fPIC -I/usr/include/hdf5/mpich -o "copies/$c/mod.so" \
		"$IOA_SOURCE_DIR/tests/workloads/hdf5-copies.c" "copies/$c/libhdf5-$c$c$c$c.so.103" \
		-Wl,-rpath,"$work/copies/$c"
done
cc $san -o copies/main "$IOA_SOURCE_DIR/tests/workloads/hdf5-copies.c" -ldl
ok "ground truth: the two modules load two copies of libhdf5" \
	sh -c "ldd copies/a/mod.so | grep -q libhdf5-aaaa && ldd copies/b/mod.so | grep -q libhdf5-bbbb"
copies/main "$work/copies/a/mod.so" "$work/copies/b/mod.so" "$work/copies/out-plain" >copies.plain 2>&1
is "$(cat copies.plain)" "module a, a0.h5: 0
module b, b1.h5: 0
module a, a2.h5: 0" "without the runtime, each module writes its file"
logs=$(ioa_logdir)
ioa_preload "$logs" copies/main "$work/copies/a/mod.so" "$work/copies/b/mod.so" "$work/copies/out" \
	>copies.out 2>&1
is "$(cat copies.out)" "$(cat copies.plain)" "under the runtime too: each call reached its module's copy"

done_testing
