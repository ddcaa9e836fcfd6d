"""The screens the box shows while no match is on: the start screen and the set-up.

Start screen: the prepared matches in `queue/` (from `scoreboard setup`), in the order
of their names, read a few at a time around the cursor (a file that will not start is
listed with the reason, which `ok` shows). `ok` starts the one under the cursor with A
breaking off, unless the referee switched the breaker first with the side key (snooker
`end`, pool and straight `side`); `undo` moves to the next match; `menu` opens the words
of that match before its first frame (called, shot clock, forfeit, abandon: the key
grammar's menu, its questions included, over the queued header) and, last, the set-up
of a match on the box alone (straight away when nothing queued starts); a long `menu`
steps the buzzer's volume (100, 60, 30 %, off), a long `undo` the box's language (English,
Polish, Bulgarian: scoreboard/lang). A word chosen there starts the match
with that line instead of its first frame: `ok` then breaks off.
Set-up: game, match format and shot clock; `menu` changes the field under the cursor,
`ok` goes to the next field and, on the last ("Start"), starts the match with default
names; `undo` goes back to the start screen.

The language (issue 26 item 5): the start screen speaks the language of the queued
match under the cursor (its header's `lang`), and so does the menu of its words before
the first frame; a match without one, and the set-up, speak the box's own (settings.txt,
what the app had in use when it made the menu; a long `undo` changes it). Every text
shown is the language table's: the games, the formats and the clock choices in words
(`ui/model.format_words`, `st.clock.NAME`), the default names (`st.player`), the keys
named as that language's legend prints them (`lang.label`).

The side key and what it does are the key grammar's (`grammar.switch_breaker`): the
same key switches the breaker here and in a match still waiting for its first frame.

`press()` returns a Result (keys/result.py, the key grammar's shape): a `refusal`; a
`setting` ("volume", or "lang" with the code in `value`); or a match to start, its
`header` lines with `breaker`, `queued` (the file's name, or None) and `line`, its first
(`frame A`, or the word chosen before it); or none of them. The app does the rest. The
hint line's texts (what the keys do here) are the language table's.
"""

from scoreboard.core.clocksettings import SETUP_ORDER
from scoreboard.core.match import Match
from scoreboard.core.vocab import SIDES
from scoreboard.core.vocab import family as family_of
from scoreboard.files import JournalError
from scoreboard.keys import menus
from scoreboard.keys.grammar import IDLE, Grammar, switch_breaker
from scoreboard.keys.keymaps import side_key
from scoreboard.keys.result import Result, refuse
from scoreboard.lang import LANGS, current, label, lower, t
from scoreboard.lang import use as use_lang
from scoreboard.ui.model import QUEUE_ROWS, format_words

GAMES = ("snooker reds=15", "snooker reds=10", "snooker reds=6", "eightball", "nineball",
         "tenball", "straight")
# The games' names are the language table's `st.game.N`.
# Formats per game family, the first the default: constant tuples, in flash when frozen
# (a dict of them would be built in the heap at import).
_SNOOKER_FORMATS = ("best-of 3", "best-of 5", "best-of 7", "best-of 9", "best-of 1",
                    "best-of 11", "best-of 17", "best-of 19", "best-of 35")
_POOL_FORMATS = ("race-to 5", "race-to 7", "race-to 9", "race-to 11", "race-to 3",
                 "race-to 13", "race-to 15")
_STRAIGHT_FORMATS = ("points 100", "points 125", "points 150", "points 50", "points 75")


def formats(family):
    """The match formats the set-up offers for a game family."""
    if family == "snooker":
        return _SNOOKER_FORMATS
    return _POOL_FORMATS if family == "pool" else _STRAIGHT_FORMATS


CLOCKS = SETUP_ORDER  # the set-up list's clocks (core/clocksettings.py's one table)
# The hint line's texts are the language table's `st.` keys (scoreboard/lang).


def _game_family(g):
    """The family of GAMES[g] (its first word is the game)."""
    return family_of(GAMES[g].split(" ")[0])


class StartMenu:
    """The start and set-up screens. The queue is never read whole: the menu keeps the
    name under the cursor and reads the few files around it (QUEUE_ROWS, what the
    largest layout shows) in one pass of the folder per move, so a long queue costs
    time on a key press, not heap."""

    def __init__(self, queue):
        self.queue = queue  # scoreboard.files.Queue
        self.name = None  # the queued match under the cursor (None: the queue is empty)
        self.index = 0  # its place in the queue, sorted by name
        self.total = 0  # queued matches
        self.first = 0  # the place of window[0]
        # [(name, what the list shows, its game or None, why not (None when it starts),
        # its lang or None)] around the cursor: a file that will not start (None) shows
        # why where its format would be; the line is in the match's language (else the
        # box's).
        self.window = []
        self.breaker = 0  # who breaks frame 1: 0 (A) or 1 (B)
        self.field = 0  # the set-up field under the cursor
        self.setup = [0, 0, 0]  # game, format, clock: indexes into the lists
        self.setting_up = False
        # The words before the first frame of the queued match under the cursor: a
        # Grammar over its header with its menu open, or None.
        self.pre = None
        self.box_lang = current()  # the box's own language (the app's, at the start)
        self._place(None, False)

    # -- the queue, a few files at a time ---------------------------------------------
    def _place(self, name, after):
        """Put the cursor on the first queued name after `name` (`after`) or from it on,
        round to the first of all; read the window around it."""
        target = None
        smallest = None
        for n in self.queue.names():
            if smallest is None or n < smallest:
                smallest = n
            if name is not None and (n > name if after else n >= name) and (
                    target is None or n < target):
                target = n
        if target is None:
            target = smallest
        self.name = target
        keep = QUEUE_ROWS - 1
        total = 0
        below = 0
        before = []  # the largest names below the target, ascending
        above = []  # the smallest names above it, ascending
        for n in self.queue.names():
            total += 1
            if target is None or n == target:
                continue
            if n < target:
                below += 1
                _keep(before, n, keep, True)
            else:
                _keep(above, n, keep, False)
        self.total = total
        self.index = below
        self.first = below - keep if below > keep else 0
        names = before[len(before) - (below - self.first):] if below > self.first else []
        if target is not None:
            names.append(target)
            names += above[:self.first + QUEUE_ROWS - below - 1]
        old = self.window
        self.window = []
        for n in names:
            for entry in old:  # a file already read for the last window is not read again
                if entry[0] == n:
                    self.window.append(entry)
                    break
            else:
                text, header = self.queue.entry(n)
                if header is None:
                    use_lang(self.box_lang)
                    self.window.append((n, t("st.not_started") % (n, text), None, text,
                                        None))
                else:  # its game, not its Header: six of those would cost 2 KB of heap
                    use_lang(header.lang or self.box_lang)  # the line in its own words
                    # (files' English summary is not kept: the line says it in words)
                    self.window.append((n, _summary(header), header.game, None,
                                        header.lang))
        self._speak()

    def _speak(self):
        """Speak the language of what is shown: the queued match under the cursor's (or
        the one whose menu is open), else the box's own."""
        code = self.box_lang
        if self.pre is not None:
            code = self.pre.match.header.lang or code
        elif not self.setting_up:
            entry = self._current()
            if entry is not None and entry[4]:
                code = entry[4]
        use_lang(code)

    def refresh(self):
        """Read the queue again (the desk queued a match), the cursor where it was."""
        self._place(self.name, False)

    def _current(self):
        """The window's entry under the cursor, or None."""
        i = self.index - self.first
        return self.window[i] if self.name is not None and 0 <= i < len(self.window) else None

    def fields(self):
        g, f, c = self.setup
        kind, n = formats(_game_family(g))[f].split(" ")
        return [(t("st.f.game"), t("st.game.%d" % g)),
                (t("st.f.match"), lower(format_words(kind, int(n)))),
                (t("st.f.clock"), clock_choice(CLOCKS[c])), (t("st.f.start"), t("st.ok"))]

    def family(self):
        """The legend the referee should have on: the chosen game's."""
        if self.pre is not None:
            return self.pre.family
        if self.setting_up:
            return _game_family(self.setup[0])
        entry = self._current()
        if entry is not None and entry[2] is not None:
            return family_of(entry[2])
        return "snooker"

    def fill(self, screen):
        self._speak()
        screen.match = None
        g = self.pre
        if g is not None:  # its menu, or the question of the word chosen in it
            screen.kind = "menu"
            screen.menu_title = g.menu_title
            screen.menu_items = g.menu_items
            screen.menu_cursor = g.menu_cursor
            screen.entry = g.entry()
            screen.hint = g.hint()
            return
        screen.kind = "setup" if self.setting_up else "start"
        screen.entry = None
        screen.menu_cursor = self.field if self.setting_up else self.index
        screen.breaker = self.breaker
        screen.queue = [(entry[0], entry[1]) for entry in self.window]
        screen.queue_first = self.first
        screen.queue_total = self.total
        screen.setup = self.fields() if self.setting_up else []
        key = label(side_key(self.family()))
        if self.setting_up:
            last = self.field == len(screen.setup) - 1
            screen.hint = (t("st.setup_go_hint") % (SIDES[self.breaker], key) if last
                           else t("st.setup_hint") % key)
        elif self.total:
            screen.hint = t("st.start_hint") % (SIDES[self.breaker], key)
        else:
            screen.hint = t("st.empty_hint")

    # -- keys --------------------------------------------------------------------------
    def press(self, name, long):
        """One key on the start or set-up screens: a Result (the module docstring)."""
        if self.pre is not None:
            return self._pre_key(name, long)
        if self.setting_up:
            return self._setup_key(name)
        if name == "ok":
            return self._start("frame " + SIDES[self.breaker])
        if name == "undo" and long:  # the box's language, at once (the app keeps it)
            self.box_lang = LANGS[(LANGS.index(self.box_lang) + 1) % len(LANGS)]
            self.window = []  # the lines without a language of their own, read again
            self._place(self.name, False)
            return _setting("lang", use_lang(self.box_lang))
        if name == "undo":
            self._place(self.name, True)
        elif self._switch(name):
            pass
        elif name == "menu" and long:
            return _setting("volume")
        elif name == "menu":
            entry = self._current()
            if entry is not None and entry[2] is not None:
                return self._open_pre(entry[0])
            self._set_up()
        else:
            return refuse(t("st.ok_starts"))
        return Result()

    def _start(self, first):
        """The match under the cursor, started with the line `first`."""
        entry = self._current()
        if entry is None:
            if self.total:  # the file under the cursor went (a host's setup)
                self._place(self.name, False)
                return refuse(t("st.queue_changed"))
            return refuse(t("st.no_prepared"))
        if entry[2] is None:  # it does not read, or its id is refused: say why
            return refuse(entry[3])
        try:
            lines = self.queue.read(entry[0])
        except (OSError, JournalError) as e:
            return refuse(t("st.unreadable") % e)
        return _start(lines, SIDES[self.breaker], entry[0], first)

    def start_named(self, name, first):
        """The queued match `name` started with the line `first`, as `menu` and a word
        start the one under the cursor (the desk's call: channel.py's `called`); the
        cursor goes to it first."""
        self._place(name, False)
        if self.name != name:
            return refuse(t("st.queue_changed"))
        return self._start(first)

    def _set_up(self):
        self.setup = [0, 0, 0]
        self.setting_up = True
        self.field = 0

    # -- before the first frame: the key grammar over the queued header ------------------
    def _open_pre(self, name):
        try:
            header = self.queue.header_of(name)
            use_lang(header.lang or self.box_lang)  # its menu in the match's language
            g = Grammar(Match(header))
        except (OSError, JournalError, ValueError) as e:
            return refuse(t("st.unreadable") % e)
        g.first_breaker = self.breaker
        tree = menus.start_menu(g.match)
        tree[1].append((t("st.setup_item"), menus.OWN, "setup"))
        g.walk(tree)
        self.pre = g
        return Result()

    def _pre_key(self, name, long):
        r = self.pre.press(name, long)
        if r.own is not None:  # the last item: the set-up instead
            self.pre = None
            self._set_up()
            return Result()
        if r.refusal is not None:
            return refuse(r.refusal)
        if r.line is not None:  # a word before the first frame: the match starts with it
            self.pre = None
            return self._start(r.line)
        if self.pre.mode == IDLE:  # `undo` out of the menu: the list again
            self.pre = None
        return Result()

    def _setup_key(self, name):
        g, f, c = self.setup
        if name == "ok":
            if self.field == len(self.fields()) - 1:
                return _start(self._setup_lines(), SIDES[self.breaker], None,
                              "frame " + SIDES[self.breaker])
            self.field += 1
        elif name == "menu":
            if self.field == 0:
                self.setup = [(g + 1) % len(GAMES), 0, c]
            elif self.field == 1:
                self.setup[1] = (f + 1) % len(formats(_game_family(g)))
            elif self.field == 2:
                self.setup[2] = (c + 1) % len(CLOCKS)
        elif name == "undo":
            self.setting_up = False
            self.field = 0
        elif not self._switch(name):
            return refuse(t("st.setup_keys"))
        return Result()

    def _switch(self, name):
        """The side key switches who breaks off: whether `name` was it."""
        breaker = switch_breaker(self.family(), name, self.breaker)
        if breaker < 0:
            return False
        self.breaker = breaker
        return True

    def _setup_lines(self):
        g, f, c = self.setup
        lines = ["sbn 1", "game " + GAMES[g], "match " + formats(_game_family(g))[f],
                 'side A "%s"' % (t("st.player") % "A"), 'side B "%s"' % (t("st.player") % "B")]
        if CLOCKS[c] != "off":
            lines.append("clock " + _clock_words(CLOCKS[c]))
        return lines


def _start(header, breaker, queued, first):
    """The Result that starts a match: its header lines, who breaks, the queued file."""
    r = Result(first)
    r.header = header
    r.breaker = breaker
    r.queued = queued
    return r


def _setting(name, value=None):
    """The Result that changes a box setting (the app keeps it)."""
    r = Result()
    r.setting = name
    r.value = value
    return r


def _keep(names, n, most, largest):
    """Put `n` into the ascending list `names`, keeping at most `most`: the largest
    (`largest`) or the smallest."""
    i = 0
    while i < len(names) and names[i] < n:
        i += 1
    names.insert(i, n)
    if len(names) > most:
        names.pop(0 if largest else len(names) - 1)


def clock_choice(name):
    """A shot-clock profile of the set-up in words, as the clock menu says it: `seed
    45s`, `przepisy 45s` (`st.clock.NAME`, its limit), or off (`st.off`)."""
    if name == "off":
        return t("st.off")
    from scoreboard.core.clocksettings import profile

    return t("n.profile") % (t("st.clock." + name), profile(name).shot)


def _summary(header):
    """One line of the start screen's list in the language in use: names, game, format,
    clock (files.summary's, in words); then, after a line break, the conditions that
    differ from the official rules (`conditions`), when there are any."""
    names = t("st.versus") % (" & ".join(header.sides[0]), " & ".join(header.sides[1]))
    game = header.game
    for i in range(len(GAMES)):
        words = GAMES[i].split(" ")
        if words[0] == game and (len(words) == 1 or words[1] == "reds=%d" % header.reds):
            game = t("st.game.%d" % i)
            break
    clock = t("m.no_clock")
    for kv in header.clock:
        if kv.startswith("shot="):
            clock = t("m.clock_set") % int(kv[5:])
    # one case in the line: the format and the clock as the panels write them in
    # capitals, in small letters here (issue 33: `15 czerwonych, Z 7 FREJMÓW`)
    line = "%s, %s, %s, %s" % (names, game,
                               lower(format_words(header.kind, header.target,
                                                  header.by_points)), lower(clock))
    rules = conditions(header)
    return line + "\n" + rules if rules else line


def conditions(header):
    """The match's playing conditions that differ from the official rules, in the
    language in use, or "": the late start's minutes (not 15), snooker's misses (not 3),
    the three-foul rule (off where it is played, on in eight-ball), the push out (off),
    who breaks (not alternate). The start screen shows them under the match under the
    cursor (issue 27 item 3: the referee sees what the club plays before the break)."""
    out = []
    late = header.rule("late", header.LATE)
    if late != header.LATE:
        out.append(t("st.r.late") % late)
    if header.game == "snooker":
        misses = header.rule("misses", header.MISSES)
        if misses != header.MISSES:
            out.append(t("st.r.misses") % misses)
    else:
        three = header.three_fouls()
        if three != header.official_three_fouls():
            out.append(t("st.r.threefoul_on" if three else "st.r.threefoul_off"))
        if (header.game == "nineball" or header.game == "tenball") and not header.push_out():
            out.append(t("st.r.pushout_off"))
    if header.breaks != "alternate":
        out.append(t("st.r.breaks_" + header.breaks))
    return ", ".join(out)


def _clock_words(profile_name):
    from scoreboard.core.clocksettings import format_settings, profile

    return format_settings(profile(profile_name))
