"""Shared pytest set-up.

Importing host_tools puts firmware/ (the device code) and host_tools/compat/ (CPython
stand-ins such as `micropython.const`) on sys.path, so tests import the firmware's own
core as `scoreboard.core...`, exactly as the device does. Helpers that run real
MicroPython and the other device tools are in tests/support/mpy.py.
"""

import host_tools  # noqa: F401  (sys.path: firmware/, host_tools/compat/)
import pytest

from support import mpy


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
