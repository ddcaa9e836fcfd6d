"""The net task's parts on CPython (issue 40): MQTT 3.1.1 packets against the standard's
byte layout, the journal outbox over real files,
the state line, the network's settings. The same parts run under MicroPython in
tests/net/test_net_micropython.py (the same script, the same output); the whole task against
a real broker is tests/net/test_net_box.py.
"""

import pytest

from scoreboard.core.words import with_checksum
from scoreboard.files import Files
from scoreboard.net import mqtt
from scoreboard.net.outbox import AHEAD, Outbox, position
from scoreboard.net.state import IDLE, state_line
from scoreboard.net.tcp import address
from scoreboard.settings import broker_of, change, load_secrets, unquote


# -- packets ------------------------------------------------------------------------------

def remaining(data):
    """The standard's remaining length (2.2.3) and the fixed header's size."""
    mult, value, i = 1, 0, 1
    while True:
        b = data[i]
        value += (b & 0x7F) * mult
        i += 1
        if not b & 0x80:
            return value, i
        mult *= 128


def field(data, at):
    n = data[at] << 8 | data[at + 1]
    return bytes(data[at + 2:at + 2 + n]), at + 2 + n


def test_connect_carries_the_will_the_login_and_the_keepalive():
    p = mqtt.Packets()
    data = bytes(p.connect(b"PICOW-1", b"PICOW-1", b"pw", b"sb/PICOW-1/status", b"offline", 20))
    assert data[0] == 0x10
    size, at = remaining(data)
    assert size == len(data) - at
    name, at = field(data, at)
    assert name == b"MQTT" and data[at] == 4  # protocol level 4: MQTT 3.1.1
    # user, password, will retained at QoS 1, will, clean session (3.1.2.3)
    assert data[at + 1] == 0x80 | 0x40 | 0x20 | 0x08 | 0x04 | 0x02
    assert data[at + 2:at + 4] == b"\x00\x14"  # 20 s
    at += 4
    got = []
    for _ in range(5):
        value, at = field(data, at)
        got.append(value)
    assert got == [b"PICOW-1", b"sb/PICOW-1/status", b"offline", b"PICOW-1", b"pw"]
    assert at == len(data)


@pytest.mark.parametrize("size", [0, 1, 100, 127 - 20, 128 - 20, 16383 - 20, 16384 - 20,
                                  70000])
def test_a_publish_is_one_buffer_at_every_remaining_length(size):
    p = mqtt.Packets()
    topic = b"sb/B/j/M1"
    payload = bytes(range(256)) * (size // 256) + bytes(size % 256)
    data = bytes(p.publish(topic, payload, pid=0x1234, retain=True))
    assert data[0] == 0x30 | 0x02 | 0x01  # PUBLISH, QoS 1, retained
    n, at = remaining(data)
    assert n == len(data) - at
    assert mqtt.header(data, len(data)) == (data[0], at, n)
    assert mqtt.header(data, at - 1) is None  # not enough bytes yet
    t, at = field(data, at)
    assert t == topic and data[at:at + 2] == b"\x12\x34" and data[at + 2:] == payload


def test_a_journal_lines_publish_puts_its_number_and_offset_in_front():
    p = mqtt.Packets()
    line = with_checksum("@61250 pot red").encode()
    data = bytes(p.publish(b"sb/B/j/M1", line, pid=7, n=12, off=4096))
    _, at = remaining(data)
    _, at = field(data, at)
    assert data[at + 2:] == b"12 4096 " + line
    assert data[0] & 0x01 == 0  # a line is not retained
    q = bytes(p.publish(b"t", b"x", pid=0))  # QoS 0: no packet id
    assert q == b"\x30\x04\x00\x01tx"


def test_subscribe_puback_ping_and_disconnect_are_laid_out_as_the_standard_says():
    """(Mosquitto reads them all in tests/net/test_net_box.py.)"""
    p = mqtt.Packets()
    data = bytes(p.subscribe(9, (b"sb/B/ack/+", b"sb/B/resend", b"sb/B/cmd")))
    assert data[0] == 0x82
    _, at = remaining(data)
    assert data[at:at + 2] == b"\x00\x09"
    at += 2
    topics = []
    while at < len(data):
        t, at = field(data, at)
        topics.append((t, data[at]))
        at += 1
    assert topics == [(b"sb/B/ack/+", 1), (b"sb/B/resend", 1), (b"sb/B/cmd", 1)]
    assert bytes(p.puback(0xBEEF)) == b"\x40\x02\xbe\xef"
    assert mqtt.PING == b"\xc0\x00" and mqtt.BYE == b"\xe0\x00"


def test_an_incoming_publish_is_read_in_place():
    rx = bytearray(b"\x32\x0f\x00\x06sb/B/c\x00\x05hello")
    kind, hlen, size = mqtt.header(rx, len(rx))
    assert kind == 0x32
    topic, at, pid = mqtt.incoming(rx, hlen, hlen + size)
    assert bytes(topic) == b"sb/B/c" and pid == 5 and bytes(rx[at:hlen + size]) == b"hello"
    with pytest.raises(ValueError):
        mqtt.header(b"\x30\xff\xff\xff\xff\x01", 6)  # five length bytes: not MQTT


def test_the_broker_is_an_address_never_a_name():
    assert address("192.168.1.10") == "192.168.1.10"
    for bad in ("desk.local", "192.168.1", "192.168.1.300", "", "1.2.3.4.5"):
        with pytest.raises(ValueError, match="IPv4 address"):
            address(bad)


# -- the outbox -----------------------------------------------------------------------------

def journal(files, stem, texts):
    data = "".join(with_checksum(t) + "\n" for t in texts).encode()
    with open(files.match_path(stem + ".sbn"), "wb") as f:
        f.write(data)
    return data


def lines_of(box, n=1000):
    out = []
    for _ in range(n):
        item = box.next_line()
        if item is None:
            break
        out.append(item)
    box.done()
    return out


def ack_of(data, n):
    """The desk's ack after committing lines 1..n of `data`."""
    lines = data.split(b"\n")[:n]
    off = sum(len(x) + 1 for x in lines)
    return ("M %d %d %s" % (n, off, lines[-1][-8:].decode())).encode()


def test_the_outbox_sends_what_flash_holds_from_the_desks_ack(tmp_path):
    files = Files(str(tmp_path))
    texts = ["sbn 1", "id M", "@0 frame A"] + ["@%d end" % (i * 1000) for i in range(1, 9)]
    data = journal(files, "M", texts)
    box = Outbox(files, lambda stem: b"sb/B/j/" + stem.encode())
    box.scan("M", len(data))
    sent = lines_of(box)
    assert [n for _, n, _, _ in sent] == list(range(1, 12))
    assert b"".join(line + b"\n" for _, _, _, line in sent) == data
    assert [off for _, _, off, _ in sent] == [data.index(line) for _, _, _, line in sent]
    assert sent[0][0] == b"sb/B/j/M"
    # a new connection: from the desk's acknowledgement on, not from what went out
    assert box.ack(ack_of(data, 4))
    box.restart()
    assert [n for _, n, _, _ in lines_of(box)] == list(range(5, 12))
    # a resend goes back; an ack never does
    assert box.resend(ack_of(data, 2))
    assert [n for _, n, _, _ in lines_of(box)] == list(range(3, 12))
    assert box.ack(ack_of(data, 1)) and box.behind() == 11 - 4


def test_an_ack_the_flash_disagrees_with_is_not_believed(tmp_path):
    files = Files(str(tmp_path))
    data = journal(files, "M", ["sbn 1", "id M", "@0 frame A", "@10 end"])
    box = Outbox(files, lambda stem: stem.encode())
    box.scan("M", len(data))
    wrong = ack_of(data, 3).replace(data.split(b"\n")[2][-8:], b"deadbeef")
    assert not box.ack(wrong) and box.skipped == 1
    assert not box.ack(b"M 3 9999 0a0b0c0d")  # past the end
    assert not box.ack(b"M 3 12")  # not an ack
    assert not box.ack(b"OTHER 0 0 -")  # a journal the box does not send
    assert box.ack(b"M 0 0 -")  # nothing yet: fine
    assert len(lines_of(box)) == 4
    assert position(b"M 2 30 0A0B0C0D") == ("M", 2, 30, "0a0b0c0d")
    assert position(b"M 0 0 -") == ("M", 0, 0, None)
    for bad in (b"M 2 30 -", b"M x 30 0a0b0c0d", b"M 2 30 0a0b0c0", b"\xff 1 2 3"):
        assert position(bad) is None


def test_a_desk_that_does_not_ack_holds_the_box_at_ahead_lines(tmp_path):
    files = Files(str(tmp_path))
    data = journal(files, "M", ["sbn 1"] + ["@%d end" % i for i in range(200)])
    box = Outbox(files, lambda stem: stem.encode())
    box.scan("M", len(data))
    assert len(lines_of(box)) == AHEAD and not box.pending()
    assert box.ack(ack_of(data, 10))
    assert len(lines_of(box)) == 10


def test_the_outbox_takes_the_last_continuation_and_skips_what_was_pulled(tmp_path):
    files = Files(str(tmp_path))
    journal(files, "A", ["sbn 1", "id A"])
    journal(files, "A.2", ["sbn 1", "id A", "# continued"])
    journal(files, "B", ["sbn 1", "id B"])
    files.write_small("matches/B.pulled", "pulled 2026 sha256 00")
    journal(files, "C", ["sbn 1", "id C"])
    box = Outbox(files, lambda stem: stem.encode())
    box.scan("C", 0)  # C in play, nothing flushed yet as far as the box was told
    assert box.order == ["C", "A.2"]
    assert [(t, n) for t, n, _, _ in lines_of(box)] == [(b"A.2", 1), (b"A.2", 2), (b"A.2", 3)]
    box.grew("C", 28)  # the journal's notify after a flush
    assert [(t, n) for t, n, _, _ in lines_of(box)] == [(b"C", 1), (b"C", 2)]


def test_a_line_whose_crc_fails_on_flash_stops_its_journal(tmp_path):
    files = Files(str(tmp_path))
    data = journal(files, "M", ["sbn 1", "id M", "@0 frame A"])
    bad = data.replace(b"frame A", b"frame B")  # its checksum no longer holds
    with open(files.match_path("M.sbn"), "wb") as f:
        f.write(bad)
    box = Outbox(files, lambda stem: stem.encode())
    box.scan("M", len(bad))
    assert [n for _, n, _, _ in lines_of(box)] == [1, 2]
    assert box.stuck == ("M", 3) and not box.pending()


# -- the state line -----------------------------------------------------------------------

def test_the_state_line_says_what_the_tv_shows():
    from scoreboard.core.replay import replay

    m = replay(["sbn 1", "table 4", "game snooker reds=6", "match best-of 3",
                'side A "Ann"', 'side B "Bob" "Cy \\"C\\""', "@0 frame A", "@900 pot red",
                "@2000 pot black"])
    assert state_line(m, "M1", 11) == (b'1 M1 11 4 play 1 0 0 8 0 A 8 2000 "Ann" '
                                       b'"Bob & Cy \\"C\\""')
    assert state_line(None, None, 0) == IDLE == b"1 - 0 - idle"


# -- the settings -----------------------------------------------------------------------------

def test_the_network_settings_go_in_all_or_none_the_passwords_apart(tmp_path):
    files = Files(str(tmp_path))
    values = {"volume": "60"}
    assert unquote("Club%20WiFi%3D%25") == "Club WiFi=%"
    with pytest.raises(ValueError):
        unquote("bad%2")
    assert change(files, values, ["wifi=Club%20WiFi", "broker=10.0.0.2:1884",
                                  "wifi_pass=s3cret%20pw", "mqtt_pass=x"]) == [
        "broker", "mqtt_pass", "wifi", "wifi_pass"]
    assert values == {"volume": "60", "wifi": "Club WiFi", "broker": "10.0.0.2:1884"}
    assert load_secrets(files) == {"wifi_pass": "s3cret pw", "mqtt_pass": "x"}
    settings = (tmp_path / "settings.txt").read_text()
    assert "s3cret" not in settings and "wifi=Club WiFi" in settings
    assert broker_of(values) == ("10.0.0.2", 1884)
    for bad in (["broker=desk.local"], ["wifi=" + "x" * 33], ["wifi_pass=short"],
                ["volume=100"], ["wifi"], ["wifi=a%0Ab"]):
        with pytest.raises(ValueError):
            change(files, values, ["wifi=Other"] + bad)
    assert values["wifi"] == "Club WiFi"  # nothing of a refused change went in
    assert change(files, values, ["broker=", "wifi_pass="]) == ["broker", "wifi_pass"]
    assert "broker" not in values and load_secrets(files) == {"mqtt_pass": "x"}
    assert broker_of(values) is None
