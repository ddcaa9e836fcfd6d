"""Why a serial port cannot be opened, in one line a desk can act on: a missing port
lists the boxes that are there, a permission denial names the group to join, a busy port
names the program that holds it (where the system can tell: /proc on Linux)."""

import errno
import os


def why(port, e):
    """`busy`, or the one line saying why `port` cannot be opened."""
    n = getattr(e, "errno", None)
    text = str(e)
    if n in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EBUSY) or "lock" in text.lower():
        return "busy"
    if n == errno.ENOENT or not os.path.exists(port):
        return missing(port)
    if n in (errno.EACCES, errno.EPERM) or "ermission" in text:
        return permission(port)
    return "cannot open %s: %s" % (port, text.splitlines()[0] if text else e.__class__.__name__)


def missing(port):
    """A missing port, with the boxes that are there."""
    from host_tools.device.ports import auto_ports

    found = [p for p in auto_ports() if p != port]
    if found:
        return "no port %s: the boxes found are on %s (give one with --port)" % (
            port, ", ".join(found))
    return "no port %s, and no box found: plug the box in over USB" % port


def permission(port):
    """A port this user may not open: the group that may."""
    group = "dialout"
    try:
        import grp

        group = grp.getgrgid(os.stat(port).st_gid).gr_name
    except (ImportError, KeyError, OSError):
        pass
    return ("cannot open %s: permission denied; join the `%s` group (sudo usermod -aG %s "
            "$USER, then log in again)" % (port, group, group))


def holders(port):
    """[(pid, command line)] of the processes that have `port` open (Linux: /proc), but
    for the virtual device that serves it (it holds its own pty)."""
    from host_tools.device.ports import servers

    try:
        target = os.path.realpath(port)
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return []
    serving = set(servers(port))
    out = []
    for pid in pids:
        if int(pid) == os.getpid() or int(pid) in serving:
            continue
        try:
            fds = os.listdir("/proc/%s/fd" % pid)
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink("/proc/%s/fd/%s" % (pid, fd)) == target:
                    with open("/proc/%s/cmdline" % pid, "rb") as f:
                        cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
                    out.append((int(pid), cmd.strip()))
                    break
            except OSError:
                continue
    return out


def named(holder):
    if not holder:
        return "another program (which one cannot be told here)"
    pid, cmd = holder[0]
    words = cmd.split()
    name = os.path.basename(words[0]) if words else "?"
    if "scoreboard" in cmd or "host_tools" in cmd:
        sub = [w for w in words[1:] if not w.startswith("-") and "/" not in w and
               w not in ("-m", "host_tools")]
        name = "scoreboard %s" % sub[0] if sub else "scoreboard"
    return "%s (pid %d)" % (name, pid)
