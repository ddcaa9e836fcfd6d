"""The desk's `--mqtt URL` options said wrong, in one line each (issue 40, part B): no
broker is needed to be told, and nothing is started."""

import socket

import pytest

from host_tools.mqtt.client import MqttError, parse
from support.cli import run as scoreboard


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_url_is_read_with_its_defaults_and_shown_without_its_password():
    a = parse("mqtt://desk:s%40cret@10.0.0.2/PICOW-3F2A9C01")
    assert (a.host, a.port, a.user, a.password, a.box) == (
        "10.0.0.2", 1883, "desk", "s@cret", "PICOW-3F2A9C01")
    assert a.shown() == "mqtt://10.0.0.2:1883/PICOW-3F2A9C01"
    assert parse("mqtt://pages@host:1884").shown() == "mqtt://pages@host:1884"


@pytest.mark.parametrize("url, said", [
    ("http://10.0.0.2", "not an mqtt:// URL"),
    ("mqtt://", "no broker host"),
    ("mqtt://10.0.0.2:99999", "out of range"),
    ("mqtt://10.0.0.2/not a box", "is not a box id"),
    ("mqtt://desk:hunter2@10.0.0.2:x", "mqtt://desk:***@"),
])
def test_a_wrong_url_is_said_with_its_password_masked(url, said):
    with pytest.raises(MqttError, match=said.replace("*", r"\*")) as e:
        parse(url)
    assert "hunter2" not in str(e.value)


def test_live_over_mqtt_needs_a_database_to_store_what_it_acknowledges(tmp_path):
    rc, _out, err = scoreboard("live", "--mqtt", "mqtt://127.0.0.1:1", "--http-port", "0")
    assert rc == 2 and err.strip().splitlines() == [
        ("live: --mqtt: give --db (or --db-file): the lines the desk acknowledges to the "
        "boxes must be stored")]


def test_a_broker_that_is_not_there_is_said_in_one_line(tmp_path):
    (tmp_path / "desk.pw").write_text("pw\n")
    url = "mqtt://127.0.0.1:%d" % free_port()
    rc, _out, err = scoreboard("sync", "--mqtt", url, "--broker-dir", tmp_path, "--db",
                              tmp_path / "r.sqlite")
    assert rc == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith("sync: cannot reach the broker at %s" % url), err
    other = "mqtt://127.0.0.1:%d" % free_port()  # a broker this process has no password for
    rc, _out, err = scoreboard("sync", "--mqtt", other, "--broker-dir", tmp_path / "none",
                              "--db", tmp_path / "r.sqlite")
    assert rc == 2 and "no password kept for desk" in err, err
