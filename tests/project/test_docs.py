"""The project's documents are its own: every document the repository names is in it,
and every repository path its documents name exists.

- A `*.md` named anywhere in code, comments, build files or documents must exist,
  relative to the repository's root or to the folder of the file that names it.
- Nothing may point into the workspace beside the repository (a parent folder called
  `shared`), except the one build input the Makefile copies from: its MP_SRC variable,
  the read-only MicroPython source tree, which is a location, not a document.
- README.md, ARCHITECTURE.md, docs/ and hardware/ may name paths of the repository
  (`firmware/...`, `host_tools/...`, `tests/...`, `docs/...`, `hardware/...`), link
  files by relative links, and name modules run as `python -m host_tools....`: each
  must exist, so that a file moved or renamed takes its documents with it.
"""

import glob
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Where code, comments and documents live (generated and installed folders are not
# the project's: build/, .venv/, node_modules/, typings/).
SCANNED_DIRS = ("firmware", "host_tools", "tests", "docs", "hardware", ".ci")
SCANNED_TOP = ("Makefile", "README.md", "ARCHITECTURE.md", "setup.py", "pyproject.toml",
               "MANIFEST.in", "package.json", "pyrightconfig.json", "requirements.txt",
               "requirements-typings.txt")
TEXT_SUFFIXES = {".py", ".md", ".mjs", ".js", ".html", ".css", ".toml", ".txt", ".cfg",
                 ".in", ".json", ".sbn", ".err", ".scad", ""}
# This file spells out the patterns it looks for.
SELF = Path(__file__).resolve()

# `*.md` names that are not references to a document, each with its reason.
NOT_DOCUMENTS = {
    # a URL the simulator's web server must refuse (404): made up on purpose
    ("tests/emulated/test_sim_board.py", "mp/README.md"),
}

MD_NAME = re.compile(r"(?<![\w/.-])((?:\.{1,2}/)*(?:[\w.-]+/)*[\w-]+\.md)\b")
OUTSIDE = re.compile(r"\.\./" + "shared" + r"\b|(?<![\w.-])" + "shared" + "/")
# The one exempt line: the Makefile's MP_SRC, the MicroPython source tree it copies.
MP_SRC_LINE = re.compile(r"^MP_SRC\s*:?=\s*\S+\s*$")
REPO_PATH = re.compile(r"(?<![\w./-])((?:firmware|host_tools|tests|docs|hardware)/[\w./*<>-]*)")
LINK = re.compile(r"\]\(([^)\s]+)\)")
MODULE = re.compile(r"python -m (host_tools(?:\.\w+)+)")


def scanned_files():
    files = [REPO / name for name in SCANNED_TOP if (REPO / name).is_file()]
    for top in SCANNED_DIRS:
        for path in sorted((REPO / top).rglob("*")):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            if path.suffix in TEXT_SUFFIXES and path.resolve() != SELF:
                files.append(path)
    return files


def text_of(path):
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None


def documents():
    """README.md, ARCHITECTURE.md and every Markdown file of docs/ and hardware/."""
    found = [REPO / "README.md", REPO / "ARCHITECTURE.md"]
    for top in ("docs", "hardware"):
        found.extend(sorted((REPO / top).rglob("*.md")))
    return [p for p in found if p.is_file()]


def rel(path):
    return path.relative_to(REPO).as_posix()


def markdown_names():
    """The file names of the repository's own Markdown files."""
    return {p.name for top in SCANNED_DIRS + ("",) for p in (REPO / top).glob("*.md")} | {
        p.name for top in SCANNED_DIRS for p in (REPO / top).rglob("*.md")}


def exists_from(path, name):
    """`name` exists relative to the repository's root or to `path`'s folder; a bare
    name (`keypad.md`, as code joins it to a folder) is one of the repository's files."""
    name = name.split("#")[0]
    if "/" not in name and name in markdown_names():
        return True
    return any((base / name).exists() for base in (REPO, path.parent))


def test_the_scan_sees_the_code_and_the_documents():
    names = {rel(p) for p in scanned_files()}
    for expected in ("Makefile", "README.md", "firmware/scoreboard/core/notation.py",
                     "host_tools/cli.py", "docs/notation.md", "hardware/README.md"):
        assert expected in names
    assert "tests/project/test_docs.py" not in names


def test_every_markdown_file_named_is_in_the_repository():
    missing = []
    for path in scanned_files():
        text = text_of(path)
        if text is None:
            continue
        for m in MD_NAME.finditer(text):
            name = m.group(1)
            if (rel(path), name) in NOT_DOCUMENTS or exists_from(path, name):
                continue
            line = text.count("\n", 0, m.start()) + 1
            missing.append("%s:%d: %s" % (rel(path), line, name))
    assert not missing, "documents named but not in the repository:\n" + "\n".join(missing)


def test_nothing_points_outside_the_repository_but_the_micropython_tree():
    found = []
    for path in scanned_files():
        text = text_of(path)
        if text is None:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            if not OUTSIDE.search(line):
                continue
            if rel(path) == "Makefile" and MP_SRC_LINE.match(line):
                continue
            found.append("%s:%d: %s" % (rel(path), n, line.strip()))
    assert not found, "references outside the repository:\n" + "\n".join(found)


def test_the_makefile_still_names_the_micropython_tree_once():
    lines = (REPO / "Makefile").read_text(encoding="utf-8").splitlines()
    assert sum(1 for line in lines if MP_SRC_LINE.match(line)) == 1


def path_exists(name):
    name = name.rstrip(".")
    if "<" in name or ">" in name or "..." in name:
        return True  # a pattern for the reader (`keys/<family>.py`), not a path
    if "*" in name:
        return bool(glob.glob(str(REPO / name)))
    return (REPO / name).exists()


def test_every_repository_path_the_documents_name_exists():
    missing = []
    for path in documents():
        text = path.read_text(encoding="utf-8")
        for m in REPO_PATH.finditer(text):
            if not path_exists(m.group(1)):
                line = text.count("\n", 0, m.start()) + 1
                missing.append("%s:%d: %s" % (rel(path), line, m.group(1)))
        for m in LINK.finditer(text):
            target = m.group(1)
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a web address, or a place on the same page
            if not (path.parent / target.split("#")[0]).exists():
                line = text.count("\n", 0, m.start()) + 1
                missing.append("%s:%d: link %s" % (rel(path), line, target))
        for m in MODULE.finditer(text):
            parts = m.group(1).split(".")
            base = REPO.joinpath(*parts)
            if not (base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()):
                line = text.count("\n", 0, m.start()) + 1
                missing.append("%s:%d: module %s" % (rel(path), line, m.group(1)))
    assert not missing, "paths the documents name that do not exist:\n" + "\n".join(missing)


@pytest.mark.parametrize("text, bad", [
    ("see NOTES.md for the rules", ["NOTES.md"]),
    ("see [the notation](docs/notation.md)", []),
    ("the parts: hardware/README.md and hardware/keypads.md", ["hardware/keypads.md"]),
    ("(hardware / \"keypad.md\")", []),
])
def test_a_missing_document_is_caught(tmp_path, text, bad):
    f = tmp_path / "x.py"
    f.write_text(text)
    names = [m.group(1) for m in MD_NAME.finditer(text)]
    assert [n for n in names if not exists_from(f, n)] == bad


@pytest.mark.parametrize("line, caught", [
    ("# copied from ../" + "shared/micropython", True),
    ("the tree in " + "shared/" + "RUNTIME", True),
    ("helpers shared by the tests", False),
    ("MP_SRC := ../" + "shared/micropython", True),  # caught; only the Makefile's is exempt
])
def test_a_pointer_outside_is_caught(line, caught):
    assert bool(OUTSIDE.search(line)) == caught


def test_a_path_that_moved_is_caught():
    assert path_exists("firmware/scoreboard/core/vocab.py")
    assert path_exists("hardware/legend-*.svg")
    assert not path_exists("host_tools/sync.py")
    assert not path_exists("docs/nowhere.md")


PYTHON_CLAIM = re.compile(r"Python\W{0,3}\s*(3\.\d+)\W{0,3} or later"
                          r"|python3`? \((3\.\d+) or later")


def test_the_python_the_documents_claim_is_the_one_the_package_requires():
    required = re.search(r'requires-python = ">=(3\.\d+)"',
                         (REPO / "pyproject.toml").read_text()).group(1)
    claims = [(rel(p), a or b) for p in documents()
              for a, b in PYTHON_CLAIM.findall(text_of(p) or "")]
    assert claims, "no document says which Python the desk needs"
    assert all(version == required for _, version in claims), (required, claims)
