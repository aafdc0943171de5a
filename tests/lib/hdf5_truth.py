# hdf5_truth — what ltrace saw a program do with HDF5, the ground truth of
# the tests of the HDF5 layer (t1017, t1019).  Reads the ltrace output
# files given (one per rank, ltrace -F hdf5.ltrace.conf) and prints, over
# all ranks:
#   "<file>:/<dataset> opens reads writes collective" per dataset (opens:
#   creates and opens; collective: reads and writes made with a transfer
#   list set collective; each part of a multi-dataset call counts as a
#   read or write of its dataset);
#   "<file> opens" per file (creates and opens);
#   "access <file>:/<dataset> D1 D2 count" per dataset and access: the file
#   space's hyperslab, count x block per dimension (D1 the last), when one
#   H5Sselect_hyperslab made it.
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ltrace_args import split  # noqa: E402

call = re.compile(r'^(?:\S+->)?(H5\w+)\((.*)\)\s+= (-?\w+)')
dsets = collections.defaultdict(lambda: [0, 0, 0, 0])
access = collections.defaultdict(collections.Counter)
files = collections.Counter()


def dims(arg):
    return [int(v) for v in arg.strip('[] ').split(',')] if arg != 'nil' else None


for path in sys.argv[1:]:
    fname, dname, coll, sel = {}, {}, set(), {}
    for line in open(path):
        m = call.match(line)
        if not m:
            continue
        fn, args, ret = m.group(1), split(m.group(2)), m.group(3)
        if ret.startswith('-'):
            continue
        if fn in ('H5Fcreate', 'H5Fopen'):
            fname[ret] = os.path.basename(args[0].strip('"'))
            files[fname[ret]] += 1
        elif fn in ('H5Dcreate2', 'H5Dopen2'):
            dname[ret] = fname[args[0]] + ':/' + args[1].strip('"').lstrip('/')
            dsets[dname[ret]][0] += 1
        elif fn == 'H5Pset_dxpl_mpio':
            (coll.add if args[1] == '1' else coll.discard)(args[0])
        elif fn == 'H5Sselect_hyperslab':
            count, block = dims(args[4]), dims(args[5])
            if args[1] == '0':
                sel[args[0]] = [c * (block[i] if block else 1) for i, c in enumerate(count)]
            else:
                sel.pop(args[0], None)
        elif fn in ('H5Dread', 'H5Dwrite', 'H5Dread_multi', 'H5Dwrite_multi'):
            multi = fn.endswith('_multi')
            ids = dims(args[1]) if multi else [int(args[0])]
            spaces = dims(args[4]) if multi else [int(args[3])]
            for d, space in zip(ids, spaces):
                name = dname[str(d)]
                dsets[name][1 if fn.startswith('H5Dread') else 2] += 1
                dsets[name][3] += args[5 if multi else 4] in coll
                if str(space) in sel:
                    access[name][tuple(reversed(sel[str(space)]))] += 1
for k in sorted(dsets):
    print(k, *dsets[k])
for k in sorted(files):
    print(k, files[k])
for k in sorted(access):
    for a, n in sorted(access[k].items()):
        print('access', k, *a, n)
