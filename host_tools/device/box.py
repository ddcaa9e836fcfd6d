"""The box on the desk's side: everything `sync`, `setup`, `list`, `live`, the desk and
`scoreboard tournament` use of a box, written once.

Every way of reaching a box gives an object with these members, and the desk's code
calls these and nothing else, probing for nothing (tests/host/test_box_contract.py walks
every class through MEMBERS and checks each has the same parameters):
- device/channel.py `ChannelBox`: the request channel (docs/notation.md) over USB, or
  through the port's owner (`scoreboard live`): the usual way, while the box plays;
- device/sync_board.py `Board`: the raw REPL, for firmware without the channel or an
  app that is not running (it stops the app, and starts it again when closed);
- device/netbox.py `NetBox`: a box on the club's Wi-Fi, the request channel through the
  broker (its `port` is `mqtt://HOST:PORT/BOX`, which open_box takes as a port).

    port                  where the box is reached: a serial port's name
    box_id()              the box's id as its journals carry it (`box ...`: its chip's)
    table()               the table the box's settings claim (`scoreboard setup
                          --table`), or None
    set_table(number)     set the table its settings claim (None: clear it)
    current()             the stem of the match in play (its journal `matches/STEM.sbn`),
                          or None
    listdir(folder)       [(name, is_dir, size)] of a folder of its flash; [] when the
                          folder is not there
    read(path, progress=None, line=1)
                          a file's bytes from the start of its line `line` (1: the
                          whole), checked end to end (SHA-256) and read again when
                          damaged; `progress(bytes)` is told as they come
    free()                free bytes on its flash, as its journal counts them
    marks(stems)          of `stems` ({match id: journal stem}), the ids whose
                          `.pulled` mark carries the SHA-256 of that journal as it is now
    mark(mid, digest, when)
                          write match `mid`'s `.pulled` mark (sync: stored, unchanged)
    queue(name, data)     a prepared match into queue/NAME.sbn, checked there
    withdraw(mid)         take queued match `mid` back: True when it was queued, False
                          when the box does not hold it; Refused once it has started
    called(mid)           the desk's call of match `mid` (the box's late start counts
                          from it): what the box did, in words
    settings(words)       set `KEY=VALUE` words (percent-encoded values: the network's,
                          firmware scoreboard/settings.py `change`), all or none (Refused
                          with the reason); the settings as they now are ({key: value},
                          a password only as `set`, never its value)
    close()               let go of the box (a Board hands it back to its app)

and a context manager (`with open_box(port) as box:`) that closes it.

A failure is a BoardError of one line; the box's own refusal (it answered, and said
no) a Refused, its subclass. What a way of reaching the box cannot do (the raw REPL
has no `called`: the app it stops is the one to call) is a BoardError that says so.
"""

MEMBERS = ("port", "box_id", "table", "set_table", "current", "listdir", "read", "free",
           "marks", "mark", "queue", "withdraw", "called", "settings", "close",
           "__enter__", "__exit__")


class BoardError(Exception):
    """A one-line reason why the box could not be used; `errno` when the box said
    OSError (the number is the same on a Pico and on the virtual device)."""

    def __init__(self, text, errno=None):
        super().__init__(text)
        self.errno = errno


class Refused(BoardError):
    """The box answered, and refused: its reason (and errno, when it gave one)."""
