"""Issue 25: no stale figure. docs/figures.md is written by the commands that measure
(host_tools/measure/figures.py: `make uf2`, `make dist`, `make bench`); the figures that
are cheap to recompute (the Pico images' size and blocks, the .mpy files' count and
bytes) must be what the files give now, and a rewrite of one section keeps the others.
"""

import os
import shutil

import pytest

from host_tools.commands.uf2 import make_uf2
from host_tools.measure import figures
from support.vdev import REPO

DOC = REPO / "docs" / "figures.md"


def test_a_rewrite_changes_its_own_section_only(tmp_path):
    doc = str(tmp_path / "figures.md")
    figures.rewrite("mpy", figures.table(("what", "n"), [("a", "1")]), doc)
    figures.rewrite("bench", figures.bench_body([("x | y", "2 ms")], 3.0), doc)
    before = open(doc, encoding="utf-8").read()
    assert before.startswith(figures.HEAD)
    figures.rewrite("mpy", figures.table(("what", "n"), [("a", "5")]), doc)
    after = open(doc, encoding="utf-8").read()
    assert figures.section("mpy", doc) == [["a", "5"]]
    assert figures.section("bench", doc) == [["x | y", "2 ms"]]  # the `|` survives
    assert after.replace("| a | 5 |", "| a | 1 |") == before
    assert not [n for n in os.listdir(tmp_path) if n != "figures.md"]  # no temporary left


def test_uf2_rows_keep_an_image_not_built_now(tmp_path):
    doc = str(tmp_path / "figures.md")
    image = tmp_path / "scoreboard-pico2.uf2"
    image.write_bytes(make_uf2(bytes(1000)))  # 4 blocks of 256 payload bytes
    figures.rewrite("uf2", figures.uf2_body([str(image)], doc), doc)
    assert figures.section("uf2", doc) == [["scoreboard-pico2.uf2", "2048", "4", "1024"]]
    other = tmp_path / "scoreboard-pico.uf2"
    other.write_bytes(make_uf2(bytes(300)))
    figures.rewrite("uf2", figures.uf2_body([str(other)], doc), doc)
    assert [r[0] for r in figures.section("uf2", doc)] == ["scoreboard-pico.uf2",
                                                           "scoreboard-pico2.uf2"]


def test_the_docs_hold_every_section():
    text = DOC.read_text(encoding="utf-8")
    for name in figures.TITLES:
        assert "<!-- figures:%s -->" % name in text, name
        assert figures.section(name, str(DOC)), name


def test_the_mpy_figures_are_current():
    got = figures.mpy_figures()
    rows = {r[0]: (int(r[1]), int(r[2])) for r in figures.section("mpy", str(DOC))}
    assert rows == {"the whole firmware": got["firmware"],
                    "the core alone (scoreboard/core/)": got["core"]}, (
        "docs/figures.md is stale: python -m host_tools.measure.figures mpy")


def test_the_mpy_figures_do_not_depend_on_the_checkout_path(tmp_path):
    """mpy-cross stores a file's source name in its .mpy: given the absolute path, the
    figures moved with the length of the checkout's path (2 bytes a file per character)."""
    short = tmp_path / "f"
    longer = tmp_path / "a-much-longer-folder-name" / "and-another" / "firmware"
    for dest in (short, longer):
        shutil.copytree(REPO / "firmware", dest,
                        ignore=shutil.ignore_patterns("__pycache__"))
    assert figures.mpy_figures(short) == figures.mpy_figures(longer)


@pytest.mark.needs_build  # the images `make deps` / `make uf2` built into build/pico/
def test_the_uf2_figures_are_current():
    images = sorted((REPO / "build" / "pico").glob("*.uf2"))
    assert images, "build/pico/ has no image: run make deps"
    rows = {r[0]: r[1:] for r in figures.section("uf2", str(DOC))}
    for image in images:
        size, blocks, payload = figures.uf2_figures(str(image))
        assert rows.get(image.name) == ["%d" % size, "%d" % blocks, "%d" % payload], (
            "docs/figures.md is stale for %s: python -m host_tools.measure.figures uf2"
            % image.name)
