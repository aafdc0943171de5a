#!/usr/bin/env python3
"""craft-darshan — Darshan logs (format 3.41, zlib) for the reader's tests,
written from the format's documentation: hostile ones (t0015), and logs of
the modules no program here can make Darshan write (t0016):

    craft-darshan.py KIND OUT

KIND:
  job-bomb     a job region that inflates to 64 MiB of mount lines
  bad-time     a start time past what nanoseconds in 63 bits can hold
  big-rank     one POSIX record of rank 2^31 - 1
  dxt-hosts N  N DXT_POSIX file records, each with a host of its own
  unnamed      a POSIX record whose id no name stands for (id 0xdeadbeefcafe),
               beside a named one
  lustre-lies  LUSTRE records whose counts claim more than they hold: 2^62
               components, 2^62 stripes, a component of more stripes than
               the record's, a version 1 record 2^60 OSTs wide
  layers SET ORDER
               H5F, H5D, PNETCDF_FILE, PNETCDF_VAR and LUSTRE records with
               varied values (seeded), at the module versions of SET: "new"
               (Darshan 3.5's: H5F 3, H5D 2, PNETCDF_FILE 3, PNETCDF_VAR 1,
               LUSTRE 2), "mid" (H5F 2, PNETCDF_FILE 2) or "old" (H5F 1,
               H5D 1, PNETCDF_FILE 1, LUSTRE 1); ORDER "little" or "big"
"""
import random
import struct
import sys
import zlib

MAGIC = 6567223
POSIX, DXT_POSIX = 1, 10
POSIX_INTS, POSIX_FLOATS = 69, 17


E = "<"  # byte order of everything written


def job(start=1795561618, end=1795561619, jobid=987654, tail=b"/apps/prog arg\next4\t/\n"):
    fixed = struct.pack(E + "7q", 1000, start, 0, end, 0, 4, jobid)
    meta = b"lib_ver=3.5.0\n".ljust(1024, b"\0")
    return fixed + meta + tail + b"\0"


def posix_record(rid, rank, writes=1, nbytes=100):
    ints = [0] * POSIX_INTS
    ints[0] = 1  # POSIX_OPENS
    ints[4] = writes  # POSIX_WRITES
    ints[15] = nbytes  # POSIX_BYTES_WRITTEN
    floats = [0.0] * POSIX_FLOATS
    floats[9] = 0.001  # POSIX_F_WRITE_TIME
    return struct.pack(E + "Qq", rid, rank) + struct.pack(E + "%dq" % POSIX_INTS, *ints) + \
        struct.pack(E + "%dd" % POSIX_FLOATS, *floats)


def dxt_record(rid, rank, host):
    head = struct.pack(E + "Qqq", rid, rank, 0) + host.ljust(64, b"\0")[:64] + \
        struct.pack(E + "qq", 1, 0)
    return head + struct.pack(E + "qqdd", 0, 100, 0.001, 0.002)


def names(entries):
    return b"".join(struct.pack(E + "Q", i) + n + b"\0" for i, n in entries)


def write(out, job_raw, names_raw, modules, versions=None):
    regions = []
    body = bytearray()
    at = 1328

    def add(raw):
        nonlocal at
        z = zlib.compress(raw)
        body.extend(z)
        off = at
        at += len(z)
        return off, len(z)

    add(job_raw)
    noff, nlen = add(names_raw)
    maps = {}
    for mid, raw in modules.items():
        maps[mid] = add(raw)
    head = bytearray(1328)
    head[0:4] = b"3.41"
    struct.pack_into(E + "q", head, 8, MAGIC)
    struct.pack_into(E + "QQ", head, 32, noff, nlen)
    for mid, (off, ln) in maps.items():
        ver = (versions or {}).get(mid, 4 if mid == POSIX else 1)
        struct.pack_into(E + "QQ", head, 48 + 16 * mid, off, ln)
        struct.pack_into(E + "I", head, 48 + 16 * 64 + 4 * mid, ver)
    with open(out, "wb") as f:
        f.write(head + body)


H5F, H5D, PNETCDF_FILE, PNETCDF_VAR, LUSTRE = 3, 4, 5, 6, 8
# (integer counters, float counters, whether a file record id comes first) per version
LAYERS = {
    H5F: {1: (1, 2, False), 2: (1, 4, False), 3: (3, 5, False)},
    H5D: {1: (94, 17, False), 2: (94, 17, True)},
    PNETCDF_FILE: {1: (2, 2, False), 2: (2, 4, False), 3: (9, 8, False)},
    PNETCDF_VAR: {1: (120, 17, True)},
}
SETS = {
    "new": {H5F: 3, H5D: 2, PNETCDF_FILE: 3, PNETCDF_VAR: 1, LUSTRE: 2},
    "mid": {H5F: 2, H5D: 2, PNETCDF_FILE: 2, PNETCDF_VAR: 1, LUSTRE: 2},
    "old": {H5F: 1, H5D: 1, PNETCDF_FILE: 1, LUSTRE: 1},
}


def layer_record(rng, rid, rank, nints, nfloats, file_id, counted=0):
    """The first `counted` integers are counts of calls: never -1 (not monitored)."""
    ints = [rng.choice([0, 1, 7, rng.randrange(1 << 40)] + ([-1] if i >= counted else []))
            for i in range(nints)]
    floats = [round(rng.uniform(0, 5000), rng.choice([0, 3, 6, 9])) for _ in range(nfloats)]
    raw = struct.pack(E + "Qq", rid, rank)
    if file_id is not None:
        raw += struct.pack(E + "Q", file_id)
    return raw + struct.pack(E + "%dq" % nints, *ints) + struct.pack(E + "%dd" % nfloats, *floats)


def lustre_record(rng, rid, rank, version):
    if version == 1:
        width = rng.randrange(1, 9)
        osts = [rng.randrange(512) for _ in range(width)]
        return struct.pack(E + "Qq5q", rid, rank, 512, 8, -1, 1 << 20, width) + \
            struct.pack(E + "%dq" % width, *osts)
    comps = []
    for c in range(rng.randrange(1, 4)):
        count = rng.randrange(0, 5)
        pool = rng.choice([b"", b"flash", b"pool-%d" % c, b"fifteen-bytes-x"])
        comps.append((struct.pack(E + "7q", 1 << rng.randrange(16, 24), count,
                                  rng.choice([0, 2, 4, 8, 1]),
                                  rng.choice([0, 16, 16 | 4, -1, 0x8ff]),
                                  c << 30, ((c + 1) << 30) if c < 2 else -1, rng.randrange(3)) +
                      pool.ljust(16, b"\0"), count))
    # An unused component (stripe size -1) and its stripes, as the runtime leaves them.
    spare = struct.pack(E + "7q", -1, 2, 0, 0, 0, 0, 0) + b"\0" * 16
    nstripes = sum(n for _, n in comps) + 2
    osts = [rng.randrange(2048) for _ in range(nstripes)]
    return struct.pack(E + "Qqqq", rid, rank, len(comps) + 1, nstripes) + \
        b"".join(c for c, _ in comps) + spare + struct.pack(E + "%dq" % nstripes, *osts)


def layers(out, which):
    rng = random.Random("ioatlas-" + which)  # the same values in either byte order
    versions = SETS[which]
    entries = [(0x1000 + i, b"/scratch/run/out%d.h5" % i) for i in range(3)]
    entries += [(0x2000 + i, b"/scratch/run/out0.h5:/group/ds%d" % i) for i in range(3)]
    entries += [(0x3000 + i, b"/scratch/run/cdf%d.nc" % i) for i in range(2)]
    entries += [(0x4000 + i, b"/scratch/run/cdf0.nc:var%d" % i) for i in range(3)]
    modules = {POSIX: posix_record(0x1000, 0)}
    for mid, base, file_base in ((H5F, 0x1000, None), (H5D, 0x2000, 0x1000),
                                 (PNETCDF_FILE, 0x3000, None), (PNETCDF_VAR, 0x4000, 0x3000)):
        if mid not in versions:
            continue
        nints, nfloats, with_file = LAYERS[mid][versions[mid]]
        count = 2 if mid == PNETCDF_FILE else 3
        modules[mid] = b"".join(
            layer_record(rng, base + i, [0, 1, -1][i], nints, nfloats,
                         file_base if with_file else None,
                         2 if mid == PNETCDF_FILE and versions[mid] < 3 else 0)
            for i in range(count))
    modules[LUSTRE] = b"".join(lustre_record(rng, 0x1000 + i, -1, versions[LUSTRE])
                               for i in range(3))
    write(out, job(tail=b"/apps/h5prog -n 4\nlustre\t/scratch\next4\t/"), names(entries),
          modules, versions)


def main():
    global E
    kind, out = sys.argv[1], sys.argv[-1]
    if kind == "layers":
        E = "<" if sys.argv[3] == "little" else ">"
        layers(out, sys.argv[2])
    elif kind == "lustre-lies":
        lies = [struct.pack(E + "Qqqq", 0x1000, -1, 1 << 62, 0),
                struct.pack(E + "Qqqq", 0x1000, -1, 0, 1 << 62),
                struct.pack(E + "Qqqq", 0x1000, -1, 1, 1) + struct.pack(E + "7q", 1 << 20, 5, 0, 0, 0, -1, 0) +
                b"\0" * 16 + struct.pack(E + "q", 3)]
        for i, raw in enumerate(lies):
            write(out + ".%d" % i, job(), names([(0x1000, b"/scratch/f")]), {LUSTRE: raw},
                  {LUSTRE: 2})
        write(out + ".%d" % len(lies), job(), names([(0x1000, b"/scratch/f")]),
              {LUSTRE: struct.pack(E + "Qq5q", 0x1000, -1, 1, 1, 0, 1 << 20, 1 << 60)}, {LUSTRE: 1})
    elif kind == "job-bomb":
        write(out, job(tail=b"/apps/prog\n" + b"ext4\t/m\n" * (8 << 20)), names([]), {})
    elif kind == "bad-time":
        write(out, job(start=1 << 62), names([]), {})
    elif kind == "big-rank":
        write(out, job(), names([(7, b"/data/f")]), {POSIX: posix_record(7, (1 << 31) - 1)})
    elif kind == "dxt-hosts":
        n = int(sys.argv[2])
        raw = b"".join(dxt_record(7, 0, b"node%07d" % i) for i in range(n))
        write(out, job(), names([(7, b"/data/f")]), {POSIX: posix_record(7, 0), DXT_POSIX: raw})
    elif kind == "unnamed":
        write(out, job(), names([(7, b"/data/secret-project/f")]),
              {POSIX: posix_record(7, 0) + posix_record(0xDEADBEEFCAFE, 0)})
    else:
        sys.exit("craft-darshan: unknown kind " + kind)


if __name__ == "__main__":
    main()
