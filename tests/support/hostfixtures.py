"""pytest fixtures of the host-tools tests: a box's flash folder, the virtual device on
it, and results databases (a SQLite file, a PostgreSQL server on loopback).

Test modules take the fixtures with `from support.hostfixtures import *` (the names in
`__all__`); the PostgreSQL server is started once per session and emptied for each test.
"""

import pytest

from support import pgserver
from support.vdev import VirtualDevice, journal_match, match_lines

__all__ = ["db_url", "device", "flash", "pg_server"]


@pytest.fixture(scope="session")
def pg_server():
    server = pgserver.Server()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A results database URL, once for SQLite and once for the PostgreSQL server."""
    if request.param == "sqlite":
        return str(tmp_path / "results.sqlite")
    server = request.getfixturevalue("pg_server")
    server.reset()
    return server.url()


@pytest.fixture
def flash(tmp_path):
    """An empty flash folder for a box."""
    folder = tmp_path / "flash"
    folder.mkdir()
    return folder


def fill_box(flash, count, unfinished=0, prefix="PICO-3F2A", **kw):
    """`count` finished matches (and `unfinished` ones cut short, the last of them the
    box's `current` match) in matches/; their ids."""
    ids = []
    for i in range(count + unfinished):
        match_id = "%s-%04d" % (prefix, i + 1)
        lines = match_lines(match_id, seed=i + 1, **kw)
        if i >= count:
            lines = lines[:len(lines) * 2 // 3]
            (flash / "current").write_text(match_id + "\n")
        journal_match(flash, match_id, lines)
        ids.append(match_id)
    return ids


@pytest.fixture
def device(flash):
    """The virtual device on `flash`, stopped after the test."""
    dev = VirtualDevice(flash)
    yield dev
    dev.stop()
