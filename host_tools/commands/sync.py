"""`scoreboard sync [--port PORT] [--db URL] [--mqtt URL]`: pull the box's matches into the
results DB. `--port` may be a box's `mqtt://HOST[:PORT]/BOX` (the box on the club's Wi-Fi,
through the broker); `--mqtt URL` pulls every box online on that broker, one by one.

The arguments and the messages; the pull itself, what it checks and what it marks on
the box, is host_tools/results/sync.py's. A tournament match's journal that is not its
assigned box's is held for the desk: a `held` line names it, both results and why (the
desk decides: `scoreboard tournament decide`). A sync that meets another program on the
port names it (it takes the box's answers), not the cable.
"""

from host_tools.device.connect import crowded, open_box
from host_tools.device.box import BoardError
from host_tools.device.sync_board import GONE
from host_tools.messages import fail, say
from host_tools.commands.options import (add_db_options, add_mqtt_options, add_port_option,
                                         open_chosen)
from host_tools.results.db import DbError
from host_tools.results.sync import SyncError, files_folder, new_ids, pull, stored_lines, summary
from host_tools.tournament import boxresults


def add_parser(sub):
    p = sub.add_parser("sync", help="pull the box's matches into the results database")
    add_port_option(p)
    add_db_options(p)
    p.add_argument("--files", default=None, metavar="DIR",
                   help="also write each pulled match as DIR/ID.sbn (for `scoreboard replay`)")
    p.add_argument("--all", action="store_true",
                   help="also take the matches the box has marked pulled (a new database)")
    p.add_argument("--accept-corrections", action="store_true",
                   help="store a result changed on the box since it was stored as the "
                        "match's next version (else it is refused, naming the change)")
    p.add_argument("--progress", action="store_true",
                   help="draw the progress bar even when stderr is not a terminal")
    add_mqtt_options(p, "pull every box that is online on the club's broker at URL, one "
                        "after the other, instead of the box on --port")
    p.set_defaults(run=run)


def run(args):
    if args.mqtt is None:
        return sync_one(args, args.port)
    from host_tools.device.netbox import online_boxes
    from host_tools.mqtt.client import Connection, MqttError

    try:
        conn = Connection(args.mqtt, broker_dir=args.broker_dir)
    except MqttError as e:
        fail("sync", e)
        return 2
    try:
        boxes = online_boxes(conn)
    finally:
        conn.close()
    if not boxes:
        fail("sync", "no box is online on the broker at %s" % conn.where)
        return 1
    worst = 0
    for box in boxes:
        say("sync: box %s" % box)
        worst = max(worst, sync_one(args, conn.address.shown(box=box)))
    return worst


def sync_one(args, port):
    """`scoreboard sync` of the box on `port` (a serial port, or a box's mqtt:// one)."""
    try:
        files = files_folder(args.files)
        db = open_chosen(args, bracket=boxresults)  # tournament matches into their bracket
    except (DbError, SyncError) as e:
        fail("sync", e)
        return 2
    try:
        board = open_box(port)
    except BoardError as e:
        db.close(keep_new=False)  # a wrong port leaves no empty database behind
        fail("sync", e)
        return 1
    say("sync: database %s" % db.where())
    ids = new_ids()
    try:
        with board:  # the raw REPL's Board gives the box back to its app however it ends
            counts = pull(board, db, files, args.progress, again=args.all,
                          accept=args.accept_corrections, ids=ids)
    except (BoardError, DbError, SyncError) as e:
        tell_stored(ids)
        if str(e) == GONE:  # another program on the port, not the cable
            try:
                crowded(board.port)
            except BoardError as other:
                e = other
        fail("sync", "%s; what was stored is kept and marked, run sync again" % e)
        return 1
    except KeyboardInterrupt:
        tell_stored(ids)
        fail("sync", "interrupted; what was stored is kept and marked, run sync again")
        return 130
    finally:
        db.close()
    tell_stored(ids)
    say("sync: " + summary(counts))
    return 1 if counts["refused"] else 0


def tell_stored(ids):
    for line in stored_lines(ids):
        say("sync: " + line)
