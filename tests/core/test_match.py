"""Match-level behaviour that the JSON does not show: doubles rotation, the frame store,
records on flash, and RAM that does not grow with the match."""

import os

import host_tools  # noqa: F401
from host_tools.measure.matchgen import generate, header
from host_tools.mp.filestore import FileStore
from scoreboard.core.records import decode, encode
from scoreboard.core.replay import replay
from host_tools.mp.replay_json import to_json

DOUBLES = ('sbn 1\ngame snooker\nmatch best-of 3\nside A "A1" "A2"\nside B "B1" "B2"\n'
           "frame A\n")


def _at_table(text):
    m = replay(text.split("\n"))
    f = m.current()
    return m.header.sides[f.striker][f.player()]


def test_doubles_take_visits_in_turn():
    seen = [_at_table(DOUBLES)]
    events = ""
    for _ in range(4):
        events += "end\n"
        seen.append(_at_table(DOUBLES + events))
    assert seen == ["A1", "B1", "A2", "B2", "A1"]


def test_doubles_offender_plays_again_is_the_same_player():
    # A1 ends, B1 fouls, A2 would come in; `again` sends B1 back, then B1 ends: A2 plays.
    assert _at_table(DOUBLES + "end\nfoul 4\nagain\n") == "B1"
    assert _at_table(DOUBLES + "end\nfoul 4\nagain\nend\n") == "A2"


def test_record_lines_round_trip():
    for record in [(1, 0, (75, 12), 0, "potted", (52, 23), (12,)),
                   (2, 1, None, None, "restarted", (), ()),
                   (3, 0, (-18, 4), 1, "won", (), (15, 10))]:
        assert decode(encode(record)) == record


def test_file_store_gives_the_same_report_and_keeps_frames_off_the_heap(tmp_path):
    lines = generate(header("snooker", 9), seed=5)
    in_ram = replay(lines)
    path = os.path.join(str(tmp_path), "frames.txt")
    on_flash = replay(lines, FileStore(path))
    assert to_json(on_flash) == to_json(in_ram)
    with open(path) as f:
        assert len(f.readlines()) == len(list(in_ram.frames())) - 1  # all but the last


def test_ram_holds_only_the_current_frame():
    lines = generate(header("snooker", 35), seed=3)
    m = replay(lines)
    frame_lines = len(lines) - 1 - max(i for i, line in enumerate(lines) if line == "frame")
    assert len(m.events) == frame_lines
    # The segment gives back exactly the frame's events, in order (public iteration).
    from scoreboard.core.notation import format_event
    assert [format_event(e) for e in m.events] == lines[len(lines) - frame_lines:]
