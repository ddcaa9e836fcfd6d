"""One match as a self-contained web page: `scoreboard report`'s library.

One self-contained HTML file (inline CSS and SVG, no script, nothing fetched): the
result, each frame's score progression as a chart (the score after every event, from
the stored journal replayed by the core; racks won for pool), the frame table with the
breaks, the high breaks, and shot-time statistics when the journal has `@MS` stamps.
Every text that comes from a match file (names above all) is HTML-escaped, so a name
such as `<script>` shows as text. `--lang en|pl|bg` (default en): the page's own texts,
the core's words for how a frame ended, the games, formats and dates in that language,
from host_tools/results/report_lang.py; names are shown as written. The result names
the winner first, with the winner's score first (`Bob wins 2-1`), whichever side won.
"""

from html import escape

import host_tools  # noqa: F401  (puts the firmware on the path)
from host_tools.results.export import damaged, report_of
from host_tools.results.report_lang import TEXTS, date, seconds
from scoreboard.core.match import Match
from scoreboard.core.notation import NotationError, Reader

_W, _H, _PAD = 640, 220, 36
_COLOURS = ("#1f5fbf", "#c0392b")
_CSS = """body{font-family:sans-serif;margin:2em;color:#222;max-width:60em}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.6em}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.25em .6em;text-align:left}
th{background:#eee}.a{color:#1f5fbf}.b{color:#c0392b}svg{background:#fafafa;border:1px solid #ddd}
.note{color:#666;font-size:.9em}"""


def progression(sbn):
    """[(label, [(score_a, score_b) after each event of that frame])] of a journal; a
    label is ("frame", N), or ("racks", None) for pool's one chart of racks won."""
    reader = Reader(True)
    match = None
    series = []
    pool_points = None
    lines = sbn.split("\n")  # line ends as on the box: `\n` only (not U+0085)
    if lines[-1] == "":
        lines.pop()
    for text in lines:
        event = reader.feed(text)
        if event is None:
            continue
        if match is None:
            match = Match(reader.header)
            if match.family == "pool":
                pool_points = [(0, 0)]
                series.append((("racks", None), pool_points))
        match.apply(event)
        word = event[1]
        if pool_points is not None:
            won = match.frames_won()
            if (won[0], won[1]) != pool_points[-1]:
                pool_points.append((won[0], won[1]))
            continue
        f = match.frame
        if f is None:
            continue
        if word in ("frame", "restart") or not series:
            series.append((("frame", f.number), [(0, 0)]))
        series[-1][1].append((f.score[0], f.score[1]))
    return series


def chart(points, names, title, t=TEXTS["en"]):
    """An inline SVG line chart of both sides' scores over the events (`t`: the
    language's table)."""
    top = max([1] + [max(a, b) for a, b in points])
    n = max(1, len(points) - 1)
    iw, ih = _W - 2 * _PAD, _H - 2 * _PAD

    def xy(i, v):
        return "%.1f,%.1f" % (_PAD + iw * i / n, _H - _PAD - ih * v / top)

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" '
           'aria-label="%s">' % (_W, _H, escape(title))]
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888"/>' % (
        _PAD, _H - _PAD, _W - _PAD, _H - _PAD))
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888"/>' % (
        _PAD, _PAD, _PAD, _H - _PAD))
    out.append('<text x="4" y="%d" font-size="11">%d</text>' % (_PAD + 4, top))
    out.append('<text x="4" y="%d" font-size="11">0</text>' % (_H - _PAD + 4))
    out.append('<text x="%d" y="%d" font-size="11" text-anchor="end">%s</text>' % (
        _W - _PAD, _H - 8, escape(t["events"] % (len(points) - 1))))
    for s in (0, 1):
        pts = " ".join(xy(i, p[s]) for i, p in enumerate(points))
        out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (
            _COLOURS[s], pts))
        out.append('<text x="%d" y="%d" font-size="12" fill="%s">%s %d</text>' % (
            _PAD + 8 + s * 260, 16, _COLOURS[s], escape(names[s]), points[-1][s]))
    out.append("</svg>")
    return "".join(out)


def _shots(timing, names, t):
    if not timing:
        return '<p class="note">%s</p>' % (escape(t["no_times"]) % "<code>@MS</code>")
    rows = ["<tr>%s</tr>" % "".join("<th>%s</th>" % escape(t[k]) for k in (
        "th.side", "th.shots", "th.average", "th.longest"))]
    for s, side in enumerate("AB"):
        st = timing[side]
        avg = "-" if st["average_ms"] is None else seconds(st["average_ms"], t)
        rows.append("<tr><td>%s</td><td>%d</td><td>%s</td><td>%s</td></tr>" % (
            escape(names[s]), st["shots"], escape(avg), escape(seconds(st["longest_ms"], t))))
    total = timing["match_ms"] // 1000
    return "<table>%s</table><p>%s</p>" % ("".join(rows), escape(t["match_time"] % (
        total // 3600, total // 60 % 60, total % 60)))


def _word(t, prefix, word):
    """A word of the core's (a game, a stored status, how a frame ended) in the
    language of `t`; one no table has stays as it is."""
    return t.get(prefix + word, word)


def _format(t, fmt):
    """A stored format (`best-of 7`, `frames 4 by points`) in the language of `t`."""
    words = fmt.split()
    if len(words) >= 2 and words[1].isdigit():
        key = "f.frames_points" if words[2:] == ["by", "points"] else "f." + words[0]
        if key in t and (len(words) == 2 or key == "f.frames_points"):
            return t[key] % int(words[1])
    return fmt


def render(match, report, sbn, lang="en"):
    """The HTML page of a stored match (its row, its replay JSON, its journal text), its
    own texts in `lang` (report_lang.LANGS)."""
    t = TEXTS[lang]
    names = (match["side_a"], match["side_b"])
    won = report["frames_won"]
    winner = report["winner"]
    title = t["versus"] % names
    # The winner first, and the score from the winner's side (`Bob wins 2-1`).
    loser = "B" if winner == "A" else "A"
    result = t["wins"] % (names["AB".index(winner)], won[winner], won[loser]) if winner else (
        t["score_state"] % (won["A"], won["B"], t["in_progress"] if match["status"] ==
                            "unfinished" else t["no_winner"]))
    a, b = ('<span class="%s">%s</span>' % (c, escape(n)) for c, n in zip("ab", names))
    out = ['<!DOCTYPE html><html lang="%s"><head><meta charset="utf-8">' % t["html"],
           "<title>%s</title><style>%s</style></head><body>" % (escape(title), _CSS),
           "<h1>%s</h1>" % (escape(t["versus"]) % (a, b)),
           "<p>%s &middot; %s %s &middot; %s &middot; %s &middot; %s</p>" % (
               escape(result), escape(_word(t, "g.", match["game"])),
               escape(_format(t, match["format"])),
               escape(date(match["date"], t) if match["date"] else t["no_date"]),
               escape(t["match_id"] % match["id"]),
               escape(t["stored"] % _word(t, "st.", match["status"])))]
    out.append("<h2>%s</h2>" % escape(t["h.progression"]))
    for (kind, number), points in progression(sbn):
        label = t["racks"] if number is None else t[kind] % number
        out.append("<h3>%s</h3>%s" % (escape(label), chart(points, names, label, t)))
    pool = report["game"] in ("eightball", "nineball", "tenball")
    out.append("<h2>%s</h2><table><tr>%s<th>%s</th><th>%s</th></tr>" % (
        escape(t["h.frames"]), "".join("<th>%s</th>" % escape(t[k]) for k in (
            "th.rack" if pool else "th.frame", "th.breaker", "th.score", "th.winner",
            "th.how")),
        escape(t["th.breaks"] % names[0]), escape(t["th.breaks"] % names[1])))
    high = [0, 0]
    for f in report["frames"]:
        score = "-" if f["score"] is None else "%d-%d" % (f["score"]["A"], f["score"]["B"])
        brk = f["breaks"] or {"A": [], "B": []}
        for s, side in enumerate("AB"):
            high[s] = max([high[s]] + list(brk[side] or []))
        out.append("<tr><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
                   "<td>%s</td></tr>" % (
                       f["number"], escape(f["breaker"] or ""), score,
                       escape(names["AB".index(f["winner"])]) if f["winner"] else "",
                       escape(_word(t, "how.", f["how"]) if f["how"] else t["in_play"]),
                       ", ".join(str(b) for b in brk["A"] or []),
                       ", ".join(str(b) for b in brk["B"] or [])))
    out.append("</table>")
    if report["game"] != "eightball" and report["frames"] and report["frames"][0]["breaks"]:
        out.append("<p>%s</p>" % escape(t["high_break"] % (names[0], high[0], names[1],
                                                             high[1])))
    out.append("<h2>%s</h2>%s" % (escape(t["h.shots"]), _shots(report.get("timing"), names, t)))
    out.append('<p class="note">%s</p></body></html>\n' % escape(
        t["pulled"] % date(match["pulled_at"], t)))
    return "".join(out)


def page_of(db, match, lang="en"):
    """The HTML page of a stored match row; DbError when the row is damaged."""
    report = report_of(db, match)
    try:
        return render(match, report, match["sbn"], lang)
    except NotationError as e:
        raise damaged(db, match, "its stored journal is damaged (%s)" % e) from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise damaged(db, match, "its stored report is damaged (%s: %s)" % (
            e.__class__.__name__, e)) from None
