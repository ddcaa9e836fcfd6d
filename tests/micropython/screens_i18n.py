"""The screens in Polish and Bulgarian (issue 18), with names in their own scripts.

    micropython tests/micropython/screens_i18n.py OUTDIR

Writes OUTDIR/NAME.fb for each screen (names `eink-pl-...`, `oled-bg-...`) and prints
`NAME PANEL W H` lines, as screens_catalogue.py does; tests/test_i18n_screens.py
compares the bytes of CPython's run and MicroPython's with each other and with
tests/screens/NAME.fb, whose PNGs the README shows.
"""

import sys

import screens_catalogue as cat

from scoreboard import lang

NAMES = {"pl": ('side A "Łukasz Wiśniewski"', 'side B "Grzegorz Brzęczyszczykiewicz"'),
         "bg": ('side A "Иван Петров"', 'side B "Георги Димитров"')}


def _named(text, code):
    a, b = NAMES[code]
    return text.replace('side A "Ronnie O\'Sullivan"', a).replace('side B "Judd Trump"', b)


def _pool(text, code):
    a, b = NAMES[code]
    out = []
    for line in text.split("\n"):
        if line.startswith("side A "):
            line = a
        elif line.startswith("side B "):
            line = b
        out.append(line)
    return "\n".join(out)


def screens(code):
    """(name, panel width, height, Screen) in language `code`."""
    lang.use(code)
    return [
        ("score-snooker", cat.keyed("score", _named(cat.OPENING, code), "foul pink")),
        ("score-snookers", cat._screen("score", cat.play(_named(cat.SNOOKERS, code)),
                                       message=lang.refusal("'again' only right after a foul"))),
        ("score-nineball", cat.keyed("score", _pool(cat.NINE, code))),
        ("frame-end", cat.keyed("frame_end", _named(cat.FRAME_OVER, code))),
        ("menu", cat.keyed("menu", _named(cat.OPENING, code), "menu")),
        ("start", cat.start([("final", NAMES[code][0][8:-1] + " v " + NAMES[code][1][8:-1])])),
        # issue 33: the late start due, its forfeit at the end, two reds down counted
        ("score-late-start-due", cat.keyed("score", _named(cat.CALLED, code), late_min=0)),
        ("match-end-forfeit-late", cat.keyed("match_end", _named(cat.CALLED, code)
                                             + "forfeit B late\n")),
        ("score-foul-reds-down", cat.keyed("score", _named(cat.OPENING, code), "pink! red!")),
    ]


def rendered():
    for code in ("pl", "bg"):
        for name, screen in screens(code):
            lang.use(code)
            yield ("eink-%s-%s" % (code, name), "eink", 400, 300,
                   cat._panel(screen, 400, 300, False))
            if name in ("score-snooker", "frame-end", "menu"):
                yield ("oled-%s-%s" % (code, name), "eink", 128, 64,
                       cat._panel(screen, 128, 64, False))
    lang.use("en")


def main(outdir):
    for name, panel, w, h, data in rendered():
        with open(outdir + "/" + name + ".fb", "wb") as f:
            f.write(data)
        print(name, panel, w, h)


if __name__ == "__main__":
    main(sys.argv[1])
