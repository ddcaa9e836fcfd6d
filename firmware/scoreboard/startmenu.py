"""The screens the box shows while no match is on: the start screen and the set-up.

Start screen: the prepared matches in `queue/` (from `scoreboard setup`). `ok` starts
the one under the cursor with A breaking off, unless the referee switched the breaker
first with the side key (snooker `end`, pool and straight `side`); `undo` moves to the
next match; `menu` sets up a match on the box alone; a long `menu` steps the buzzer's
volume (100, 60, 30 %, off).
Set-up: game, match format and shot clock; `menu` changes the field under the cursor,
`ok` goes to the next field and, on the last ("Start"), starts the match with default
names; `undo` goes back to the start screen.

`press()` returns None, ("refuse", why), ("volume",) or ("start", header_lines,
breaker, queued name or None); the app does the rest.
"""

from scoreboard.journal import JournalError, summary
from scoreboard.keys.keymaps import family_of

GAMES = ("snooker reds=15", "snooker reds=10", "snooker reds=6", "eightball", "nineball",
         "tenball", "straight")
GAME_NAMES = ("snooker, 15 reds", "snooker, 10 reds", "snooker, 6 reds", "eight-ball",
              "nine-ball", "ten-ball", "straight pool")
# Formats per game family, the first the default.
FORMATS = {
    "snooker": ("best-of 3", "best-of 5", "best-of 7", "best-of 9", "best-of 1",
                "best-of 11", "best-of 17", "best-of 19", "best-of 35"),
    "pool": ("race-to 5", "race-to 7", "race-to 9", "race-to 11", "race-to 3",
             "race-to 13", "race-to 15"),
    "straight": ("points 100", "points 125", "points 150", "points 50", "points 75"),
}
CLOCKS = ("off", "seed", "wpa", "pro")
_SIDE_KEYS = ("end", "side")


class StartMenu:
    def __init__(self, journal):
        self.journal = journal
        self.queue = []  # (name, summary, game)
        self.bad = []  # names of queued files that do not read
        for name in journal.queued():
            try:
                header = journal.header_of(name)
            except (OSError, JournalError):
                self.bad.append(name)
                continue
            self.queue.append((name, summary(header), header))
        self.breaker = "A"
        self.cursor = 0
        self.setup = [0, 0, 0]  # game, format, clock: indexes into the lists
        self.setting_up = False

    def fields(self):
        g, f, c = self.setup
        fam = family_of(GAMES[g].split(" ")[0])
        return [("Game", GAME_NAMES[g]), ("Match", FORMATS[fam][f]), ("Shot clock", CLOCKS[c]),
                ("Start", "ok")]

    def family(self):
        """The legend the referee should have on: the chosen game's."""
        if self.setting_up:
            return family_of(GAMES[self.setup[0]].split(" ")[0])
        if self.cursor < len(self.queue):
            return family_of(self.queue[self.cursor][2].game)
        if self.queue:
            return family_of(self.queue[0][2].game)
        return "snooker"

    def fill(self, screen):
        screen.kind = "setup" if self.setting_up else "start"
        screen.match = None
        screen.entry = None
        screen.menu_cursor = self.cursor
        screen.breaker = 0 if self.breaker == "A" else 1
        screen.queue = [(name, text) for name, text, _ in self.queue]
        screen.setup = self.fields() if self.setting_up else []
        screen.hint = None if self.setting_up else (
            "ok:start (%s breaks) undo:next %s:swap menu:new"
            % (self.breaker, "end" if self.family() == "snooker" else "side"))
        if self.bad and screen.message is None:
            screen.message = "unreadable in queue: " + ", ".join(self.bad)

    # -- keys --------------------------------------------------------------------------
    def press(self, name, long):
        if self.setting_up:
            return self._setup_key(name)
        if name == "ok":
            if not self.queue:
                return ("refuse", "no prepared match: menu sets one up")
            name = self.queue[self.cursor][0]
            return ("start", self.journal.read_queued(name), self.breaker, name)
        if name == "undo":
            self.cursor = (self.cursor + 1) % len(self.queue) if self.queue else 0
        elif name in _SIDE_KEYS:
            self.breaker = "B" if self.breaker == "A" else "A"
        elif name == "menu" and long:
            return ("volume",)
        elif name == "menu":
            self.setup = [0, 0, 0]
            self.setting_up = True
            self.cursor = 0
        else:
            return ("refuse", "ok starts a match, menu sets one up")
        return None

    def _setup_key(self, name):
        g, f, c = self.setup
        if name == "ok":
            if self.cursor == len(self.fields()) - 1:
                return ("start", self._setup_lines(), self.breaker, None)
            self.cursor += 1
        elif name == "menu":
            if self.cursor == 0:
                self.setup = [(g + 1) % len(GAMES), 0, c]
            elif self.cursor == 1:
                fam = family_of(GAMES[g].split(" ")[0])
                self.setup[1] = (f + 1) % len(FORMATS[fam])
            elif self.cursor == 2:
                self.setup[2] = (c + 1) % len(CLOCKS)
        elif name == "undo":
            self.setting_up = False
            self.cursor = 0
        elif name in _SIDE_KEYS:
            self.breaker = "B" if self.breaker == "A" else "A"
        else:
            return ("refuse", "menu changes, ok goes on, undo goes back")
        return None

    def _setup_lines(self):
        g, f, c = self.setup
        game = GAMES[g]
        fam = family_of(game.split(" ")[0])
        lines = ["sbn 1", "game " + game, "match " + FORMATS[fam][f],
                 'side A "Player A"', 'side B "Player B"']
        if CLOCKS[c] != "off":
            lines.append("clock " + _clock_words(CLOCKS[c]))
        return lines


def _clock_words(profile_name):
    from scoreboard.core.clocksettings import format_settings, profile

    return format_settings(profile(profile_name))
