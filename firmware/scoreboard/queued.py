"""The prepared matches in `queue/` (from `scoreboard setup`), as the start screen and the
journal read them.

    queue/NAME.sbn      a prepared header (the box deletes it when the match starts),
                        read one at a time, never longer than QUEUED_MAX bytes, and
                        normalised on the way in (a byte-order mark, `\r\n`, comment
                        lines before `sbn 1` dropped), so every journal the box writes
                        starts with `sbn 1`

`Queue(files)`: `names()` (one at a time, in the folder's order: what the start screen
pages through; never a list of the whole queue), `entry(name)` (the start screen's line
for it: (summary, Header), or (why, None) for a file the box will not start),
`header_of(name)`, `read(name)` (its normalised lines) and `remove(name)`.
`parse_header(lines)` is the one check that lines are a header and nothing more, for a
queued file and for the box's own set-up alike (`Journal.start`).
"""

import os

from micropython import const

from scoreboard.core.notation import NotationError, Reader
from scoreboard.core.words import strip_checksum, utf8
from scoreboard.files import JournalError, check_match_id

QUEUED_MAX = const(4096)  # a queued file longer than this is no header: refused unread


def summary(header):
    """One line for the start screen: names, format, clock."""
    names = " v ".join(" & ".join(side) for side in header.sides)
    fmt = header.game
    if header.game == "snooker" and header.reds != 15:
        fmt += " %d reds" % header.reds
    fmt += " %s %d%s" % (header.kind, header.target, " by points" if header.by_points else "")
    clock = "no clock"
    for kv in header.clock:
        if kv.startswith("shot="):
            clock = "clock %ss" % kv[5:]
    return "%s, %s, %s" % (names, fmt, clock)


def normalised(data):
    """The lines (no line ends) of a queued file's bytes, as the box journals them: a
    byte-order mark dropped, `\r\n` read as `\n`, the comment and blank lines before
    the first line dropped (the journal's first line is `sbn 1`). Returns (lines, the
    number of lines dropped in front); ValueError when the bytes are not UTF-8."""
    text = utf8(data)
    if text[:1] == "\ufeff":
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    skipped = 0
    for line in lines:
        bare = line.strip()
        if bare and bare[0] != "#":
            break
        skipped += 1
    out = []
    for line in lines[skipped:]:
        out.append(line[:-1] if line.endswith("\r") else line)
    return out, skipped


def parse_header(lines, body=None, skipped=0):
    """The Header of prepared lines (JournalError if they are not just a header);
    `body`: a list that gets the non-blank lines without checksums; `skipped`: lines
    dropped in front, so the line numbers are the file's."""
    reader = Reader()
    reader.line = skipped
    try:
        for text in lines:
            text = strip_checksum(text.rstrip("\r\n"), False)
            if reader.feed(text) is not None:
                raise JournalError("line %d: only header lines before a match starts"
                                   % reader.line)
            if body is not None and text.strip():
                body.append(text)
        reader.finish()
    except (ValueError, NotationError) as e:
        raise JournalError(str(e)) from None
    return reader.header


class Queue:
    """queue/ on the box's flash (`files`: a scoreboard.files.Files)."""

    def __init__(self, files):
        self.files = files

    def _path(self, name):
        return self.files.path("queue/" + name + ".sbn")

    def names(self):
        """The names of the prepared matches (NAME.sbn), one at a time, in the folder's
        order."""
        for n in self.files.names("queue"):
            if n.endswith(".sbn"):
                yield n[:-4]

    def entry(self, name):
        """(summary, Header) of queue/NAME.sbn for the start screen; (why, None) for a
        file the box will not start."""
        try:
            header = self.header_of(name)
        except (OSError, JournalError) as e:
            return str(e), None
        return summary(header), header

    def header_of(self, name):
        """The Header of queue/NAME.sbn (JournalError when it does not read, or when its
        id could not be the box's file names)."""
        lines, skipped = self._read(name)
        header = parse_header(lines, None, skipped)
        if header.id is not None:
            check_match_id(header.id)
        return header

    def read(self, name):
        """The lines (without line ends) of queue/NAME.sbn, normalised (`normalised`)."""
        return self._read(name)[0]

    def _read(self, name):
        path = self._path(name)
        size = os.stat(path)[6]
        if size > QUEUED_MAX:  # never read into RAM: a header is a few hundred bytes
            raise JournalError("%d bytes: too long for a header" % size)
        with open(path, "rb") as f:
            data = f.read()
        try:
            return normalised(data)
        except ValueError as e:
            raise JournalError(str(e)) from None

    def remove(self, name):
        """Delete queue/NAME.sbn (its match has started); gone already is no error."""
        self.files.remove(self._path(name))
