"""Hostile input, the same answer on both interpreters (issue 6, points 1 to 4), and the
contract fixes and rule edge cases of point 6.

Each bad file goes through `scoreboard replay` (CPython) and host_tools/mp/replay.py
(MicroPython); both must print the same `line N: why` and exit 2, never a traceback.
"""

import json
import subprocess
import sys

import pytest
from support import mpy
from support.sbn import START, notation_error, state

HEAD = b'sbn 1\ngame snooker\nmatch best-of 3\nside A "Ann"\nside B "Bob"\nframe A\n'
STRAIGHT = b'sbn 1\ngame straight\nmatch points 30\nside A "Ann"\nside B "Bob"\nframe A\n'


def _cli(path, *extra, env=None, stdin=None):
    p = subprocess.run([sys.executable, "-m", "host_tools", "replay", str(path), *extra],
                       capture_output=True, check=False, cwd=str(mpy.REPO), env=env,
                       input=stdin)
    return p.returncode, p.stdout, p.stderr


def _both(tmp_path, data):
    """(rc, text) from CPython's CLI and from MicroPython, which must agree."""
    path = tmp_path / "m.sbn"
    path.write_bytes(data)
    rc, out, err = _cli(path, "--json")
    mp_rc, mp_out = mpy.run_micropython(mpy.REPLAY_SCRIPT, path)
    cp = (out + err).decode("utf-8")
    assert "Traceback" not in cp and "Traceback" not in mp_out
    assert (rc, cp) == (mp_rc, mp_out)
    return rc, cp


# -- 1. line ends and the byte-order mark -----------------------------------------------------
def test_a_lone_cr_is_not_a_line_end(tmp_path):
    rc, text = _both(tmp_path, HEAD + b"pot red\rpot black\nend\n")
    assert rc == 2 and text == "line 7: unknown ball 'red\\x0dpot'\n"


def test_crlf_and_a_bom_are_accepted(tmp_path):
    crlf = (b"\xef\xbb\xbf" + HEAD + b"pot red\npot black\n").replace(b"\n", b"\r\n")
    rc, text = _both(tmp_path, crlf)
    assert rc == 0 and json.loads(text)["current"]["score"] == {"A": 8, "B": 0}


def test_a_bom_later_than_the_first_line_is_an_error(tmp_path):
    rc, text = _both(tmp_path, HEAD + b"\xef\xbb\xbfend\n")
    assert rc == 2 and text.startswith("line 7: unknown word")


def test_standard_input_is_read_as_utf8(tmp_path):
    data = HEAD.replace(b'"Ann"', '"Zoë"'.encode()) + b"pot red\n"
    rc, out, _ = _cli("-", stdin=data, env=_env("PYTHONIOENCODING", "latin-1"))
    assert rc == 0 and "Zoë".encode("latin-1") in out


# -- 2. numbers ----------------------------------------------------------------------------------
@pytest.mark.parametrize("data, why", [
    (STRAIGHT + "score 1\u0663\n".encode(), "line 7: bad number '1\u0663'"),
    ("sbn 0\u0661\n".encode(), "line 1: bad number '0\u0661'"),
    (STRAIGHT + b"score " + b"9" * 5000 + b"\n",
     "line 7: number '9999999999999999...' is too long"),
    (HEAD + b"@600000000 end\n", ("line 7: time stamp @600000000 is past the 536870911 ms "
                                  "(6.2 days) that the match clocks hold")),
    (HEAD.replace(b"frame A", b"clock shot=10000\nframe A"),
     "line 6: clock shot=10000: at most 600 seconds"),
])
def test_numbers_are_ascii_digits_with_a_limit(tmp_path, data, why):
    rc, text = _both(tmp_path, data)
    assert rc == 2 and text == why + "\n"
    assert "invalid literal" not in text and "4300" not in text


# -- 3. bytes that are not UTF-8 -----------------------------------------------------------------
@pytest.mark.parametrize("bad", [b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                                 b"\xe2\x82", b"\xf8\x88\x80\x80\x80", b"\x80"])
def test_bytes_that_are_not_utf8(tmp_path, bad):
    rc, text = _both(tmp_path, HEAD + b"pot red\nend " + bad + b"\nend\n")
    assert rc == 2 and text == "line 8: not UTF-8\n"


def test_control_characters_are_escaped_in_messages(tmp_path):
    rc, text = _both(tmp_path, HEAD + b"pot \x1b[2Jred\x07\n")
    assert rc == 2 and text == "line 7: unknown ball '\\x1b[2Jred\\x07'\n"
    assert "\x1b" not in text


# -- 4. output -----------------------------------------------------------------------------------
def _env(key, value):
    import os
    env = dict(os.environ)
    env[key] = value
    return env


def test_summary_on_a_terminal_that_is_not_utf8(tmp_path):
    path = tmp_path / "m.sbn"
    path.write_bytes(HEAD.replace(b'"Ann"', '"Łukasz 丁"'.encode()) + b"pot red\n")
    rc, out, err = _cli(path, env=_env("PYTHONIOENCODING", "cp1252"))
    assert rc == 0, err
    assert b"?ukasz ? v Bob" in out


def test_a_closed_pipe_ends_quietly(tmp_path):
    path = tmp_path / "m.sbn"
    path.write_bytes(HEAD + b"pot red\n")
    # `true` exits without reading: the summary meets a closed pipe.
    cmd = "%s -m host_tools replay %s | true; echo ${PIPESTATUS[0]}" % (sys.executable, path)
    p = subprocess.run(["bash", "-c", cmd], cwd=str(mpy.REPO), capture_output=True,
                       check=False)
    assert p.stdout == b"0\n" and p.stderr == b"", p.stderr


# -- 6. contract fixes and rule edge cases -------------------------------------------------------
def test_waiting_for_respot_takes_only_the_words_the_contract_lists():
    text = START + "".join(e + "\n" for e in _level_on_black())
    st = state(text)
    cur = st["current"]
    assert cur["score"] == {"A": 60, "B": 60}
    assert cur["striker"] is None and cur["respotted_black"] is True
    assert "respot" in cur["prompts"]
    for word in ("penalty B 4", "concede", "end", "pot black", "foul 7", "suspend"):
        e = notation_error(text + word + "\n")
        assert "re-spotted first" in e.why, word
    for word in ("respot B", "award A other", "restart", "forfeit A retired", "abandon",
                 "clock on shot=30", "go", "undo"):
        state(text + word + "\n")
    after = state(text + "respot B\n")["current"]
    assert after["striker"] == "B" and after["respotted_black"] is True


def _level_on_black():
    """A 15-red frame that ends level on the last black (docs/rules.md's arithmetic)."""
    events = []
    for _ in range(15):  # A fouls for 4 dropping a red, and plays again: B 60, A 0
        events += ["foul 4 red", "again"]
    # The last red went down in a foul: A is on yellow; yellow to pink: A 20.
    events += ["pot yellow", "pot green", "pot brown", "pot blue", "pot pink"]
    # Penalties on B (not at the table) give A 33: A 53; A pots the black: 60-60.
    events += ["penalty B 7"] * 4 + ["penalty B 5", "pot black"]
    return events


def test_aggregate_match_result_holds_the_points(tmp_path):
    head = ('sbn 1\ngame snooker reds=6\nmatch frames 2 by points\nside A "Ann"\n'
            'side B "Bob"\n')
    text = head + "frame A\npot red\npot black\nconcede\nframe\npot red\nconcede\n"
    st = state(text)
    # Frame 1: A makes 8 and concedes (B wins it 0-8 on points); frame 2: B breaks,
    # makes 1 and concedes. On aggregate points A wins 8-1.
    assert st["status"] == "finished" and st["winner"] == "A"
    assert st["result"]["score"] == {"A": 8, "B": 1}
    path = tmp_path / "m.sbn"
    path.write_text(text)
    rc, out, _ = _cli(path)
    assert rc == 0 and b"Aggregate points 8-1" in out


def test_pool_racks_have_null_breaks():
    head = 'sbn 1\ngame nineball\nmatch race-to 2\nside A "Ann"\nside B "Bob"\nframe A\n'
    st = state(head + "rack A\n")
    assert st["frames"][0]["breaks"] is None


def test_summary_says_how_frames_ended_in_referee_words(tmp_path):
    path = tmp_path / "m.sbn"
    path.write_bytes(HEAD + b"pot red\nconcede\nframe\naward A conduct\n")
    rc, out, _ = _cli(path)
    text = out.decode()
    assert rc == 0 and "A conceded" in text and "awarded to A" in text
    assert "won by" not in text
    nine = tmp_path / "n.sbn"
    nine.write_bytes(b'sbn 1\ngame nineball\nmatch race-to 2\nside A "A"\nside B "B"\n'
                     b"frame A\nrack A\n")
    rc, out, _ = _cli(nine)
    assert b"Racks 1-0" in out and b"rack  1  (A breaks)  A won the rack" in out
