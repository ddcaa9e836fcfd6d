"""Printable keypad legends, one SVG per game family, drawn from the firmware's keymaps.

`python -m host_tools.gen.legends [--out hardware]` writes hardware/legend-<family>.svg for
every family of `scoreboard.keys.keymaps.KEYMAPS` (snooker, pool, straight), and beside
each its Polish and Bulgarian legend, legend-<family>-pl.svg and -bg.svg. Each is
at the keypad's real size (the common 4x4 membrane keypad: 69 x 77 mm face, keys on a
17 mm pitch): print at 100 % (no "fit to page"), cut along the outline, and lay it
under a clear self-adhesive film over the keypad, the ribbon tail at the bottom.

Each key shows its printed label in the legend's language (the language table's `l.NAME`
in capitals, through `host_tools.gen.keylegends.legend`: "A WINS", "COFNIJ", "НАЗАД"),
the word the box's prompts in that language name the key by; its name underneath, small
and English in every language (the names are the contract: the key grammar, the
simulator's buttons, the notation and key scripts use the same words), "hold" in the
corner when a long press does
something else, the number it stands for during a number entry on the families that
print them (`keymaps.numbered`, small, top left), and for the snooker colours a band in
the ball's colour. Key 0 is top left, row-major, as `board.keys()` numbers them; what
each key does, short and long, is in hardware/keypad.md.

The text is set in DejaVu Sans (Arial, then any sans-serif, where it is missing): its
Latin Extended-A and Cyrillic cover the Polish and Bulgarian labels, and the root's
`xml:lang` lets a renderer pick the Bulgarian forms of the Cyrillic letters. A label
wider than 12 mm is set smaller (`label_em`, the bold capitals' widths), so it fits, but
never under 2.2 mm high (MIN_LABEL_MM): a label of two words is set on two lines (`BREAK
FOUL`), and a word still too wide at 2.2 mm is narrowed (SVG `textLength`), to three
quarters of its width at most.

tests/test_hardware_docs.py regenerates the files and checks they are up to date, at
the stated size, and name every key of their keymap, in each language.
"""

import argparse
import sys
from pathlib import Path

import host_tools  # noqa: F401  (sys.path: firmware/)
from scoreboard.keys import keymaps
from host_tools.gen import keylegends as key_legends

REPO = Path(__file__).resolve().parents[2]

# The keypad face, in millimetres (measure yours; most 4x4 membrane pads are these).
WIDTH_MM = 69.0
HEIGHT_MM = 77.0
PITCH_X_MM = 17.0
PITCH_Y_MM = 17.0
KEY_MM = 14.0  # the printed key square
FIRST_X_MM = 9.0  # centre of the top-left key, from the left edge
FIRST_Y_MM = 14.0  # ... and from the top edge (the title band is above)

BALL_COLOURS = {
    "red": "#c8102e", "yellow": "#f6d000", "green": "#00843d", "brown": "#7b4a12",
    "blue": "#0033a0", "pink": "#f49ac1", "black": "#111111",
}

LANGS = ("en", "pl", "bg")  # the legends' languages: the box's (scoreboard.lang.LANGS)

# The legend's own words, per language: host data, not on the box.
TITLES = {
    "en": {"snooker": "SNOOKER", "pool": "POOL (8/9/10-ball)", "straight": "STRAIGHT POOL"},
    "pl": {"snooker": "SNOOKER", "pool": "POOL (8/9/10 bil)",
           "straight": "POOL 14/1 CIĄGŁY"},
    "bg": {"snooker": "СНУКЪР", "pool": "ПУЛ (8/9/10 топки)",
           "straight": "ПУЛ 14/1"},
}
HOLD = {"en": "hold", "pl": "trzymaj", "bg": "задръж"}
FOOTER = {"en": "what each key does, short and long: hardware/keypad.md",
          "pl": "co robi każdy klawisz, krótko i długo: hardware/keypad.md",
          "bg": "какво прави всеки клавиш, кратко и дълго: hardware/keypad.md"}


def _esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def key_centre(index):
    """(x, y) in mm of the centre of key `index` (row-major, 0 top left)."""
    row, col = divmod(index, keymaps.COLS)
    return FIRST_X_MM + col * PITCH_X_MM, FIRST_Y_MM + row * PITCH_Y_MM


# Advance widths of the bold capitals, in em, of DejaVu Sans Bold (its hmtx table): the
# few far from the usual 0.78, so that a label of wide letters (Ж, Ш, M) is set smaller.
_NARROW = {" ": 0.35, ".": 0.38, "I": 0.37, "J": 0.37, "L": 0.64, "Ł": 0.64, "Г": 0.64,
           "E": 0.68, "F": 0.68, "T": 0.68, "\u0415": 0.68, "\u0422": 0.68}  # Cyrillic Ie, Te
_WIDE = {"M": 1.0, "\u041c": 1.0, "Ф": 1.0, "W": 1.1, "Ж": 1.23, "Ш": 1.24, "Щ": 1.33,
         "Ю": 1.17, "Ц": 0.93, "Ъ": 0.94, "Д": 0.89, "O": 0.85, "Ó": 0.85, "\u041e": 0.85}
LABEL_MM = 12.0  # the width a label may take on the 14 mm key
MIN_LABEL_MM = 2.2  # the least label height (issue 33: 1.8 mm, about 5 pt, is hard to
# read under a dim table lamp); a label wider than the key at it is set narrower
MIN_SQUEEZE = 0.75  # ... but never narrower than three quarters of its width
LINE_EM = 1.15  # a two-line label's line pitch, in em
CAP_EM = 0.73  # the capitals' height in em (DejaVu Sans Bold)


def label_em(label):
    """The width of `label` in bold capitals, in em (times the font size: mm)."""
    return sum(_NARROW.get(c, _WIDE.get(c, 0.78)) for c in label)


def label_lines(label):
    """The lines a label is set on: a label of two words on two (`BREAK`, `FOUL`), the
    height its longest word allows; one word on one."""
    return label.split(" ")


def _font_size(label):
    """Label text height in mm: 3.4 for up to 4 letters (of its longest line), 2.8 up to
    6, else 2.3, less where that is wider than the key takes (LABEL_MM), never under
    MIN_LABEL_MM (`label_layout` then sets it narrower)."""
    line = max(label_lines(label), key=label_em)
    n = len(line)
    size = 3.4 if n <= 4 else (2.8 if n <= 6 else 2.3)
    return max(MIN_LABEL_MM, min(size, round(LABEL_MM / label_em(line) - 0.005, 2)))


def label_layout(label):
    """(size, [(line, squeeze)]): the label's height in mm, each line with the factor
    its width is set at (1: as drawn; less: narrowed to LABEL_MM, SVG `textLength`)."""
    size = _font_size(label)
    out = []
    for line in label_lines(label):
        width = label_em(line) * size
        out.append((line, 1.0 if width <= LABEL_MM else round(LABEL_MM / width, 3)))
    return size, out


def file_name(family, code="en"):
    """legend-<family>.svg, or legend-<family>-<code>.svg beside it."""
    return "legend-%s%s.svg" % (family, "" if code == "en" else "-" + code)


def legend_svg(family, code="en"):
    """The SVG text of one family's legend, its labels in language `code`."""
    names = keymaps.keymap(family)
    labels = key_legends.legend(family, code)
    numbered = keymaps.numbered(family)
    w, h = WIDTH_MM, HEIGHT_MM
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<svg xmlns="http://www.w3.org/2000/svg" width="%gmm" height="%gmm" '
        'viewBox="0 0 %g %g" font-family="DejaVu Sans, Arial, sans-serif" xml:lang="%s">'
        % (w, h, w, h, code),
        "<title>Keypad legend: %s (%s)</title>" % (_esc(family), code),
        "<desc>Print at 100 %%; %g x %g mm; keys on a %g mm pitch. Generated by "
        "host_tools/gen/legends.py from firmware/scoreboard/keys/keymaps.py.</desc>"
        % (w, h, PITCH_X_MM),
        '<rect x="0.1" y="0.1" width="%g" height="%g" fill="white" stroke="#999" '
        'stroke-width="0.2" stroke-dasharray="1,1"/>' % (w - 0.2, h - 0.2),
        '<text x="%g" y="4.6" font-size="3" font-weight="bold" text-anchor="middle">%s'
        "</text>" % (w / 2, _esc(TITLES[code].get(family, family.upper()))),
    ]
    half = KEY_MM / 2
    for i, name in enumerate(names):
        cx, cy = key_centre(i)
        x, y = cx - half, cy - half
        out.append('<g id="key%d">' % i)
        out.append('<rect x="%g" y="%g" width="%g" height="%g" rx="1.5" fill="white" '
                   'stroke="black" stroke-width="0.3"/>' % (x, y, KEY_MM, KEY_MM))
        label, _short, long_press = labels[i]
        colour = BALL_COLOURS.get(name) if family == "snooker" else None
        if colour:
            out.append('<rect x="%g" y="%g" width="%g" height="3.2" fill="%s"/>'
                       % (x + 0.6, y + KEY_MM - 3.8, KEY_MM - 1.2, colour))
        num = keymaps.NUMBERS[i] if numbered else 0
        if num:
            out.append('<text x="%g" y="%g" font-size="2.2" fill="#555">%d</text>'
                       % (x + 1.0, y + 2.8, num))
        if long_press:
            out.append('<text x="%g" y="%g" font-size="1.6" fill="#555" '
                       'text-anchor="end">%s</text>' % (x + KEY_MM - 0.8, y + 2.4,
                                                        _esc(HOLD[code])))
        out.append(_label_svg(label, cx, cy))
        ink = "white" if colour and name != "yellow" and name != "pink" else "#444"
        out.append('<text x="%g" y="%g" font-size="1.9" fill="%s" text-anchor="middle">%s'
                   "</text>" % (cx, y + KEY_MM - 1.3, ink, _esc(name)))
        out.append("</g>")
    out.append('<text x="%g" y="%g" font-size="1.8" fill="#777" text-anchor="middle">'
               "%s</text>" % (w / 2, h - 2, _esc(FOOTER[code])))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _label_svg(label, cx, cy):
    """The label's <text>, centred on the key (class `label`): a line, or two tspans;
    a line too wide for the key at MIN_LABEL_MM narrowed by `textLength`."""
    size, lines = label_layout(label)
    # the first baseline: the block of capitals (one cap height, plus a line pitch a
    # further line) centred on the key's middle
    top = cy - (CAP_EM + LINE_EM * (len(lines) - 1)) * size / 2 + CAP_EM * size
    parts = []
    for i, (line, squeeze) in enumerate(lines):
        fit = "" if squeeze >= 1 else (' textLength="%g" lengthAdjust="spacingAndGlyphs"'
                                       % round(label_em(line) * size * squeeze, 2))
        parts.append('<tspan x="%g" y="%g"%s>%s</tspan>' % (
            cx, round(top + i * LINE_EM * size, 2), fit, _esc(line)))
    return ('<text class="label" font-size="%g" font-weight="bold" text-anchor="middle">%s'
            "</text>" % (size, "".join(parts)))


def write_all(out_dir):
    """Write legend-<family>[-<code>].svg for every family and language; return the
    paths written."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for family in keymaps.KEYMAPS:
        for code in LANGS:
            path = out_dir / file_name(family, code)
            path.write_text(legend_svg(family, code), encoding="utf-8")
            paths.append(path)
    return paths


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_tools.gen.legends",
                                     description="Write the keypad legend SVGs.")
    parser.add_argument("--out", default=str(REPO / "hardware"),
                        help="folder to write into (default: hardware/)")
    args = parser.parse_args(argv)
    for path in write_all(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
