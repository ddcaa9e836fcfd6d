"""The host side speaks it too (issue 18 item 3): `scoreboard setup` takes names in any
script the box draws and refuses, with its row and reason, a name it cannot draw at all
(the firmware's own glyph lookup)."""

from datetime import datetime

import pytest

from host_tools.results import draw as setup_cmd  # the draw setup queues

WHEN = datetime(2026, 11, 29, 18, 3)
DRAW = ("table,a,b,game,format\n"
        "1,Łukasz Wiśniewski,Иван Петров,snooker,best-of 7\n"
        "2,Γιώργος Παπαδόπουλος,Müller Çağlar,nineball,race-to 5\n")


def test_names_in_every_script_the_box_draws_are_queued_as_written():
    out = setup_cmd.from_csv(DRAW, "DESK", WHEN, "draw.csv")
    assert len(out) == 2
    assert 'side A "Łukasz Wiśniewski"' in out[0][1] and 'side B "Иван Петров"' in out[0][1]
    assert 'side A "Γιώργος Παπαδόπουλος"' in out[1][1]


def test_a_name_the_box_cannot_draw_at_all_is_refused_with_its_row():
    bad = DRAW + "3,王小明,Ann,snooker,best-of 3\n"
    with pytest.raises(setup_cmd.SetupError) as e:
        setup_cmd.from_csv(bad, "DESK", WHEN, "draw.csv")
    assert str(e.value) == ('draw.csv row 4: side A name "王小明": the box has no glyph for any '
                            "of its characters (it draws Latin, Greek and Cyrillic letters)")
    # one character it cannot draw among others: queued (drawn with the replacement glyph)
    ok = setup_cmd.from_csv("table,a,b,game,format\n1,Ann 王,Bob,snooker,best-of 3\n", "DESK",
                            WHEN, "draw.csv")
    assert 'side A "Ann 王"' in ok[0][1]
