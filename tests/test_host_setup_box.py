"""Issue 24, the host's side: `scoreboard setup` never says "queued" for a match the box
will refuse. Refused in one line naming the row, before anything is written to the box:
a header longer than the box reads (QUEUED_MAX), an id the box holds a journal of, a
column given twice, a table cell that is no table number, two spellings of one table.
Queued files are named by their match id, and never replace what the box holds: a
second draw in the same minute is queued beside the first (the host's ids get a free
`-2`, `-3`...), an id written in the file that is queued already is refused. The
table column goes into the header as `table N`.

The box is the virtual device (the real mpremote, the firmware's own queue reading it).
"""

from datetime import datetime

import pytest

from support.hostfixtures import *  # noqa: F403  (fixtures: flash, device)
from support.hostfixtures import fill_box
from support.vdev import scoreboard
from host_tools.results import draw as setup_cmd  # the draw setup queues
from scoreboard.core.notation import Reader
from scoreboard.files import QUEUED_MAX
from scoreboard.journal import Journal

WHEN = datetime(2026, 12, 5, 18, 30)
DATE = ("--date", "2026-12-05T18:30")
COLUMNS = "table,a,b,game,format\n"
HEADER = 'sbn 1\ngame snooker\nmatch best-of 3\nside A "Ann"\nside B "Bob"\n'


def one_line(rc, out, err, start):
    text = (out + err).strip()
    assert rc != 0 and len(text.splitlines()) == 1 and text.startswith(start), text
    assert "Traceback" not in text
    return text


def refused(text, source="draw.csv"):
    with pytest.raises(setup_cmd.SetupError) as e:
        setup_cmd.from_csv(text, "DESK", WHEN, source)
    return str(e.value)


def header_of(lines):
    reader = Reader()
    for line in lines:
        assert reader.feed(line) is None
    reader.finish()
    return reader.header


def queued_files(flash):
    q = flash / "queue"
    return sorted(p.name for p in q.iterdir()) if q.is_dir() else []


# -- the header must fit what the box reads -----------------------------------------------
def _draw_with_name(length):
    return COLUMNS + "1,%s,Bob,snooker,best-of 3\n" % ("A" * length)


def test_a_header_longer_than_the_box_reads_is_refused_with_its_row():
    why = refused(_draw_with_name(4100))
    assert why.startswith("draw.csv row 2: the header is 4,2"), why
    assert why.endswith(" bytes, over the 4,096 the box reads: shorten the names"), why
    # The longest name that fits is queued, and the box's own queue reads it.
    base = len(("\n".join(setup_cmd.from_csv(_draw_with_name(1), "DESK", WHEN)[0][1])
                + "\n").encode())
    _, lines = setup_cmd.from_csv(_draw_with_name(QUEUED_MAX - base + 1), "DESK", WHEN)[0]
    assert len(("\n".join(lines) + "\n").encode()) == QUEUED_MAX
    assert refused(_draw_with_name(QUEUED_MAX - base + 2)).startswith("draw.csv row 2: ")


def test_a_long_name_never_reaches_the_box(flash, device, tmp_path):
    draw = tmp_path / "draw.csv"
    draw.write_text(_draw_with_name(4100), encoding="utf-8")
    rc, out, err = scoreboard("setup", "--port", device.port, draw)
    one_line(rc, out, err, "setup: draw.csv row 2: the header is ")
    assert queued_files(flash) == []


def test_a_long_sbn_header_is_refused_too(tmp_path):
    text = HEADER.replace('"Ann"', '"%s"' % ("Ł" * 2100))
    with pytest.raises(setup_cmd.SetupError) as e:
        setup_cmd.from_sbn(text, "DESK", WHEN, "final.sbn")
    assert str(e.value).startswith("final.sbn: the header is 4,3")


# -- ids the box holds already --------------------------------------------------------------
def test_an_id_the_box_has_a_journal_of_is_refused(flash, device, tmp_path):
    fill_box(flash, 1, prefix="CLUB")  # matches/CLUB-0001.sbn
    own = tmp_path / "final.sbn"
    own.write_text(HEADER.replace("sbn 1\n", "sbn 1\nid CLUB-0001\n"), encoding="utf-8")
    rc, out, err = scoreboard("setup", "--port", device.port, own)
    one_line(rc, out, err, "setup: final.sbn: match id CLUB-0001 is already on the box "
                           "(matches/CLUB-0001.sbn): the box would not start it")
    assert queued_files(flash) == []
    # A continuation is the match too. An id the desk made itself (a CSV row's, from the
    # minute and the row) that a started match already has takes the next free one
    # (round 5's N15: two setups in one minute, the first match started between them).
    (flash / "matches" / "DESK-2612051830-4-02.2.sbn").write_bytes(b"")
    draw = tmp_path / "draw.csv"
    draw.write_text(COLUMNS + "3,Ann,Bob,snooker,best-of 3\n4,Cy,Di,snooker,best-of 3\n",
                    encoding="utf-8")
    rc, out, err = scoreboard("setup", "--port", device.port, *DATE, draw)
    assert rc == 0, err
    assert queued_files(flash) == ["DESK-2612051830-3-01.sbn", "DESK-2612051830-4-02-2.sbn"]


def test_a_second_draw_in_the_same_minute_is_queued_beside_the_first(flash, device,
                                                                        tmp_path):
    draw = tmp_path / "draw.csv"
    draw.write_text(COLUMNS + "3,Ann,Bob,snooker,best-of 3\n4,Cy,Di,snooker,best-of 3\n",
                    encoding="utf-8")
    rc, out, err = scoreboard("setup", "--port", device.port, *DATE, draw)
    assert rc == 0, err
    first = queued_files(flash)
    assert first == ["DESK-2612051830-3-01.sbn", "DESK-2612051830-4-02.sbn"]
    kept = {n: (flash / "queue" / n).read_bytes() for n in first}
    draw.write_text(COLUMNS + "3,Ed,Flo,snooker,best-of 3\n4,Gus,Hal,snooker,best-of 3\n",
                    encoding="utf-8")
    rc, out, err = scoreboard("setup", "--port", device.port, *DATE, draw)
    assert rc == 0, err
    assert out.strip().splitlines()[-1] == "setup: 2 matches queued"
    assert queued_files(flash) == sorted([*first, "DESK-2612051830-3-01-2.sbn",
                                          "DESK-2612051830-4-02-2.sbn"])
    for n, data in kept.items():
        assert (flash / "queue" / n).read_bytes() == data, "the first draw kept"
    box = Journal(str(flash), "PICO-3F2A")
    ids = [box.queue.header_of(n).id for n in box.queue.names()]
    assert sorted(ids) == sorted(n[:-4] for n in queued_files(flash)), "named by their ids"
    assert box.queue.header_of("DESK-2612051830-3-01-2").sides == [("Ed",), ("Flo",)]


def test_an_id_written_in_the_file_and_queued_already_is_refused(flash, device, tmp_path):
    own = tmp_path / "final.sbn"
    own.write_text(HEADER.replace("sbn 1\n", "sbn 1\nid CLUB-7\n"), encoding="utf-8")
    rc, out, err = scoreboard("setup", "--port", device.port, own)
    assert rc == 0, err
    assert queued_files(flash) == ["CLUB-7.sbn"]
    rc, out, err = scoreboard("setup", "--port", device.port, own)
    one_line(rc, out, err, "setup: final.sbn: match id CLUB-7 is queued on the box already "
                           "(queue/CLUB-7.sbn)")
    # without an id of its own, a header sent twice gets a free one
    plain = tmp_path / "plain.sbn"
    plain.write_text(HEADER, encoding="utf-8")
    for _ in range(2):
        rc, out, err = scoreboard("setup", "--port", device.port, *DATE, plain)
        assert rc == 0, err
    assert queued_files(flash) == ["CLUB-7.sbn", "DESK-2612051830-S-01-2.sbn",
                                   "DESK-2612051830-S-01.sbn"]


# -- the CSV's columns -----------------------------------------------------------------------
@pytest.mark.parametrize("columns, why", [
    ("table,a,b,game,format,a\n", "draw.csv row 1: column a is given twice"),
    ("Table,A,B,game,format,TABLE \n", "draw.csv row 1: column table is given twice"),
    ("table,a,player_a,b,game,format\n",
     "draw.csv row 1: columns a and player_a both name side A: keep one"),
], ids=["a", "table-case", "alias"])
def test_a_column_given_twice_is_refused_naming_it(columns, why):
    cells = ",".join(["1", "Ann", "Bob", "snooker", "best-of 3", "Cy"])
    assert refused(columns + cells + "\n") == why


def test_empty_column_names_are_no_duplicates():
    """Excel's trailing separators: empty column names, empty cells."""
    out = setup_cmd.from_csv("table,a,b,game,format,,\n1,Ann,Bob,snooker,best-of 3,,\n",
                             "DESK", WHEN)
    assert len(out) == 1


# -- tables -------------------------------------------------------------------------------
def test_the_table_column_is_the_header_word_and_the_ids_table():
    out = setup_cmd.from_csv(COLUMNS + "Stół 3,Ann,Bob,snooker,best-of 3\n"
                             "Table 12,Cy,Di,snooker,best-of 3\n"
                             "Стол 5,Ed,Flo,snooker,best-of 3\n"
                             "7,Gus,Hal,snooker,best-of 3\n", "DESK", WHEN)
    tables = [header_of(lines).table for _, lines in out]
    assert tables == [3, 12, 5, 7]
    assert [name for name, _ in out] == ["DESK-2612051830-3-01", "DESK-2612051830-12-02",
                                         "DESK-2612051830-5-03", "DESK-2612051830-7-04"]
    lines = out[0][1]
    assert lines[:4] == ["sbn 1", "id DESK-2612051830-3-01", "date 2026-12-05T18:30",
                         "table 3"]
    assert header_of(lines).lines() == lines
    # no table column: no table word (the id's table is the row, as before)
    plain = setup_cmd.from_csv("a,b,game,format\nAnn,Bob,snooker,best-of 3\n", "DESK", WHEN)
    assert not any(ln.startswith("table") for ln in plain[0][1])


def test_one_table_in_two_rows_the_same_way_is_two_matches_on_it():
    out = setup_cmd.from_csv(COLUMNS + "Table 1,Ann,Bob,snooker,best-of 3\n"
                             "table 1,Cy,Di,snooker,best-of 3\n", "DESK", WHEN)
    assert [header_of(lines).table for _, lines in out] == [1, 1]


@pytest.mark.parametrize("rows, why", [
    ("Стол 1,Ann,Bob,snooker,best-of 3\n1,Cy,Di,snooker,best-of 3\n",
     ('draw.csv row 3: table "1" is table 1, as "Стол 1" in row 2 is: write a table the '
      "same way in every row")),
    ("Final,Ann,Bob,snooker,best-of 3\n",
     'draw.csv row 2: table "Final": no table number in it (1 to 99, e.g. "Table 3")'),
    ("Table 100,Ann,Bob,snooker,best-of 3\n",
     'draw.csv row 2: table "Table 100": tables are numbered 1 to 99'),
    ("Table 0,Ann,Bob,snooker,best-of 3\n",
     'draw.csv row 2: table "Table 0": tables are numbered 1 to 99'),
    ("3/4,Ann,Bob,snooker,best-of 3\n",
     'draw.csv row 2: table "3/4": two numbers in it, one table a row'),
    ("桌 1,Ann,Bob,snooker,best-of 3\n",
     'draw.csv row 2: table "桌 1": the box has no glyph for "桌"'),
], ids=["two-spellings", "no-number", "100", "0", "two-numbers", "no-glyph"])
def test_a_table_that_is_no_table_number_is_refused(rows, why):
    assert refused(COLUMNS + rows) == why


def test_setup_queues_the_table_word_the_box_reads(flash, device, tmp_path):
    draw = tmp_path / "draw.csv"
    draw.write_text(COLUMNS + "Stół 3,Łukasz,Bob,snooker,best-of 3\n", encoding="utf-8")
    rc, _, err = scoreboard("setup", "--port", device.port, *DATE, draw)
    assert rc == 0, err
    box = Journal(str(flash), "PICO-3F2A")
    assert box.queue.header_of("DESK-2612051830-3-01").table == 3
