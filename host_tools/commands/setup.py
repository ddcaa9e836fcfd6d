"""`scoreboard setup [--port PORT] FILE`: queue prepared matches on the box.
`scoreboard setup [--port PORT] --wifi SSID --broker HOST[:PORT] [--broker-dir DIR]
[FILE]`: put the box on the club's Wi-Fi too (docs/desk.md, "The boxes on the club's
Wi-Fi"): the Wi-Fi password is asked for (not shown as it is typed; read from standard
input when that is no terminal), the box gets a fresh password of its own on the
club's broker, registered in the broker's folder (`scoreboard broker init` made it;
DIR, default the user's data folder), and the box keeps the four in its settings
(scoreboard/settings.py: the two passwords in a file of their own no request reads).
No password is printed, logged, or written anywhere else. The broker by its IPv4
address: the box asks no DNS server. `--wifi ""` takes the box off the Wi-Fi.

FILE is one `.sbn` header, or a CSV draw with one match per row. CSV columns (a header
row names them; case and order do not matter):

    table     the table: its number 1..99, alone or with a word in letters the box
              draws ("3", "Table 3", "Stół 3"); it goes into the header as `table N`
              and into the match id. A cell with no number, two numbers, one past 99
              or a character the box has no glyph for is refused, and so is one table
              written two ways ("Стол 1" in one row, "1" in another); the same
              spelling in two rows is two matches on that table
    a, b      the side names (also `side_a`/`side_b` or `player_a`/`player_b`; or one
              `players` column "Ann v Bob"); two names a side as "Ann & Cy" (doubles)
    game      snooker | snooker reds=10 | eightball | nineball | tenball | straight
    format    best-of 7 | frames 4 by points | race-to 5 | points 100
    clock     optional: shot=45 warn=10 ext=1x25 ...
    breaks    optional: alternate | winner | loser
    lang      optional: en | pl | bg, the language of the match's event (the header's
              `lang`: the box speaks it for that match); `--lang` gives it to all rows

Each match gets its `id` and `date` from the host: `date` is now (or --date), `id` is
`PREFIX-YYMMDDHHMM-TT-NN` (TT the table's number, or the row's when it names no table;
NN the row), unique per match across the club's boxes.
Each header is checked by the core's reader before anything is sent, and sent as the
core writes it (`Header.lines()`: no byte-order mark, `\n` line ends, no comment or blank
line, `sbn 1` first); the box gets queue/NAME.sbn files (written as NAME.new then
renamed, so a cut never leaves half a header), which its start screen offers. NAME is
the match's id, so the box's listing says which ids it holds: an id the box has a
journal of (matches/ID.sbn, or a continuation) is refused, the box would not start it;
one queued already is never replaced: an id the host made gets a free `-2`, `-3`... (a
second draw in the same minute is queued beside the first), one written in the .sbn
file is refused.

Bounds, checked on the host (the row named): every id passes the box's own check (at
most 40 characters of A-Z a-z 0-9 - _ ., not ending like a continuation `.N`), a
header is at most the box's QUEUED_MAX bytes (a long name would make the box refuse
the file), no CSV column is given twice (nor two names of one, `a` and `player_a`), no
CSV cell holds a line break or another control character (it would become a line of
its own in the header), a quote left open or a cell over the csv module's 131,072
characters is named as such; at most QUEUE_MAX (64) matches are queued on a box,
counting those already there (a queued match costs the box's start screen a file read
and a line of heap at boot), and the headers must fit in the flash's free space.

`scoreboard setup --table N [--port PORT]` (with or without FILE): the box's table, set
once by the desk and kept in the box's settings (the request channel's `table`): the
box shows it on its start screen and says it in its `hello`, so `live` and `desk` know
it as table N whatever USB port it is on (`--table 0`: none). Other boxes that claim
table N already are named (a conflict the desk shows until one is set elsewhere).

The draw and its checks are host_tools/results/draw.py's; this module is the command.
"""

import getpass
import re
import sys
from datetime import datetime
from urllib.parse import quote

from host_tools.commands.options import add_port_option
from host_tools.device.connect import open_box
from host_tools.device.box import BoardError
from host_tools.messages import fail, one_of, say
from host_tools.results.draw import SetupError, free_names, on_the_box, prepare, send
from scoreboard.core.header import LANGS


def add_parser(sub):
    p = sub.add_parser("setup", help="queue prepared matches (a .sbn header or a CSV draw)")
    p.add_argument("file", nargs="?", default=None,
                   help="a .sbn header, or a .csv draw (table, a, b, game, format, clock)")
    p.add_argument("--table", type=int, default=None, metavar="N",
                   help="the table the box stands at (1..99; 0: none), kept on the box")
    add_port_option(p)
    p.add_argument("--prefix", default="DESK",
                   help="first part of the match ids the host sets (default: DESK)")
    p.add_argument("--date", default=None, help="the match date, YYYY-MM-DDTHH:MM (default: now)")
    p.add_argument("--lang", default=None,
                   help="the language of every match's screens on the box: en, pl or bg "
                        "(default: each row's lang column, else the box's own)")
    p.add_argument("--wifi", default=None, metavar="SSID",
                   help="put the box on this Wi-Fi network (its password is asked for); "
                        "with --broker")
    p.add_argument("--broker", default=None, metavar="HOST",
                   help="the club's MQTT broker, its IPv4 address (HOST or HOST:PORT)")
    p.add_argument("--broker-dir", default=None, metavar="DIR",
                   help="the broker's folder, where the box's password is registered "
                        "(default: the user's data folder, as `scoreboard broker`)")
    p.set_defaults(run=run)


def ask_secret(prompt, twice=False, stdin=None):
    """A password from the user, never echoed: getpass on a terminal, else one line of
    standard input (a script's pipe). `twice`: typed again and compared."""
    stdin = stdin or sys.stdin
    if not stdin.isatty():
        return stdin.readline().rstrip("\r\n")
    first = getpass.getpass(prompt)
    if twice and getpass.getpass("again: ") != first:
        raise SetupError("the two passwords differ: nothing changed")
    return first


def check_network(args):
    """SetupError when --wifi and --broker are not what the box can take."""
    if args.wifi is None or args.broker is None:
        raise SetupError("--wifi and --broker go together (--wifi \"\" --broker - takes "
                         "the box off the Wi-Fi)")
    if args.wifi == "":
        return
    host, _, port = args.broker.partition(":")
    parts = host.split(".")
    if len(parts) != 4 or not all(p.isdigit() and int(p) <= 255 for p in parts) or (
            port and not (port.isdigit() and 0 < int(port) < 65536)):
        raise SetupError("--broker %s: the broker's IPv4 address, HOST or HOST:PORT (the "
                         "box asks no DNS server)" % args.broker)
    if len(args.wifi.encode()) > 32:
        raise SetupError("--wifi: a network name is at most 32 bytes")


def network_settings(args, wifi_pass, box_id):
    """The `settings` words for the box (KEY=VALUE, percent-encoded), its broker
    password registered first in the broker's folder."""
    from host_tools.mqtt.broker import Broker, BrokerError, default_folder

    words = ["wifi=" + quote(args.wifi, safe="")]
    if args.wifi == "":
        return words + ["broker=", "wifi_pass=", "mqtt_pass="]
    try:
        mqtt_pass = Broker(args.broker_dir or default_folder()).add_box(box_id)
    except BrokerError as e:
        raise SetupError(str(e)) from None
    return words + ["broker=" + args.broker, "wifi_pass=" + quote(wifi_pass, safe=""),
                    "mqtt_pass=" + quote(mqtt_pass, safe="")]


def set_table(args):
    """`--table N`: the box's table, in its settings. 0 when done, else 1 (said)."""
    from host_tools.device.ports import auto_ports
    from host_tools.live import onbox

    if not 0 <= args.table <= 99:
        fail("setup", "--table %d: a table is numbered 1 to 99 (0: none)" % args.table)
        return 2
    try:
        with open_box(args.port, channel_only=True) as board:
            board.set_table(args.table or None)
            port, box = board.port, board.box_id()
    except BoardError as e:
        fail("setup", e)
        return 1
    say("setup: box %s on %s is %s" % (box, port, "table %d" % args.table if args.table
                                        else "at no table"))
    if args.table:
        for other in auto_ports():
            if other == port:
                continue
            try:
                obox, otable = onbox.identity(other)
            except BoardError:
                continue
            if otable == args.table and obox != box:
                say("setup: box %s on %s claims table %d too: a conflict, neither gets its "
                    "matches until one is set to another table" % (obox, other, args.table),
                    sys.stderr)
    return 0


def run(args):
    if args.file is None and args.table is None and args.wifi is None and args.broker is None:
        fail("setup", "give a .sbn header or a .csv draw to queue, --table N, or --wifi and "
                      "--broker")
        return 2
    if (args.wifi is None) != (args.broker is None):
        fail("setup", "--wifi and --broker go together (--wifi \"\" --broker - takes the "
                      "box off the Wi-Fi)")
        return 2
    if args.table is not None:
        rc = set_table(args)
        if rc:
            return rc
    if args.file is not None:
        rc = _queue(args)
        if rc:
            return rc
    if args.wifi is not None:
        return _network(args)
    return 0


def _network(args):
    """The Wi-Fi and broker settings onto the box: the password asked for before the
    box is opened (no port held while someone types)."""
    try:
        check_network(args)
        wifi_pass = ""
        if args.wifi:
            wifi_pass = ask_secret("the password of the Wi-Fi %s (empty: an open network): "
                                   % args.wifi)
            if wifi_pass and not 8 <= len(wifi_pass) <= 63:
                raise SetupError("a WPA2 password is 8 to 63 characters: nothing changed")
        with open_box(args.port, channel_only=True) as board:
            box = board.box_id()
            now = board.settings(network_settings(args, wifi_pass, box))
        if args.wifi and now.get("wifi") != args.wifi:  # firmware before the Wi-Fi boxes
            raise SetupError("the box's firmware takes no network settings: `scoreboard "
                             "flash --uf2` puts the Pico W image on it first")
    except (BoardError, SetupError) as e:
        fail("setup", e)
        return 1
    if args.wifi:
        say("setup: %s joins %s and the broker at %s" % (box, args.wifi, args.broker))
    else:
        say("setup: %s is off the Wi-Fi" % box)
    return 0


def _queue(args):
    try:
        when = datetime.strptime(args.date, "%Y-%m-%dT%H:%M") if args.date else None
    except ValueError:
        fail("setup", "--date %s: use YYYY-MM-DDTHH:MM" % args.date)
        return 2
    if args.lang is not None and args.lang not in LANGS:
        fail("setup", "--lang %s: the box speaks %s" % (args.lang, one_of(LANGS)))
        return 2
    if not re.fullmatch(r"[A-Za-z0-9_-]+", args.prefix):
        fail("setup", "--prefix: letters, digits, - and _ only")
        return 2
    try:
        queued = prepare(args.file, args.prefix, when, args.lang)
    except SetupError as e:
        fail("setup", e)
        return 2
    try:
        with open_box(args.port) as board:  # a Board gives the box back to its app
            queued = free_names(queued, *on_the_box(board))  # before anything is written
            send(board, queued, out=say)
    except (BoardError, SetupError) as e:
        fail("setup", e)
        return 1
    say("setup: %d match%s queued" % (len(queued), "" if len(queued) == 1 else "es"))
    return 0
