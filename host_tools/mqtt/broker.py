"""A club's MQTT broker: Eclipse Mosquitto (Debian's `mosquitto`), configured in one folder.

    folder/mosquitto.conf   the listener (an address of the desk PC, port 1883), no
                            anonymous clients, persistence on (the retained acks and
                            scores survive a restart), the queues raised
    folder/passwd           one user a box (its box id, e.g. PICOW-3F2A9C01) and the
                            desk's users, hashed by `mosquitto_passwd` (never written
                            in clear, never on a command line)
    folder/acl              who may read and write what (below)
    folder/desk.pw          the desk's password, pages.pw the pages' (mode 0600): what
                            `scoreboard live/desk --mqtt` use (part B)
    folder/data/            Mosquitto's database; folder/mosquitto.log its log
    folder/broker.pid       the running broker (`scoreboard broker run`), for a reload

The ACL (docs/notation.md, "The boxes over MQTT"): a box writes only under its own
`sb/<box>/` (`j/#`, `state`, `status`, `reply`) and reads only its own `ack/#`, `resend`
and `cmd`: `pattern` lines with %u, the user name, which is the box id. The desk reads
and writes all of `sb/#`; the pages (a TV, the stream's overlay) read every box's
`state` and `status`, nothing else. Under MQTT 3.1.1 a publish the ACL forbids is
acknowledged and dropped in silence: a box given another box's id loses its lines that
way, and the desk's acknowledgement by journal offset is what shows it (no ack comes).

`Broker(folder)`: `init(listen, port)` writes it all (an existing folder keeps its users
and passwords), `add_box(box_id)` gives a box a fresh password (returned, for the box
only: `scoreboard setup --wifi` puts it on the box), `reload()` has a running broker read
the users again (SIGHUP), `command()` is the command line that runs it.
"""

import os
import secrets
import shutil
import signal
import subprocess
from pathlib import Path

PORT = 1883
DESK = "desk"
PAGES = "pages"
# Mosquitto's queue per client (3.6 of the measurements: the default 1,000 dropped lines
# of an absent desk while every publish was acknowledged). A box keeps at most 64 lines
# ahead of the desk's acknowledgement (its outbox), so 64 boxes need 4,096: room for more.
MAX_QUEUED = 20000
AUTOSAVE_S = 30  # the database on disk at least this often (the default is 1,800 s)

ACL = """\
# Who may read and write what (written by `scoreboard broker`; docs/notation.md).
# The desk: everything under sb/.
user {desk}
topic readwrite sb/#

# The pages (the room's TV, the stream's overlay): the scores and who is online.
user {pages}
topic read sb/+/state
topic read sb/+/status

# Each box, by its user name (%u: its box id): its own topics only.
pattern write sb/%u/j/#
pattern write sb/%u/state
pattern write sb/%u/status
pattern write sb/%u/reply
pattern read sb/%u/ack/#
pattern read sb/%u/resend
pattern read sb/%u/cmd
"""

CONF = """\
# The club's broker (written by `scoreboard broker`): run it with `scoreboard broker run`.
per_listener_settings false
listener {port} {listen}
allow_anonymous false
password_file {passwd}
acl_file {acl}
persistence true
persistence_location {data}/
autosave_interval {autosave}
max_queued_messages {queued}
max_queued_bytes 0
max_inflight_messages 20
log_dest file {log}
log_type error
log_type warning
log_type notice
log_type information
connection_messages true
"""


class BrokerError(Exception):
    """One line: what is wrong."""


def mosquitto(tool="mosquitto"):
    """The path of Mosquitto's `tool` (Debian puts the broker in /usr/sbin)."""
    found = shutil.which(tool) or shutil.which(tool, path="/usr/sbin:/usr/bin")
    if found is None:
        raise BrokerError("%s is missing: install Debian's mosquitto (make deps does)" % tool)
    return found


def default_folder():
    from platformdirs import user_data_dir

    return Path(user_data_dir("scoreboard")) / "broker"


def check_user(name):
    """A user name the ACL's patterns can hold: a box id's characters only."""
    if not name or len(name) > 64 or not all(c.isalnum() or c in "-_" for c in name) \
            or not name.isascii():
        raise BrokerError("user %r: letters, digits, - and _ only (a box id)" % name)
    return name


class Broker:
    def __init__(self, folder):
        self.folder = Path(folder)
        self.conf = self.folder / "mosquitto.conf"
        self.acl = self.folder / "acl"
        self.passwd = self.folder / "passwd"
        self.data = self.folder / "data"
        self.log = self.folder / "mosquitto.log"
        self.pid = self.folder / "broker.pid"

    def exists(self):
        return self.conf.is_file() and self.passwd.is_file()

    def need(self):
        if not self.exists():
            raise BrokerError("no broker in %s: run `scoreboard broker init` first" % self.folder)

    # -- writing the folder -----------------------------------------------------------
    def init(self, listen="0.0.0.0", port=PORT):
        """Write the configuration, the ACL and the desk's users; a folder made before
        keeps its users (boxes too) and their passwords."""
        if not (0 < int(port) < 65536):
            raise BrokerError("port %s: 1 to 65535" % port)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.data.mkdir(exist_ok=True)
        _write(self.acl, ACL.format(desk=DESK, pages=PAGES))
        _write(self.conf, CONF.format(port=int(port), listen=listen, passwd=self.passwd,
                                      acl=self.acl, data=self.data, log=self.log,
                                      autosave=AUTOSAVE_S, queued=MAX_QUEUED))
        for user in (DESK, PAGES):
            if user not in self.users():
                self.set_password(user, _fresh(), keep=self.folder / (user + ".pw"))
        self._hand_over()

    def users(self):
        try:
            text = self.passwd.read_text(encoding="utf-8")
        except OSError:
            return []
        return [line.split(":", 1)[0] for line in text.splitlines() if ":" in line]

    def set_password(self, user, password, keep=None):
        """Set `user`'s password in the password file, through mosquitto_passwd (the
        password on its standard input, never on its command line); `keep`: also write
        it to that file (mode 0600) for the desk's tools."""
        check_user(user)
        cmd = [mosquitto("mosquitto_passwd")]
        if not self.passwd.is_file():
            cmd.append("-c")
        cmd += [str(self.passwd), user]
        proc = subprocess.run(cmd, input=("%s\n%s\n" % (password, password)).encode(),
                              capture_output=True, timeout=60, check=False)
        if proc.returncode != 0:
            raise BrokerError("mosquitto_passwd failed for %s: %s" % (
                user, proc.stderr.decode(errors="replace").strip().splitlines()[-1:]))
        os.chmod(self.passwd, 0o600)
        if keep is not None:
            _write(keep, password + "\n", 0o600)
        self._hand_over()

    def add_box(self, box_id):
        """A fresh password for box `box_id` (its user), returned for the box alone."""
        self.need()
        password = _fresh()
        self.set_password(box_id, password)
        self.reload()
        return password

    def password(self, user):
        """The kept password of the desk's `user` (desk, pages)."""
        try:
            return (self.folder / (user + ".pw")).read_text(encoding="utf-8").strip()
        except OSError:
            raise BrokerError("no password kept for %s in %s" % (user, self.folder)) from None

    def _hand_over(self):
        """Run as root (a club's service, CI), Mosquitto drops to its own user: the
        folder must be that user's to read and to keep its database in."""
        if os.geteuid() != 0:
            return
        try:
            import pwd

            entry = pwd.getpwnam("mosquitto")
        except (ImportError, KeyError):
            return
        for path in [self.folder, self.data] + [p for p in self.folder.iterdir() if p.is_file()]:
            os.chown(path, entry.pw_uid, entry.pw_gid)

    # -- running it -----------------------------------------------------------------
    def command(self):
        self.need()
        self._reachable()
        return [mosquitto(), "-c", str(self.conf)]

    def _reachable(self):
        """Run as root, Mosquitto reads the folder as its own user: every folder above
        it must let others through (a folder under /root does not)."""
        if os.geteuid() != 0:
            return
        for parent in self.folder.resolve().parents:
            if not parent.stat().st_mode & 0o001:
                raise BrokerError("%s: run as root, Mosquitto reads its folder as the "
                                  "mosquitto user, which may not enter %s: give --dir a "
                                  "folder it can reach (/var/lib/scoreboard-broker)"
                                  % (self.folder, parent))

    def running(self):
        """The pid of the broker `run` started, if it still runs."""
        try:
            pid = int(self.pid.read_text().strip())
            os.kill(pid, 0)
            return pid
        except (OSError, ValueError):
            return None

    def reload(self):
        """Have the running broker read its password file and ACL again (SIGHUP):
        whether one was running."""
        pid = self.running()
        if pid is None:
            return False
        os.kill(pid, signal.SIGHUP)
        return True


def _fresh():
    return secrets.token_urlsafe(18)  # 144 bits


def _write(path, text, mode=0o644):
    """Write `text` to `path` whole (aside, then renamed), with `mode`."""
    path = Path(path)
    tmp = path.with_name(path.name + ".new")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(tmp, mode)
    os.replace(tmp, path)
