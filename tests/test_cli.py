"""`scoreboard replay` end to end, as a user runs it: both entry points (as processes),
then the summary, the JSON, and errors on stderr with exit code 2 (in this process:
support/cli.py, the same main())."""

import json
import subprocess
import sys

import pytest

from support import cli, mpy

SCENARIO = mpy.SCENARIOS / "snooker-best-of-3.sbn"


def _process(*args):
    proc = subprocess.run(list(args), cwd=str(mpy.REPO), capture_output=True, text=True,
                          check=False)
    return proc.returncode, proc.stdout, proc.stderr


def _run(*args, stdin=""):
    return cli.run("replay", *args, stdin=stdin)


@pytest.mark.heavy  # two interpreters started: the entry points themselves
def test_console_script_and_module_print_the_same_json():
    rc1, out1, _ = _process(str(mpy.BIN / "scoreboard"), "replay", str(SCENARIO), "--json")
    rc2, out2, _ = _process(sys.executable, "-m", "host_tools", "replay", str(SCENARIO),
                            "--json")
    assert rc1 == rc2 == 0
    assert out1 == out2 == _run(str(SCENARIO), "--json")[1]
    report = json.loads(out1)
    assert report["status"] == "finished"
    assert out1.isascii()


def test_summary_names_frames_winners_and_the_match_winner():
    rc, out, _ = _run(str(SCENARIO))
    assert rc == 0
    report = json.loads(_run(str(SCENARIO), "--json")[1])
    for frame in report["frames"]:
        assert "frame %2d" % frame["number"] in out
    winner = report["winner"]
    assert "Match over: %s wins" % winner in out


def test_error_goes_to_stderr_with_exit_2_and_the_line():
    text = 'sbn 1\ngame snooker\nmatch best-of 3\nside A "a"\nside B "b"\nframe\npot blue\n'
    rc, out, err = _run("-", stdin=text)
    assert rc == 2
    assert out == ""
    assert err.strip() == "line 7: ball on is red, not blue"


def test_summary_shows_the_frame_in_play_with_prompts():
    text = ('sbn 1\ngame snooker\nmatch best-of 3\nside A "Ann"\nside B "Bob"\nframe\n'
            + "pot red\npot black\n" * 15 + "pot yellow\npot green\npot brown\npot blue\n")
    rc, out, _ = _run("-", stdin=text)
    assert rc == 0
    assert "At the table: A (Ann)" in out
    assert "score 134-0, break 134" in out
    assert "on pink" in out
    assert "snookers required: 21" in out  # (134 - 13) / max(4, pink 6), rounded up
    assert "prompts: snookers" in out


def _summary_and_report(name):
    path = str(mpy.SCENARIOS / name)
    rc, out, _ = _run(path)
    assert rc == 0
    return out, json.loads(_run(path, "--json")[1])


def test_summary_shows_times_shots_and_the_time_prompt():
    out, report = _summary_and_report("nineball-shot-clock.sbn")
    timing = report["timing"]
    seconds = timing["match_ms"] // 1000
    assert "Time: match 0:%02d:%02d" % (seconds // 60, seconds % 60) in out
    for side in "AB":
        t = timing[side]
        assert "  %s: %d shots, average %.1f s, longest %.1f s" % (
            side, t["shots"], t["average_ms"] / 1000, t["longest_ms"] / 1000) in out
    assert "time" in report["current"]["prompts"]
    assert "prompts: " in out and "time" in out.split("prompts: ")[1]
    assert "High break" not in out  # pool has no breaks to show


def test_straight_pool_summary_shows_points_and_high_run():
    out, report = _summary_and_report("straight-150.sbn")
    score = report["frames"][0]["score"]
    assert "Points %d-%d" % (score["A"], score["B"]) in out
    assert "High run: " in out
