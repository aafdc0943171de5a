#!/usr/bin/env python3
"""craft-darshan — hostile Darshan logs (format 3.41, zlib) for the reader's
tests (t0015), written from the format's documentation:

    craft-darshan.py KIND OUT

KIND:
  job-bomb     a job region that inflates to 64 MiB of mount lines
  bad-time     a start time past what nanoseconds in 63 bits can hold
  big-rank     one POSIX record of rank 2^31 - 1
  dxt-hosts N  N DXT_POSIX file records, each with a host of its own
  unnamed      a POSIX record whose id no name stands for (id 0xdeadbeefcafe),
               beside a named one
"""
import struct
import sys
import zlib

MAGIC = 6567223
POSIX, DXT_POSIX = 1, 10
POSIX_INTS, POSIX_FLOATS = 69, 17


def job(start=1795561618, end=1795561619, jobid=987654, tail=b"/apps/prog arg\next4\t/\n"):
    fixed = struct.pack("<7q", 1000, start, 0, end, 0, 4, jobid)
    meta = b"lib_ver=3.5.0\n".ljust(1024, b"\0")
    return fixed + meta + tail + b"\0"


def posix_record(rid, rank, writes=1, nbytes=100):
    ints = [0] * POSIX_INTS
    ints[0] = 1  # POSIX_OPENS
    ints[4] = writes  # POSIX_WRITES
    ints[15] = nbytes  # POSIX_BYTES_WRITTEN
    floats = [0.0] * POSIX_FLOATS
    floats[9] = 0.001  # POSIX_F_WRITE_TIME
    return struct.pack("<Qq", rid, rank) + struct.pack("<%dq" % POSIX_INTS, *ints) + \
        struct.pack("<%dd" % POSIX_FLOATS, *floats)


def dxt_record(rid, rank, host):
    head = struct.pack("<Qqq", rid, rank, 0) + host.ljust(64, b"\0")[:64] + struct.pack("<qq", 1, 0)
    return head + struct.pack("<qqdd", 0, 100, 0.001, 0.002)


def names(entries):
    return b"".join(struct.pack("<Q", i) + n + b"\0" for i, n in entries)


def write(out, job_raw, names_raw, modules):
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
    struct.pack_into("<q", head, 8, MAGIC)
    struct.pack_into("<QQ", head, 32, noff, nlen)
    for mid, (off, ln) in maps.items():
        struct.pack_into("<QQ", head, 48 + 16 * mid, off, ln)
        struct.pack_into("<I", head, 48 + 16 * 64 + 4 * mid, 4 if mid == POSIX else 1)
    with open(out, "wb") as f:
        f.write(head + body)


def main():
    kind, out = sys.argv[1], sys.argv[-1]
    if kind == "job-bomb":
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
