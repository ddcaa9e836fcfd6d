"""Issue 14's second attack: a hostile box, a careless club and an impatient referee,
each finding checked against the real parts (the virtual device with the real mpremote,
SQLite, the commands as the desk runs them).

What must hold:
- a `.pulled` mark with bytes that are not UTF-8 is a mark that does not match (the
  journal is taken again and the mark rewritten), never a sync that stops for every
  match on the box; and on the box, the same mark is one that proves nothing when it
  makes room (the match is kept), never the app's error;
- a draw saved by a spreadsheet as it saves one is read: `;` or tab between the cells
  (Excel where the decimal mark is a comma, Excel's "Unicode text"), UTF-16 with its
  byte-order mark; one in a legacy code page (Excel's plain "CSV" on a Polish Windows)
  is refused in one line naming its row and how to save it, never a codec's message;
- an empty `--db` (a shell variable that was not set) is refused in one line, never the
  default database synced into (and the box's matches marked pulled there); nor is a
  URL that names no file (`sqlite:`, `:memory:`), SQLite's database that is gone at
  the end;
"""

import hashlib
import os

import pytest

from support.hostfixtures import *  # noqa: F403  (fixtures: flash, device)
from support.vdev import journal_match, match_lines, scoreboard, stored_ids, sync
from support.boxattack import HEADER, HOST_BOX, both, finished, pulled_mark, tagged


# -- a hostile box ------------------------------------------------------------------------

def test_a_garbage_pulled_mark_does_not_stop_the_sync(flash, device, tmp_path):
    good = journal_match(flash, "GOOD-1", match_lines("GOOD-1", seed=1))
    journal_match(flash, "PULL-1", match_lines("PULL-1", seed=5))
    mark = flash / "matches" / "PULL-1.pulled"
    mark.write_bytes(b"\xff\xfe not a mark\n\x00")
    url = str(tmp_path / "results.sqlite")
    rc, out, err = sync(device.port, url)
    assert rc == 0, out + err
    assert "Traceback" not in err and "UnicodeError" not in err
    assert stored_ids(url) == ["GOOD-1", "PULL-1"]
    # the mark is rewritten as a real one: the next sync takes nothing again
    words = mark.read_text().split()
    assert words[0] == "pulled" and words[2] == "sha256"
    assert words[3] == hashlib.sha256((flash / "matches" / "PULL-1.sbn").read_bytes()
                                      ).hexdigest()
    assert (flash / "matches" / "GOOD-1.pulled").exists() and good.exists()


def test_a_garbage_pulled_mark_on_the_box_proves_nothing_when_it_makes_room(tmp_path):
    from scoreboard.journal import Journal

    head = [*HEADER[:2], "match best-of 1", *HEADER[3:]]

    def prepare(flash):
        m = flash / "matches"
        j = Journal(str(flash), HOST_BOX)
        garbage, _ = finished(j, head)
        (m / (garbage + ".pulled")).write_bytes(b"\xff\xfe sha256 \xc3\n")
        marked, _ = finished(j, head)
        (m / (marked + ".pulled")).write_text(pulled_mark(m / (marked + ".sbn")))

    _, out = both(tmp_path, prepare, ["prune"])
    left = tagged(out, "P")[0].split(" ")[1].split(",")
    first, second = ("%s-%04d" % (HOST_BOX, n) for n in (1, 2))
    assert first + ".sbn" in left, "an unreadable mark proves nothing: the match stays"
    assert not any(n.startswith(second + ".") for n in left), "its hash is the mark's"


# -- a careless club ----------------------------------------------------------------------

DRAW = [["table", "a", "b", "game", "format", "clock"],
        ["1", "Paweł Łuczak", "Zbigniew Świątek", "snooker", "best-of 3", ""],
        ["2", "Ann", "Bob", "nineball", "race-to 5", ""]]


def queued_sides(flash):
    return sorted(line for f in (flash / "queue").glob("*.sbn")
                  for line in f.read_text(encoding="utf-8").splitlines()
                  if line.startswith("side "))


@pytest.mark.parametrize("sep, encoding", [(";", "utf-8-sig"), ("\t", "utf-8"),
                                           ("\t", "utf-16")])
def test_setup_reads_a_draw_as_spreadsheets_save_it(flash, device, tmp_path, sep, encoding):
    draw = tmp_path / "draw.csv"
    draw.write_bytes("".join(sep.join(row) + "\r\n" for row in DRAW).encode(encoding))
    rc, out, err = scoreboard("setup", "--port", device.port, draw)
    assert rc == 0, out + err
    assert out.strip().splitlines()[-1] == "setup: 2 matches queued"
    assert queued_sides(flash) == ['side A "Ann"', 'side A "Paweł Łuczak"',
                                   'side B "Bob"', 'side B "Zbigniew Świątek"']


def test_setup_refuses_a_legacy_code_page_with_its_row_and_the_way_out(tmp_path):
    draw = tmp_path / "draw.csv"
    draw.write_bytes("\r\n".join(",".join(row) for row in DRAW).encode("cp1250"))
    rc, out, err = scoreboard("setup", "--port", str(tmp_path / "ttyACM0"), draw)
    text = (out + err).strip()
    assert rc == 2 and len(text.splitlines()) == 1, text
    assert text.startswith("setup: draw.csv row 2: not UTF-8"), text
    assert "CSV UTF-8" in text and "codec" not in text, text


@pytest.mark.parametrize("command", [["sync", "--port", "PORT"], ["export", "--format", "csv"],
                                     ["report", "GOOD-1"]])
def test_an_empty_db_option_is_refused_not_the_default_database(flash, device, tmp_path,
                                                                  command):
    journal_match(flash, "GOOD-1", match_lines("GOOD-1", seed=1))
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), HOME=str(tmp_path))
    env.pop("SCOREBOARD_DB", None)
    args = [device.port if a == "PORT" else a for a in command]
    for empty in ("", " "):
        rc, out, err = scoreboard(*args, "--db", empty, env=env)
        text = (out + err).strip()
        assert rc == 2 and len(text.splitlines()) == 1, text
        assert text.startswith("%s: --db is empty" % command[0]), text
    assert not (tmp_path / "data").exists(), "nothing made in the default place"
    assert not (flash / "matches" / "GOOD-1.pulled").exists(), "nothing marked pulled"


@pytest.mark.parametrize("url", ["sqlite:", ":memory:", "sqlite::memory:", "sqlite:// "])
def test_a_database_that_would_be_gone_at_the_end_is_refused(flash, device, url):
    journal_match(flash, "GOOD-1", match_lines("GOOD-1", seed=1))
    rc, out, err = sync(device.port, url)
    text = (out + err).strip()
    assert rc == 2 and len(text.splitlines()) == 1, text
    assert text.startswith("sync: bad database URL") and "names no file" in text, text
    assert not (flash / "matches" / "GOOD-1.pulled").exists(), "nothing marked pulled"
