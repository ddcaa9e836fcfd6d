"""`scoreboard setup --wifi SSID --broker HOST`: a box onto the club's network, once, over
USB, and no password ever shown (issue 40).

The box is the virtual device running the firmware's own main.py (App.run() with the net
task, parked until the settings name a broker); the broker is a real Mosquitto whose
folder `scoreboard broker` wrote. The command runs in a pseudo-terminal, as a club
manager types at it: the Wi-Fi password goes in at getpass's prompt. Then the box joins
(the virtual device has the computer's network: its board has no radio) and its status
is online on the broker, logged in with the password setup made and registered. Neither
password appears in the command's terminal, the box's console, its journal or files
(other than netpass.txt), or the broker's log and folder (the passwords hashed there).
"""

import os
import pty
import select
import threading
import time

from support.mqttbroker import mosquitto  # noqa: F401  (the fixture)
from support.netbox import drain
from support.vdev import PYTHON, REPO, VirtualDevice, journal_match, match_lines

BOX = "HOST-3F2A0001"
WIFI_PASSWORD = "Cl7b-wifi-passw0rd"


def in_a_terminal(args, answers, timeout=120):
    """Run `python -m host_tools ARGS` on a pty; type each of `answers` when the text
    before it has appeared. (exit status, everything the terminal showed)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the pty is its controlling terminal
        os.chdir(str(REPO))
        os.execv(str(PYTHON), [str(PYTHON), "-m", "host_tools", *map(str, args)])
    shown = b""
    deadline = time.monotonic() + timeout
    pending = list(answers)
    status = None
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                data = os.read(fd, 4096)
            except OSError:
                data = b""
            if not data:
                break
            shown += data
        if pending and pending[0][0].encode() in shown:
            os.write(fd, pending.pop(0)[1].encode() + b"\r")
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status = code
    if status is None:
        _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), shown.decode(errors="replace")


def test_setup_puts_the_box_on_the_wifi_and_shows_no_password(tmp_path, mosquitto):  # noqa: F811
    server = mosquitto
    flash = tmp_path / "flash"
    flash.mkdir()
    journal_match(flash, "M0", match_lines("M0"))  # a journal on the box already
    dev = VirtualDevice(flash)
    status = []
    desk = server.client("desk")
    desk.on_message = lambda c, u, m: status.append(m.payload)
    desk.subscribe("sb/%s/status" % BOX, qos=1)
    try:
        rc, shown = in_a_terminal(
            ["setup", "--port", dev.port, "--wifi", "Club WiFi", "--broker",
             "127.0.0.1:%d" % server.port, "--broker-dir", server.broker.folder],
            [("password of the Wi-Fi Club WiFi", WIFI_PASSWORD)])
        assert rc == 0, shown
        assert "setup: %s joins Club WiFi and the broker at 127.0.0.1:%d" % (
            BOX, server.port) in shown
        # The box has its settings; the passwords only in netpass.txt
        settings = (flash / "settings.txt").read_text()
        assert "wifi=Club WiFi\n" in settings and "broker=127.0.0.1:%d" % server.port in settings
        secrets = dict(line.split("=", 1) for line in
                       (flash / "netpass.txt").read_text().splitlines())
        assert secrets["wifi_pass"] == WIFI_PASSWORD
        mqtt_pass = secrets["mqtt_pass"]
        assert len(mqtt_pass) >= 20
        # The box logs in with the password setup registered: the broker says it is there
        deadline = time.monotonic() + 30
        while b"online" not in status and time.monotonic() < deadline:
            time.sleep(0.1)
        assert status and status[-1] == b"online", status
        assert BOX in server.broker.users()
        # Its console, after all that (the echo's frames, the channel's answers)
        console = []
        stop = threading.Event()
        t = threading.Thread(target=drain, args=(dev.port, stop, console), daemon=True)
        t.start()
        time.sleep(1)
        stop.set()
        t.join(2)
    finally:
        desk.loop_stop()
        desk.disconnect()
        dev.stop()
        log = server.log()
        folder_text = b"".join(p.read_bytes() for p in server.broker.folder.rglob("*")
                               if p.is_file())
    for secret in (WIFI_PASSWORD, mqtt_pass):
        assert secret not in shown
        assert secret.encode() not in b"".join(console)
        assert secret not in log
        assert secret.encode() not in folder_text  # the passwd file holds hashes
        for p in flash.rglob("*"):
            if p.is_file() and p.name != "netpass.txt":
                assert secret.encode() not in p.read_bytes(), p
