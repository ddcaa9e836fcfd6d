"""The desk's draw as the box will take it: a CSV draw or a .sbn header made into the
headers `scoreboard setup` queues (host_tools/commands/setup.py), each checked as the box
checks it (the core's notation, the header limit, the names' glyphs, the table word), the
names made free of what the box holds, and the box's queue and flash checked for room
before anything is written. `board` is what device/connect.py's open_box gives: this
module opens nothing itself."""

import csv
import io
import re
import unicodedata
from datetime import datetime
from pathlib import Path

import host_tools  # noqa: F401  (puts the firmware on the path)
from scoreboard.core.notation import NotationError, Reader
from scoreboard.core.words import check_id, shown
from scoreboard.files import QUEUED_MAX, match_of
from scoreboard.ui.draw import drawable

QUEUE = "queue"
QUEUE_MAX = 64  # matches queued on one box at most, those already there included
BLOCK = 4096  # a flash block: what one small file costs on littlefs at most
_ALIASES = {"a": ("a", "side_a", "player_a", "side a", "player a"),
            "b": ("b", "side_b", "player_b", "side b", "player b")}
# The columns that say one thing: two of them in a draw are refused (which would win?)
_SAME = (("side A", _ALIASES["a"]), ("side B", _ALIASES["b"]),
         ("the format", ("format", "match")))
TABLE_MAX = 99  # the header's `table N` (scoreboard.core.header)


class SetupError(Exception):
    """One line: what is wrong with the input."""


class Queued(tuple):
    """A match to queue: (queue name, header lines), as the box gets it; `where` names
    its row or file in messages, `made`: its id is the host's (a free one may be picked
    when the box holds it), not written in the file."""

    def __new__(cls, name, lines, where, made):
        self = tuple.__new__(cls, (name, lines))
        self.where = where
        self.made = made
        return self


def check_size(lines, where):
    """SetupError unless the header's bytes fit what the box reads from its queue."""
    size = len(("\n".join(lines) + "\n").encode("utf-8"))
    if size > QUEUED_MAX:
        raise SetupError("%s: the header is %s bytes, over the %s the box reads: shorten "
                         "the names" % (where, "{:,}".format(size), "{:,}".format(QUEUED_MAX)))


def quote(name):
    return '"%s"' % name.replace("\\", "\\\\").replace('"', '\\"')


def check_header(lines, where):
    """The core's Header of `lines`, or SetupError naming `where` and the reason."""
    reader = Reader()
    try:
        for i, line in enumerate(lines):
            if reader.feed(line) is not None:
                raise SetupError("%s line %d: only header lines can be queued" % (where, i + 1))
        reader.finish()
    except NotationError as e:
        raise SetupError("%s: %s" % (where, e)) from None
    check_names(reader.header, where)
    return reader.header


def invisible(text):
    """The first character of `text` that does not show by itself (a zero-width space
    or joiner, a direction mark or override, a private or lone surrogate code point:
    Unicode's categories Cf, Co, Cs), or None. A name with one looks like another name
    (N12), or turns the text after it around (U+202E)."""
    return next((c for c in text if unicodedata.category(c) in ("Cf", "Co", "Cs")), None)


def check_names(header, where):
    """Names in any script go to the box; one it cannot draw at all (not one of its
    characters has a glyph on the box's screens: scoreboard.ui.draw.drawable, the
    firmware's own lookup) is refused, naming `where` and the side (issue 18), and so is
    one with a character that does not show (`invisible`)."""
    for s, names in enumerate(header.sides):
        for name in names:
            if not any(drawable(c) for c in name if not c.isspace()):
                raise SetupError("%s: side %s name \"%s\": the box has no glyph for any of its "
                                 "characters (it draws Latin, Greek and Cyrillic letters)"
                                 % (where, "AB"[s], name))
            hidden = invisible(name)
            if hidden is not None:
                raise SetupError("%s: side %s name \"%s\": a character that does not show "
                                 "(U+%04X): type the name again" % (
                                     where, "AB"[s], shown(name), ord(hidden)))


def _cell(row, *names):
    for n in names:
        if row.get(n):
            return row[n].strip()
    return ""


def _sides(row, where):
    a = _cell(row, *_ALIASES["a"])
    b = _cell(row, *_ALIASES["b"])
    if not (a and b) and row.get("players"):
        parts = re.split(r"\s+(?:v|vs|-)\.?\s+", row["players"].strip(), maxsplit=1)
        if len(parts) == 2:
            a, b = parts
    if not (a and b):
        raise SetupError("%s: two sides needed (columns a and b, or players \"A v B\")" % where)
    return [quote(n.strip()) for n in a.split("&")], [quote(n.strip()) for n in b.split("&")]


def table_number(cell, where, seen):
    """The table number of a CSV cell ("3", "Table 3", "Stół 3": its one number,
    1..TABLE_MAX), or SetupError naming `where` ("draw.csv row 2"). `seen` ({number:
    (spelling, cell, row)} of the rows before) refuses one table written two ways."""
    cell = cell.strip()
    told = shown(cell, 24)  # the cell in a message: a long one cut short
    for c in cell:
        if not c.isspace() and not drawable(c):
            raise SetupError('%s: table "%s": the box has no glyph for "%s"' % (where, told, c))
    numbers = re.findall(r"[0-9]+", cell)
    if not numbers:
        raise SetupError('%s: table "%s": no table number in it (1 to %d, e.g. "Table 3")'
                         % (where, told, TABLE_MAX))
    if len(numbers) > 1:
        raise SetupError('%s: table "%s": two numbers in it, one table a row' % (where, told))
    number = int(numbers[0])
    if not 1 <= number <= TABLE_MAX:
        raise SetupError('%s: table "%s": tables are numbered 1 to %d' % (where, told,
                                                                          TABLE_MAX))
    # "Table 1", "table 01" and "Table1" are one spelling; "Стол 1" and "1" are not: two
    # tables, or one? Refused rather than guessed.
    spelling = "".join(re.sub(r"[0-9]+", "#", cell).casefold().split())
    row = where[where.rindex("row "):]  # "row 2" of "draw.csv row 2"
    before = seen.setdefault(number, (spelling, told, row))
    if before[0] != spelling:
        raise SetupError('%s: table "%s" is table %d, as "%s" in %s is: write a table the '
                         "same way in every row" % (where, told, number, before[1], before[2]))
    return number


def match_id(prefix, when, table, n):
    tt = re.sub(r"[^A-Za-z0-9]", "", table) or "0"
    return "%s-%s-%s-%02d" % (prefix, when.strftime("%y%m%d%H%M"), tt, n)


def _delimiter(text):
    """The separator of the header row: `,`, or `;` (Excel where the decimal mark is a
    comma) or a tab (Excel's "Unicode text") when the row has more of them."""
    first = text.lstrip("\r\n").split("\n", 1)[0]
    return max((",", ";", "\t"), key=first.count)


def csv_rows(text, source):
    """[(row number, {column: cell})] of a CSV draw (row 1 is the header row), each
    cell checked: SetupError naming the row for a quote never closed, a cell longer
    than the csv module takes, or a cell with a line break or control character."""
    reader = csv.reader(io.StringIO(text), delimiter=_delimiter(text), strict=True)
    records = []
    try:
        for cells in reader:
            records.append(cells)
    except csv.Error as e:
        where = "%s row %d" % (source, len(records) + 1)
        why = str(e)
        if "end of data" in why:
            raise SetupError('%s: a quote (") is never closed' % where) from None
        if "field limit" in why:
            raise SetupError("%s: a cell is longer than %d characters" % (
                where, csv.field_size_limit())) from None
        if "expected after" in why:
            raise SetupError('%s: a quote (") inside a quoted cell must be doubled ("")'
                             % where) from None
        raise SetupError("%s: %s" % (where, why)) from None
    if not records:
        return []
    names = [c.strip().lower() for c in records[0]]
    _check_columns(names, "%s row 1" % source)
    out = []
    for n, cells in enumerate(records[1:], 2):
        if not any(c.strip() for c in cells):
            continue  # a blank line
        for i, c in enumerate(cells):
            bad = _control(c)
            if bad is not None:
                raise SetupError("%s row %d: column %s: a line break or control character "
                                 "(\\x%02x) is not allowed in a cell" % (
                                     source, n, names[i] if i < len(names) else i + 1,
                                     ord(bad)))
        out.append((n, {name: (cells[i] if i < len(cells) else "")
                        for i, name in enumerate(names)}))
    return out


def _check_columns(names, where):
    """SetupError for a column given twice, or two columns that say one thing: which
    one would the box get? Empty names (Excel's trailing separators) are no column."""
    for i, name in enumerate(names):
        if name and name in names[:i]:
            raise SetupError("%s: column %s is given twice" % (where, name))
    for what, aliases in _SAME:
        given = [n for n in names if n in aliases]
        if len(given) > 1:
            raise SetupError("%s: columns %s and %s both name %s: keep one" % (
                where, given[0], given[1], what))


def _control(text):
    """The first control character (C0, DEL, C1) in `text`, or None."""
    for c in text:
        if c < " " or "\x7f" <= c <= "\x9f":
            return c
    return None


def _checked(word, what, where):
    try:
        check_id(word, what)
    except ValueError as e:
        raise SetupError("%s: %s" % (where, e)) from None
    if what != "queue name" and match_of(word) != word:  # the box's own check_match_id
        raise SetupError("%s: %s '%s' ends like a continuation (.N) of the box's files"
                         % (where, what, word))
    return word


def _lang(own, given, where):
    """The `lang` of a match: its own (a row's cell, a header's word) or `given`
    (--lang, for all matches); SetupError when they disagree, never one silently."""
    if given and own and own != given:
        raise SetupError("%s: lang %s, but --lang %s is for all matches" % (where, own, given))
    return own or given


def from_csv(text, prefix, when, source="draw", lang=None):
    """[(queue name, header lines)] for each row of a CSV draw (`lang`: --lang)."""
    rows = csv_rows(text, source)
    if not rows:
        raise SetupError("%s: no matches in it (a header row, then one row per match)" % source)
    if len(rows) > QUEUE_MAX:
        raise SetupError("%s: %d matches; the box's queue holds at most %d" % (
            source, len(rows), QUEUE_MAX))
    out = []
    tables = {}
    for n, (number, row) in enumerate(rows, 1):
        where = "%s row %d" % (source, number)
        table = _cell(row, "table")
        table = table and table_number(table, where, tables)
        game = _cell(row, "game")
        fmt = _cell(row, "format", "match")
        if not game or not fmt:
            raise SetupError("%s: the game and format columns are needed" % where)
        a, b = _sides(row, where)
        mid = _checked(match_id(prefix, when, str(table or n), n), "match id", where)
        lines = ["sbn 1", "id " + mid, "date " + when.strftime("%Y-%m-%dT%H:%M")]
        code = _lang(_cell(row, "lang"), lang, where)
        if code:
            lines.append("lang " + code)
        lines += ["game " + game, "match " + fmt]
        if _cell(row, "breaks"):
            lines.append("breaks " + _cell(row, "breaks"))
        lines += ["side A " + " ".join(a), "side B " + " ".join(b)]
        if _cell(row, "clock"):
            lines.append("clock " + _cell(row, "clock"))
        if table:  # last: the lines above keep their numbers in a message
            lines.append("table %d" % table)
        lines = check_header(lines, where).lines()
        check_size(lines, where)
        out.append(Queued(mid, lines, where, True))
    return out


def from_sbn(text, prefix, when, name, lang=None):
    """[(queue name, header lines)] for one .sbn header; `id`/`date` (and `lang`, from
    --lang) set when missing.
    The header goes as the core writes it: comments, blank lines and `\\r` dropped."""
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]
    header = check_header(lines, name)
    made = header.id is None
    if made:
        header.id = match_id(prefix, when, "S", 1)
    _checked(header.id, "id", name)
    if header.date is None:
        header.date = when.strftime("%Y-%m-%dT%H:%M")
    header.lang = _lang(header.lang, lang, name)
    lines = header.lines()
    check_header(lines, name)
    check_size(lines, name)
    return [Queued(header.id, lines, name, made)]


def decoded(data, name, unit):
    """The file's text: UTF-8 (a byte-order mark dropped), or UTF-16 by its mark
    (Excel's "Unicode text"). Anything else is refused with the row of its first
    byte that is not UTF-8: a legacy code page cannot be told from another (cp1250's
    "ł" is cp1252's "³"), so guessing would queue wrong names."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise SetupError("%s: not UTF-16 text, though it starts as such" % name) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise SetupError('%s %s %d: not UTF-8 (byte 0x%02x): save it as "CSV UTF-8" (in '
                         "Excel: Save As, CSV UTF-8) or as UTF-8 text" % (
                             name, unit, data[:e.start].count(b"\n") + 1, data[e.start])
                         ) from None


def prepare(path, prefix="DESK", when=None, lang=None):
    when = when or datetime.now()
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise SetupError("cannot read %s: %s" % (path, e.strerror or e)) from None
    text = decoded(data, Path(path).name, "row" if str(path).lower().endswith(".csv")
                 else "line")
    if str(path).lower().endswith(".csv"):
        return from_csv(text, prefix, when, Path(path).name, lang)
    return from_sbn(text, prefix, when, Path(path).name, lang)


def on_the_box(board):
    """What the box holds that a queued name must not meet, from two listings:
    ({match id: its journal file} of matches/, {the names in queue/})."""
    journals = {}
    for n, is_dir, _ in board.listdir("matches"):
        if not is_dir and n.endswith(".sbn"):
            journals.setdefault(match_of(n[:-4]), "matches/" + n)
    names = {n[:-4] for n, _, _ in board.listdir(QUEUE) if n.endswith(".sbn")}
    return journals, names


def free_names(queued, journals, names):
    """`queued` named so that nothing the box holds is met (on_the_box's `journals` and
    `names`): SetupError naming the row for an id the box has a journal of (it would not
    start the match) and for one written in the file that is queued already; an id the
    host made that is queued already, or that a match started on the box has (a second
    setup in the same minute), gets the first free ID-2, ID-3..."""
    out = []
    taken = set(names)
    for q in queued:
        name, lines = q
        if name in journals and not q.made:
            raise SetupError("%s: match id %s is already on the box (%s): the box would not "
                             "start it" % (q.where, name, journals[name]))
        if name in taken or name in journals:
            if not q.made:
                raise SetupError("%s: match id %s is queued on the box already (%s/%s.sbn)"
                                 % (q.where, name, QUEUE, name))
            n = 2
            while "%s-%d" % (name, n) in taken or "%s-%d" % (name, n) in journals:
                n += 1
            name = _checked("%s-%d" % (name, n), "match id", q.where)
            lines = [("id " + name if ln.startswith("id ") else ln) for ln in lines]
            check_size(lines, q.where)
        taken.add(name)
        out.append(Queued(name, lines, q.where, q.made))
    return out


def check_room(board, queued):
    """SetupError unless the box's queue takes `queued` (QUEUE_MAX at most, those there
    included; a name already queued is replaced) and its flash has room for them."""
    have = {n[:-4] for n, is_dir, _ in board.listdir(QUEUE)
            if not is_dir and n.endswith(".sbn")}
    new = [(name, lines) for name, lines in queued if name not in have]
    total = len(have) + len(new)
    if total > QUEUE_MAX:
        raise SetupError("the box has %d matches queued; %d more make %d, over the %d its "
                         "queue holds: play or remove some first" % (
                             len(have), len(new), total, QUEUE_MAX))
    need = sum(-(-len(("\n".join(lines) + "\n").encode()) // BLOCK) * BLOCK
               for _, lines in new)
    free = board.free()
    if need > free:
        raise SetupError("the box's flash has %d KB free; %d queued header%s %s %d KB "
                         "(sync the box, or queue fewer)" % (
                             free // 1024, len(new), "" if len(new) == 1 else "s",
                             "needs" if len(new) == 1 else "need", need // 1024))


def send(board, queued, out=print):
    """Write each header to queue/NAME.sbn on the box (NAME.new, then a rename), once
    the box's queue and flash have room for all of them."""
    check_room(board, queued)
    for name, lines in queued:
        board.queue(name, ("\n".join(lines) + "\n").encode("utf-8"))
        out("queued %s/%s.sbn: %s" % (QUEUE, name, " ".join(lines[1].split()[1:])))


def queue_one(board, name, lines, where, out=print):
    """Queue one header whose id is `name` (a tournament match's: `scoreboard tournament
    assign --port`, the desk page) on the box, as `send` queues a draw's: SetupError when
    the box holds a journal of that id (it would not start it) or has no room. A header
    of that name queued there already is replaced (the match assigned again)."""
    journals, names = on_the_box(board)
    names.discard(name)
    send(board, free_names([Queued(name, lines, where, False)], journals, names), out)
