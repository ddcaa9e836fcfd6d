"""Opening a box for a desk command: one owner per port, the request channel first.

`open_box(port)` gives what `sync`, `setup` (and `live`'s catch-up) work with:

1. a port that `scoreboard live` follows is reached through it (device/owner.py): the
   request goes down live's own connection, queued behind whatever live asks;
2. else the port is opened here, exclusively. One held by another `scoreboard` command
   is waited for (two commands on one box are queued, never interleaved); one held by
   another program is named with that program;
3. the box is asked `hello` on its request channel: it answers while it plays, and
   nothing stops its app (device/channel.py's ChannelBox);
4. a box that does not answer (firmware from before the channel, or an app that is not
   running) is opened on its raw REPL (sync_board.Board, which stops and then restarts
   its app); firmware without the channel is named in one line with the way to update it.
   Unless another program has the port open too (a terminal, an IDE: it takes the box's
   answers and mixes its bytes into the requests): that program is named, and the box is
   left alone (`crowded`), never blamed on the cable.

A port `mqtt://HOST[:PORT]/BOX` is a box on the club's Wi-Fi, reached through the broker
(host_tools/device/netbox.py: the request channel over MQTT).

`call_box(port, ID)`: the desk's call (`called`) on the box, the channel only.

Every failure is a BoardError of one line: a missing port lists the boxes found, a port
the user may not open names the group to join.
"""

import sys
import time

import serial

from host_tools.device.channel import Channel, ChannelBox, NoAnswer, SerialPipe
from host_tools.device.port_errors import holders, named, why
from host_tools.device.box import BoardError
from host_tools.device.sync_board import Board, find_port
from host_tools.mqtt.client import is_mqtt

WAIT = 120.0  # seconds a command waits for another scoreboard command on the same port
BAUD = 115200


def open_box(port, warn=None, wait=WAIT, channel_only=False):
    """A ChannelBox or a Board for `port` (`auto`: the first box found); see above."""
    from host_tools.device import owner

    warn = warn or (lambda text: print(text, file=sys.stderr))
    if is_mqtt(port):  # a box on the club's Wi-Fi, through the broker
        from host_tools.device.netbox import open_net_box

        return open_net_box(port, warn)
    port = find_port(port)
    relay = owner.connect(port)
    if relay is not None:
        return ChannelBox(Channel(relay), port, warn=warn)
    ser = open_serial(port, warn, wait)
    try:
        return ChannelBox(Channel(SerialPipe(ser)), port, warn=warn)
    except NoAnswer:
        ser.close()
        crowded(port)
    except BoardError:
        ser.close()
        crowded(port)
        raise
    except BaseException:
        ser.close()
        raise
    if channel_only:
        raise BoardError("%s: the box does not answer on its request channel" % port)
    board = Board(port, warn=warn)
    try:
        has = board.eval(_HAS_CHANNEL)
    except BoardError:
        has = False
    if not has:
        warn("the box on %s has firmware without the request channel: its app stops "
             "while the desk reads it; `scoreboard flash --port %s` updates it" % (port, port))
    return board


def call_box(port, mid, warn=None):
    """The desk's call of match `mid` on the box on `port` (`scoreboard tournament call
    --port`, the desk page's Call), by the usual route (the port's owner, else the port),
    on the request channel only: the raw REPL would stop the app the call is for. What
    the box did, in words (`the box on PORT started ID with the call (late start M
    min)`); BoardError of one line when it is not reached or refuses."""
    with open_box(port, warn=warn or (lambda text: None), channel_only=True) as box:
        return "the box on %s %s" % (box.port, box.called(mid))


def crowded(port):
    """BoardError naming the other program that has `port` open, when one has (its reads
    take the box's answers, its writes garble the requests); else nothing."""
    others = [h for h in holders(port) if "scoreboard" not in h[1] and "host_tools" not in h[1]]
    if others:
        raise BoardError("another program has %s open: %s; it takes the box's answers and "
                         "mixes its bytes into the desk's requests: close it (a terminal, "
                         "Thonny, screen) and try again; the box plays on" % (
                             port, named(others)))


# Whether the board's firmware has the request channel (a frozen or copied module).
_HAS_CHANNEL = "bool(__import__('scoreboard.channel'))"


def open_serial(port, warn, wait=WAIT):
    """The port opened exclusively; waits for another scoreboard command that holds it."""
    deadline = time.monotonic() + wait
    told = False
    while True:
        try:
            return serial.Serial(port, BAUD, timeout=0.1, exclusive=True)
        except (serial.SerialException, OSError) as e:
            kind = why(port, e)
            if kind != "busy":
                raise BoardError(kind) from None
            holder = holders(port)
            ours = [h for h in holder if "scoreboard" in h[1] or "host_tools" in h[1]]
            if (holder and not ours) or time.monotonic() >= deadline:
                raise BoardError("%s is busy: %s" % (port, named(holder))) from None
            if not told:
                warn("%s is in use by %s: waiting for it" % (port, named(holder)))
                told = True
            time.sleep(0.2)


