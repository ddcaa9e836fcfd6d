"""`scoreboard replay FILE [--json]`: replay a match file and show where it stands.

The file (or standard input, `-`) is read as bytes and split on `\\n` only, as on the
device: the core checks each line is UTF-8 (`line N: not UTF-8`, exit 2). A box's journal
(its lines carry checksums) whose last line is torn, by a power cut in the middle of a
write (no line end, or a checksum that does not match), has that line dropped with one
line on stderr, as the box's recovery and `scoreboard sync` drop it; a bad line before
the last is an error, as in any file. The summary is
written with replacements where the terminal's encoding lacks a character, control
characters (from names, say) as `\\xNN`, and a closed pipe (`scoreboard replay FILE |
head`) ends the command quietly. The reading and the summary are
host_tools/results/replay_summary.py's; this module is the command.
"""

import io
import sys

import host_tools  # noqa: F401  (puts the firmware on the path)
from host_tools.messages import fail, say, shown, write_out
from host_tools.mp.replay_json import to_json
from host_tools.results.replay_summary import drop_torn_tail, is_journal, summary
from scoreboard.core.notation import NotationError
from scoreboard.core.replay import replay


def add_parser(sub):
    p = sub.add_parser("replay", help="replay a match file (.sbn) and print its state")
    p.add_argument("file", help="the match notation file, or - for standard input")
    p.add_argument("--json", action="store_true",
                   help="print the replay JSON object (docs/notation.md)")
    p.set_defaults(run=run)


def run(args):
    try:
        if args.file == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as f:
                data = f.read()
    except OSError as e:
        fail(args.file, e.strerror or e)
        return 2
    journal = is_journal(data)
    if journal:
        data, note = drop_torn_tail(data)
        if note is not None:
            fail("standard input" if args.file == "-" else args.file, note)
    try:
        match = replay(io.BytesIO(data), journal=journal)  # lines split on b"\n" only
    except NotationError as e:
        say(str(e), sys.stderr)
        return 2
    text = to_json(match) if args.json else summary(match)
    # Names come from the file: each line of the summary is escaped (the JSON is ASCII).
    return write_out("replay", "\n".join(shown(line) for line in text.split("\n")) + "\n")
