# ruff: noqa: RUF001  (Cyrillic letters look like Latin ones: they are the language)
"""The match report's words in the club's language (issue 18): one table per language
(`TEXTS[code]`, English the reference) for `scoreboard report --lang en|pl|bg`, and
`date()`, a stored date in that language's words.

The terms are the Polish and Bulgarian rule books', as the box's own tables
(firmware/scoreboard/lang/) have them: Polish frejm, faul, brejk, partia (a rack),
uderzenie (a shot); Bulgarian фрейм, гейм (a rack), фаул, серия (a break), удар (a shot),
страна (a side). Only the page's own texts are here: names and everything else read
from a match are escaped by report.py as they are. tests/test_i18n_desk.py checks that
every table has every key of `en`, with the same `%` conversions.
"""

import re
from datetime import datetime

LANGS = ("en", "pl", "bg")

TEXTS = {
    "en": {
        "html": "en",
        "versus": "%s v %s",
        "wins": "%s wins %d-%d",
        "score_state": "%d-%d, %s",
        "in_progress": "in progress",
        "no_winner": "no winner",
        "no_date": "no date",
        "match_id": "match %s",
        "stored": "stored as %s",
        "st.finished": "finished",
        "st.abandoned": "abandoned",
        "st.unfinished": "unfinished",
        "g.snooker": "snooker",
        "g.eightball": "eightball",
        "g.nineball": "nineball",
        "g.tenball": "tenball",
        "g.straight": "straight",
        "f.best-of": "best-of %d",
        "f.frames": "frames %d",
        "f.frames_points": "frames %d by points",
        "f.race-to": "race-to %d",
        "f.points": "points %d",
        "h.progression": "Score progression",
        "h.frames": "Frames and breaks",
        "h.shots": "Shot times",
        "frame": "frame %d",
        "rack": "rack %d",
        "racks": "racks",
        "events": "%d events",
        "th.frame": "frame",
        "th.rack": "rack",
        "th.breaker": "breaker",
        "th.score": "score",
        "th.winner": "winner",
        "th.how": "how",
        "th.breaks": "breaks %s",
        "in_play": "in play",
        "how.potted": "potted",
        "how.fouled": "fouled",
        "how.conceded": "conceded",
        "how.claimed": "claimed",
        "how.awarded": "awarded",
        "how.restarted": "restarted",
        "how.drawn": "drawn",
        "how.forfeited": "forfeited",
        "how.abandoned": "abandoned",
        "how.won": "won",
        "how.fouls": "fouls",
        "high_break": "High break: %s %d, %s %d.",
        "no_times": "No times in this journal (no %s stamps).",
        "th.side": "side",
        "th.shots": "shots",
        "th.average": "average",
        "th.longest": "longest",
        "seconds": "%s s",
        "decimal": ".",
        "match_time": "Match time %d:%02d:%02d.",
        "pulled": "From the journal pulled %s.",
        "date": "%d %s %d",
        "date_time": "%s, %s",
        "utc": "%s UTC",
        "m01": "January", "m02": "February", "m03": "March", "m04": "April",
        "m05": "May", "m06": "June", "m07": "July", "m08": "August",
        "m09": "September", "m10": "October", "m11": "November", "m12": "December",
    },
    "pl": {
        "html": "pl",
        "versus": "%s – %s",
        "wins": "%s wygrywa %d:%d",
        "score_state": "%d:%d, %s",
        "in_progress": "w trakcie",
        "no_winner": "bez zwycięzcy",
        "no_date": "bez daty",
        "match_id": "mecz %s",
        "stored": "zapisany jako %s",
        "st.finished": "zakończony",
        "st.abandoned": "przerwany",
        "st.unfinished": "niedokończony",
        "g.snooker": "snooker",
        "g.eightball": "ósemka",
        "g.nineball": "dziewiątka",
        "g.tenball": "dziesiątka",
        "g.straight": "14/1",
        "f.best-of": "z %d frejmów",
        "f.frames": "%d frejmów",
        "f.frames_points": "%d frejmów na punkty",
        "f.race-to": "do %d wygranych",
        "f.points": "do %d punktów",
        "h.progression": "Przebieg wyniku",
        "h.frames": "Frejmy i brejki",
        "h.shots": "Czasy uderzeń",
        "frame": "frejm %d",
        "rack": "partia %d",
        "racks": "partie",
        "events": "zdarzenia: %d",
        "th.frame": "frejm",
        "th.rack": "partia",
        "th.breaker": "rozbija",
        "th.score": "wynik",
        "th.winner": "zwycięzca",
        "th.how": "jak",
        "th.breaks": "brejki %s",
        "in_play": "w grze",
        "how.potted": "wbicie",
        "how.fouled": "faul",
        "how.conceded": "poddany",
        "how.claimed": "oznajmiony",
        "how.awarded": "przyznany",
        "how.restarted": "od nowa",
        "how.drawn": "remis",
        "how.forfeited": "walkower",
        "how.abandoned": "przerwany",
        "how.won": "wygrana",
        "how.fouls": "trzy faule",
        "high_break": "Najwyższy brejk: %s %d, %s %d.",
        "no_times": "Bez czasów w tym dzienniku (brak znaczników %s).",
        "th.side": "strona",
        "th.shots": "uderzenia",
        "th.average": "średnio",
        "th.longest": "najdłużej",
        "seconds": "%s s",
        "decimal": ",",
        "match_time": "Czas meczu %d:%02d:%02d.",
        "pulled": "Z dziennika pobranego %s.",
        "date": "%d %s %d",
        "date_time": "%s, %s",
        "utc": "%s UTC",
        "m01": "stycznia", "m02": "lutego", "m03": "marca", "m04": "kwietnia",
        "m05": "maja", "m06": "czerwca", "m07": "lipca", "m08": "sierpnia",
        "m09": "września", "m10": "października", "m11": "listopada", "m12": "grudnia",
    },
    "bg": {
        "html": "bg",
        "versus": "%s – %s",
        "wins": "%s печели %d:%d",
        "score_state": "%d:%d, %s",
        "in_progress": "в ход",
        "no_winner": "без победител",
        "no_date": "без дата",
        "match_id": "мач %s",
        "stored": "записан като %s",
        "st.finished": "завършен",
        "st.abandoned": "прекъснат",
        "st.unfinished": "незавършен",
        "g.snooker": "снукър",
        "g.eightball": "осмица",
        "g.nineball": "деветка",
        "g.tenball": "десетка",
        "g.straight": "14/1",
        "f.best-of": "от %d фрейма",
        "f.frames": "%d фрейма",
        "f.frames_points": "%d фрейма на точки",
        "f.race-to": "до %d гейма",
        "f.points": "до %d точки",
        "h.progression": "Развитие на резултата",
        "h.frames": "Фреймове и серии",
        "h.shots": "Време за удар",
        "frame": "фрейм %d",
        "rack": "гейм %d",
        "racks": "геймове",
        "events": "събития: %d",
        "th.frame": "фрейм",
        "th.rack": "гейм",
        "th.breaker": "разбива",
        "th.score": "резултат",
        "th.winner": "победител",
        "th.how": "как",
        "th.breaks": "серии %s",
        "in_play": "в игра",
        "how.potted": "вкарана",
        "how.fouled": "фаул",
        "how.conceded": "отказ",
        "how.claimed": "обявен",
        "how.awarded": "присъден",
        "how.restarted": "отначало",
        "how.drawn": "равен",
        "how.forfeited": "служебна загуба",
        "how.abandoned": "прекъснат",
        "how.won": "спечелен",
        "how.fouls": "три фаула",
        "high_break": "Най-висока серия: %s %d, %s %d.",
        "no_times": "Без времена в този дневник (няма отметки %s).",
        "th.side": "страна",
        "th.shots": "удари",
        "th.average": "средно",
        "th.longest": "най-дълго",
        "seconds": "%s с",
        "decimal": ",",
        "match_time": "Време на мача %d:%02d:%02d.",
        "pulled": "От дневника, изтеглен на %s.",
        "date": "%d %s %d г.",
        "date_time": "%s, %s",
        "utc": "%s UTC",
        "m01": "януари", "m02": "февруари", "m03": "март", "m04": "април",
        "m05": "май", "m06": "юни", "m07": "юли", "m08": "август",
        "m09": "септември", "m10": "октомври", "m11": "ноември", "m12": "декември",
    },
}

# What `date`, `setup --date` and sync's `pulled_at` write: YYYY-MM-DD, a time to the
# minute or second, Z for UTC.
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z)?)?")


def date(text, t):
    """A stored date (`2026-11-29T18:03`, `...:05Z`) in the words of table `t`
    (`29 listopada 2026, 18:03`; `UTC` after a time in UTC). Anything else, a date
    that is no day of the calendar among them, is given back as it is."""
    m = _DATE.fullmatch(text)
    if m is None:
        return text
    year, month, day, hour, minute, second, utc = m.groups()
    try:
        datetime(int(year), int(month), int(day), int(hour or 0), int(minute or 0),
                 int(second or 0))
    except ValueError:
        return text
    out = t["date"] % (int(day), t["m" + month], int(year))
    if hour is not None:
        out = t["date_time"] % (out, "%s:%s" % (hour, minute))
    if utc:
        out = t["utc"] % out
    return out


def seconds(ms, t):
    """`ms` as seconds to a tenth, with the language's decimal mark (`12,3 s`)."""
    return t["seconds"] % ("%.1f" % (ms / 1000)).replace(".", t["decimal"])
