# ruff: noqa: RUF001  (Cyrillic letters look like Latin ones: they are the language)
"""Issue 38 item 4: the tournament in the club's language. Every template the library,
the desk and `scoreboard tournament` say (TournamentError, Said, the words of a kind
of result, a status, a game ...) is in the Polish and the Bulgarian table with the same
`%` conversions in the same order, and no table keeps a template nobody says any more;
`scoreboard tournament --lang pl|bg` prints its refusals, `show`'s text, the game's and
the options' words in the language; the box's own refusals of a header (the rules core,
in English on every box) are said there too where the library knows them."""

import ast
import re

import pytest

from host_tools.tournament import TournamentError, conditions, players
from host_tools.tournament.model import HOWS, STAGE_KEYS, STATUSES
from host_tools.tournament.says import CORE, Said, core, english, text
from host_tools.tournament.view import FORMAT_NAMES
from host_tools.tournament.words import TABLES
from support.mpy import REPO
from support.vdev import scoreboard

SOURCES = [*sorted((REPO / "host_tools" / "tournament").glob("*.py")),
           *(REPO / "host_tools" / "live" / n for n in ("desk.py", "desk_body.py", "onbox.py")),
           REPO / "host_tools" / "commands" / "tournament.py"]
WORDS = {"how": HOWS, "status": STATUSES, "format": (*FORMAT_NAMES.values(), *FORMAT_NAMES),
         "game": ("snooker", "eightball", "nineball", "tenball", "straight"),
         "stage": STAGE_KEYS, "breaks": ("alternate", "winner", "loser"),
         "script": ("latin", "cyrillic", "greek")}
# Templates made of a word and a number (says.length), or chosen from a dict (advance).
MADE = ("race-to %d", "best-of %d", "the winner of %s", "the loser of %s", "the reset of %s")


def said_templates():
    """The English templates the code says: the first argument of TournamentError(),
    Said() (the second of _say()), as literals, both arms of a literal `if else`."""
    out = set()
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            fn = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if fn not in ("TournamentError", "Said", "_say") or not node.args:
                continue
            arg = node.args[1] if fn == "_say" else node.args[0]
            for x in (arg.body, arg.orelse) if isinstance(arg, ast.IfExp) else (arg,):
                if isinstance(x, ast.Constant) and isinstance(x.value, str):
                    out.add(x.value)
    return out


def every_key():
    keys = said_templates() | set(CORE) | set(MADE)
    keys |= {"%s|%s" % (c, w) for c, ws in WORDS.items() for w in ws}
    return keys - {"%s"}


def _conversions(template):
    return re.findall(r"%[-0-9.]*[sdx]|%%|%0\dX", template)


@pytest.mark.parametrize("lang", sorted(TABLES))
def test_every_template_is_in_every_language_with_its_conversions(lang):
    table = TABLES[lang]
    keys = every_key()
    assert len(keys) > 150
    missing = sorted(k for k in keys if k not in table)
    assert not missing, "%s lacks %s" % (lang, missing)
    for key in keys:
        assert _conversions(english(key)) == _conversions(table[key]), (lang, key)
    stale = sorted(k for k in table if k not in keys)
    assert not stale, "%s keeps templates nobody says: %s" % (lang, stale)


def test_a_refusal_is_english_by_str_and_the_language_by_text():
    with pytest.raises(TournamentError) as e:
        players.entries("name\nAnn\nBob\n", "players")
    assert str(e.value) == "players: 2 players; a tournament takes 3 to 256"
    assert text(e.value, "pl") == "lista zawodników: zawodników: 2; turniej przyjmuje od 3 do 256"
    assert text(e.value, "bg") == "списъкът с играчи: играчи: 2; турнирът приема от 3 до 256"


@pytest.mark.parametrize("lang, want", [
    ("pl", ("etap drabinka zwycięzców: rules pushout=0: „pushout” to ustawienie dziewiątki "
            "i dziesiątki")),
    ("bg", ("етап схема на победителите: rules pushout=0: „pushout“ е настройка на деветка "
            "и десетка"))])
def test_the_boxs_refusal_of_a_header_is_said_in_the_language(lang, want):
    with pytest.raises(TournamentError) as e:
        conditions.conditions("single", "eightball", rules={"pushout": 0})
    assert text(e.value, lang) == want
    assert str(e.value) == ("the winners stage: rules pushout=0: 'pushout' is a nine-ball "
                            "and ten-ball setting")


def test_an_unknown_refusal_stays_as_the_box_said_it():
    said = core("something new the box says")
    assert text(said, "pl") == "something new the box says"
    assert isinstance(said, Said)


def _run(*args):
    return scoreboard("tournament", *args)


def test_scoreboard_tournament_speaks_the_clubs_language(tmp_path):
    db = str(tmp_path / "r.sqlite")
    csv = tmp_path / "gracze.csv"
    csv.write_text("nazwisko;imię;klub;rozstawienie\nŁuczak;Ewa;KS Bila;1\nPetrov;Ivan;;\n"
                   "Kray;Bob;;\nLee;Ann;;\n", encoding="utf-8")
    rc, out, err = _run("create", "Turniej sobotni 12.12", "--format", "single", "--players",
                        csv, "--race", "2", "--breaks", "winner", "--seed", "3", "--db", db,
                        "--lang", "pl")
    assert rc == 0, err
    assert "Turniej sobotni 12.12: pojedyncza eliminacja, zawodników: 4, meczów: 3" in out
    assert "identyfikator (w meczach na tablicach i adresach stron): Turniej-sobotni-12.12" in out
    rc, out, err = _run("show", "Turniej-sobotni-12.12", "--db", db, "--lang", "pl")
    assert rc == 0, err
    assert out.startswith("Turniej sobotni 12.12: pojedyncza eliminacja, ósemka, zawodników: 4")
    assert "drabinka zwycięzców (do 2 wygranych; rozbija zwycięzca)" in out
    assert "Ewa Łuczak (1)" in out and "[gotowy]" in out
    rc, out, err = _run("result", "Turniej sobotni 12.12", "W1-01", "Ewa Łuczak", "2", "2",
                        "--db", db, "--lang", "bg")
    assert rc == 1 and out == ""
    assert err.strip() == ("tournament: W1-01 се играе до 2 победи: победителят има 2, "
                           "загубилият по-малко; 2:2 не го завършва с този победител")
    rc, out, err = _run("show", "Nie ma", "--db", db, "--lang", "pl")
    assert rc == 1
    assert err.strip() == ("tournament: w bazie nie ma turnieju Nie ma (są: Turniej sobotni "
                           "12.12)")
    rc, _, err = _run("show", "x", "--db", db, "--lang", "de")
    assert rc == 2 and err.strip() == "tournament: --lang de: the tournament speaks en, pl or bg"
