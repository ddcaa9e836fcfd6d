"""Every text fits its field (issue 26 items 2 and 3), on the 400x300 e-ink panel and
the 128x64 OLED, in every language: the screens are drawn with worst-case arguments (the
longest names, frames won up to 99, three-digit scores and breaks up to 147/155, two
fouls and a warning each side), every prompt, every refusal and notice, every entry,
hint and menu word of every table, each in the field the screens draw it in. A test
fails on

- an overflow: a text past the panel, or (above the score screen's cells) past its
  player's column into the other's;
- an overlap: two texts on the same pixels, or a box drawn across a text;
- a cut that loses a key name or a number: only a player's name may be cut (with an
  ellipsis, at a character; the longest names are longer than any field), never the
  words around it;
- a name cut without its ellipsis, wherever it was cut (a question's `B (Brzęczyszczy)`).

Each text the screens draw goes through `draw.text` (and a cut through `draw.fit`): the
test records both while the real screen code draws on a real canvas.
"""

import re
import sys

import pytest

from support import mpy, tiers
from support import screens as S

sys.path.insert(0, str(mpy.REPO / "tests" / "micropython"))

import screens_catalogue as cat

from scoreboard import lang
from scoreboard.lang import en
from scoreboard.ui import compact, draw, eink, model

# Longer than any field: names are cut, and only names (the notation has no limit on a
# name's length; setup takes any name the box has a glyph for).
NAME_A = "Γιώργος Παπαδόπουλος-Καραμανλής"
NAME_B = "Michał Ściński-Wiśniewski Żółć"
NAMES = (NAME_A, NAME_B, "Łukasz Żółć", "Стоян Чаушев")
HEAD = ('sbn 1\ngame snooker reds=15\nmatch best-of 199\nside A "%s"\nside B "%s"\n'
        % (NAME_A, NAME_B))
KEY_NAMES = ("ok", "undo", "menu", "side", "again", "free", "replace", "miss", "play",
             "pass", "foul", "pot", "end", "respot")
PROMPTS = ("snookers", "tie-only", "warn-miss", "warn-fouls", "frame-ball", "respot", "time")


def _table(code):
    lang.use(code)
    t = lang._ACTIVE[0]
    return dict(zip(t[::2], t[1::2]))


class Drawn:
    """What the screens drew: each text as (s, x, y, w, h) still visible, the problems."""

    def __init__(self, w, h):
        self.w = w
        self.h = h
        self.texts = []
        self.problems = []

    def cut(self, s, chars):
        kept = s[:chars - 1] if chars >= 1 else ""
        lost = s[len(kept):]
        if not any(lost in n for n in NAMES):
            self.problems.append("cut: %r lost %r" % (s, lost))

    def text(self, s, x, y, font):
        self.uncut_names(s)
        w = draw.text_width(s, font)
        h = draw.height(font)
        if x < 0 or y < 0 or x + w > self.w or y + h > self.h:
            self.problems.append("overflow: %r at %d,%d (%dx%d)" % (s, x, y, w, h))
        for o in self.texts:
            if x < o[1] + o[3] and o[1] < x + w and y < o[2] + o[4] and o[2] < y + h:
                self.problems.append("overlap: %r and %r" % (o[0], s))
        self.texts.append((s, x, y, w, h))

    def uncut_names(self, s):
        """A name cut short without its ellipsis (issue 33: `B (Brzęczyszczy)` in a
        question, keys/grammar.py cut it with `[:12]`): a word drawn that is the start of
        a word of a name, not all of it, and not followed by the ellipsis."""
        for token in re.findall(r"[^\s()]+", s):
            if token.endswith(draw.ELLIPSIS) or len(token) < 3:
                continue
            for name in NAMES:
                for part in name.split(" "):
                    if part != token and part.startswith(token):
                        self.problems.append("name cut without an ellipsis: %r in %r"
                                             % (token, s))

    def fill(self, x, y, w, h):
        """A filled box hides the texts wholly under it; one it cuts across is a fault."""
        keep = []
        for o in self.texts:
            inside = x <= o[1] and o[1] + o[3] <= x + w and y <= o[2] and o[2] + o[4] <= y + h
            crosses = x < o[1] + o[3] and o[1] < x + w and y < o[2] + o[4] and o[2] < y + h
            if crosses and not inside:
                self.problems.append("box across: %r" % (o[0],))
            if not inside:
                keep.append(o)
        self.texts = keep


class Canvas:
    """A real canvas that tells `Drawn` of its fills."""

    def __init__(self, fb, drawn):
        self._fb = fb
        self._drawn = drawn
        self.width = fb.width
        self.height = fb.height
        self.top = fb.top
        self.rows = fb.rows

    def fill(self, c):
        self._drawn.texts = []
        self._fb.fill(c)

    def fill_rect(self, x, y, w, h, c):
        self._drawn.fill(x, y, w, h)
        self._fb.fill_rect(x, y, w, h, c)

    def __getattr__(self, name):
        return getattr(self._fb, name)


@pytest.fixture
def render(monkeypatch):
    """render(screen, w, h) -> Drawn: the screen drawn, its texts and problems."""
    state = {}
    real_text, real_fit = draw.text, draw.fit

    def text(canvas, s, x, y, font=draw.SMALL, col=1):
        state["drawn"].text(s, x, y, font)
        return real_text(canvas, s, x, y, font, col)

    def fit(s, chars):
        if len(s) > chars:
            state["drawn"].cut(s, chars)
        return real_fit(s, chars)

    monkeypatch.setattr(draw, "text", text)
    monkeypatch.setattr(draw, "fit", fit)

    def run(screen, w=400, h=300):
        drawn = state["drawn"] = Drawn(w, h)
        _, fb = S.canvas(w, h)
        eink.draw(Canvas(fb, drawn), screen)
        return drawn

    yield run
    lang.use("en")


def _worst(monkeypatch, match, prompts=(), warned=True):
    """The match's figures at their widest: 99 frames each, 155-147, a break of 155,
    two fouls and a warning each side, and `prompts`."""
    real = model.figures

    def figures(m):
        fig = real(m)
        if fig is not None:
            if fig.score is not None:
                fig.score = (155, 147) if m.family == "snooker" else (147, 147)
            fig.brk = 155 if m.family == "snooker" else 147
            fig.fouls = (2, 2)
            fig.misses = (2, 2)
            fig.prompts = list(prompts)
            if fig.reds is not None:
                fig.reds, fig.remaining, fig.snookers_required = 15, 147, 99
        return fig

    monkeypatch.setattr(model, "figures", figures)
    monkeypatch.setattr(match, "frames_won", lambda: (99, 99))
    f = match.current()
    if f is not None and warned:
        f.warned = [True, True]
    return match


SNOOKER = HEAD + "frame A\npot red\npot black\n"
DOUBLES = HEAD.replace('side B "%s"' % NAME_B, 'side B "%s" "%s"' % (NAME_B, "Стоян Чаушев"))
NINE = cat.NINE.replace("Shane Van Boening", NAME_A).replace("Jayson Shaw", NAME_B).replace(
    "race-to 5", "race-to 99")
STRAIGHT = cat.STRAIGHT.replace("Mosconi", NAME_A).replace("Greenleaf", NAME_B).replace(
    "points 100", "points 150")


def _assert_fits(drawn, what):
    assert not drawn.problems, "%s: %s" % (what, drawn.problems)


def _columns(drawn, what):
    """Above the cells (y 184) each text stays in its player's column."""
    for s, x, y, w, _ in drawn.texts:
        if y < 184:
            assert x + w <= 199 or x >= 200, "%s: %r crosses into the other column" % (what, s)


@pytest.mark.parametrize("code", lang.LANGS)
@pytest.mark.parametrize("size", [(400, 300), (128, 64)])
@pytest.mark.parametrize("game", ["snooker", "doubles", "nine", "straight"])
def test_the_score_screen_at_its_widest(render, monkeypatch, code, size, game):
    text = {"snooker": SNOOKER, "doubles": DOUBLES + "frame B\n", "nine": NINE,
            "straight": STRAIGHT}[game]
    lang.use(code)
    for prompts in ((), PROMPTS[:2], PROMPTS[2:4], PROMPTS[4:6], PROMPTS[6:]):
        match = _worst(monkeypatch, cat.play(text), prompts)
        drawn = render(model.Screen("score", match), *size)
        what = "%s %s %s %s" % (code, size, game, prompts)
        _assert_fits(drawn, what)
        if size[0] == 400:
            _columns(drawn, what)
        shown = " ".join(t[0] for t in drawn.texts)
        assert "99" in shown or game != "snooker", what  # frames won up to 99
        if size[0] == 400 and game == "snooker":
            assert "155" in shown and "147" in shown, what
    if game == "snooker":  # the ball on keeps its name: every ball's word, uncut
        for ball in ("yellow", "green", "brown", "blue", "pink", "black", "colour", "red"):
            match = _worst(monkeypatch, cat.play(text))
            real = model.figures
            monkeypatch.setattr(model, "figures",
                                lambda m, real=real, ball=ball: _on(real(m), ball))
            drawn = render(model.Screen("score", match), *size)
            _assert_fits(drawn, "%s %s ball on %s" % (code, size, ball))
            assert any(lang.upper_word(ball) in t[0] for t in drawn.texts), ball
            monkeypatch.setattr(model, "figures", real)


def _on(fig, ball):
    """Ball on `ball`, with the widest figures it can have: 15 reds and 147 remaining on
    a red; on a colour, no reds, 27 remaining, and 19 snookers (140 behind, the black
    alone would need (140 - 7) / 7)."""
    fig.ball_on = ball
    if ball != "red":
        fig.reds, fig.remaining, fig.snookers_required = 0, 27, 19
    return fig


@pytest.mark.parametrize("code", lang.LANGS)
def test_the_oled_keeps_the_frames_row_under_a_two_line_entry(render, monkeypatch, code):
    """The OLED's entry takes two rows at most, over the figures, never over frames won
    (issue 26: `F0 B0` read `FA RA` under a prompt)."""
    lang.use(code)
    match = _worst(monkeypatch, cat.play(SNOOKER))
    screen = model.Screen("score", match)
    screen.entry = _table(code)["k.after_miss"] % "A"
    drawn = render(screen, 128, 64)
    _assert_fits(drawn, code)
    frames = [t for t in drawn.texts if t[0] == _table(code)["c.frames"] % 99]
    assert len(frames) == 2, drawn.texts


def _end_screens(monkeypatch):
    out = []
    for name, text, kind in (("frame", cat.FRAME_OVER, "frame_end"),
                             ("match", cat.MATCH_OVER, "match_end"),
                             ("nine", cat.NINE_OVER, "match_end"),
                             ("straight", cat.STRAIGHT_OVER, "match_end")):
        text = text.replace("Ronnie O'Sullivan", NAME_A).replace("Judd Trump", NAME_B)
        text = text.replace("Mosconi", NAME_A).replace("Greenleaf", NAME_B)
        out.append((name, kind, text))
    return out


@pytest.mark.parametrize("code", lang.LANGS)
@pytest.mark.parametrize("size", [(400, 300), (128, 64)])
def test_the_end_screens_and_who_breaks_next(render, monkeypatch, code, size):
    lang.use(code)
    table = _table(code)
    real = model.last_record
    monkeypatch.setattr(model, "last_record", lambda m: (
        None if real(m) is None else (99,) + tuple(real(m)[1:])))  # frame 99
    for name, kind, text in _end_screens(monkeypatch):
        match = cat.play(text)
        match.frames_won = lambda: (99, 99)
        screen = model.Screen(kind, match)
        screen.entry = table["g.between"] % "A"
        screen.hint = table["g.between_hint"] % (147, "A")
        drawn = render(screen, *size)
        _assert_fits(drawn, "%s %s %s" % (code, size, name))
        if kind == "frame_end":  # who breaks next, whole: the OLED's entry, the e-ink's hint
            said = screen.entry if size[0] < 400 else screen.hint
            shown = " ".join(t[0] for t in drawn.texts).split()
            assert all(part in shown for part in said.split()), (name, said, shown)


BALLS = ("red", "yellow", "green", "brown", "blue", "pink", "black")
SIDE_ARGS = ("g.start", "g.between", "g.between_hint", "g.time", "g.not_striker",
             "k.after_foul", "k.after_miss", "k.free_ball", "p.pushed", "t.broke_foul",
             "p.details", "p.rack", "p.RACK", "g.PENALTY", "k.penalty_points", "n.award_why",
             "n.forfeit_why", "st.setup_go_hint", "st.setup_hint", "st.start_hint")


def _who():
    """A side as the key grammar names it in a question, the longest name (its surname
    cut with an ellipsis: keys/grammar.py `who`)."""
    from scoreboard.keys.grammar import Grammar

    return Grammar(cat.play(HEAD + "frame A\n")).who(0)


def _args(key, text, table):
    """Worst-case arguments of `text` (the table's text of `key`): numbers 147; a side
    as the key grammar names it in a question (`A (12 characters)`, grammar.who) or a
    menu (`A` and the names, menus.side_label); a side letter and the side key where
    the code gives those; a file name; and for any other %s the longest word of the
    table (a ball, a reason)."""
    longest = max((v for k, v in table.items() if k.startswith("w.")), key=len)
    ball = max((table["w." + b] for b in BALLS), key=len)  # what a refusal's %s names
    key = key.split("|")[0]  # a rack form takes what its frame form takes
    if key.endswith("_rack"):
        key = key[:-len("_rack")]
    who = _who()
    out = []
    strings = 0  # the %s conversions so far: a side's letter is the first of them
    for i, conv in enumerate(re.findall(r"%[-0-9]*([sd])", text)):
        if conv == "s":
            strings += 1
        if conv == "d":
            out.append(147)
        elif (key.startswith("g.q.") and i == 0) or key == "g.who":
            out.append(who)
        elif key == "n.winner":
            out.append("A " + NAME_A)
        elif key == "m.p.tie_only":
            out.append(NAME_B.rsplit(" ", 1)[-1][:14])
        elif key in SIDE_ARGS:
            out.append("A" if strings == 1 else "side")
        elif key in ("st.not_started", "st.unreadable", "a.journal", "a.set_aside",
                     "a.repaired") and i == 0:
            out.append("2026-12-02-table-99")
        elif key == "=%s breaks frame %d (breaks %s)":
            out.append("A")
        elif key == "n.profile":
            out.append("seed")
        elif key.startswith("=") or key == "g.no_key":
            out.append(ball)
        else:
            out.append(longest)
    return text % tuple(out)


REFUSALS = ("g.frame_over", "g.match_over", "g.menu_keys", "g.no_frame", "g.no_key",
            "g.not_striker", "g.nothing", "g.ok_undo", "g.range", "g.side", "k.down_already",
            "k.finish_foul", "k.foul_max", "k.not_on_table", "k.ok_ends_pot", "k.one_ball",
            "k.only_reds", "p.no_entry", "st.empty_hint", "st.no_prepared", "st.ok_starts",
            "st.queue_changed", "st.setup_keys", "st.unreadable", "t.reracked")
FRAGMENTS = ("g.balls", "g.number", "k.MISS", "k.TIME", "k.ball", "k.balls_down", "k.max",
             "k.red_adds", "k.with_it")


def _kinds():
    """Each key of the tables by the field it is drawn in."""
    refusals, notices, entries, hints, words = [], [], [], [], []
    for key in en.TEXTS[::2]:
        if key.startswith("=") or key in REFUSALS:
            refusals.append(key)
        elif key.startswith("a.") and key not in ("a.defaults", "a.renumbered", "a.sound_off",
                                                  "a.oom", "a.oom_led", "a.oom_start"):
            notices.append(key)
        elif key.endswith(("_hint", "_hint_rack")):  # a hint, snooker's or pool's
            hints.append(key)
        elif key[:2] in ("g.", "k.", "p.", "t.") and key not in FRAGMENTS and (
                key.startswith("g.q.") or key[2:3].isupper() or re.search(
                    r"[?]|ok$|ok:|: ", dict(zip(en.TEXTS[::2], en.TEXTS[1::2]))[key])):
            entries.append(key)
        elif key[:2] in ("n.", "k.", "p.", "t.") or key.startswith("st."):
            words.append(key)
    return refusals, notices, entries, hints, words


@pytest.mark.parametrize("code", lang.LANGS)
@pytest.mark.parametrize("size", [(400, 300), (128, 64)])
def test_every_refusal_notice_entry_and_hint_of_every_table(render, monkeypatch, code, size):
    """Each in its field on the score screen (the refusal's box, the entry's line, the
    hint line) and on the menu and start screens, whole: its reason and who is at the
    table kept."""
    table = _table(code)
    refusals, notices, entries, hints, _ = _kinds()
    match = _worst(monkeypatch, cat.play(SNOOKER))
    problems = []
    # the screens each field is drawn on: the score screen has no hint line, the start
    # menu no entry
    for keys, field, kinds in ((refusals, "message", ("score", "menu", "start")),
                               (notices, "notice", ("score", "menu", "start")),
                               (entries, "entry", ("score", "menu")),
                               (hints, "hint", ("menu", "start"))):
        # make check draws every third key, a different third in each language (all of
        # them over the three); make test draws every key in every language
        step = tiers.stride(1, 3)
        for key in sorted(keys)[lang.LANGS.index(code) % step::step]:
            text = _args(key, table[key], table)
            for kind in kinds:
                screen = model.Screen(kind, match if kind == "score" else None)
                setattr(screen, field, text)
                if kind == "menu":
                    screen.menu_items = ["x"]
                drawn = render(screen, *size)
                problems += ["%s %s: %s" % (key, kind, p) for p in drawn.problems]
                if field != "hint" or size[0] == 400:  # the OLED shows no hint line
                    shown = " ".join(t[0] for t in drawn.texts).split()
                    lost = [w for w in text.split() if w not in shown]
                    if size[0] < 400 and field == "entry":  # or its designed short form
                        short = [w for w in compact._unnamed(text).split() if w not in shown]
                        lost = lost and short
                    if lost:
                        problems.append("%s %s: %r not shown" % (key, kind, lost))
    assert not problems, "%s %s:\n%s" % (code, size, "\n".join(problems))


@pytest.mark.parametrize("code", lang.LANGS)
def test_out_of_memory_is_said_whole_on_the_error_screen_and_in_a_word_on_the_led(
        render, code):
    """scoreboard/outofmemory.py's words: what happened and what to do, every word on
    the e-ink's error screen; the LED's word within its 32 columns."""
    from scoreboard.ui import draw

    table = _table(code)
    for key in ("a.oom", "a.oom_start"):
        screen = model.Screen("error")
        screen.error = table[key]
        drawn = render(screen, 400, 300)
        assert not drawn.problems, (key, drawn.problems)
        shown = " ".join(t[0] for t in drawn.texts).split()
        assert [w for w in table[key].split() if w not in shown] == [], key
    assert draw.text_width(table["a.oom_led"], draw.SMALL) <= 32


@pytest.mark.parametrize("code", lang.LANGS)
@pytest.mark.parametrize("size", [(400, 300), (128, 64)])
def test_every_menu_word_and_title(render, code, size):
    table = _table(code)
    titles = [v for k, v in table.items() if k.startswith("n.") and v == lang.upper(v)]
    problems = []
    items = [_args(k, table[k], table) for k in _kinds()[4] if table[k] not in titles]
    # A title's fit does not depend on the cursor, nor a row's on the title: every title
    # once, and under the first every item once as the cursor's row.
    shown = titles + [table["e.menu"]]
    for title in shown:
        screen = model.Screen("menu")
        screen.menu_title = _args("n.", title, table)
        screen.menu_items = items
        cursors = range(len(items)) if title == shown[0] else range(1)
        for cursor in cursors:  # the cursor's row whole, the others may be cut
            screen.menu_cursor = cursor
            drawn = render(screen, *size)
            problems += [p for p in drawn.problems
                         if not p.startswith("cut: ") or p.startswith("cut: %r" % (
                             items[cursor],)) or p.startswith("cut: %r" % (title,))]
    assert not problems, "%s %s:\n%s" % (code, size, "\n".join(sorted(set(problems))))


@pytest.mark.parametrize("code", lang.LANGS)
@pytest.mark.parametrize("size", [(400, 300), (128, 64)])
def test_the_start_and_setup_screens(render, monkeypatch, code, size):
    lang.use(code)
    table = _table(code)
    # The queue's line, names and the format (the start menu writes it from the header,
    # here the widest: best of 199 on a shot clock): whole with names of a usual length;
    # with the longest, only the names are cut on the e-ink panel (its details have a line).
    monkeypatch.setattr(cat, "HEAD", cat.CLOCKED.replace("best-of 7", "best-of 199"))
    for a, b in ((NAMES[2], NAMES[3]), (NAME_A, NAME_B)):
        start = cat.start([("final-table-1", "%s v %s  snooker best of 199" % (a, b))])
        drawn = render(start, *size)
        if a == NAME_A and size[0] < 400:
            continue
        _assert_fits(drawn, "start")
    setup = model.Screen("setup")
    setup.setup = [(table[k], table["st.game.1"]) for k in table if k.startswith("st.f.")]
    setup.breaker = 1
    setup.hint = _args("st.setup_go_hint", table["st.setup_go_hint"], table)
    for cursor, (label, value) in enumerate(setup.setup):  # the cursor's row whole
        setup.menu_cursor = cursor
        drawn = render(setup, *size)
        mine = "cut: %r" % ("%s: %s" % (label, value),)
        problems = [p for p in drawn.problems if not p.startswith("cut: ")
                    or p.startswith(mine) or size[0] == 400]
        assert not problems, "setup: %s" % problems


@pytest.mark.parametrize("code", lang.LANGS)
@pytest.mark.parametrize("size", [(400, 300), (128, 64)])
def test_the_breaks_footer_clock_and_the_score_screens_own_lines(render, monkeypatch, code,
                                                                   size):
    """Three breaks of 147 and 155, frame 99 and the shot clock with its warning and
    extensions in the footer; every line the score screen adds to the prompts (frame
    over, free ball, re-spotted black, first frame or rack, game over)."""
    lang.use(code)
    table = _table(code)
    monkeypatch.setattr(model, "breaks", lambda m, side, n=3: (147, 155, 147))
    clocked = cat.CLOCK_RUN.replace("Ronnie O'Sullivan", NAME_A).replace("Judd Trump", NAME_B)
    match = _worst(monkeypatch, cat.play(clocked.replace("best-of 7", "best-of 199")))
    match.frame.number = 99
    for clock_s in (None, 599):
        screen = model.Screen("score", match)
        screen.clock_s = clock_s
        drawn = render(screen, *size)
        _assert_fits(drawn, "clock %s" % clock_s)
    from scoreboard.ui import eink_score

    for key in ("s.frame_over", "s.first_frame", "s.free_ball", "s.respotted", "s.game_over",
                "s.game_start", "s.first_rack", "s.rack_over", "e.match_over"):
        drawn = Drawn(400, 300)
        _, fb = S.canvas(400, 300)
        monkeypatch.setattr(draw, "text", _recording(drawn, draw.text))
        eink_score._prompts(Canvas(fb, drawn), match, None, [table[key]])
        _assert_fits(drawn, key)
        assert [t[0] for t in drawn.texts] == [table[key]], key


def _recording(drawn, real):
    real = getattr(real, "__wrapped__", real)

    def text(canvas, s, x, y, font=draw.SMALL, col=1):
        drawn.text(s, x, y, font)
        return real(canvas, s, x, y, font, col)

    text.__wrapped__ = real
    return text


@pytest.mark.parametrize("code", lang.LANGS)
@pytest.mark.parametrize("size", [(400, 300), (128, 64)])
def test_the_end_screens_with_every_reason_and_the_highest_breaks(render, monkeypatch,
                                                                   code, size):
    """A match forfeited or awarded for each reason, high breaks of 147 and six listed
    breaks of 147 each at a frame's end, the empty start screen."""
    from scoreboard.core.vocab import AWARD_WHY, FORFEIT_WHY

    lang.use(code)
    for why in FORFEIT_WHY:
        text = HEAD.replace("best-of 199", "best-of 3") + "forfeit B %s\n" % why
        match = cat.play(text)
        monkeypatch.setattr(match, "high_breaks", lambda: [147, 147])
        drawn = render(model.Screen("match_end", match), *size)
        _assert_fits(drawn, "forfeit %s" % why)
    for why in AWARD_WHY:
        text = HEAD.replace("best-of 199", "best-of 3") + "frame A\naward B %s\n" % why
        try:
            match = cat.play(text)
        except Exception:  # a reason this game does not take: not drawn
            continue
        real = model.last_record
        monkeypatch.setattr(model, "last_record", lambda m, real=real: (
            real(m)[:5] + ((147,) * 6, (147,) * 6) + tuple(real(m)[7:])))
        drawn = render(model.Screen("frame_end", match), *size)
        monkeypatch.setattr(model, "last_record", real)
        _assert_fits(drawn, "award %s" % why)
    drawn = render(cat.start([]), *size)
    _assert_fits(drawn, "the empty start screen")


# The playing conditions at their widest (issue 27 item 3): every rules key that differs
# from the official rules in each game, the late start and the misses at 99, and who
# breaks where the game allows a policy.
CONDITIONS = (
    ("snooker reds=10", "best-of 199", None, "late=99 misses=99"),
    ("nineball", "race-to 99", "loser", "late=99 threefoul=0 pushout=0"),
    ("tenball", "race-to 99", "winner", "late=99 threefoul=0 pushout=0"),
    ("eightball", "race-to 99", "winner", "late=99 threefoul=1"),
    ("straight", "points 150", "loser", "late=99 threefoul=0"),
)


@pytest.mark.parametrize("code", lang.LANGS)
@pytest.mark.parametrize("size", [(400, 300), (128, 64)])
@pytest.mark.parametrize("conditions", CONDITIONS, ids=[c[0].split()[0] for c in CONDITIONS])
def test_the_start_screen_with_a_matchs_conditions_at_their_widest(render, code, size,
                                                                   conditions):
    """The conditions under the match under the cursor fit its row on the e-ink panel,
    every word of them shown; the OLED shows them only where its rows hold them whole
    (else the row as before): no cut on either, with names of a usual length; with the
    longest, only the names are cut."""
    from scoreboard.startmenu import conditions as words

    g, m, breaks, rules = conditions
    for a, b in ((NAMES[2], NAMES[3]), (NAME_A, NAME_B)):
        policy = "breaks %s\n" % breaks if breaks else ""
        text = ("sbn 1\nlang %s\ngame %s\nmatch %s\n%sside A \"%s\"\nside B \"%s\"\n"
                "rules %s\nclock shot=45 warn=10\n") % (code, g, m, policy, a, b, rules)
        # on the e-ink panel with the rows below it (the OLED cuts the other rows: each
        # is read whole under the cursor)
        start = cat.start([("club-final-table-99", "%s v %s" % (a, b), text)]
                          + (cat.QUEUE if size[0] == 400 else []))
        drawn = render(start, *size)
        lang.use(code)
        said = words(cat._Queue([("x", "", text)]).header_of("x"))
        assert said and said.count(", ") == len(rules.split()) - (0 if breaks else 1), said
        if a == NAME_A and size[0] < 400:  # the OLED's one row: cut past the names
            continue
        _assert_fits(drawn, "%s %s %s" % (code, size, g))
        shown = " ".join(t[0] for t in drawn.texts).split()
        if size[0] == 400:
            assert all(w in shown for w in said.split()), (said, shown)
