"""Shared pytest set-up.

Importing host_tools puts firmware/ (the device code) and host_tools/compat/ (CPython
stand-ins such as `micropython.const`) on sys.path, so tests import the firmware's own
core as `scoreboard.core...`, exactly as the device does. Helpers that run real
MicroPython and the other device tools are in tests/support/mpy.py.
"""

import host_tools  # noqa: F401  (sys.path: firmware/, host_tools/compat/)
import pytest

from support import mpy, tiers


@pytest.fixture(scope="session")
def repo_root():
    """The repository root, as a Path."""
    return mpy.REPO


@pytest.fixture(scope="session")
def scenarios_dir():
    """tests/scenarios/, where the .sbn match files and their expected outputs live."""
    return mpy.SCENARIOS


@pytest.fixture(scope="session")
def micropython_bin():
    """Path of the unix port's `micropython`; fails (never skips) when it is missing."""
    return mpy.tool(mpy.MICROPYTHON)


@pytest.fixture
def browser(tmp_path):
    """Headless Chromium at 1080p, the size the desk's and the room's pictures are made
    at (a file may keep its own: the live pages' at the window's)."""
    from support.room import screen
    from support.simpage import chrome, quit_chrome

    driver = chrome(tmp_path / "downloads")
    screen(driver, 1920, 1080)
    yield driver
    quit_chrome(driver)


def pytest_collection_modifyitems(config, items):
    """The `needs_build` marker, from each test's file and fixtures (support/tiers.py)."""
    for item in items:
        why = tiers.needs_build(item)
        if why and not item.get_closest_marker("needs_build"):
            item.add_marker(pytest.mark.needs_build(why))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    tiers.guard().seen = []


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item):
    """A test that started MicroPython, a build, Node, Chromium, PostgreSQL, ... without
    the needs_build marker errors here, once its fixtures are torn down: `make check`
    would run it and should not."""
    guard = tiers.guard()
    seen, guard.seen = guard.seen or [], None
    if seen and not item.get_closest_marker("needs_build"):
        pytest.fail("%s started %s but is not marked needs_build: add its file to "
                    "NEEDS_BUILD_FILES in tests/support/tiers.py (or move it to a folder "
                    "of NEEDS_BUILD_FOLDERS)"
                    % (item.nodeid, ", ".join(sorted(set(seen)))), pytrace=False)


def pytest_ignore_collect(collection_path, config):
    """Under `-m "not needs_build ..."` (make check) the folders and files listed whole
    (NEEDS_BUILD_FOLDERS, NEEDS_BUILD_FILES) are not even imported: every test in them
    would be deselected, and importing them costs seconds a worker."""
    if tiers.listed(collection_path) and tiers.leaves_out_builds(
            config.getoption("markexpr", "")):
        return True
    return None
