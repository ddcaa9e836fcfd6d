"""Attacking the virtual device (issue 14): device code stays inside its flash folder
(`..`, absolute host paths, symlinks, a `current` that climbs out), the bridge never
drops a byte however slowly the host reads, and `scoreboard device --pty` stopped by
SIGTERM or SIGHUP leaves no MicroPython and no temporary folder behind.

Real parts only: the MicroPython unix port behind the pty, the real mpremote.
"""

import os
import select
import signal
import subprocess
import time

import pytest

from support.hostfixtures import *  # noqa: F403  (fixtures: flash, device)
from support.vdev import PYTHON, REPO, VirtualDevice, app_answers, journal_text, match_lines
from host_tools.device.sync_board import Board
from support.vdev import mpremote
from support.waits import appears, wait_for

# Each probe prints `NAME refused ERRNO` or `NAME LEAK ...`: every one must be refused.
_PROBES = r"""
import os
def t(name, f):
    try:
        r = f()
        print(name, 'LEAK', repr(r)[:60])
    except OSError as e:
        print(name, 'refused', e.errno)
    try:
        os.chdir('/')
    except OSError:
        pass
t('read-up', lambda: open('/../outside/secret.txt').read())
t('read-up-up', lambda: open('/../../%(top)s/outside/secret.txt').read())
t('read-relative', lambda: open('../outside/secret.txt').read())
t('read-abs-host', lambda: open('%(secret)s').read())
t('read-rom-up', lambda: open('/rom/../outside/secret.txt').read())
t('list-up', lambda: os.listdir('/../..'))
t('list-rel', lambda: os.listdir('..'))
t('stat-up', lambda: os.stat('/../outside/secret.txt'))
t('chdir-up', lambda: (os.chdir('..'), os.listdir('')))
t('chdir-deep', lambda: (os.chdir('/matches/../..'), os.listdir('')))
t('write-up', lambda: open('/../written.txt', 'w').write('x'))
t('append-up', lambda: open('matches/../../outside/secret.txt', 'a').write('x'))
t('mkdir-up', lambda: os.mkdir('/../madedir'))
t('rename-out', lambda: os.rename('/inside.txt', '/../moved.txt'))
t('rename-in', lambda: os.rename('/../outside/victim.txt', '/stolen.txt'))
t('remove-up', lambda: os.remove('/../outside/victim.txt'))
t('rmdir-up', lambda: os.rmdir('/../outside/emptydir'))
t('link-file', lambda: open('/link.txt').read())
t('link-file-stat', lambda: os.stat('link.txt'))
t('link-dir-read', lambda: open('/linkdir/secret.txt').read())
t('link-dir-write', lambda: open('/linkdir/new.txt', 'w').write('x'))
t('link-dir-list', lambda: os.listdir('/linkdir'))
t('link-dir-chdir', lambda: (os.chdir('/linkdir'), os.listdir('')))
t('link-deep', lambda: open('/matches/deeplink/secret.txt').read())
print('ROOT', sorted(os.listdir('/')))
print('MATCHES', sorted(os.listdir('/matches')))
print('INSIDE', open('/matches/../inside.txt').read().strip())
os.chdir('matches')
print('CWD', os.getcwd(), open('../inside.txt').read().strip(),
      open('./../inside.txt').read().strip())
os.chdir('/')
print('CWD', os.getcwd())
"""


def _outside(tmp_path):
    out = tmp_path / "outside"
    out.mkdir()
    (out / "secret.txt").write_text("the computer's secret\n")
    (out / "victim.txt").write_text("keep me\n")
    (out / "emptydir").mkdir()
    return out


def test_device_code_is_confined_to_the_flash_folder(tmp_path, flash, device):
    out = _outside(tmp_path)
    (flash / "inside.txt").write_text("on the flash\n")
    (flash / "matches").mkdir(exist_ok=True)
    (flash / "link.txt").symlink_to(out / "secret.txt")
    (flash / "linkdir").symlink_to(out)
    (flash / "matches" / "deeplink").symlink_to(out)
    code = _PROBES % {"top": tmp_path.name, "secret": str(out / "secret.txt")}
    rc, text, err = mpremote(device.port, "exec", code)
    assert rc == 0, err + text
    lines = text.replace("\r", "").splitlines()
    probes = [ln.split() for ln in lines if len(ln.split()) >= 2 and ln.split()[1] in (
        "refused", "LEAK")]
    assert len(probes) == _PROBES.count("\nt('"), text
    leaks = [p for p in probes if p[1] != "refused"]
    assert not leaks, text
    # Nothing outside the folder was read into, written, moved or removed.
    assert "secret" not in text
    assert sorted(p.name for p in out.iterdir()) == ["emptydir", "secret.txt", "victim.txt"]
    assert (out / "secret.txt").read_text() == "the computer's secret\n"
    assert not (tmp_path / "written.txt").exists() and not (tmp_path / "madedir").exists()
    assert not (tmp_path / "moved.txt").exists() and (flash / "inside.txt").exists()
    # Symlinks are not part of the flash: not listed; the folder itself works as before.
    root = next(ln for ln in lines if ln.startswith("ROOT "))
    assert "link" not in root and "'inside.txt'" in root and "'matches'" in root
    assert "deeplink" not in next(ln for ln in lines if ln.startswith("MATCHES "))
    assert "INSIDE on the flash" in lines
    assert [ln for ln in lines if ln.startswith("CWD ")] == [
        "CWD /matches on the flash on the flash", "CWD /"]


def test_a_current_file_naming_a_path_outside_cannot_make_the_firmware_write_there(
        tmp_path, flash):
    """`current` = ../../x: the journal would be matches/../../x.sbn, two levels above
    matches/, i.e. next to the flash folder. A torn journal there would make recovery
    write x.2.sbn beside it and append to it; the app must not reach it at all."""
    outside = tmp_path / "x.sbn"
    torn = journal_text(match_lines("PICO-3F2A-0001")[:12]) + "pot re"
    outside.write_text(torn, encoding="utf-8")
    (flash / "current").write_text("../../x\n")
    before = sorted(p.name for p in tmp_path.iterdir())
    with VirtualDevice(flash) as dev:
        assert appears(flash / "queue")  # the app booted and recovered (or refused)
        # recovery runs right after, before its loop: once that answers, it has done its worst
        assert app_answers(dev.port), "the app never answered after its recovery"
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert outside.read_text(encoding="utf-8") == torn


def _slow_read(board, code, pause=1.0):
    """Run `code` on the board's raw REPL and read its output the way a busy computer
    does: nothing at first (the line fills up), then in small sips."""
    t = board.t
    t.exec_raw_no_follow(code)
    time.sleep(pause)
    fd = t.serial.fileno()
    out = bytearray()
    deadline = time.monotonic() + 60
    while out.count(b"\x04") < 2 and time.monotonic() < deadline:
        if select.select([fd], [], [], 5)[0]:
            out += os.read(fd, 512)
            if len(out) % 65536 < 512:
                time.sleep(0.05)
        else:
            break
    return bytes(out)


def test_the_bridge_never_drops_a_byte_for_a_slow_reader(flash, device):
    board = Board(device.port)
    try:
        lines = 40000  # 400 KB: far more than the pty and the pipe hold
        out = _slow_read(board, "for i in range(%d):\n print('%%08d' %% i)\n" % lines)
    finally:
        board.close()
    body = out.split(b"\x04")[0].replace(b"\r\n", b"\n")
    want = b"".join(b"%08d\n" % i for i in range(lines))
    assert len(body) == len(want) and body == want


def test_mpremote_gets_in_while_the_box_is_still_booting(flash):
    """A Ctrl-C that lands while the interpreter starts (before MicroPython catches
    SIGINT) is delivered once it can be: mpremote never waits for an app that went on."""
    for delay in (0.0, 0.2):
        with VirtualDevice(flash) as dev:
            time.sleep(delay)
            try:
                rc, out, err = mpremote(dev.port, "exec", "print(6 * 7)", timeout=30)
            except subprocess.TimeoutExpired:
                pytest.fail("mpremote hung connecting %.1f s after the start" % delay)
            assert rc == 0 and "42" in out, err


def _children(pid):
    with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
        return [int(p) for p in f.read().split()]


def _gone(pid):
    """Whether process `pid` has ended (a zombie nobody reaped has ended too)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


@pytest.mark.parametrize("sig", [signal.SIGTERM, pytest.param(signal.SIGHUP,
                                                                marks=pytest.mark.slow)])
def test_device_pty_stopped_by_a_signal_leaves_nothing_behind(tmp_path, sig):
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = dict(os.environ, TMPDIR=str(temp))
    proc = subprocess.Popen([str(PYTHON), "-m", "host_tools", "device", "--pty", "--flash",
                             str(tmp_path / "box")], cwd=str(REPO), env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        line = proc.stdout.readline().decode()
        assert line.startswith("port /dev/pts/"), line
        rc, out, err = mpremote(line.split()[1], "exec", "print(6 * 7)")
        assert rc == 0 and "42" in out, err
        children = _children(proc.pid)
        assert children, "no MicroPython behind the port"
        assert [p.name for p in temp.iterdir()], "the device keeps its boot files in TMPDIR"
        proc.send_signal(sig)  # the command alone, as a service manager or a closed
        assert proc.wait(10) == 0  # terminal would: not its process group
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    wait_for(lambda: all(_gone(p) for p in children), 5,
             "MicroPython to end after the signal", every=0.1)
    # No vdev-* folder and no file is left (an empty folder of another tool's may stay).
    assert [p for p in temp.rglob("*") if p.is_file() or p.name.startswith("vdev-")] == []
