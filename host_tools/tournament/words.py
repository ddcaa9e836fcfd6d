# ruff: noqa: RUF001  (Cyrillic letters look like Latin ones: they are the language)
"""The tournament library's words in Polish and Bulgarian (says.py says how they are
used): each table maps an English template (the key) to the language's, with the same
`%` conversions in the same order. The terms are the rule books' and the box's own
tables' (firmware/scoreboard/lang/): Polish mecz, frejm, partia (a rack), stół, drabinka,
rozstawienie, walkower; Bulgarian мач, фрейм, гейм (a rack), маса, схема, поставяне,
служебна победа. Where a sentence would take a player's grammatical gender, it is said
without one (a verb in the present tense, a noun for the place): the CSV does not say
who is a woman.
"""

PL = {
    # words
    "how|played": "rozegrany", "how|walkover": "walkower", "how|retired": "poddany",
    "how|abandoned": "przerwany",
    "status|waiting": "czeka", "status|ready": "gotowy", "status|assigned": "przydzielony",
    "status|called": "wywołany", "status|playing": "w grze", "status|done": "zakończony",
    "status|bye": "wolny los", "status|walkover": "walkower",
    "format|single elimination": "pojedyncza eliminacja",
    "format|double elimination": "podwójna eliminacja",
    "format|groups, then a knockout": "grupy, potem faza pucharowa",
    "format|single": "pojedyncza eliminacja", "format|double": "podwójna eliminacja",
    "format|groups": "grupy, potem faza pucharowa",
    "race-to %d": "do %d wygranych", "best-of %d": "z %d frejmów",
    "game|eightball": "ósemka", "game|nineball": "dziewiątka", "game|tenball": "dziesiątka",
    "game|snooker": "snooker", "game|straight": "14/1",
    "stage|winners": "drabinka zwycięzców", "stage|losers": "drabinka przegranych",
    "stage|final": "finał", "stage|group": "grupy",
    "breaks|alternate": "na przemian", "breaks|winner": "zwycięzca", "breaks|loser": "przegrany",
    "script|latin": "łacińskie", "script|cyrillic": "cyrylickie", "script|greek": "greckie",
    "v": "–", "nobody": "nikt", "its result": "swój wynik", "started": "się zaczął",
    # a match, and who comes to a side
    "%s (%s v %s)": "%s (%s – %s)",
    "%s (%s beat %s, %s)": "%s (wygrywa %s, przegrywa %s, %s)",
    "%s (%s %d-%d %s)": "%s (%s %d:%d %s)",
    "the winner of %s": "zwycięzca %s", "the loser of %s": "przegrany %s",
    "the reset of %s": "dogrywka %s",
    "group %s's winner": "grupa %s, miejsce 1", "group %s's runner-up": "grupa %s, miejsce 2",
    "group %s's no. %s": "grupa %s, miejsce %s",
    "%s the winner, %d-%d": "%s wygrywa, %d:%d", "%s, %s": "%s, %s",
    # refusals of a result
    "%s is %s: the winner has %d, the loser fewer; %d-%d does not end it with that winner":
        "%s gra się %s: zwycięzca ma %d, przegrany mniej; %d:%d nie kończy go z tym "
        "zwycięzcą",
    "unknown kind of result %s": "nieznany rodzaj wyniku %s",
    "no match %s in %s": "nie ma meczu %s w turnieju %s",
    "%s is a bye: there is nothing to play": "%s to wolny los: nie ma czego grać",
    "%s waits for its players (%s v %s)": "%s czeka na zawodników (%s – %s)",
    "%s has its result already: %s; a correction needs --correct":
        "%s ma już wynik: %s; zmienia go tylko poprawka (Popraw wynik)",
    "%s has no result to correct": "%s nie ma wyniku do poprawienia",
    "the winner of %s is %s or %s, not %s": "zwycięzcą %s jest %s albo %s, nie %s",
    "a played match needs its score": "rozegrany mecz wymaga wyniku",
    "a result %s has no score (seed 004 1.13-1.14: winner and loser only): give - - as "
    "the scores": "wynik „%s” nie ma punktów (tylko zwycięzca i przegrany): zostaw puste "
                  "pola wyniku",
    "%s cannot be corrected that way: it changes who plays in %s, which has %s":
        "%s nie da się tak poprawić: zmienia to zawodników meczu %s, który ma już %s",
    # the tables
    "table %s: tables are numbered 1 to %d": "stół %s: stoły mają numery od 1 do %d",
    "%s is not ready: %s": "%s nie jest gotowy: %s",
    "table %d is busy: %s is %s there": "stół %d jest zajęty: %s – %s",
    "it is a bye": "to wolny los", "it has its result (%s)": "ma już wynik (%s)",
    "it is being played": "jest w grze",
    "it is being played on table %d": "jest w grze na stole %d",
    "it waits for its players (%s v %s)": "czeka na zawodników (%s – %s)",
    "a player is in %s first (%s)": "zawodnik gra najpierw w %s (%s)",
    "%s was called already, at %s": "%s został już wywołany, o %s",
    "%s has no table yet: assign it first": "%s nie ma jeszcze stołu: najpierw go przydziel",
    "%s cannot be called: %s": "nie można wywołać %s: %s",
    "%s is not called: %s": "%s nie jest wywołany: %s",
    # results from the boxes
    "%s waits for its players: the box's %s v %s cannot be its result":
        "%s czeka na zawodników: mecz z tablicy (%s – %s) nie może być jego wynikiem",
    "%s has a result entered by hand (%s); the box's is %s: make them agree with "
    "`scoreboard tournament result --correct`":
        "%s ma wynik wpisany ręcznie (%s), a tablica podaje %s: uzgodnij je poprawką",
    "the box played %s v %s, but %s is %s now: enter its result by hand":
        "tablica rozegrała %s – %s, ale %s to teraz %s: wpisz wynik ręcznie",
    # the tournament and its name
    "there is a tournament %s already": "turniej %s już jest",
    "tournament name %s: its id %s is tournament %s's already (give it another name)":
        "nazwa turnieju %s: jej identyfikator %s ma już turniej %s (nadaj inną nazwę)",
    "no tournament %s in the database (it holds %s)": "w bazie nie ma turnieju %s (są: %s)",
    "no tournament %s in the database": "w bazie nie ma turnieju %s",
    "no tournament %s": "nie ma turnieju %s",
    "the tournament needs a name": "turniej musi mieć nazwę",
    "tournament name %s is %d characters (at most %d)":
        "nazwa turnieju %s ma %d znaków (najwyżej %d)",
    "tournament name %s: a character that does not show (U+%04X)":
        "nazwa turnieju %s: znak, którego nie widać (U+%04X)",
    "tournament name %s: no letter or digit to make its id of (A-Z a-z 0-9)":
        "nazwa turnieju %s: brak liter lub cyfr na identyfikator (A-Z a-z 0-9)",
    # the players' CSV
    "cannot read %s: %s": "nie można odczytać %s: %s",
    "%s: no players in it (a header row: name,seed,club, then one player a row)":
        "%s: brak zawodników (wiersz nagłówka: nazwisko,imię,klub,rozstawienie, potem "
        "jeden zawodnik w wierszu)",
    "%s row 1: no name column: the header row names the columns name[,seed][,club]":
        "%s, wiersz 1: brak kolumny z nazwiskiem: wiersz nagłówka nazywa kolumny "
        "nazwisko,imię[,klub][,rozstawienie] (albo name[,seed][,club])",
    "%s: no name": "%s: brak nazwiska",
    '%s: "%s" holds a character that does not show (U+%04X): type the name again':
        "%s: „%s” zawiera znak, którego nie widać (U+%04X): wpisz nazwisko jeszcze raz",
    '%s: "%s" mixes %s and %s letters in one word: type it in one alphabet':
        "%s: „%s” łączy litery %s i %s w jednym słowie: wpisz je jednym alfabetem",
    '%s: "%s" is row %d\'s name already': "%s: „%s” jest już w wierszu %d",
    '%s: seed "%s": a whole number from 1': "%s: rozstawienie „%s”: liczba całkowita od 1",
    "%s: seed %d is row %d's already": "%s: rozstawienie %d ma już wiersz %d",
    "%s: %d players; a tournament takes %d to %d":
        "%s: zawodników: %d; turniej przyjmuje od %d do %d",
    "%s row %s": "%s, wiersz %s", "players": "lista zawodników",
    '%s: a quote (") is never closed': "%s: cudzysłów (\") nie jest zamknięty",
    "%s: a cell is longer than %s characters": "%s: komórka ma więcej niż %s znaków",
    '%s: a quote (") inside a quoted cell must be doubled ("")':
        '%s: cudzysłów (") wewnątrz komórki w cudzysłowie trzeba podwoić ("")',
    "%s: column %s is given twice": "%s: kolumna %s jest dwa razy",
    "%s: columns %s and %s both name %s: keep one":
        "%s: kolumny %s i %s obie podają %s: zostaw jedną",
    "%s: column %s: a line break or control character (%s) is not allowed in a cell":
        "%s: kolumna %s: w komórce nie może być końca wiersza ani znaku sterującego (%s)",
    '%s: side %s name "%s": the box has no glyph for any of its characters (it draws '
    "Latin, Greek and Cyrillic letters)":
        "%s: strona %s, nazwisko „%s”: tablica nie ma żadnej z tych liter (rysuje litery "
        "łacińskie, greckie i cyrylicę)",
    '%s: side %s name "%s": a character that does not show (U+%s): type the name again':
        "%s: strona %s, nazwisko „%s”: znak, którego nie widać (U+%s): wpisz je jeszcze raz",
    "%s: not UTF-16 text, though it starts as such":
        "%s: to nie jest tekst UTF-16, choć tak się zaczyna",
    '%s: not UTF-8 (byte %s): save it as "CSV UTF-8" (in Excel: Save As, CSV UTF-8) or as '
    "UTF-8 text": "%s: to nie jest UTF-8 (bajt %s): zapisz plik jako „CSV UTF-8” (w Excelu: "
                  "Zapisz jako, CSV UTF-8) albo jako tekst UTF-8",
    # the stages and their conditions
    "the %s stage: %s": "etap %s: %s",
    "the %s stage: a knockout needs a winner: race-to or best-of":
        "etap %s: w fazie pucharowej ktoś musi wygrać: do N wygranych albo z N frejmów",
    "--format %s has no %s stage": "system %s nie ma etapu %s",
    "%s %s: on or off": "%s %s: tak albo nie",
    "--format groups needs --groups G and --advance K":
        "system z grupami wymaga liczby grup i liczby awansujących z każdej",
    "--groups and --advance are for --format groups":
        "liczba grup i awansujących są tylko dla systemu z grupami",
    "a double elimination needs 3 players at least":
        "podwójna eliminacja wymaga co najmniej 3 zawodników",
    "--groups %d: 1 to %d groups": "grupy: %d; od 1 do %d grup",
    "--groups %d: %d players make groups of %d: at most %d a group (give more --groups)":
        "grupy: %d; %d zawodników daje grupy po %d: najwyżej %d w grupie (daj więcej grup)",
    "%d players make groups of %d: two players a group at least":
        "%d zawodników daje grupy po %d: co najmniej dwóch w grupie",
    "--advance %d: 1 to %d (the smallest group has %d players)":
        "awans: %d; od 1 do %d (najmniejsza grupa ma zawodników: %d)",
    "--groups %d --advance %d sends one player on: a knockout needs two":
        "grupy: %d, awans: %d – dalej idzie jeden zawodnik, a faza pucharowa wymaga dwóch",
    "%s: '%s' is a nine-ball and ten-ball setting":
        "%s: „%s” to ustawienie dziewiątki i dziesiątki",
    "%s: '%s' is a pool setting": "%s: „%s” to ustawienie bilardu (pool)",
    "%s: '%s' is a snooker setting": "%s: „%s” to ustawienie snookera",
    "%s: %s is played as %s": "%s: %s gra się jako %s",
    "%s: best-of needs an odd number of frames": "%s: „z N frejmów” wymaga nieparzystego N",
    "%s: a whole number of seconds is needed": "%s: potrzebna całkowita liczba sekund",
    "%s: clock: shot=S is required": "%s: zegar wymaga shot=S (sekundy na strzał)",
    "%s: unknown clock key '%s' (%s)": "%s: nieznane ustawienie zegara „%s” (%s)",
    "game must be one of %s, not '%s'": "gra to jedna z: %s, nie „%s”",
    # the desk's page
    '"%s": a text is needed': "„%s”: potrzebny tekst",
    '"%s": true or false (a JSON boolean)': "„%s”: true albo false (wartość logiczna JSON)",
    '"stages": an object {stage: {"race" or "best_of": N}}':
        '„stages”: obiekt {etap: {"race" albo "best_of": N}}',
    '"winner": a player\'s id or name': "„winner”: numer albo nazwisko zawodnika",
    "%s: a whole number from %d": "%s: liczba całkowita od %d",
    "the format is %s": "system to %s",
    "give a race or a best-of, not both": "podaj „do N wygranych” albo „z N frejmów”, nie oba",
    "no stage %s (the stages: %s)": "nie ma etapu %s (etapy: %s)",
    "breaks %s: alternate, winner or loser": "rozbija %s: na przemian, zwycięzca albo przegrany",
    "a score is two numbers": "wynik to dwie liczby",
    "give both scores": "podaj oba wyniki",
    "%s: which table?": "%s: który stół?",
    "%s; its header stays queued on the box": "%s; mecz zostaje w kolejce na tablicy",
    "table %s's box: %s": "tablica stołu %s: %s",
    "not moved: %s": "nie przeniesiono: %s",
    "not moved: table %s's box %s says %s": "nie przeniesiono: tablica stołu %s (%s) mówi: %s",
    "taken back from table %s's box %s": "zabrany z tablicy stołu %s (%s)",
    "table %s's box %s did not hold it": "tablica stołu %s (%s) go nie miała",
    ("table %s's box %s was not reached: its copy stays queued there, and a result from it"
     " is held for the desk"):
        "tablica stołu %s (%s) nie odpowiada: jej kopia zostaje w kolejce, a wynik z niej "
        "czeka na decyzję stołu sędziowskiego",
    ("the box on %s is table %d's (its settings), not table %d's: queue the match on table"
     " %d's box, or set this one with `scoreboard setup --table %d --port %s`"):
        "tablica na %s należy do stołu %d (jej ustawienia), nie do stołu %d: wyślij mecz na "
        "tablicę stołu %d albo ustaw tę: `scoreboard setup --table %d --port %s`",
    ("table %d is claimed by %d boxes (%s): neither gets its matches until one is set to "
     "another table (scoreboard setup --table N --port PORT)"):
        "stół %d zgłasza więcej niż jedna tablica (%d: %s): żadna nie dostaje jego meczów, "
        "dopóki jednej nie "
        "przypiszesz innego stołu (scoreboard setup --table N --port PORT)",
    "held %d: %s from box %s%s: %s; the bracket has %s%s; %s":
        "wstrzymany %d: %s z tablicy %s%s: %s; drabinka ma %s%s; %s",
    " (table %d)": " (stół %d)",
    "no result": "brak wyniku",
    "no held result %s in %s": "nie ma wstrzymanego wyniku %s w %s",
    "held result %s was decided already (%s)": "o wstrzymanym wyniku %s już zdecydowano (%s)",
    "the box refused: match %s has started on the box":
        "tablica odmawia: mecz %s już się na niej zaczął",
    "%s was never assigned to a table by the desk": "%s nie został przydzielony do żadnego stołu",
    "%s is assigned to table %s's box %s, not to box %s":
        "%s jest przydzielony tablicy stołu %s (%s), nie tablicy %s",
    "%s is assigned to table %s, and box %s claims %s":
        "%s jest przydzielony do stołu %s, a tablica %s zgłasza %s",
    "no table": "brak stołu",
    "table %s's box %s is not heard: the call is recorded":
        "tablica stołu %s (%s) nie odpowiada: wywołanie zapisane",
    "%s: held result %d taken": "%s: wstrzymany wynik %d przyjęty",
    "%s: held result %d kept out: the bracket's stays":
        "%s: wstrzymany wynik %d odrzucony: zostaje wynik z drabinki",
    'decide: {"held": N, "take": true or false}': 'decyzja: {"held": N, "take": true lub false}',
    "this needs the desk's token, printed by scoreboard desk at its start: open the desk "
    "by the address it printed": "to wymaga klucza biura, który scoreboard desk wypisuje "
                                 "na starcie: otwórz biuro pod wypisanym adresem",
    "an action is a JSON POST": "akcja to JSON POST",
    "an action comes from the desk's own pages": "akcja musi przyjść ze stron biura",
    "too large: at most %d KB": "za duże: najwyżej %d KB",
    "the action's body is not JSON (or nested too deep)":
        "treść akcji to nie JSON (albo jest zagnieżdżona zbyt głęboko)",
    "the action's body is a JSON object": "treść akcji ma być obiektem JSON",
    # a box's answers
    "the box refused: match %s is over on the box": "tablica odmawia: mecz %s już się na niej "
                                                    "skończył",
    "the box refused: match %s has ended on the box and waits for the referee's ok":
        "tablica odmawia: mecz %s skończył się na niej i czeka na „ok” sędziego",
    "the box refused: match %s is in progress on the box":
        "tablica odmawia: trwa na niej mecz %s",
    "the box refused: match %s is past its first frame":
        "tablica odmawia: mecz %s jest już po pierwszym frejmie",
    "the box refused: match %s was called already": "tablica odmawia: mecz %s już wywołano",
    "the box refused: the referee has the box's menus open: call again once it shows its "
    "start screen": "tablica odmawia: sędzia ma otwarte menu: wywołaj ponownie, gdy tablica "
                    "pokaże ekran startowy",
    "the box refused: match %s was played on the box already":
        "tablica odmawia: mecz %s został już na niej rozegrany",
    "the box refused: no match %s on the box": "tablica odmawia: nie ma na niej meczu %s",
    "the board stopped answering (cable pulled?)":
        "tablica przestała odpowiadać (wyjęty kabel?)",
    # scoreboard tournament's output
    "%s: %s, %d players, %d matches (%d byes), draw seed %d":
        "%s: %s, zawodników: %d, meczów: %d (wolnych losów: %d), ziarno losowania %d",
    "%s: its id (the boxes' match ids, the pages' addresses): %s":
        "%s: identyfikator (w meczach na tablicach i adresach stron): %s",
    "%s: %s, corrected": "%s: %s, poprawiony", "%s: %s": "%s: %s", "  %s: %s": "  %s: %s",
    "  %s: %s  %s": "  %s: %s  %s",
    "%s: champion %s": "%s: turniej wygrywa %s",
    "%s: %s on table %d": "%s: %s na stole %d",
    "%s: %s on table %d, queued on %s": "%s: %s na stole %d, w kolejce na %s",
    "%s: %s called to table %s at %s": "%s: %s wywołany do stołu %s o %s",
    "the call is recorded; table %s's box did not take it: %s":
        "wywołanie zapisane; tablica stołu %s go nie przyjęła: %s",
    "%s; %s": "%s; %s",
    "%s: %s: the call taken back, on table %s again":
        "%s: %s: wywołanie cofnięte, znów przydzielony do stołu %s",
    "score %s: a whole number from 0, or - for none":
        "wynik %s: liczba całkowita od 0 albo - gdy go nie ma",
    "give both scores, or - - for a result without a score":
        "podaj oba wyniki albo - - dla wyniku bez punktów",
    "%s: %s, %s, %d players, draw seed %d": "%s: %s, %s, zawodników: %d, ziarno losowania %d",
    "champion: %s": "turniej wygrywa: %s",
    "%d of %d matches decided": "rozstrzygnięte: %d z %d meczów",
    "%s (%s)": "%s (%s)", "  round %d": "  runda %d",
    "%s %s %s %s  [%s]": "%s %s %s %s  [%s]",
    "(%s)": "(%s)", "bye: %s goes on": "wolny los: dalej idzie %s", "table %d": "stół %d",
    "  table (won-lost, frames for-against)": "  tabela (wygrane-przegrane, frejmy bilans)",
    "    %d. %s  %d-%d  %d-%d": "    %d. %s  %d-%d  %d-%d",
    "group %s": "grupa %s",
    "table board: matches to play: %d": "stoły: meczów do rozegrania: %d",
    "placings:": "klasyfikacja końcowa:", "    %s  %s": "    %s  %s",
    "breaks %s": "rozbija %s", "%s %s": "%s %s",
}

BG = {
    # words
    "how|played": "изигран", "how|walkover": "служебна победа", "how|retired": "отказал се",
    "how|abandoned": "прекратен",
    "status|waiting": "чака", "status|ready": "готов", "status|assigned": "разпределен",
    "status|called": "обявен", "status|playing": "в игра", "status|done": "завършен",
    "status|bye": "почивка", "status|walkover": "служебна победа",
    "format|single elimination": "единична елиминация",
    "format|double elimination": "двойна елиминация",
    "format|groups, then a knockout": "групи, после елиминации",
    "format|single": "единична елиминация", "format|double": "двойна елиминация",
    "format|groups": "групи, после елиминации",
    "race-to %d": "до %d победи", "best-of %d": "от %d фрейма",
    "game|eightball": "осмица", "game|nineball": "деветка", "game|tenball": "десетка",
    "game|snooker": "снукър", "game|straight": "14/1",
    "stage|winners": "схема на победителите", "stage|losers": "схема на загубилите",
    "stage|final": "финал", "stage|group": "групи",
    "breaks|alternate": "поред", "breaks|winner": "победителят", "breaks|loser": "загубилият",
    "script|latin": "латински", "script|cyrillic": "кирилски", "script|greek": "гръцки",
    "v": "–", "nobody": "никой", "its result": "резултат", "started": "започнал",
    # a match, and who comes to a side
    "%s (%s v %s)": "%s (%s – %s)",
    "%s (%s beat %s, %s)": "%s (печели %s, губи %s, %s)",
    "%s (%s %d-%d %s)": "%s (%s %d:%d %s)",
    "the winner of %s": "победител в %s", "the loser of %s": "загубил в %s",
    "the reset of %s": "втори финал след %s",
    "group %s's winner": "група %s, място 1", "group %s's runner-up": "група %s, място 2",
    "group %s's no. %s": "група %s, място %s",
    "%s the winner, %d-%d": "%s печели, %d:%d", "%s, %s": "%s, %s",
    # refusals of a result
    "%s is %s: the winner has %d, the loser fewer; %d-%d does not end it with that winner":
        "%s се играе %s: победителят има %d, загубилият по-малко; %d:%d не го завършва с "
        "този победител",
    "unknown kind of result %s": "непознат вид резултат %s",
    "no match %s in %s": "няма мач %s в турнира %s",
    "%s is a bye: there is nothing to play": "%s е почивка: няма какво да се играе",
    "%s waits for its players (%s v %s)": "%s чака играчите си (%s – %s)",
    "%s has its result already: %s; a correction needs --correct":
        "%s вече има резултат: %s; променя го само поправка (Поправка на резултат)",
    "%s has no result to correct": "%s няма резултат за поправяне",
    "the winner of %s is %s or %s, not %s": "победителят в %s е %s или %s, не %s",
    "a played match needs its score": "изиграният мач трябва да има резултат",
    "a result %s has no score (seed 004 1.13-1.14: winner and loser only): give - - as "
    "the scores": "резултат „%s“ няма точки (само победител и загубил): оставете "
                  "полетата за резултат празни",
    "%s cannot be corrected that way: it changes who plays in %s, which has %s":
        "%s не може да се поправи така: това сменя играчите в %s, който вече има %s",
    # the tables
    "table %s: tables are numbered 1 to %d": "маса %s: масите са с номера от 1 до %d",
    "%s is not ready: %s": "%s не е готов: %s",
    "table %d is busy: %s is %s there": "маса %d е заета: %s – %s",
    "it is a bye": "почивка е", "it has its result (%s)": "вече има резултат (%s)",
    "it is being played": "играе се", "it is being played on table %d": "играе се на маса %d",
    "it waits for its players (%s v %s)": "чака играчите си (%s – %s)",
    "a player is in %s first (%s)": "играч първо играе в %s (%s)",
    "%s was called already, at %s": "%s вече е обявен, в %s",
    "%s has no table yet: assign it first": "%s още няма маса: първо го разпределете",
    "%s cannot be called: %s": "%s не може да бъде обявен: %s",
    "%s is not called: %s": "%s не е обявен: %s",
    # results from the boxes
    "%s waits for its players: the box's %s v %s cannot be its result":
        "%s чака играчите си: мачът от таблото (%s – %s) не може да е негов резултат",
    "%s has a result entered by hand (%s); the box's is %s: make them agree with "
    "`scoreboard tournament result --correct`":
        "%s има резултат, въведен на ръка (%s), а таблото дава %s: изравнете ги с поправка",
    "the box played %s v %s, but %s is %s now: enter its result by hand":
        "таблото изигра %s – %s, но %s сега е %s: въведете резултата на ръка",
    # the tournament and its name
    "there is a tournament %s already": "турнир %s вече има",
    "tournament name %s: its id %s is tournament %s's already (give it another name)":
        "име на турнир %s: идентификаторът му %s вече е на турнир %s (дайте друго име)",
    "no tournament %s in the database (it holds %s)": "в базата няма турнир %s (има: %s)",
    "no tournament %s in the database": "в базата няма турнир %s",
    "no tournament %s": "няма турнир %s",
    "the tournament needs a name": "турнирът трябва да има име",
    "tournament name %s is %d characters (at most %d)":
        "името на турнира %s е %d знака (най-много %d)",
    "tournament name %s: a character that does not show (U+%04X)":
        "име на турнир %s: знак, който не се вижда (U+%04X)",
    "tournament name %s: no letter or digit to make its id of (A-Z a-z 0-9)":
        "име на турнир %s: няма букви или цифри за идентификатор (A-Z a-z 0-9)",
    # the players' CSV
    "cannot read %s: %s": "не може да се прочете %s: %s",
    "%s: no players in it (a header row: name,seed,club, then one player a row)":
        "%s: няма играчи (заглавен ред: фамилия,име,клуб,поставяне, после по един играч "
        "на ред)",
    "%s row 1: no name column: the header row names the columns name[,seed][,club]":
        "%s, ред 1: няма колона с име: заглавният ред назовава колоните "
        "фамилия,име[,клуб][,поставяне] (или name[,seed][,club])",
    "%s: no name": "%s: няма име",
    '%s: "%s" holds a character that does not show (U+%04X): type the name again':
        "%s: „%s“ съдържа знак, който не се вижда (U+%04X): напишете името отново",
    '%s: "%s" mixes %s and %s letters in one word: type it in one alphabet':
        "%s: „%s“ смесва %s и %s букви в една дума: напишете я с една азбука",
    '%s: "%s" is row %d\'s name already': "%s: „%s“ вече е на ред %d",
    '%s: seed "%s": a whole number from 1': "%s: поставяне „%s“: цяло число от 1",
    "%s: seed %d is row %d's already": "%s: поставяне %d вече е на ред %d",
    "%s: %d players; a tournament takes %d to %d":
        "%s: играчи: %d; турнирът приема от %d до %d",
    "%s row %s": "%s, ред %s", "players": "списъкът с играчи",
    '%s: a quote (") is never closed': "%s: кавичките (\") не са затворени",
    "%s: a cell is longer than %s characters": "%s: клетка е по-дълга от %s знака",
    '%s: a quote (") inside a quoted cell must be doubled ("")':
        '%s: кавичка (") в клетка с кавички трябва да е двойна ("")',
    "%s: column %s is given twice": "%s: колона %s е дадена два пъти",
    "%s: columns %s and %s both name %s: keep one":
        "%s: колони %s и %s дават едно и също (%s): оставете една",
    "%s: column %s: a line break or control character (%s) is not allowed in a cell":
        "%s: колона %s: в клетка не може да има нов ред или управляващ знак (%s)",
    '%s: side %s name "%s": the box has no glyph for any of its characters (it draws '
    "Latin, Greek and Cyrillic letters)":
        "%s: страна %s, име „%s“: таблото няма нито една от тези букви (рисува латиница, "
        "гръцки и кирилица)",
    '%s: side %s name "%s": a character that does not show (U+%s): type the name again':
        "%s: страна %s, име „%s“: знак, който не се вижда (U+%s): напишете го отново",
    "%s: not UTF-16 text, though it starts as such":
        "%s: не е текст UTF-16, макар да започва така",
    '%s: not UTF-8 (byte %s): save it as "CSV UTF-8" (in Excel: Save As, CSV UTF-8) or as '
    "UTF-8 text": "%s: не е UTF-8 (байт %s): запишете файла като „CSV UTF-8“ (в Excel: "
                  "Запиши като, CSV UTF-8) или като текст UTF-8",
    # the stages and their conditions
    "the %s stage: %s": "етап %s: %s",
    "the %s stage: a knockout needs a winner: race-to or best-of":
        "етап %s: елиминациите искат победител: до N победи или от N фрейма",
    "--format %s has no %s stage": "системата %s няма етап %s",
    "%s %s: on or off": "%s %s: да или не",
    "--format groups needs --groups G and --advance K":
        "системата с групи иска брой групи и брой продължаващи от всяка",
    "--groups and --advance are for --format groups":
        "брой групи и продължаващи има само в системата с групи",
    "a double elimination needs 3 players at least":
        "двойната елиминация иска поне 3 играчи",
    "--groups %d: 1 to %d groups": "групи: %d; от 1 до %d групи",
    "--groups %d: %d players make groups of %d: at most %d a group (give more --groups)":
        "групи: %d; %d играчи дават групи по %d: най-много %d в група (дайте повече групи)",
    "%d players make groups of %d: two players a group at least":
        "%d играчи дават групи по %d: поне двама в група",
    "--advance %d: 1 to %d (the smallest group has %d players)":
        "продължават: %d; от 1 до %d (най-малката група има играчи: %d)",
    "--groups %d --advance %d sends one player on: a knockout needs two":
        "групи: %d, продължават: %d – напред отива един играч, а елиминациите искат двама",
    "%s: '%s' is a nine-ball and ten-ball setting":
        "%s: „%s“ е настройка на деветка и десетка",
    "%s: '%s' is a pool setting": "%s: „%s“ е настройка на билярд (пул)",
    "%s: '%s' is a snooker setting": "%s: „%s“ е настройка на снукър",
    "%s: %s is played as %s": "%s: %s се играе като %s",
    "%s: best-of needs an odd number of frames": "%s: „от N фрейма“ иска нечетно N",
    "%s: a whole number of seconds is needed": "%s: трябва цял брой секунди",
    "%s: clock: shot=S is required": "%s: часовникът иска shot=S (секунди за удар)",
    "%s: unknown clock key '%s' (%s)": "%s: непозната настройка на часовника „%s“ (%s)",
    "game must be one of %s, not '%s'": "играта е една от: %s, не „%s“",
    # the desk's page
    '"%s": a text is needed': "„%s“: трябва текст",
    '"%s": true or false (a JSON boolean)': "„%s“: true или false (логическа стойност JSON)",
    '"stages": an object {stage: {"race" or "best_of": N}}':
        '„stages“: обект {етап: {"race" или "best_of": N}}',
    '"winner": a player\'s id or name': "„winner“: номер или име на играч",
    "%s: a whole number from %d": "%s: цяло число от %d",
    "the format is %s": "системата е %s",
    "give a race or a best-of, not both": "дайте „до N победи“ или „от N фрейма“, не и двете",
    "no stage %s (the stages: %s)": "няма етап %s (етапите: %s)",
    "breaks %s: alternate, winner or loser": "разбива %s: поред, победителят или загубилият",
    "a score is two numbers": "резултатът е две числа",
    "give both scores": "дайте и двата резултата",
    "%s: which table?": "%s: коя маса?",
    "%s; its header stays queued on the box": "%s; мачът остава на опашката на таблото",
    "table %s's box: %s": "таблото на маса %s: %s",
    "not moved: %s": "не е преместен: %s",
    "not moved: table %s's box %s says %s": "не е преместен: таблото на маса %s (%s) казва: %s",
    "taken back from table %s's box %s": "взет обратно от таблото на маса %s (%s)",
    "table %s's box %s did not hold it": "таблото на маса %s (%s) не го е имало",
    ("table %s's box %s was not reached: its copy stays queued there, and a result from it"
     " is held for the desk"):
        "таблото на маса %s (%s) не се чува: копието остава на опашката му, а резултат от "
        "него се задържа за решение",
    ("the box on %s is table %d's (its settings), not table %d's: queue the match on table"
     " %d's box, or set this one with `scoreboard setup --table %d --port %s`"):
        "таблото на %s е на маса %d (по настройките си), не на маса %d: изпратете мача на "
        "таблото на маса %d или настройте това: `scoreboard setup --table %d --port %s`",
    ("table %d is claimed by %d boxes (%s): neither gets its matches until one is set to "
     "another table (scoreboard setup --table N --port PORT)"):
        "маса %d е заявена от %d табла (%s): никое не получава мачовете ѝ, докато едното не "
        "бъде настроено за друга маса (scoreboard setup --table N --port PORT)",
    "held %d: %s from box %s%s: %s; the bracket has %s%s; %s":
        "задържан %d: %s от табло %s%s: %s; в схемата е %s%s; %s",
    " (table %d)": " (маса %d)",
    "no result": "няма резултат",
    "no held result %s in %s": "няма задържан резултат %s в %s",
    "held result %s was decided already (%s)": "за задържания резултат %s вече е решено (%s)",
    "the box refused: match %s has started on the box":
        "таблото отказва: мач %s вече е започнал на него",
    "%s was never assigned to a table by the desk": "%s не е разпределен на маса",
    "%s is assigned to table %s's box %s, not to box %s":
        "%s е разпределен на таблото на маса %s (%s), не на табло %s",
    "%s is assigned to table %s, and box %s claims %s":
        "%s е разпределен на маса %s, а табло %s заявява %s",
    "no table": "няма маса",
    "table %s's box %s is not heard: the call is recorded":
        "таблото на маса %s (%s) не се чува: обявяването е записано",
    "%s: held result %d taken": "%s: задържаният резултат %d е приет",
    "%s: held result %d kept out: the bracket's stays":
        "%s: задържаният резултат %d е отхвърлен: остава резултатът от схемата",
    'decide: {"held": N, "take": true or false}': 'решение: {"held": N, "take": true или false}',
    "this needs the desk's token, printed by scoreboard desk at its start: open the desk "
    "by the address it printed": "това иска ключа на масата, който scoreboard desk отпечатва "
                                 "при старт: отворете я на отпечатания адрес",
    "an action is a JSON POST": "действието е JSON POST",
    "an action comes from the desk's own pages": "действието трябва да идва от страниците на "
                                                 "масата",
    "too large: at most %d KB": "твърде голямо: най-много %d KB",
    "the action's body is not JSON (or nested too deep)":
        "тялото на действието не е JSON (или е вложено твърде дълбоко)",
    "the action's body is a JSON object": "тялото на действието трябва да е обект JSON",
    # a box's answers
    "the box refused: match %s is over on the box": "таблото отказва: мач %s на него е "
                                                    "завършил",
    "the box refused: match %s has ended on the box and waits for the referee's ok":
        "таблото отказва: мач %s на него е завършил и чака „ok“ от съдията",
    "the box refused: match %s is in progress on the box":
        "таблото отказва: на него се играе мач %s",
    "the box refused: match %s is past its first frame":
        "таблото отказва: мач %s е след първия си фрейм",
    "the box refused: match %s was called already": "таблото отказва: мач %s вече е обявен",
    "the box refused: the referee has the box's menus open: call again once it shows its "
    "start screen": "таблото отказва: съдията е в менютата: обявете отново, когато "
                    "покаже началния екран",
    "the box refused: match %s was played on the box already":
        "таблото отказва: мач %s вече е изигран на него",
    "the box refused: no match %s on the box": "таблото отказва: на него няма мач %s",
    "the board stopped answering (cable pulled?)":
        "таблото спря да отговаря (изваден кабел?)",
    # scoreboard tournament's output
    "%s: %s, %d players, %d matches (%d byes), draw seed %d":
        "%s: %s, играчи: %d, мачове: %d (почивки: %d), зърно на жребия %d",
    "%s: its id (the boxes' match ids, the pages' addresses): %s":
        "%s: идентификатор (в мачовете на таблата и адресите на страниците): %s",
    "%s: %s, corrected": "%s: %s, поправен", "%s: %s": "%s: %s", "  %s: %s": "  %s: %s",
    "  %s: %s  %s": "  %s: %s  %s",
    "%s: champion %s": "%s: турнира печели %s",
    "%s: %s on table %d": "%s: %s на маса %d",
    "%s: %s on table %d, queued on %s": "%s: %s на маса %d, на опашката на %s",
    "%s: %s called to table %s at %s": "%s: %s обявен на маса %s в %s",
    "the call is recorded; table %s's box did not take it: %s":
        "обявяването е записано; таблото на маса %s не го прие: %s",
    "%s; %s": "%s; %s",
    "%s: %s: the call taken back, on table %s again":
        "%s: %s: обявяването е отменено, отново разпределен на маса %s",
    "score %s: a whole number from 0, or - for none":
        "резултат %s: цяло число от 0 или - когато няма",
    "give both scores, or - - for a result without a score":
        "дайте и двата резултата или - - за резултат без точки",
    "%s: %s, %s, %d players, draw seed %d": "%s: %s, %s, играчи: %d, зърно на жребия %d",
    "champion: %s": "турнира печели: %s",
    "%d of %d matches decided": "решени: %d от %d мача",
    "%s (%s)": "%s (%s)", "  round %d": "  кръг %d",
    "%s %s %s %s  [%s]": "%s %s %s %s  [%s]",
    "(%s)": "(%s)", "bye: %s goes on": "почивка: продължава %s", "table %d": "маса %d",
    "  table (won-lost, frames for-against)": "  класиране (победи-загуби, фреймове за-против)",
    "    %d. %s  %d-%d  %d-%d": "    %d. %s  %d-%d  %d-%d",
    "group %s": "група %s",
    "table board: matches to play: %d": "маси: мачове за игра: %d",
    "placings:": "крайно класиране:", "    %s  %s": "    %s  %s",
    "breaks %s": "разбива %s", "%s %s": "%s %s",
}

TABLES = {"pl": PL, "bg": BG}
