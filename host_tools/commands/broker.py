"""`scoreboard broker [--dir DIR] init|add|run|users`: the club's MQTT broker, the one
the boxes on the Wi-Fi and the desk meet at (Eclipse Mosquitto; host_tools/mqtt/broker.py
says what goes into its folder).

    scoreboard broker init [--listen ADDR] [--port N]   the folder: config, ACL, the
                                                        desk's users (again: keeps the boxes)
    scoreboard broker add BOXID                         a box's user with a fresh password,
                                                        asked for twice (`setup --wifi`
                                                        does this itself, on the box too)
    scoreboard broker users                             the users it knows
    scoreboard broker run                               the broker, until Ctrl-C

DIR defaults to the user's data folder (scoreboard/broker), the folder `scoreboard setup
--wifi --broker` registers a box's password in: a club manager runs `broker init` once,
`setup --wifi ... --broker ...` for each box (USB, once), and `broker run` on the desk
PC (docs/desk.md, "The boxes on the club's Wi-Fi"). No password is ever printed.
"""

import signal
import subprocess
import sys

from host_tools.commands.setup import ask_secret
from host_tools.messages import fail, say
from host_tools.mqtt.broker import PORT, Broker, BrokerError, check_user, default_folder
from host_tools.results.draw import SetupError


def add_parser(sub):
    p = sub.add_parser("broker", help="the club's MQTT broker for the boxes on the Wi-Fi "
                                      "(Mosquitto): its folder, the boxes' users, run it")
    p.add_argument("--dir", default=None, metavar="DIR",
                   help="the broker's folder (default: the user's data folder, "
                        "scoreboard/broker)")
    verbs = p.add_subparsers(dest="verb", required=True)
    init = verbs.add_parser("init", help="write the configuration, the ACL and the desk's "
                                         "users (a folder made before keeps its boxes)")
    init.add_argument("--listen", default="0.0.0.0", metavar="ADDR",
                      help="the address the broker listens on (default all of this PC's)")
    init.add_argument("--port", type=int, default=PORT, help="its TCP port (default 1883)")
    add = verbs.add_parser("add", help="a box's user, its password asked for")
    add.add_argument("box", help="the box id (PICOW-XXXXXXXX: `scoreboard list` shows it)")
    verbs.add_parser("users", help="the users the broker knows")
    verbs.add_parser("run", help="run the broker until Ctrl-C")
    p.set_defaults(run=run)


def run(args):
    broker = Broker(args.dir or default_folder())
    try:
        if args.verb == "init":
            broker.init(args.listen, args.port)
            say("broker: %s written (listening on %s:%d); users: %s" % (
                broker.folder, args.listen, args.port, ", ".join(broker.users())))
            return 0
        if args.verb == "users":
            broker.need()
            for user in broker.users():
                say(user)
            return 0
        if args.verb == "add":
            broker.need()
            box = check_user(args.box)
            password = ask_secret("the broker password for %s: " % box, twice=True)
            if not password:
                fail("broker", "no password given: nothing changed")
                return 2
            broker.set_password(box, password)
            reloaded = broker.reload()
            say("broker: %s added%s" % (box, " (the running broker reloaded)" if reloaded
                                        else ""))
            return 0
        return _run(broker)
    except (BrokerError, SetupError) as e:
        fail("broker", e)
        return 1


def _run(broker):
    """The broker in the foreground, its pid kept for `reload`, until Ctrl-C/SIGTERM."""
    cmd = broker.command()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL)
    broker.pid.write_text("%d\n" % proc.pid)
    say("broker: running (pid %d), log %s; Ctrl-C stops it" % (proc.pid, broker.log))

    def stop(*_):
        proc.terminate()

    signal.signal(signal.SIGTERM, stop)
    try:
        rc = proc.wait()
    except KeyboardInterrupt:
        proc.terminate()
        rc = proc.wait()
    finally:
        try:
            broker.pid.unlink()
        except OSError:
            pass
    if rc not in (0, -signal.SIGTERM):
        fail("broker", "mosquitto stopped with status %d: see %s" % (rc, broker.log))
        return 1
    say("broker: stopped", sys.stdout)
    return 0
