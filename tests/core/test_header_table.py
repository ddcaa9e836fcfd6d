"""The table a match is played on (issue 24 item C): the header word `table N`, N a
table number 1..99 (an addition to the notation's header, at most once, header only,
written back by Header.lines(); a header without it stays valid: `header.table` is then
None). The core reads it the same on CPython and MicroPython."""

import pytest

from support import mpy
from scoreboard.core.notation import NotationError, Reader

HEADER = ["sbn 1", "game snooker reds=15", "match best-of 3", 'side A "Ann"', 'side B "Bob"']


def _header(lines):
    r = Reader()
    for text in lines:
        r.feed(text)
    r.finish()
    return r.header


def test_the_table_word_is_read_and_written_back():
    h = _header([HEADER[0], "id CLUB-7", "lang pl", "table 3", *HEADER[1:]])
    assert h.table == 3
    assert h.lines()[:4] == ["sbn 1", "id CLUB-7", "lang pl", "table 3"]
    assert _header(h.lines()).table == 3
    assert _header([*HEADER, "table 99"]).table == 99
    plain = _header(HEADER)  # older headers: no table, still valid
    assert plain.table is None and not any(ln.startswith("table") for ln in plain.lines())


BAD = [
    ([*HEADER, "table 0"], "line 6: number 0 out of range 1..99"),
    ([*HEADER, "table 100"], "line 6: number 100 out of range 1..99"),
    ([*HEADER, "table three"], "line 6: bad number 'three'"),
    ([*HEADER, "table -3"], "line 6: bad number '-3'"),
    ([*HEADER, "table 3", "table 4"], "line 7: 'table' given twice"),
    ([*HEADER, "table"], "line 6: 'table' needs more words"),
    ([*HEADER, "table 3 4"], "line 6: too many words after 'table'"),
    ([*HEADER, "frame A", "table 3"], "line 7: header line 'table' after the first event"),
]
IDS = ["zero", "100", "word", "negative", "twice", "bare", "two", "after-frame"]


@pytest.mark.parametrize("lines, why", BAD, ids=IDS)
def test_a_bad_table_line_is_refused_with_its_reason(lines, why):
    with pytest.raises(NotationError) as e:
        _header(lines)
    assert str(e.value).startswith(why), (str(e.value), why)


SCRIPT = '''
import sys
sys.path.insert(0, %r)
from scoreboard.core.notation import Reader
def header(lines):
    r = Reader()
    for t in lines:
        r.feed(t)
    r.finish()
    return r.header
cases = %r
for lines in cases:
    try:
        h = header(lines)
        print("ok", h.table, "|".join(h.lines()))
    except Exception as e:
        print("no", str(e))
'''


def test_the_table_word_on_micropython(tmp_path):
    cases = [[*HEADER[:1], "table 7", *HEADER[1:]], HEADER] + [lines for lines, _ in BAD]
    script = tmp_path / "table.py"
    script.write_text(SCRIPT % (str(mpy.FIRMWARE), cases))
    rc, out = mpy.run_micropython(script)
    assert rc == 0, out
    lines = out.splitlines()
    assert lines[0] == "ok 7 " + "|".join([HEADER[0], "table 7", *HEADER[1:]])
    assert lines[1] == "ok None " + "|".join(HEADER)
    for line, (_, why) in zip(lines[2:], BAD):
        assert line.startswith("no " + why), (line, why)
    assert len(lines) == 2 + len(BAD)
