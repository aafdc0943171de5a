# ltrace_args — reading ltrace's output in the tests that take it as ground
# truth (t1017, t1018): a call's argument list split at its top-level commas,
# arrays and structures ("[ 1, 2 ]", "{ ... }") kept whole.
def split(args):
    out, depth, cur = [], 0, ''
    for ch in args:
        depth += ch in '[{'
        depth -= ch in ']}'
        if ch == ',' and not depth:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
    return out + [cur.strip()]
