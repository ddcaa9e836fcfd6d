# ruff: noqa: RUF001  (Cyrillic letters look like Latin ones: they are the language)
"""Issue 38 items 4 and 6 (N12): the event's name as the club writes it, the id made of
it for the boxes and the pages' addresses; the players' CSV with its headers in the
club's language; look-alike names (NFKC forms, zero-width and direction characters,
Latin and Cyrillic mixed in one word, whole names in the letters the two alphabets
share) taken as one player, or refused, never as two players who look the same."""

import re

import pytest

from host_tools.results.db import open_db
from host_tools.tournament import TournamentError, naming, players, store
from scoreboard.core.words import check_id

CONDITIONS = {s: {"match": "race-to 2"} for s in ("winners", "losers", "final", "group")}


@pytest.mark.parametrize("name, ident", [
    ("Turniej sobotni 12.12", "Turniej-sobotni-12.12"),
    ("Зимна купа – Щерев 2026", "Zimna-kupa-Shterev-2026"),
    ("Łódź Open: ½ finału!", "Lodz-Open-1-2-finalu"),
    ("Cup26", "Cup26"),            # an id already: its own (the tournaments made before)
    ("CUP26-W.final_2", "CUP26-W.final_2"),
    ("  Dwa   spacje ", "Dwa-spacje"),
    ("Con", "Con-event"), ("con.", "con-event"), ("NUL turniej", "NUL-turniej"),
    ("Γιώργος Cup", "Giorgos-Cup"),
    ("Ж" * 64, "Zh" * 16),
])
def test_the_id_made_of_a_name(name, ident):
    got = naming.slug(name)
    assert got == ident
    assert check_id(got) == got and len(got) <= naming.ID_MAX


@pytest.mark.parametrize("name, why", [
    ("", "needs a name"), ("   ", "needs a name"),
    ("A" * 65, "is 65 characters (at most 64)"),
    ("Turniej\u200bsobotni", "does not show (U+200B)"),
    ("\u202eTurniej", "does not show (U+202E)"),
    ("中文", "no letter or digit to make its id of"),
    ("!!!", "no letter or digit"),
])
def test_a_name_that_cannot_be_written_is_refused(name, why):
    with pytest.raises(TournamentError, match=re.escape(why)):
        naming.check_name(name)


def _csv(*names):
    return "name\n" + "\n".join(names) + "\n"


def test_a_tournament_is_found_by_its_name_or_its_id_and_the_ids_never_clash(tmp_path):
    db = open_db(str(tmp_path / "r.sqlite"))
    try:
        t = store.make("Turniej sobotni 12.12", "single",
                       players.entries(_csv("Ann", "Bob", "Cy", "Dee")), "eightball",
                       CONDITIONS, 1)
        store.create(db, t, "test")
        for key in ("Turniej sobotni 12.12", "Turniej-sobotni-12.12", " Turniej  sobotni 12.12"):
            assert store.load(db, key).name == "Turniej sobotni 12.12"
        # the boxes' match ids are the id's
        rows = db.rows("SELECT box_match FROM tournament_matches WHERE tournament = ?",
                       (t.name,))
        assert sorted(r[0] for r in rows)[0] == "Turniej-sobotni-12.12-F1"
        assert store.find_box_match(db, "Turniej-sobotni-12.12-W1-01") == (
            "Turniej sobotni 12.12", "W1-01")
        store.assign(db, "Turniej-sobotni-12.12", "W1-01", 3, "test")
        assert store.load(db, t.name).tables == {"W1-01": 3}
        other = store.make("Turniej: sobotni 12.12", "single",
                           players.entries(_csv("Ann", "Bob", "Cy")), "eightball", CONDITIONS, 1)
        with pytest.raises(TournamentError, match=re.escape(
                "its id Turniej-sobotni-12.12 is tournament Turniej sobotni 12.12's already")):
            store.create(db, other, "test")
        with pytest.raises(TournamentError, match="no tournament Nope in the database"):
            store.load(db, "Nope")
    finally:
        db.close()


@pytest.mark.parametrize("text", [
    "nazwisko;imię;klub;rozstawienie\nŁuczak;Ewa;KS Bila;1\nPetrov;Ivan;;\nLee;Ann;;2\n",
    "Imię,Nazwisko,Klub\nEwa,Łuczak,KS Bila\nIvan,Petrov,\nAnn,Lee,\n",
    "фамилия,име,клуб,поставяне\nŁuczak,Ewa,KS Bila,1\nPetrov,Ivan,,\nLee,Ann,,2\n",
    "first name,last name,club,seed\nEwa,Łuczak,KS Bila,1\nIvan,Petrov,,\nAnn,Lee,,2\n",
    "zawodnik,klub\nEwa Łuczak,KS Bila\nIvan Petrov,\nAnn Lee,\n",
    "играч\tклуб\nEwa Łuczak\tKS Bila\nIvan Petrov\t\nAnn Lee\t\n",
])
def test_the_players_headers_in_the_clubs_language(text):
    got = players.entries(text)
    assert [e.name for e in got] == ["Ewa Łuczak", "Ivan Petrov", "Ann Lee"]
    assert got[0].club == "KS Bila" and got[1].club is None
    if "1" in text:
        assert [e.seed for e in got] == [1, None, 2]


@pytest.mark.parametrize("names, why", [
    (("Ann", "Ann\u200b", "Cy"), "does not show (U+200B)"),
    (("Ann", "\u202eenilno\u202c", "Cy"), "does not show (U+202E)"),
    (("Ann", "A\u043dn", "Cy"), 'mixes cyrillic and latin letters in one word'),
    (("Ann", "\u0410nn", "Cy"), "mixes cyrillic and latin"),
    (("Ace", "\u0410\u0441\u0435", "Cy"), 'row 3: "Асе" is row 2\'s name already'),
    (("Ann", "ＡＮＮ", "Cy"), 'row 3: "ANN" is row 2\'s name already'),  # full width: NFKC
    (("Ann Lee", "ann  lee", "Cy"), "is row 2's name already"),
    (("Ѕоfіа", "Sofia", "Cy"), "mixes"),
])
def test_look_alike_names_are_one_player_or_refused(names, why):
    with pytest.raises(TournamentError, match=re.escape(why)):
        players.entries(_csv(*names))


def test_names_of_one_alphabet_each_and_real_diacritics_are_taken():
    got = players.entries(_csv("Иван Petrov", "Zoë Brontë", "Łukasz Żółć", "Γιώργος",
                               "e\u0301lise"))  # a combining accent: NFKC makes it é
    assert [e.name for e in got] == ["Иван Petrov", "Zoë Brontë", "Łukasz Żółć", "Γιώργος",
                                     "\u00e9lise"]


@pytest.mark.parametrize("name", ["\u202eenilno\u202c", "Ann\u200b", "A\u200dnn"])
def test_setup_refuses_a_name_that_does_not_show_either(tmp_path, name):
    """N12's `scoreboard setup` half: a draw whose name holds a direction override or a
    zero-width character is refused before anything is queued on a box."""
    from host_tools.results.draw import SetupError, prepare

    draw = tmp_path / "final.sbn"
    draw.write_text('sbn 1\ngame snooker\nmatch best-of 3\nside A "%s"\nside B "Bob"\n' % name,
                    encoding="utf-8")
    with pytest.raises(SetupError, match=re.escape("side A name") + ".*" + re.escape(
            "a character that does not show (U+%04X)" % ord(next(
                c for c in name if c in "\u202e\u200b\u200d")))):
        prepare(draw)
