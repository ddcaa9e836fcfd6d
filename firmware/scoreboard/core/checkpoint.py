"""A match's checkpoint: the start of its current segment as one line of text.

The journal (firmware/scoreboard/journal.py) writes one at every `frame` line, so that a
reset replays only the current frame: `Match.restore(header, store, text)` rebuilds the
match from it and the frame's lines are replayed on it. The line is ASCII, has no space
and no line end: `ck1;` then `key=value` fields separated by `;`:

    n      the current frame's number (0 before the first)
    b      who broke it off, 0 (A) or 1 (B), `-` before the first frame
    won    frames won by A and B before it, `A,B`; agg: their points; high: high breaks
    cnt    finished frames that count (restarted ones do not)
    rec    records in the frame store when the segment began (checked on restore)
    st ms el clk sh   the timekeeper's base (timekeeper.py): stamped, last stamp, match
           time, clock settings (`-` for none), shot statistics
"""


def write(m):
    return "ck1;n=%d;b=%s;won=%d,%d;agg=%d,%d;high=%d,%d;cnt=%d;rec=%d;%s" % (
        m.number, "-" if m.breaker is None else "%d" % m.breaker,
        m.won[0], m.won[1], m.agg[0], m.agg[1], m.high[0], m.high[1],
        m.counted, m.base_records, m.time.encode_base())


def read(m, text):
    """Set a fresh match `m` to the segment start that `text` describes; returns m."""
    try:
        fields = _fields(text)
        number = _count(fields["n"])
        breaker = fields["b"]
        if (breaker == "-") != (number == 0) or breaker not in ("-", "0", "1"):
            raise ValueError("bad breaker")
        m.won = _pair(fields["won"])
        m.agg = _pair(fields["agg"], True)
        m.high = _pair(fields["high"])
        m.counted = _count(fields["cnt"])
        records = _count(fields["rec"])
        if len(m.store) != records:
            raise ValueError("the frame store holds %d records, the checkpoint %d" % (
                len(m.store), records))
        m.number = number
        m.breaker = None if number == 0 else int(breaker)
        m.base_records = records
        m.time.decode_base(fields)
        m.fresh_segment()
    except (KeyError, ValueError) as e:
        raise ValueError("bad checkpoint: %s" % e) from None
    return m


def _fields(text):
    parts = text.split(";")
    if parts[0] != "ck1" or " " in text or "\n" in text:
        raise ValueError("not a version 1 checkpoint")
    fields = {}
    for p in parts[1:]:
        eq = p.find("=")
        if eq <= 0:
            raise ValueError("bad field '%s'" % p[:16])
        fields[p[:eq]] = p[eq + 1:]
    return fields


def _count(text, signed=False):
    body = text[1:] if signed and text[:1] == "-" else text
    if not body or len(body) > 12 or any(c < "0" or c > "9" for c in body):
        raise ValueError("bad number '%s'" % text[:16])
    return int(text)


def _pair(text, signed=False):
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError("bad pair '%s'" % text[:16])
    return [_count(parts[0], signed), _count(parts[1], signed)]
