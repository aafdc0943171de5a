# t1018-pnetcdf-layer — the PnetCDF layer (PNETCDF_FILE and PNETCDF_VAR
# records) on real programs nobody here wrote: PnetCDF's own examples, from
# Debian's source archive of the libpnetcdf-dev the tests install
# (packaging/install-deps fetches it), built with mpicc.openmpi against
# Debian's libpnetcdf (which is built on Open MPI) and run on 2 ranks:
# blocking collective writes and reads, non-blocking and buffered writes
# with their waits, the flexible API, varn, vard (MPI derived types), a
# multi-variable write (mput), record variables, mapped (varm) writes,
# independent mode, whole-variable reads, and one file per thread.  Ground truth that is not ours:
#   - ltrace of each program without the runtime: each rank's PnetCDF calls,
#     with the variable ids, starts and counts they passed (Open MPI held to
#     the components it needs there: ltrace stops at every library loaded);
#     run once per machine for the same programs and tools, the sanitizer
#     pass of .ci/run taking the first pass's (truth_cached);
#   - ncoffsets: the size of a file's header;
#   - ncmpidump -h of the files: each variable's id (its place in the
#     header), type, dimensions and current length;
#   - the programs' own output and read-back checks, and the files they
#     write, compared with a run without the runtime.
. "$IOA_SOURCE_DIR/tests/lib/test-lib.sh"
. "$IOA_SOURCE_DIR/tests/lib/runtime-lib.sh"
require_cmd mpicc.openmpi
require_cmd mpiexec.openmpi
require_cmd ltrace
require_cmd ncmpidump
src=/var/cache/ioatlas/sources/pnetcdf_1.12.3.orig.tar.xz
[ -r "$src" ] || skip_all "no $src (packaging/install-deps fetches it)"
[ -r /usr/include/pnetcdf.h ] || skip_all "no pnetcdf.h (libpnetcdf-dev)"
python=/usr/bin/python3

plan 39

work="$TEST_TMP/work"
mkdir -p "$work/plain" "$work/traced" "$work/ioatlas" "$work/lt"
cd "$work" || exit 1
export IOATLAS_CONF=/dev/null
# The examples are built as they are, sanitizers or not: their own faults
# are not this test's (pthread.c reads a loop's variable after its scope);
# a sanitized runtime comes with its sanitizers preloaded before it.
[ -z "${IOA_SANITIZE:-}" ] ||
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:verify_asan_link_order=0"
tar -xJf "$src" pnetcdf-1.12.3/examples
ex=pnetcdf-1.12.3/examples
# The programs, in order, each with the file it writes or the writer's it reads.
programs="C/put_vara:put_vara C/get_vara:put_vara C/nonblocking_write:nonblocking_write
C/flexible_api:flexible_api C/put_varn_int:put_varn_int C/vard_int:vard_int C/time_var:time_var
C/transpose:transpose C/bput_varn_uint:bput_varn_uint C/i_varn_int64:i_varn_int64 C/mput:mput
tutorial/pnetcdf-write-standard:standard tutorial/pnetcdf-read-standard:standard"
built=0
for p in $programs; do
	prog=${p%%:*}
	mpicc.openmpi -O2 -o "${prog##*/}" "$ex/$prog.c" -lpnetcdf >>build.log 2>&1 || built=1
done
is "$built" 0 "PnetCDF's 13 example programs build with mpicc.openmpi against libpnetcdf" ||
	diag "$(cat build.log)"
ok "ground truth: they load libpnetcdf (shared)" sh -c 'ldd put_vara | grep -q libpnetcdf'

# --- ground truth: ltrace, without the runtime.  Each read or write's
# first arrays (start, count, stride) printed 5 long each (the program's
# variables have at most 5 dimensions; the rest is ignored).
{
	echo 'int ncmpi_create(long, string, int, long, addr);'
	echo 'int ncmpi_open(long, string, int, long, addr);'
	echo 'int ncmpi_def_var(int, string, int, int, addr, addr);'
	echo 'int ncmpi_inq_varid(int, string, addr);'
	nm -D "$(ldd put_vara | awk '/libpnetcdf/ { print $3 }')" |
		awk '$2 == "T" && $3 ~ /^ncmpi_(i|b)?(put|get)_var/ {
			print "int " $3 "(int, int, array(long,5)*, array(long,5)*, array(long,5)*);" }
		$2 == "T" && $3 ~ /^ncmpi_m(put|get)_var/ {
			print "int " $3 "(int, int, array(int,arg2)*, addr, addr, addr);" }'
} >nc.conf
run_all() { # mode: plain, traced or ioatlas
	local mode=$1 p prog base file st=0
	for p in $programs; do
		prog=${p%%:*} base=${prog##*/} file="$work/$mode/${p##*:}.nc"
		case $mode in
		plain) ompi_run 2 120 "./$base" "$file" >"$mode.$base.out" 2>&1 ;;
		traced) OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_osc=pt2pt \
			OMPI_MCA_coll=basic,libnbc,tuned,self OMPI_MCA_io=romio321 \
			ompi_run 2 120 sh -c "exec ltrace -A 4096 -s 4096 -F '$work/nc.conf' -e 'ncmpi_*@MAIN' \
			-o '$work/lt/$base.'\$OMPI_COMM_WORLD_RANK './$base' '$file'" >"$mode.$base.out" 2>&1 ;;
		ioatlas)
			mkdir -p "$work/logs/$base"
			ioa_ompi_preload "$work/logs/$base" 2 120 "./$base" "$file" >"$mode.$base.out" 2>&1
			;;
		esac || { st=1; diag "$mode $base: $(tail -5 "$mode.$base.out")"; }
	done
	return $st
}
ok "they run without anything" run_all plain
# The programs under ltrace without the runtime, each of their 2 ranks' calls written: run
# once per machine for both passes, the same binaries run the same way with the same tools.
# shellcheck disable=SC2086
nprograms=$(echo $programs | wc -w)
traced_all() { run_all traced && [ "$(ls lt | wc -l)" -eq $((nprograms * 2)) ]; }
key=$( (for p in $programs; do p=${p%%:*}; sha256sum "${p##*/}"; done; sha256sum nc.conf
	declare -f run_all ompi_run traced_all; ltrace -V
	dpkg-query -W ltrace libpnetcdf-dev libopenmpi-dev 2>/dev/null) | sha256sum | cut -c1-16)
ok "and under ltrace" truth_cached t1018-ltrace "$work/lt" "$key" traced_all
diag "$(cat "$TEST_TMP/last.out")"
is "$(ls lt | wc -l)" "$((nprograms * 2))" "ltrace's calls of each program's 2 ranks"
ok "and under ioatlas" run_all ioatlas
# Ranks print in no fixed order, and timings vary: each program's lines, sorted, times masked.
said() { for p in $programs; do p=${p%%:*}; p=${p##*/}; echo "== $p"
	sed -E "s#$work/$1/#DIR/#g; s/[0-9]+\.[0-9]+/T/g" "$1.$p.out" | LC_ALL=C sort; done; }
is "$(said ioatlas)" "$(said plain)" "what each program prints (its own read-back checks too) is what it prints without the runtime"
differ=$(for f in plain/*.nc; do cmp -s "$f" "ioatlas/${f#plain/}" || echo "${f#plain/}"; done)
is "$(ls ioatlas | LC_ALL=C sort) | $differ" "$(ls plain | LC_ALL=C sort) | " \
	"the files are, byte for byte, what they are without the runtime"

# The variables as the files declare them: "file var id type_size ndims points record".
for f in ioatlas/*.nc; do
	ncmpidump -h "$f" | "$python" -c '
import re, sys
size = dict(byte=1, char=1, short=2, int=4, float=4, double=8, ubyte=1, ushort=2, uint=4,
            int64=8, uint64=8)
dims, section, n = {}, None, 0
for line in sys.stdin:
    s = line.strip()
    if s in ("dimensions:", "variables:"):
        section = s
        continue
    if s.startswith("//") or s.startswith("}") or not s:
        continue
    if section == "dimensions:":
        m = re.match(r"(\w+) = (UNLIMITED ; // \((\d+) currently\)|(\d+))", s)
        if m:
            dims[m.group(1)] = (int(m.group(3) or m.group(4)), m.group(3) is not None)
    elif section == "variables:":
        m = re.match(r"(\w+) (\w+)(?:\((.*)\))? ;$", s)
        if m and m.group(1) in size:
            names = [d.strip() for d in m.group(3).split(",")] if m.group(3) else []
            points = 1
            for d in names:
                points *= dims[d][0]
            print(sys.argv[1], m.group(2), n, size[m.group(1)], len(names), points,
                  int(bool(names) and dims[names[0]][1]))
            n += 1' "${f##*/}"
done >vars.txt
diag "the variables the files declare:" "$(cat vars.txt)"

# truth, from ltrace and the declarations: per "file:var" its counters
# ("COUNTER n" lines, summed over ranks) and its accesses; per file its
# creates, opens, waits and syncs.
"$python" - vars.txt lt/* >truth.txt <<'EOF'
import collections, os, re, sys
sys.path.insert(0, os.path.join(os.environ['IOA_SOURCE_DIR'], 'tests/lib'))
from ltrace_args import split
decl = {}
for line in open(sys.argv[1]):
    f, v, vid, size, nd, points, rec = line.split()
    decl[f, int(vid)] = (v, int(size), int(nd))
call = re.compile(r'^(\S+)->(ncmpi_\w+)\((.*?)(?:\)\s+= (-?\d+)| <unfinished \.\.\.>)$')
resumed = re.compile(r'^<\.\.\. (ncmpi_\w+) resumed> .*\)\s+= (-?\d+)$')
io = re.compile(r'^ncmpi_(i|b)?(put|get)_(var1|vara|vars|varm|varn|vard|var)(_(?!all$)[a-z]+)?(_all)?$')
kinds = dict(var='VAR', var1='VAR1', vara='VARA', vars='VARS', varm='VARM', varn='VARN',
             vard='VARD')
counters = collections.Counter()
access = collections.defaultdict(collections.Counter)
exact = collections.defaultdict(lambda: True)

def longs(arg):
    return [int(x) for x in arg.strip('[] .').split(',')] if arg.startswith('[') else None

for path in sys.argv[2:]:
    prog = os.path.basename(path).rsplit('.', 1)[0]
    current, pending = None, {}
    for line in open(path):
        m = call.match(line.strip())
        if m and m.group(1) != prog:
            continue
        if m and m.group(4) is None:
            pending[m.group(2)] = m.group(3)
            continue
        if m:
            fn, args, ret = m.group(2), split(m.group(3)), int(m.group(4))
        else:
            r = resumed.match(line.strip())
            if not r or r.group(1) not in pending:
                continue
            fn, args, ret = r.group(1), split(pending.pop(r.group(1))), int(r.group(2))
        if ret != 0:
            continue
        if fn in ('ncmpi_create', 'ncmpi_open'):
            current = os.path.basename(args[1].strip('"'))
            counters[current, 'PNETCDF_FILE_CREATES' if fn == 'ncmpi_create'
                     else 'PNETCDF_FILE_OPENS'] += 1
        elif fn in ('ncmpi_wait', 'ncmpi_wait_all'):
            counters[current, 'PNETCDF_FILE_COLL_WAITS' if fn == 'ncmpi_wait_all'
                     else 'PNETCDF_FILE_INDEP_WAITS'] += 1
        elif fn in ('ncmpi_sync', 'ncmpi_flush'):
            counters[current, 'PNETCDF_FILE_SYNCS'] += 1
        elif fn == 'ncmpi_redef':
            counters[current, 'PNETCDF_FILE_REDEFS'] += 1
        elif fn in ('ncmpi_def_var', 'ncmpi_inq_varid'):
            counters[current + ':' + args[1].strip('"'), 'PNETCDF_VAR_OPENS'] += 1
        elif re.match(r'ncmpi_m(put|get)_(var1|vara|vars|varm|var)(_[a-z]+)?(_all)?$', fn):
            # One request per variable id listed: each counted as the call of its kind.
            op, kind, ctype, coll = re.match(
                r'ncmpi_m(put|get)_(var1|vara|vars|varm|var)(_(?!all$)[a-z]+)?(_all)?$', fn).groups()
            for vid in longs(args[2]) or []:
                var = current + ':' + decl[current, vid][0]
                how = ('COLL_' if coll else 'INDEP_') + ('WRITES' if op == 'put' else 'READS')
                counters[var, 'PNETCDF_VAR_' + how] += 1
                counters[var, 'PNETCDF_VAR_' + op.upper() + '_' + kinds[kind]] += 1
                exact[var] = False
        elif io.match(fn):
            nb, op, kind, ctype, coll = io.match(fn).groups()
            v, size, nd = decl[current, int(args[1])]
            var = current + ':' + v
            write = op == 'put'
            how = ('NB_' if nb else 'COLL_' if coll else 'INDEP_') + ('WRITES' if write else 'READS')
            counters[var, 'PNETCDF_VAR_' + how] += 1
            counters[var, 'PNETCDF_VAR_' + (nb or '').upper() + op.upper() + '_' + kinds[kind]] += 1
            start, count, stride = (longs(a) if len(args) > i else None for i, a in
                                    zip((2, 3, 4), args[2:5] + [''] * 3))
            if kind in ('vara', 'vars', 'varm', 'var1'):
                lens = [1] * nd if kind == 'var1' else count[:nd]
                steps = stride[:nd] if kind in ('vars', 'varm') and stride else [1] * nd
                n = 1
                for c in lens:
                    n *= c
                counters[var, 'PNETCDF_VAR_BYTES_' + ('WRITTEN' if write else 'READ')] += n * size
                pad = lambda x: (list(reversed(x)) + [0] * 5)[:5]
                access[prog + ' ' + var][tuple([n * size] + pad(lens) + pad(steps))] += 1
            else:
                exact[var] = False
for (k, c), n in sorted(counters.items()):
    if 'BYTES' not in c or exact[k]:
        print(k, c, n)
for k in sorted(access):
    if exact[k.split()[1]] and len(access[k]) <= 4:
        for a, n in sorted(access[k].items()):
            print('access', k, *a, n)
EOF
diag "what ltrace saw:" "$(cat truth.txt)"
like "$(cat truth.txt)" 'put_vara.nc:var PNETCDF_VAR_COLL_WRITES 2' \
	"ground truth: ltrace saw put_vara's collective writes of its variable, one per rank"

# ours: the same counters from the logs (records summed over ranks).
parse_all() { for l in "$work"/logs/*/*/*/*/*.ioa; do "$IOA_CMD" parse "$l"; done; }
parse_all >parsed.txt
ours() {
	awk -F '\t' -v dir="$work/ioatlas/" '$1 ~ /^PNETCDF_/ { name = $6; sub(dir, "", name)
		v[name " " $4] += $5 } END { for (k in v) if (v[k]) print k, v[k] }' parsed.txt | LC_ALL=C sort
}
ours >ours.txt
pick() { grep -E " PNETCDF_$1" "$2" | LC_ALL=C sort; }
is "$(pick 'FILE_(CREATES|OPENS|COLL_WAITS|INDEP_WAITS|SYNCS|REDEFS) ' ours.txt)" \
	"$(pick 'FILE_(CREATES|OPENS|COLL_WAITS|INDEP_WAITS|SYNCS|REDEFS) ' truth.txt)" \
	"one record per file, with the creates, opens, waits and syncs ltrace saw"
is "$(pick 'VAR_OPENS ' ours.txt)" "$(pick 'VAR_OPENS ' truth.txt)" \
	"one record per variable, each defined or looked up as often as ltrace saw"
is "$(pick 'VAR_(COLL|INDEP|NB)_(READS|WRITES) ' ours.txt)" \
	"$(pick 'VAR_(COLL|INDEP|NB)_(READS|WRITES) ' truth.txt)" \
	"each variable's collective, independent and non-blocking reads and writes as ltrace saw them"
is "$(pick 'VAR_(I|B)?(PUT|GET)_VAR[1ASMND]? ' ours.txt)" \
	"$(pick 'VAR_(I|B)?(PUT|GET)_VAR[1ASMND]? ' truth.txt)" \
	"and its calls by kind: put, get, iput, iget, bput of var, var1, vara, vars, varm, varn, vard"
exact=$(pick 'VAR_BYTES_' truth.txt | cut -d' ' -f1 | sort -u)
is "$(for v in $exact; do grep -E "^$v PNETCDF_VAR_BYTES_" ours.txt; done)" "$(pick 'VAR_BYTES_' truth.txt)" \
	"bytes of every variable read or written by subarrays: the elements of each call's counts times the type's size"
# varn, vard and mput calls name their elements through arrays of arrays
# and MPI types; these programs write no element twice: the bytes written
# are the elements the file holds that are not the fill value ("_" in
# ncmpidump).
written=$(for v in $(awk '$1 ~ /^(put_varn_int|vard_int|mput)\.nc$/ { print $1 ":" $2 ":" $4 }' vars.txt); do
	IFS=: read -r f name size <<<"$v"
	ncmpidump -v "$name" "ioatlas/$f" | sed -n '/^data:/,$p' | sed '1d' |
		tr ',;=' '\n\n\n' | awk -v k="$f:$name" -v size="$size" -v var="$name" '
			$1 == var { next } NF == 1 && $1 != "}" && $1 != "_" { n++ }
			END { print k, n * size }'
done | LC_ALL=C sort)
is "$(for v in $(echo "$written" | cut -d' ' -f1); do
	echo "$v $(awk -v k="$v" '$1 == k && $2 == "PNETCDF_VAR_BYTES_WRITTEN" { print $3 }' ours.txt)"; done)" \
	"$written" "varn, vard and mput writes: each variable's bytes, as the elements the file holds written"
# Per program: a file written by one and read by another has a record in each log.
acc() {
	local l
	for l in "$work"/logs/*/*/*/*/*.ioa; do "$IOA_CMD" parse "$l" |
		awk -F '\t' -v dir="$work/ioatlas/" -v prog="$(basename "$(dirname "$(dirname "$(dirname "$(dirname "$l")")")")")" '
		$1 == "PNETCDF_VAR" && $2 == -1 { name = prog " " $6; sub(dir, "", name)
		v[name, $4] = $5; n[name] = 1 }
		END { for (k in n) for (a = 1; a <= 4; a++) if (v[k, "PNETCDF_VAR_ACCESS" a "_COUNT"] > 0) {
			p = "PNETCDF_VAR_ACCESS" a
			print "access", k, v[k, p "_ACCESS"], v[k, p "_LENGTH_D1"], v[k, p "_LENGTH_D2"],
				v[k, p "_LENGTH_D3"], v[k, p "_LENGTH_D4"], v[k, p "_LENGTH_D5"],
				v[k, p "_STRIDE_D1"], v[k, p "_STRIDE_D2"], v[k, p "_STRIDE_D3"],
				v[k, p "_STRIDE_D4"], v[k, p "_STRIDE_D5"], v[k, p "_COUNT"] } }'
	done
}
is "$(acc | grep -F -f <(grep '^access' truth.txt | cut -d' ' -f2,3 | sort -u | sed 's/$/ /') | LC_ALL=C sort)" \
	"$(grep '^access' truth.txt | LC_ALL=C sort)" \
	"each variable's accesses: bytes, length and stride per dimension (D1 the last) and how often, as ltrace saw them"

# Shapes as the files declare them (the readers' records, which saw the files whole).
facts=$(awk -F '\t' -v dir="$work/ioatlas/" '$1 == "PNETCDF_VAR" { name = $6; sub(dir, "", name)
	v[name, $4] = $5; n[name] = 1 }
	END { for (k in n) print k, v[k, "PNETCDF_VAR_DATATYPE_SIZE"], v[k, "PNETCDF_VAR_NDIMS"],
		v[k, "PNETCDF_VAR_NPOINTS"], v[k, "PNETCDF_VAR_IS_RECORD_VAR"] }' parsed.txt | LC_ALL=C sort)
is "$facts" "$(awk '{ print $1 ":" $2, $4, $5, $6, $7 }' vars.txt | LC_ALL=C sort)" \
	"each variable's element size, dimensions, points and record-ness as ncmpidump declares them"

# Multi-layer: what the PnetCDF calls issued underneath.
mpiio=$(awk -F '\t' '$1 == "MPI-IO" && $4 ~ /_(READS|WRITES|OPENS)$/ { n += $5 } END { print n + 0 }' parsed.txt)
above=$(awk -F '\t' '$1 ~ /^PNETCDF_/ && $4 ~ /_MPIIO_SUBCALLS$/ { n += $5 } END { print n + 0 }' parsed.txt)
ok "the MPI-IO opens, reads and writes ($mpiio) all ran inside PnetCDF calls ($above counted there)" \
	test "$mpiio" -gt 0 -a "$above" -ge "$mpiio"
# (mput.nc aside: an mput's requests, several a call, share the call's MPI-IO calls.)
is "$(awk -F '\t' '$1 == "PNETCDF_VAR" && $6 !~ /\/mput\.nc:/ { v[$6, $4] += $5; n[$6] = 1 }
	END { for (k in n) if (v[k, "PNETCDF_VAR_COLL_WRITES"] + v[k, "PNETCDF_VAR_COLL_READS"] > v[k, "PNETCDF_VAR_MPIIO_SUBCALLS"]) print k }' parsed.txt)" \
	"" "every blocking collective read and write issued MPI-IO calls, counted on its variable"
is "$(awk -F '\t' '$1 == "PNETCDF_VAR" && $6 ~ /\/mput\.nc:var$/ && $4 == "PNETCDF_VAR_MPIIO_SUBCALLS" { n += $5 }
	END { print (n > 0) ? "counted" : "none" }' parsed.txt)" counted \
	"mput's calls, all on one variable: what they issued underneath counted on it"
# put_vara's file: its header (from one rank) and its variable (from all), each byte once.
header=$(ncoffsets ioatlas/put_vara.nc | awk '$1 == "size" && $2 == "=" { print $3; exit }')
extent=$(ncoffsets ioatlas/put_vara.nc | awk '/start file offset/ { s = $NF } /end +file offset/ { e = $NF }
	END { print e - s }')
is "$(awk -v f=put_vara.nc '$1 == f && $2 == "PNETCDF_FILE_BYTES_WRITTEN" { print $3 }' ours.txt)" \
	"$((header + extent))" \
	"the bytes the library wrote for put_vara's file: its header ($header, ncoffsets) and its variable's extent ($extent), once"


# The report's files table names the variables and counts them by their own counters.
log=$(ioa_only_log "$work/logs/nonblocking_write")
"$IOA_CMD" report "$log" --json -o report.json
is "$(ioa_report_files report.json PNETCDF_VAR "$work/ioatlas")" \
	"$("$IOA_CMD" parse "$log" | awk -F '\t' -v dir="$work/ioatlas/" '$1 == "PNETCDF_VAR" { n = $6
		sub(dir, "", n); v[n, $4] = $5; k[n] = 1 }
		END { for (x in k) print x, v[x, "PNETCDF_VAR_INDEP_READS"] + v[x, "PNETCDF_VAR_COLL_READS"] + \
			v[x, "PNETCDF_VAR_NB_READS"], v[x, "PNETCDF_VAR_INDEP_WRITES"] + \
			v[x, "PNETCDF_VAR_COLL_WRITES"] + v[x, "PNETCDF_VAR_NB_WRITES"], \
			v[x, "PNETCDF_VAR_BYTES_READ"] + v[x, "PNETCDF_VAR_BYTES_WRITTEN"] }' | LC_ALL=C sort)" \
	"the report's files table: each variable's reads, writes and bytes, as its PNETCDF_VAR record"

# --- one file per thread (pthread.c): 6 threads per rank, each its own file.
# It needs PnetCDF's thread-safe build, which Debian's is not: its table of
# open files is guarded here, in both runs, by a lock preloaded behind the
# runtime (tests/workloads/pnetcdf-ids-lock.c).  Without it, two threads
# are at times handed one id, and the program crashes.
mpicc.openmpi -O2 -o pthread "$ex/C/pthread.c" -lpnetcdf -lpthread
ok "the lock builds" mpicc.openmpi -O2 -shared -fPIC -o libids-lock.so \
	"$IOA_SOURCE_DIR/tests/workloads/pnetcdf-ids-lock.c" -ldl -lpthread
mkdir -p "$work/threads" "$work/threads-plain" "$work/logs/threads"
ompi_run 4 120 -x LD_PRELOAD="$work/libids-lock.so" ./pthread "$work/threads-plain/t.nc" \
	>threads-plain.out 2>&1
is "$?" 0 "ground truth: pthread runs, with PnetCDF's table of files guarded" ||
	diag "$(cat threads-plain.out)"
ompi_run 4 120 -x LD_PRELOAD="$(ioa_preload_list "$IOA_RUNTIME_SO" "$work/libids-lock.so")" \
	-x IOATLAS_LOGDIR="$work/logs/threads" ./pthread "$work/threads/t.nc" >threads.out 2>&1
is "$?" 0 "pthread (a file per thread, each written and read back) runs under ioatlas"
"$IOA_CMD" parse "$(ioa_only_log "$work/logs/threads")" | awk -F '\t' -v dir="$work/threads/" '
	$1 ~ /^PNETCDF_/ { name = $6; sub(dir, "", name); v[name " " $4] += $5 }
	END { for (k in v) if (v[k]) print k, v[k] }' >threads.txt
files=$(cd threads && ls t.nc.* | LC_ALL=C sort)
is "$(echo "$files" | wc -w)" "$(ls threads-plain | wc -w)" \
	"it writes as many files as without the runtime ($(ls threads-plain | wc -w): 6 threads on each of 4 ranks)"
is "$(awk '$2 == "PNETCDF_FILE_CREATES" || $2 == "PNETCDF_FILE_OPENS" { print $1, $2, $3 }' threads.txt | LC_ALL=C sort)" \
	"$(for f in $files; do echo "$f PNETCDF_FILE_CREATES 1"; echo "$f PNETCDF_FILE_OPENS 1"; done)" \
	"each of the $(echo "$files" | wc -l) files a thread wrote is created once and opened once"
# Each thread writes its fixed-size variable whole (and two of its record
# variable's records), then reads back what it wrote, which it checks.
dvar=$(ncmpidump -h threads/t.nc.0 | awk '/double dvar\(Y, X\)/ { d = 1 } /Y = [0-9]/ { y = $3 }
	/X = [0-9]/ { x = $3 } END { if (d) print y * x * 8 }')
is "$(for f in $files; do [ "$(stat -c %s "threads/$f")" = "$(stat -c %s threads/t.nc.0)" ] &&
	cmp -s "threads/$f" "threads-plain/$f" && echo "$f:dvar $dvar"; done | LC_ALL=C sort)" \
	"$(awk '$1 ~ /:dvar$/ && $2 == "PNETCDF_VAR_BYTES_WRITTEN" { print $1, $3 }' threads.txt | LC_ALL=C sort)" \
	"each thread's fixed-size variable written whole ($dvar bytes, as ncmpidump declares it); the files as without the runtime"
is "$(awk '$2 == "PNETCDF_VAR_BYTES_WRITTEN" { w[$1] = $3 } $2 == "PNETCDF_VAR_BYTES_READ" { r[$1] = $3 }
	END { for (k in w) if (w[k] != r[k] || !w[k]) print k, w[k], r[k] }' threads.txt)" "" \
	"and every variable read back as many bytes as were written"

# --- independent data mode (tests/workloads/pnetcdf-indep.c, ours: none of
# PnetCDF's examples reaches a shared file without a collective call): the
# insight names the variables written that way, and a put to a variable id
# the file does not have fails as it does without the runtime.
mpicc.openmpi -O2 -o pnetcdf-indep "$IOA_SOURCE_DIR/tests/workloads/pnetcdf-indep.c" -lpnetcdf
mkdir -p "$work/logs/indep"
ompi_run 2 60 ./pnetcdf-indep "$work/indep-plain.nc" >indep-plain.out 2>&1
ioa_ompi_preload "$work/logs/indep" 2 60 ./pnetcdf-indep "$work/indep.nc" >indep.out 2>&1
like "$(cat indep-plain.out)" "bad varid returns -49 errno before 0 after 0" \
	"ground truth: the bad put returns NC_ENOTVAR (-49), errno untouched"
is "$(LC_ALL=C sort indep.out)" "$(LC_ALL=C sort indep-plain.out)" \
	"pnetcdf-indep prints what it prints without the runtime, the failed call's result and errno too"
log=$(ioa_only_log "$work/logs/indep")
"$IOA_CMD" report "$log" --json -o indep.json
is "$(ioa_result "$work/indep.json" insights \
	"sorted((x['name'], x['layer']) for x in f('no_collective_io')['evidence']['files'][0]['datasets'])")" \
	"[('pressure', 'PNETCDF_VAR'), ('temp', 'PNETCDF_VAR')]" \
	"no_collective_io names the two variables the ranks wrote in independent mode"
like "$("$IOA_CMD" parse "$log" | grep '^FAILED.PNETCDF')" "ncmpi_put_vara_int.NC_ENOTVAR.1" \
	"the failed put counted on the file, by netCDF's name of its error"
failed=$("$IOA_CMD" parse "$log" | awk -F '\t' '$1 == "FAILED" && $2 == "PNETCDF_FILE" { n[$5] += $7 }
	END { for (k in n) print k, n[k] }' | LC_ALL=C sort)
is "$failed" "$(printf 'ncmpi_get_var_int 2\nncmpi_put_vara_int 2\nncmpi_wait 2')" \
	"each rank's three failed calls on the file: the put, a get of NC_GLOBAL (no variable record), the bogus wait"
is "$(awk -F '\t' '$1 == "PNETCDF_FILE" && $4 == "PNETCDF_FILE_WAIT_FAILURES" { s += $5 } END { print s + 0 }' \
	<("$IOA_CMD" parse "$log"))" 2 "the failed waits are Darshan's wait failures too"
asked=$(awk '$3 == "vard" && $4 == "bytes" { b += $5 } END { print b + 0 }' indep.out)
is "$(ioa_counter "$log" PNETCDF_VAR -1 "$work/indep.nc-vard:row" PNETCDF_VAR_PUT_VARD) $(ioa_counter "$log" PNETCDF_VAR -1 "$work/indep.nc-vard:row" PNETCDF_VAR_BYTES_WRITTEN)" \
	"2 $asked" \
	"a collective vard write with one rank's MPI_DATATYPE_NULL: both calls counted, the bytes the ranks say ($asked)"

# --- a failed call: the program's message is its own; the failure is recorded on the file.
mkdir -p "$work/logs/missing"
ompi_run 1 60 ./get_vara "$work/missing.nc" >missing-plain.out 2>&1
ioa_ompi_preload "$work/logs/missing" 1 60 ./get_vara "$work/missing.nc" >missing.out 2>&1
is "$(sed "s#$work/##g; /Process name/d" missing.out)" "$(sed "s#$work/##g; /Process name/d" missing-plain.out)" \
	"opening a missing file, the program says what it says without the runtime"
log=$(ioa_only_log "$work/logs/missing")
is "$(ioa_counter "$log" PNETCDF_FILE 0 "$work/missing.nc" PNETCDF_FILE_FAILED_CALLS)" 1 \
	"the failed open is counted on the file"
like "$("$IOA_CMD" parse "$log" | grep '^FAILED.PNETCDF')" "ncmpi_open.NC_ENOENT.1" \
	"by call and netCDF's name of the error PnetCDF returned"
