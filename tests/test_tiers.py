"""Issue 25: `make check`'s tier. A test that starts MicroPython, a build, Node,
Chromium, PostgreSQL or the virtual device carries the needs_build marker (set by
tests/conftest.py from its file or fixtures), and an unmarked one that starts one fails,
so the fast tier never runs what it cannot.
"""

import shutil
import subprocess
import sys

import pytest

from support import tiers
from support.vdev import REPO

TESTS = REPO / "tests"


def test_needs_names_what_a_process_needs():
    assert tiers.needs("/usr/bin/micropython", ["micropython", "x.py"]) == "MicroPython"
    assert tiers.needs(None, ["node", "harness.mjs"]) == "Node"
    assert tiers.needs(None, ["qemu-system-arm", "-M", "mps2-an385"]) == "QEMU"
    assert tiers.needs(None, [str(REPO / "build" / "mp32" / "micropython")]).startswith(
        "MicroPython")
    assert tiers.needs(None, [str(REPO / "build" / "picotool" / "bin" / "x")]).startswith(
        "a build in build/")
    assert tiers.needs(sys.executable, [sys.executable, "-m", "host_tools.device.vdev"]) \
        == "the virtual device"
    assert tiers.needs(None, [sys.executable, "-m", "host_tools", "replay", "a.sbn"]) is None
    assert tiers.needs(None, ["git", "ls-files"]) is None
    assert tiers.needs(None, "ls") is None


def test_make_checks_expression_leaves_the_build_files_uncollected():
    assert tiers.leaves_out_builds("not needs_build and not slow")
    assert tiers.leaves_out_builds("not slow and not needs_build")
    assert not tiers.leaves_out_builds("not slow")
    assert not tiers.leaves_out_builds("not needs_build or slow")
    assert not tiers.leaves_out_builds("")


def test_every_listed_file_exists():
    missing = [n for n in tiers.NEEDS_BUILD_FILES if not (TESTS / n).exists()]
    assert not missing, missing


@pytest.mark.heavy  # a nested pytest session
def test_an_unmarked_test_that_starts_micropython_fails(tmp_path):
    """A nested pytest with this conftest: the unmarked test that starts a program named
    micropython fails, the marked one and the one that starts nothing pass; `-m "not
    needs_build"` deselects the marked one."""
    (tmp_path / "bin").mkdir()
    fake = tmp_path / "bin" / "micropython"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    shutil.copy(TESTS / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_x.py").write_text(
        "import subprocess\nimport pytest\n\n"
        "def test_unmarked():\n    subprocess.run([%r], check=True)\n\n"
        "@pytest.mark.needs_build\n"
        "def test_marked():\n    subprocess.run([%r], check=True)\n\n"
        "def test_plain():\n    subprocess.run(['true'], check=True)\n" % (str(fake), str(fake)))

    def run(*more):
        return subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
             "no:xdist", "-c", str(REPO / "pyproject.toml"), "--rootdir", str(tmp_path),
             *more, str(tmp_path / "test_x.py")], capture_output=True, text=True,
            cwd=str(tmp_path), timeout=120, check=False)

    out = run()
    assert out.returncode == 1, out.stdout[-2000:]
    assert "test_unmarked started MicroPython but is not marked needs_build" in out.stdout
    # Its own call passed: the error is its teardown's.
    assert "3 passed, 1 error in" in out.stdout, out.stdout[-1000:]
    fast = run("-m", "not needs_build")
    assert "2 passed, 1 deselected, 1 error in" in fast.stdout, fast.stdout[-1000:]
