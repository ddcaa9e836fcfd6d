"""Unicode's line separators and bidirectional controls never reach a terminal raw
(issue 24, point 6).

U+2028 and U+2029 break a line where a terminal or an editor shows one; U+202E (and the
other bidi controls) turn the text after it around, so a name could read as another on
the tournament desk's screen. The one escaping function (the core's `escaped`, behind
host_tools/messages.py's `shown`) shows them as `\\u2028` and so on, as it shows the
C0 and C1 controls as `\\xNN`; the JSON export escapes them too (still lossless). The
names here pass through sync, export (CSV and JSON) and replay.
"""

import json

from host_tools.messages import shown
from scoreboard.core.words import escaped
from support import mpy
from support.hostfixtures import *  # noqa: F403  (fixtures: flash, device)
from support.hostfixtures import fill_box
from support.vdev import scoreboard, sync

HIDDEN = ("\u2028", "\u2029", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066",
          "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c")
NAME = "Ann\u202e\u2066Bob\u2069\u2028x\u2029y\u200f"
SHOWN = "Ann\\u202e\\u2066Bob\\u2069\\u2028x\\u2029y\\u200f"


def raw(text):
    return [c for c in HIDDEN if c in text]


def test_escaped_shows_separators_and_bidi_controls_as_codes():
    for c in HIDDEN:
        assert escaped("a%sb" % c) == "a\\u%04xb" % ord(c)
    assert escaped(NAME) == shown(NAME) == SHOWN
    assert escaped("Ann\x1b\u202e") == "Ann\\x1b\\u202e"
    # Letters of every script stay as they are, joiners too (emoji, Indic scripts).
    for name in ("Zoë Łukasz", "محمد", "עברית", "Иван", "李小龍", "👩\u200d🎤", "क्\u200dष"):
        assert escaped(name) == name


def test_the_box_escapes_them_as_the_host_does(tmp_path):
    path = tmp_path / "m.sbn"
    path.write_bytes(b'sbn 1\ngame snooker\nmatch best-of 3\nside A "A"\nside B "B"\n'
                     b"frame A\npot \xe2\x80\xaered\xe2\x80\xa8\n")
    want = "line 7: unknown ball '\\u202ered\\u2028'\n"
    rc, out, err = scoreboard("replay", path)
    assert (rc, out, err) == (2, "", want)
    assert mpy.run_micropython(mpy.REPLAY_SCRIPT, path) == (2, want)


def test_a_name_with_them_passes_through_the_commands_escaped(flash, device, tmp_path):
    url = str(tmp_path / "r.sqlite")
    fill_box(flash, 1, names=(NAME, "Cy"))
    rc, out, err = sync(device.port, url)
    assert rc == 0 and raw(out + err) == [], repr(out + err)
    rc, out, err = scoreboard("export", "--db", url, "--format", "csv")
    assert rc == 0 and raw(out + err) == [] and SHOWN in out, repr(out)
    rc, out, err = scoreboard("export", "--db", url, "--format", "json")
    assert rc == 0 and raw(out + err) == [], repr(out)
    assert json.loads(out)[0]["sides"]["A"] == NAME  # JSON's escapes lose nothing
    journal = next((flash / "matches").glob("*.sbn"))
    rc, out, err = scoreboard("replay", journal)
    assert rc == 0 and raw(out + err) == [] and out.startswith(SHOWN + " v Cy\n"), out
