"""The desk's exchanges with a table's box for a tournament match, over the USB transport
(device/connect.py: the port's owner, else the port, the request channel): what `scoreboard
tournament assign|call --port` and the desk page do. A box on the club's Wi-Fi is reached
the same way, by its `mqtt://HOST/BOX` port (open_box gives device/netbox.py's NetBox).

    queue(port, lines, where)      the header queued as `setup` queues it: (box id, the
                                   table the box claims or None, the file on the box)
    withdraw(port, box_match, ...) the match taken back from the box it was queued on
                                   (the desk moved it): refused, as a TournamentError
                                   naming the box, once the box has started it
    locate(box_id, ports)          the port of the box with that id, among `ports`

Every failure is one line (BoardError, SetupError or TournamentError).
"""

from host_tools.device.box import Refused
from host_tools.device.connect import open_box
from host_tools.device.box import BoardError
from host_tools.tournament import TournamentError
from host_tools.tournament.says import Said, core


def queue(port, lines, where):
    """Queue a match's header on the box on `port`; (box id, claimed table, file)."""
    from host_tools.results.draw import QUEUE, queue_one

    name = lines[1].split()[1]
    with open_box(port, warn=lambda text: None) as board:
        box = board.box_id()
        claim = board.table()
        queue_one(board, name, lines, where, out=lambda text: None)
    return box, claim, "%s/%s.sbn" % (QUEUE, name)


def check_claim(port, claim, table):
    """TournamentError when the box on `port` claims another table than `table`."""
    if claim is not None and claim != table:
        raise TournamentError("the box on %s is table %d's (its settings), not table %d's: "
                              "queue the match on table %d's box, or set this one with "
                              "`scoreboard setup --table %d --port %s`",
                              port, claim, table, table, table, port)


def identity(port):
    """(box id, claimed table or None) of the box on `port`, asked on its channel."""
    with open_box(port, warn=lambda text: None, channel_only=True) as board:
        return board.box_id(), board.table()


def withdraw(port, box_match, table, box):
    """Take `box_match` back from the box on `port` (table `table`'s box `box`): a note
    of what it did; TournamentError when the box has started it (the move is refused)."""
    try:
        with open_box(port, warn=lambda text: None, channel_only=True) as board:
            there = board.withdraw(box_match)
    except Refused as e:
        raise TournamentError("not moved: table %s's box %s says %s", table, box,
                              core(str(e).replace("the box refused: ", ""))) from None
    return Said("taken back from table %s's box %s", table, box) if there else \
        Said("table %s's box %s did not hold it", table, box)


def locate(box_id, ports):
    """The port among `ports` whose box is `box_id`, or None (each asked its hello)."""
    for port in ports:
        try:
            if identity(port)[0] == box_id:
                return port
        except BoardError:
            continue
    return None


def not_reached(table, box):
    """The note of a move whose old box was not heard: its copy stays queued there, and
    a result from it would be held for the desk (only the assigned box's counts)."""
    return Said("table %s's box %s was not reached: its copy stays queued there, and a "
                "result from it is held for the desk", table, box)
