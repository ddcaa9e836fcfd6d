"""The results database on a real PostgreSQL server (started on loopback by the tests):
the same schema and results as SQLite, many boxes into one server, the password from the
URL, PGPASSWORD or ~/.pgpass and never printed (issue 10, point 5).
"""

import json
import os

from support import pgserver
from support.hostfixtures import *  # noqa: F403  (fixtures: flash, device, pg_server)
from support.hostfixtures import fill_box
from support.vdev import VirtualDevice, scoreboard
from host_tools.results.db import open_db
from host_tools.results.db.migrations import LATEST


def env_with(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
    env.update(extra)
    return env


def test_same_results_as_sqlite(flash, device, pg_server, tmp_path):
    pg_server.reset()
    fill_box(flash, 3, unfinished=1, stamps=True)
    lite = str(tmp_path / "r.sqlite")
    assert scoreboard("sync", "--port", device.port, "--db", lite)[0] == 0
    for p in (flash / "matches").glob("*.pulled"):
        p.unlink()
    rc, out, err = scoreboard("sync", "--port", device.port, "--db", pg_server.url())
    assert rc == 0, err
    assert pgserver.PASSWORD not in out + err
    exports = []
    for url in (lite, pg_server.url()):
        rc, out, err = scoreboard("export", "--db", url, "--format", "json")
        assert rc == 0, err
        exports.append(json.loads(out))
    assert exports[0] == exports[1] and len(exports[0]) == 4
    assert pg_server.psql("SELECT MAX(version) FROM schema_version") == [(LATEST,)]
    db = open_db(pg_server.url())
    assert db.counts() == open_db(lite).counts()
    db.close()


def test_many_tables_into_one_server(tmp_path, pg_server):
    pg_server.reset()
    total = 0
    for table, prefix in enumerate(("PICO-0A01", "PICO-0B02", "PICO-0C03")):
        box = tmp_path / ("box%d" % table)
        box.mkdir()
        total += len(fill_box(box, 2 + table, prefix=prefix))
        with VirtualDevice(box) as dev:
            rc, _out, err = scoreboard("sync", "--port", dev.port, "--db", pg_server.url())
            assert rc == 0, err
    assert pg_server.psql("SELECT COUNT(*) FROM matches") == [(total,)]
    assert pg_server.psql("SELECT SUBSTR(id, 1, 9), COUNT(*) FROM matches GROUP BY 1 "
                          "ORDER BY 1") == [("PICO-0A01", 2), ("PICO-0B02", 3),
                                            ("PICO-0C03", 4)]


def test_password_from_pgpassword_and_pgpass(flash, device, pg_server, tmp_path):
    pg_server.reset()
    fill_box(flash, 1)
    bare = pg_server.url(password=False)
    rc, out, err = scoreboard("sync", "--port", device.port, "--db", bare,
                              env=env_with(HOME=str(tmp_path), PGPASSWORD=pgserver.PASSWORD))
    assert rc == 0, err
    assert pgserver.PASSWORD not in out + err
    home = tmp_path / "home"
    home.mkdir()
    pgpass = home / ".pgpass"
    pgpass.write_text("127.0.0.1:%d:%s:%s:%s\n" % (pg_server.port, pgserver.DATABASE,
                                                   pgserver.USER, pgserver.PASSWORD))
    pgpass.chmod(0o600)
    rc, out, err = scoreboard("export", "--db", bare, "--format", "json",
                              env=env_with(HOME=str(home)))
    assert rc == 0, err
    assert [m["id"] for m in json.loads(out)] == ["PICO-3F2A-0001"]


def test_wrong_password_and_no_server_masked(flash, device, pg_server, tmp_path):
    wrong = pg_server.url().replace(pgserver.PASSWORD, "Wr0ng-Pass-1234")
    rc, out, err = scoreboard("sync", "--port", device.port, "--db", wrong,
                              env=env_with(HOME=str(tmp_path)))
    text = (out + err).strip()
    assert rc == 2 and len(text.splitlines()) == 1, text
    assert "Wr0ng-Pass-1234" not in text and pgserver.PASSWORD not in text
    assert ":***@127.0.0.1" in text and "password authentication failed" in text
    port = pgserver.free_port()
    nowhere = "postgresql://u:Top-Secret-99@127.0.0.1:%d/x" % port
    for cmd in (("sync", "--port", device.port), ("export", "--format", "csv"),
                ("report", "X")):
        rc, out, err = scoreboard(*cmd, "--db", nowhere, env=env_with(
            HOME=str(tmp_path), PGPASSWORD="Env-Secret-77"))
        text = (out + err).strip()
        assert rc == 2 and len(text.splitlines()) == 1, text
        assert "Top-Secret-99" not in text and "Env-Secret-77" not in text
        assert "cannot connect to postgresql://u:***@127.0.0.1:%d/x" % port in text


def test_hosts_migrating_one_server_at_once(pg_server):
    import threading
    pg_server.reset()
    errors = []

    def migrate():
        try:
            open_db(pg_server.url()).close()
        except Exception as e:  # the test reports whatever a host got
            errors.append(e)

    hosts = [threading.Thread(target=migrate) for _ in range(4)]
    for h in hosts:
        h.start()
    for h in hosts:
        h.join()
    assert errors == []
    assert pg_server.psql("SELECT version FROM schema_version ORDER BY 1") == [
        (v,) for v in range(1, LATEST + 1)]
