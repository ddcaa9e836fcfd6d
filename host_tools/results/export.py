"""The results database out as JSON or CSV: `scoreboard export`'s library.

JSON: a list with one object per match, oldest first: `id`, `box`, `date`, `sides` (A
and B's names), `stored` (finished, abandoned, or unfinished: the copy of the match in play),
then every key of docs/notation.md's replay JSON in its order (`game`, `status`, `winner`,
`frames_won`, `frames`, `current`, `result`, `timing`), as the core computed them when
the match was pulled. CSV: one row per frame (or rack): match id, date, game, frame
number, both names, both scores, the winner (A/B and name), how the frame ended, each
side's breaks (space-separated), how it was stored and the box. Both are UTF-8; each
match is its current version (a corrected result's earlier ones stay in the database).
The CSV starts with a UTF-8 byte-order mark (BOM, on standard output too: the same
bytes as the file): Excel reads a CSV as UTF-8 only with it (else in the ANSI code
page, so `Łukasz` and `Иван` come out garbled); LibreOffice, Google Sheets and Python's
csv module with `encoding="utf-8-sig"` read it too. The JSON has none (RFC 8259).

The CSV is made safe to open in a spreadsheet (OWASP's CSV injection guidance): every
cell is quoted, and a text cell that starts with `=`, `+`, `-`, `@`, a tab, a carriage
return or a line feed gets a leading `'`, so it shows as text and never runs as a
formula. Numbers (frame number, scores) are written as numbers: they come from the core,
never from the match file, so they cannot start a formula. Control characters in text
cells show as `\\xNN` (the CSV often goes to a terminal); JSON escapes them, losing
nothing.

`--lang pl|bg` gives the header row in that language (report_lang.py's `csv.` keys),
the words among the cells too (the game, how a frame ended, how the match was stored:
`ósemka`, `wbicie`, `zakończony`), and `;` between the cells: a Polish or Bulgarian
Excel splits a double-clicked CSV at the list separator of its locale, which is `;`
there (the decimal comma takes `,`). English keeps `,` and the notation's own words;
`delimiter` overrides either. Ids, names, numbers and the sides `A` and `B` are the
same in every language. `scoreboard export --rows matches|placings` (the tournaments':
host_tools/tournament/export.py) shares the cells' rules.
"""

import csv
import io
import json
import re

from host_tools.results.db import DbError
from host_tools.results.report_lang import TEXTS
from host_tools.messages import shown
from scoreboard.core.words import HIDDEN

CSV_COLUMNS = ("match_id", "date", "game", "frame", "side_a", "side_b", "score_a", "score_b",
               "winner", "winner_name", "how", "breaks_a", "breaks_b", "stored", "box")
# A spreadsheet runs a cell that starts with one of these as a formula (OWASP, "CSV
# Injection"); a line feed is there too, for the spreadsheets that trim one first.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
# json.dumps escapes C0 itself; C1, and the separators and bidi controls that `shown`
# escapes too, are escaped here.
_CONTROLS_IN_JSON = re.compile("[\x7f-\x9f%s]" % HIDDEN)
BOM = "\ufeff"  # the CSV's first character: UTF-8 to a spreadsheet (see above)
# The list separator of each language's spreadsheets (Excel's, from the locale).
DELIMITERS = {"en": ",", "pl": ";", "bg": ";"}


def report_of(db, m):
    """The stored replay JSON of match row `m` as a dict; DbError when it is damaged."""
    try:
        report = json.loads(m["report"])
    except (TypeError, ValueError) as e:
        raise damaged(db, m, "its stored report is damaged (%s)" % e) from None
    if not isinstance(report, dict):
        raise damaged(db, m, "its stored report is damaged (not a JSON object)")
    return report


def damaged(db, m, why):
    return DbError("database %s: match %s%s: %s" % (
        db.label, m["id"], " of box %s" % m["box"] if m.get("box") else "", why))


def as_json(db):
    out = []
    for m in db.matches():
        obj = {"id": m["id"], "box": m["box"], "date": m["date"],
               "sides": {"A": m["side_a"], "B": m["side_b"]}, "stored": m["status"]}
        obj.update(report_of(db, m))
        out.append(obj)
    return json_text(out)


def json_text(obj):
    """`obj` as the export's JSON: UTF-8 letters as they are, and no C1 control (0x9b is
    a terminal's ESC [) or bidi control raw: lossless escapes."""
    text = json.dumps(obj, indent=1, ensure_ascii=False) + "\n"
    return _CONTROLS_IN_JSON.sub(lambda c: "\\u%04x" % ord(c.group(0)), text)


def cell(value):
    """A CSV cell that no spreadsheet runs and no terminal obeys: text that starts like
    a formula gets a leading `'` (OWASP), control characters show as `\\xNN`. Numbers
    (frame numbers, scores) are written as they are."""
    if value is None:
        return ""
    if isinstance(value, int):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        text = "'" + text
    return shown(text)


def check_delimiter(text):
    """The one character a CSV's cells are split by (`tab` or `\\t` for a tab);
    ValueError for anything else, or a character a cell's quoting needs itself."""
    if text in ("tab", "\\t", "\t"):
        return "\t"
    if len(text) != 1 or text in "\"'\r\n" or text.isalnum() or not text.isprintable():
        raise ValueError("--delimiter %s: one character such as , ; | or tab" % shown(text))
    return text


def headers(lang="en", columns=CSV_COLUMNS):
    """The CSV's header row in `lang`."""
    t = TEXTS[lang]
    return [t["csv." + c] for c in columns]


def writer(lang="en", delimiter=None, columns=CSV_COLUMNS):
    """(buffer, csv writer) of a CSV in `lang` with its BOM and its header row of
    `columns` (report_lang's `csv.` keys) written, cells split by `delimiter` (None: the
    language's list separator, DELIMITERS)."""
    buf = io.StringIO()
    buf.write(BOM)
    w = csv.writer(buf, delimiter=delimiter or DELIMITERS[lang], lineterminator="\n",
                   quoting=csv.QUOTE_ALL)
    w.writerow(headers(lang, columns))
    return buf, w


def said(lang, kind, value):
    """A stored word (`g` a game, `how` how a frame ended, `st` how a match was stored)
    in `lang`: the report's words; English keeps the notation's own; a game's settings
    (`reds=6`) stay as the box reads them."""
    if value is None or lang == "en":
        return value
    first, _, rest = str(value).partition(" ")
    word = TEXTS[lang].get("%s.%s" % (kind, first), first)
    return "%s %s" % (word, rest) if rest else word


def as_csv(db, lang="en", delimiter=None):
    """The CSV text (BOM first): headers and words in `lang`, cells split by
    `delimiter` (None: the language's list separator, DELIMITERS)."""
    buf, w = writer(lang, delimiter)
    for m in db.matches():
        names = {"A": m["side_a"], "B": m["side_b"]}
        for f in db.frames(m["id"], m["box"]):
            w.writerow([cell(v) for v in (
                m["id"], m["date"], said(lang, "g", m["game"]), f["number"], m["side_a"],
                m["side_b"], f["score_a"], f["score_b"], f["winner"], names.get(f["winner"]),
                said(lang, "how", f["how"]), f["breaks_a"], f["breaks_b"],
                said(lang, "st", m["status"]), m["box"])])
    return buf.getvalue()
