"""h5-meta — a metadata-heavy HDF5 file, as simulation codes write them:
GROUPS groups of 10 small chunked datasets, each with attributes (HDF5
places object headers, B-tree nodes and heaps among the raw data, and
rewrites some of them as the file grows and at close).  t1043 runs it and
h5repack on its file under the runtime and strace.

    python3 h5-meta.py FILE GROUPS
"""
import sys

import h5py
import numpy as np

path, groups = sys.argv[1], int(sys.argv[2])
with h5py.File(path, "w") as f:
    for g in range(groups):
        grp = f.create_group("g%d" % g)
        grp.attrs["step"] = g
        for d in range(10):
            ds = grp.create_dataset("d%d" % d, data=np.arange(100 + g * 10 + d, dtype="f8"),
                                    chunks=True)
            ds.attrs["units"] = "m"
