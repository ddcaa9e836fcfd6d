"""The screens in Polish and Bulgarian (issue 18 item 4): names in their own scripts,
every fixed text from the language's table, the same bytes under CPython, the
MicroPython unix port and the 32-bit build, equal to tests/screens/NAME.fb, with a PNG
of each for people (the README shows some).

    UPDATE_SCREENS=1 .venv/bin/pytest -q tests/test_i18n_screens.py   # after a change
"""

import os
import sys

import pytest

from host_tools import png
from support import mpy

sys.path.insert(0, str(mpy.REPO / "tests" / "micropython"))

import screens_i18n

SCREENS = mpy.REPO / "tests" / "screens"
SCRIPT = mpy.REPO / "tests" / "micropython" / "screens_i18n.py"
MP32 = mpy.REPO / "build" / "mp32" / "micropython"
UPDATE = os.environ.get("UPDATE_SCREENS") == "1"


@pytest.fixture(scope="module")
def rendered():
    return list(screens_i18n.rendered())


def _png(w, h, data):
    return png.eink_png(data, w, h, 1 if w >= 400 else 3)


def test_the_expected_screens_and_their_pngs(rendered):
    assert len(rendered) == 24
    changed = []
    for name, _, w, h, data in rendered:
        fb = SCREENS / (name + ".fb")
        if UPDATE:
            fb.write_bytes(data)
            (SCREENS / (name + ".png")).write_bytes(_png(w, h, data))
        if not fb.exists() or fb.read_bytes() != data:
            changed.append(name)
        assert (SCREENS / (name + ".png")).read_bytes() == _png(w, h, data), name
    assert not changed, "screens changed: %s" % changed


@pytest.mark.parametrize("interpreter", ["unix", "32-bit"])
def test_the_same_bytes_on_micropython(rendered, tmp_path, interpreter, micropython_bin):
    binary = micropython_bin if interpreter == "unix" else mpy.tool(MP32)
    rc, out = mpy.run_micropython(SCRIPT, tmp_path, interpreter=binary)
    assert rc == 0, out
    assert [line.split()[0] for line in out.splitlines()] == [r[0] for r in rendered]
    differ = [name for name, _, _, _, data in rendered
              if (tmp_path / (name + ".fb")).read_bytes() != data]
    assert not differ, "MicroPython drew different bytes: %s" % differ


def test_the_screens_say_it_in_the_language(rendered):
    """The texts come from the tables: a Polish screen differs from a Bulgarian one of
    the same state, and from the English one (tests/screens/eink-score-snooker.fb)."""
    by = {name: data for name, _, _, _, data in rendered}
    english = (SCREENS / "eink-score-snooker.fb").read_bytes()
    assert by["eink-pl-score-snooker"] != english != by["eink-bg-score-snooker"]
    assert by["eink-pl-score-snooker"] != by["eink-bg-score-snooker"]
