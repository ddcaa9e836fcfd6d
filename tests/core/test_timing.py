"""Shot clock and match timers through the notation (`@MS` stamps, `clock`, `go`, `hit`,
`extend`, `suspend`/`resume`, `called`), against docs/rules.md (Tournament rules: seed 004
1.7, 1.11, 1.12) and docs/notation.md, plus the report's `timing` object. Every expected figure
is worked out by hand (the arithmetic is in the comments).

Shots: a shot starts on `go`, or on an outcome line unless the clock waits for `go`; it
stops on `hit`, or on the next outcome line when no `hit` came. The break-off stroke
itself is not timed. To read the clock at a moment without starting or stopping a shot,
the tests use a stamped line that is not a shot: `warn B` (a striker on two fouls) in
nine-ball, `penalty X 1` (X not at the table) in straight pool.

Interpretations where the contract leaves something open are marked `INTERPRETATION`.
"""

from support.pool_sbn import cur, nine, straight

WPA = "shot=35 warn=10 ext=1x25 first=60"


def side(shots, total, longest, ext):
    return {"shots": shots, "average_ms": (total // shots) if shots else None,
            "longest_ms": longest, "extensions_left": ext}


def N(clock=WPA, **kw):
    return nine(clock=clock, frame="@0 frame A", **kw)


def S(clock=WPA, **kw):
    return straight(100, clock=clock, frame="@0 frame A", **kw)


# --------------------------------------------------------------------------- statistics

BASIC = [
    "@5000 end",     # A's break-off: not timed; B's shot starts (the first after the break)
    "@25000 end",    # B: 20000; A's shot starts
    "@40000 hit",    # A: 15000
    "@42000 pot 1",  # no shot was running; A's next shot starts
    "@52000 end",    # A: 10000; B's shot starts
]


def test_shot_statistics():
    t = N().state(*BASIC)["timing"]
    assert t == {"match_ms": 52000, "frame_ms": 52000, "late_start_due": None,
                 "A": side(2, 25000, 15000, 1), "B": side(1, 20000, 20000, 1)}


def test_average_is_floored():
    ev = ["@1000 end",     # B's first shot from 1000
          "@2000 end",     # B 1000; A from 2000
          "@12000 hit",    # A 10000
          "@13000 pot 1",  # A from 13000
          "@23000 hit",    # A 10000
          "@24000 pot 2",  # A from 24000
          "@34001 hit"]    # A 10001 -> 30001 / 3 = 10000.33 -> 10000
    t = N().state(*ev)["timing"]
    assert t["A"] == {"shots": 3, "average_ms": 10000, "longest_ms": 10001,
                      "extensions_left": 1}
    assert t["B"] == side(1, 1000, 1000, 1)


def test_no_stamps_no_timing():
    assert nine(clock=WPA).state("end", "end")["timing"] is None


def test_timing_without_clock():
    # stamps but no clock: the statistics still count shots (`go` to `hit`, outcomes);
    # extensions_left is null without a clock
    st = nine(frame="@0 frame A").state("@1000 end", "@3000 end")
    t = st["timing"]
    assert t["match_ms"] == 3000 and t["frame_ms"] == 3000
    assert t["A"]["extensions_left"] is None and t["B"]["extensions_left"] is None


def test_rack_end_stops_the_shot_and_next_break_not_timed():
    ev = ["@1000 end",      # B's first shot from 1000
          "@4000 end",      # B 3000; A from 4000
          "@10000 rack A",  # A 6000; nothing runs between racks
          "@30000 frame",   # B breaks rack 2
          "@35000 end"]     # B's break-off: not timed; A's shot starts
    t = N().state(*ev)["timing"]
    assert t["match_ms"] == 35000
    assert t["frame_ms"] == 5000
    assert t["A"] == side(1, 6000, 6000, 1)
    assert t["B"] == side(1, 3000, 3000, 1)


# --------------------------------------------------------------------------- time prompt

# B at the table on two fouls, its shot started at 5000 (35 s: due at 40000)
TWO_B = ["@1000 end",   # A breaks; B's first shot
         "@2000 foul",  # B 1; A's shot
         "@3000 end",   # B's shot
         "@4000 foul",  # B 2; A's shot
         "@5000 end"]   # B's shot from 5000, B on two fouls


def test_time_prompt_after_shot_limit():
    st = N().state(*TWO_B, "@39999 warn B")
    assert cur(st)["prompts"] == []
    st = N().state(*TWO_B, "@40000 warn B")
    assert cur(st)["prompts"] == ["time"]
    st = N().state(*TWO_B, "@90000 warn B")
    assert cur(st)["prompts"] == ["time"]


def test_time_prompt_after_warn_fouls():
    # the notation's order: `warn-fouls` before `time`
    st = N().state(*TWO_B[:-1], "@5000 end")
    assert cur(st)["prompts"] == ["warn-fouls"]


def test_time_prompt_gone_after_hit():
    # the shot is no longer on the clock once struck, even late
    st = N().state(*TWO_B, "@41000 hit")
    assert cur(st)["prompts"] == ["warn-fouls"]


def test_warn_fouls_then_time():
    # straight pool: B on two fouls at the table, unwarned, shot from 5000 (35 s):
    # at 40000 both prompts, `warn-fouls` first (the notation's order)
    ev = ["@1000 end", "@2000 foul", "@3000 end", "@4000 foul", "@5000 end"]
    st = S().state(*ev, "@40000 penalty A 1")
    assert cur(st)["prompts"] == ["warn-fouls", "time"]


def test_first_shot_after_break_has_its_own_limit():
    # straight pool: A breaks at 1000 (`end`); B's first shot runs 60 s: due at 61000
    g = S()
    assert cur(g.state("@1000 end", "@36000 penalty A 1"))["prompts"] == []
    assert cur(g.state("@1000 end", "@60999 penalty A 1"))["prompts"] == []
    assert cur(g.state("@1000 end", "@61000 penalty A 1"))["prompts"] == ["time"]


def test_later_shot_has_the_shot_limit():
    g = S()
    ev = ["@1000 end", "@2000 score 1"]  # B's shot from 2000: 35 s, due at 37000
    assert cur(g.state(*ev, "@36999 penalty A 1"))["prompts"] == []
    assert cur(g.state(*ev, "@37000 penalty A 1"))["prompts"] == ["time"]


# --------------------------------------------------------------------------- extensions

EXT = ["@1000 end",    # A breaks; B's first shot
       "@11000 end",   # B 10000; A's shot from 11000 (35 s)
       "@20000 extend"]  # A: 35 + 25 = 60 s: due at 71000


def test_extend_adds_25_seconds():
    g = S()
    assert cur(g.state(*EXT, "@46000 penalty B 1"))["prompts"] == []
    assert cur(g.state(*EXT, "@70999 penalty B 1"))["prompts"] == []
    assert cur(g.state(*EXT, "@71000 penalty B 1"))["prompts"] == ["time"]
    t = g.state(*EXT)["timing"]
    assert t["A"]["extensions_left"] == 0
    assert t["B"]["extensions_left"] == 1


def test_second_extend_refused():
    g = S()
    ev = EXT + ["@21000 extend"]
    assert g.error(*ev) == g.last(ev)
    # also on a later shot of the same rack
    ev = EXT + ["@30000 score 1", "@31000 extend"]
    assert g.error(*ev) == g.last(ev)


def test_extend_refused_on_first_shot_after_break():
    g = S()
    ev = ["@1000 end", "@2000 extend"]
    assert g.error(*ev) == g.last(ev)


def test_extend_restored_by_next_frame():
    g = N()
    ev = ["@1000 end", "@11000 end", "@20000 extend", "@30000 rack A", "@40000 frame"]
    t = g.state(*ev)["timing"]
    assert t["A"]["extensions_left"] == 1
    assert t["B"]["extensions_left"] == 1
    # and usable again (rack 2: B breaks at 41000, A's first shot, B at 42000... )
    ev += ["@41000 end",   # B breaks; A's first shot after the break
           "@42000 end",   # A 1000; B's shot from 42000
           "@43000 extend"]
    t = g.state(*ev)["timing"]
    assert t["B"]["extensions_left"] == 0
    assert t["A"]["extensions_left"] == 1


def test_extend_without_clock_refused():
    g = nine(frame="@0 frame A")
    ev = ["@1000 end", "@11000 end", "@12000 extend"]
    assert g.error(*ev) == g.last(ev)
    g = nine()
    assert g.error("end", "end", "extend") == g.line(3)


# --------------------------------------------------------------------------- wait=go


def test_wait_go_no_clock_until_go():
    g = S(clock=WPA + " wait=go")
    ev = ["@1000 end"]  # A breaks: no shot starts
    st = g.state(*ev, "@100000 penalty A 1")
    assert cur(st)["prompts"] == []
    assert st["timing"]["B"]["shots"] == 0
    ev += ["@101000 go"]  # B's first shot after the break: 60 s, due at 161000
    assert cur(g.state(*ev, "@160999 penalty A 1"))["prompts"] == []
    assert cur(g.state(*ev, "@161000 penalty A 1"))["prompts"] == ["time"]


def test_wait_go_statistics():
    g = S(clock=WPA + " wait=go")
    ev = ["@1000 end",      # no shot
          "@101000 go",     # B from 101000
          "@111000 hit",    # B 10000
          "@120000 score 2",  # no shot running; none starts (wait=go)
          "@130000 go",     # B from 130000
          "@150000 score 1",  # no hit: the outcome stops it: B 20000; none starts
          "@300000 penalty A 1"]
    st = g.state(*ev)
    assert cur(st)["prompts"] == []
    t = st["timing"]
    assert t["B"] == side(2, 30000, 20000, 1)
    assert t["A"] == side(0, 0, 0, 1)


# --------------------------------------------------------------------------- suspend


SUSP = ["@1000 end",       # B's first shot
        "@2000 end",       # B 1000; A's shot from 2000 (35 s)
        "@12000 suspend",  # A's shot: 10000 gone, 25000 left
        "@72000 resume"]   # 60 s suspended; A's shot due at 72000 + 25000 = 97000


def test_suspend_keeps_remaining_shot_time():
    g = S()
    assert cur(g.state(*SUSP, "@96999 penalty B 1"))["prompts"] == []
    assert cur(g.state(*SUSP, "@97000 penalty B 1"))["prompts"] == ["time"]


def test_suspend_excluded_from_match_and_frame_time():
    g = S()
    t = g.state(*SUSP, "@97000 penalty B 1")["timing"]
    assert t["match_ms"] == 97000 - 60000
    assert t["frame_ms"] == 97000 - 60000
    # the shot itself: 10000 before + 8000 after = 18000
    t = g.state(*SUSP, "@80000 hit")["timing"]
    assert t["A"] == side(1, 18000, 18000, 1)
    assert t["B"] == side(1, 1000, 1000, 1)


def test_match_and_frame_time_differ():
    g = straight(100, clock=WPA, pre=["@0 called"], frame="@5000 frame A")
    t = g.state("@6000 end", "@7000 end", "@17000 suspend", "@77000 resume",
                "@80000 hit")["timing"]
    # match from 0, frame from 5000; 60 s suspended
    assert t["match_ms"] == 80000 - 60000
    assert t["frame_ms"] == 80000 - 5000 - 60000


def test_suspend_twice_or_resume_without_suspend_refused():
    g = S()
    ev = ["@1000 end", "@2000 suspend", "@3000 suspend"]
    assert g.error(*ev) == g.last(ev)
    ev = ["@1000 end", "@2000 resume"]
    assert g.error(*ev) == g.last(ev)


# --------------------------------------------------------------------------- clock on / off


def test_clock_on_mid_match():
    g = straight(100, frame="@0 frame A")
    ev = ["@1000 end",                 # no clock
          "@2000 clock on shot=45",
          "@3000 score 1"]             # B's next shot from 3000: 45 s, due at 48000
    assert cur(g.state(*ev, "@47999 penalty A 1"))["prompts"] == []
    assert cur(g.state(*ev, "@48000 penalty A 1"))["prompts"] == ["time"]
    t = g.state(*ev)["timing"]
    assert t["A"]["extensions_left"] == 0  # a clock with no extensions
    assert t["B"]["extensions_left"] == 0


def test_clock_off():
    g = S()
    ev = ["@1000 end", "@2000 end", "@3000 clock off"]  # A's shot was on the clock
    st = g.state(*ev, "@100000 penalty B 1")
    assert cur(st)["prompts"] == []
    assert st["timing"]["A"]["extensions_left"] is None
    assert st["timing"]["B"]["extensions_left"] is None
    assert g.error(*ev, "@4000 extend") == g.line(4)


def test_clock_header_before_first_frame():
    # `clock …` between the header and the first `frame`
    g = straight(100, pre=["@0 clock on shot=35"], frame="@0 frame A")
    ev = ["@1000 end", "@2000 score 1"]  # due at 37000
    assert cur(g.state(*ev, "@37000 penalty A 1"))["prompts"] == ["time"]


# --------------------------------------------------------------------------- late start


def _late(*pre):
    return nine(pre=list(pre), frame=None).state()


def test_late_start_due_after_15_minutes():
    assert _late("@0 called", "@900000 clock on shot=45")["timing"]["late_start_due"] is True
    assert _late("@0 called", "@899999 clock on shot=45")["timing"]["late_start_due"] is False


def test_late_start_then_forfeit():
    st = _late("@0 called", "@900000 forfeit B late")
    assert st["timing"]["late_start_due"] is True
    assert st["winner"] == "A"
    assert st["result"] == {"how": "forfeited", "why": "late", "score": None}
    assert st["frames"] == []


def test_late_start_not_called():
    assert _late("@900000 clock on shot=45")["timing"]["late_start_due"] is None


def test_late_start_counts_from_called():
    st = _late("@100000 called", "@999999 clock on shot=45")
    assert st["timing"]["late_start_due"] is False
    st = _late("@100000 called", "@1000000 clock on shot=45")
    assert st["timing"]["late_start_due"] is True
    assert st["timing"]["match_ms"] == 1000000
    assert st["timing"]["frame_ms"] is None  # no frame yet


# --------------------------------------------------------------------------- stamps


def test_stamps_going_backwards_refused():
    g = N()
    assert g.error("@5000 end", "@4000 end") == g.line(2)
    assert g.error("@5000 end", "@6000 rack A", "@5999 frame") == g.line(3)
    assert g.error("@5000 end", "@5000 end", "@4999 hit") == g.line(3)
    # in the pre-frame part
    g = nine(pre=["@5000 called", "@4000 clock on shot=35"], frame=None)
    assert g.error() == len(g.header_lines)


def test_equal_stamps_allowed():
    t = N().state("@5000 end", "@5000 end")["timing"]
    assert t["match_ms"] == 5000


def test_unstamped_lines_time_no_shot():
    # A line without a stamp has no known time: the shot it ends is not counted (it
    # would be 0 ms, or the time of some earlier line), and none starts from it.
    t = N().state("@5000 end", "end", "@8000 end", "@9500 end")["timing"]
    # A's break at 5000 starts B's shot; B's unstamped `end` drops it and starts none;
    # A's `end` at 8000 ends nothing and starts B's; B's `end` at 9500: 1500 ms.
    assert t["match_ms"] == 9500
    assert t["A"] == side(0, 0, 0, 1)
    assert t["B"] == side(1, 1500, 1500, 1)
