"""`make dist` packs only what git tracks (issue 24, point 2): a scratch file left in
firmware/ (or in host_tools/) of a checkout goes neither into the wheel, where `scoreboard
flash` would put it on boards, nor into the sdist.

The repository's setup.py runs on a small git checkout made here (its pyproject.toml, a
firmware and a host_tools of a few files, some tracked, some not): `setup.py build_py`
copies what the wheel would hold, `setup.py egg_info` lists what the sdist would (also
with an earlier build's list naming the untracked files); no wheel is built. Outside a
git checkout (an unpacked sdist) every file there is taken.
"""

import re
import shutil
import subprocess
import sys

from support.vdev import REPO

TRACKED = ["firmware/main.py", "firmware/scoreboard/__init__.py",
           "firmware/scoreboard/core/match.py", "host_tools/__init__.py",
           "host_tools/live/static/tables.html"]
UNTRACKED = ["firmware/scratch.py", "firmware/scoreboard/core/try_this.py",
             "firmware/junk/__init__.py", "host_tools/notes.html", "host_tools/mine.py"]


def pre_pep639(path):
    """pyproject.toml without its PEP 639 licence keys (`license = "MIT"`,
    `license-files`): `setup.py` runs here on the venv's setuptools, which may predate
    them (77); the wheel's own build takes build-system's setuptools, and
    tests/project/test_packaging.py reads the licence from a wheel built that way. Which files
    are packed does not depend on them."""
    text = path.read_text(encoding="utf-8")
    return re.sub(r"^license(-files)? = .*\n", "", text, flags=re.M)


def checkout(root, git=True):
    """A small checkout at `root`: TRACKED added to git (when `git`), UNTRACKED not."""
    root.mkdir()
    for name in ("setup.py", "MANIFEST.in"):
        shutil.copy(REPO / name, root / name)
    (root / "pyproject.toml").write_text(pre_pep639(REPO / "pyproject.toml"))
    (root / "README.md").write_text("A scoreboard.\n")
    for name in TRACKED + UNTRACKED:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text('__version__ = "0.1.0"\n' if name.endswith("__init__.py") else "x\n")
    # What an earlier build left: setuptools adds back every file its list names.
    (root / "scoreboard_host.egg-info").mkdir()
    (root / "scoreboard_host.egg-info" / "SOURCES.txt").write_text("\n".join(UNTRACKED))
    if git:
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        subprocess.run(["git", "add", "setup.py", "pyproject.toml", "MANIFEST.in",
                        "README.md", *TRACKED], cwd=str(root), check=True)
    return root


def setup_py(root, *args):
    proc = subprocess.run([sys.executable, "setup.py", "-q", *args], cwd=str(root),
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]


def wheel_files(root):
    """What `setup.py build_py` puts into the wheel, as paths in the source tree."""
    out = root / "out"
    setup_py(root, "build_py", "--build-lib", str(out))
    inside = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    return {"firmware/" + n[len("host_tools/firmware/"):] if n.startswith(
        "host_tools/firmware/") else n for n in inside}


def sdist_files(root):
    setup_py(root, "egg_info", "--egg-base", str(root))
    text = (root / "scoreboard_host.egg-info" / "SOURCES.txt").read_text()
    return set(text.split())


def test_untracked_files_stay_out_of_the_wheel_and_the_sdist(tmp_path):
    root = checkout(tmp_path / "repo")
    packed = wheel_files(root)
    assert set(TRACKED) <= packed
    assert not packed & set(UNTRACKED), sorted(packed & set(UNTRACKED))
    listed = sdist_files(root)
    assert set(TRACKED) <= listed
    assert not listed & set(UNTRACKED), sorted(listed & set(UNTRACKED))


def test_outside_a_git_checkout_every_file_is_taken(tmp_path):
    root = checkout(tmp_path / "sdist", git=False)  # an sdist unpacked: no git
    packed = wheel_files(root)
    assert set(TRACKED + UNTRACKED) <= packed
