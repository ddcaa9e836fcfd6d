"""The box's words in the club's language (issue 18): one table per language, `en.py`
(the reference), `pl.py`, `bg.py`; `t(key)` is every fixed text the screens, the start
menu, the key grammar and the app show, in the language in use (`use(code)`).

A table is one constant tuple of strings, key and text by turns, sorted by key: in
flash when frozen, searched by bisection, and only the tables asked for are imported
(a box in Polish holds `pl` and, for a key a table lacks, `en`). No dict is built. The
keys name where a text is shown (`e.` the e-ink screens, `s.` its score screen, `c.`
the compact OLED screens, `m.` the words read from a match, `g.` the key grammar, `k.`
snooker's keys, `p.` pool's, `t.` straight pool's, `n.` the menus, `st.` the start menu,
`a.` the app, `v.` the room's pages that `scoreboard live` serves: the TV page and the
overlay, never drawn on the box) or what they say (`w.` a word of the notation as the
screens show it; `=` a refusal of the rules core, keyed by the core's own English
template, which `refusal()` matches; `KEY|rack` its words for a pool rack, where the core
says frame).
MicroPython's `str.upper()` changes ASCII letters only: `upper()` here gives the
capitals of the blocks the screens draw, the same on both interpreters.
tests/test_i18n_tables.py checks that every table has every key of `en`, with the same
`%` conversions.

Counts take the plural of their language (`plural(n)`, `tn(key, n)`): a key's text is
the form for "many" (Polish 5-21, 25...; English and Bulgarian: other), `key#1` beside
it the form for one and, in Polish only, `key#2` the form for few (2-4, 22-24...); a
table without `#1`/`#2` of a key says the one form for every count. `l.NAME` is the label
printed on key NAME in that language (host_tools/gen/legends.py prints it in capitals),
the word every prompt of that language names the key by.

The notation's words, the journal, key scripts and the key names (printed small under
each key's label) stay English: they are the contract. The LED panel draws digits and
TIME with segments, the same in every language but Bulgarian, whose rule book's "time"
is the warning ten seconds before a limit (seed 004 1.11): there it draws 0 at the limit
(ui/led.py asks `current()`).
"""

LANGS = ("en", "pl", "bg")
NAMES = ("English", "Polski", "Български")
_ACTIVE = [None, "en", None]  # the table in use, its code, the English table once asked


def texts(code):
    """The table of language `code` (its module's TEXTS: key and text by turns, sorted by
    key), imported when first asked; English for a code it does not know."""
    if code == "pl":
        from . import pl

        return pl.TEXTS
    if code == "bg":
        from . import bg

        return bg.TEXTS
    from . import en

    return en.TEXTS


def use(code):
    """Speak `code` ("en", "pl", "bg") from now on; an unknown code is English. Returns
    the code in use."""
    if code not in LANGS:
        code = "en"
    if _ACTIVE[0] is None or _ACTIVE[1] != code:
        _ACTIVE[0] = texts(code)
        _ACTIVE[1] = code
    return code


def current():
    """The code of the language in use."""
    return _ACTIVE[1]


def name(code):
    """The language `code` in its own words (`Polski`)."""
    return NAMES[LANGS.index(code)] if code in LANGS else code


def _find(table, key):
    """The index of `key` in a table (its keys at the even places, ascending), or -1."""
    lo = 0
    hi = len(table) >> 1
    while lo < hi:
        mid = (lo + hi) >> 1
        k = table[2 * mid]
        if k == key:
            return 2 * mid
        if k < key:
            lo = mid + 1
        else:
            hi = mid
    return -1


def t(key, default=None):
    """The text of `key` in the language in use (English where the table lacks it; else
    `default`, or the key itself)."""
    table = _ACTIVE[0]
    if table is None:
        use("en")
        table = _ACTIVE[0]
    i = _find(table, key)
    if i >= 0:
        return table[i + 1]
    if _ACTIVE[2] is None:
        _ACTIVE[2] = texts("en")
    i = _find(_ACTIVE[2], key)
    if i >= 0:
        return _ACTIVE[2][i + 1]
    return key if default is None else default


def plural(n, code=None):
    """The plural form of the count `n` in language `code` (default: the one in use): 0
    one, 1 few (Polish 2-4, 22-24, 32-34..., not 12-14), 2 many or other. English and
    Bulgarian have one (1) and other; Polish one (1), few and many (0, 5-21, 25-31...)."""
    if code is None:
        code = _ACTIVE[1]
    if n == 1:
        return 0
    if code == "pl":
        d = n % 10
        h = n % 100
        if 2 <= d <= 4 and not 12 <= h <= 14:
            return 1
    return 2


def _form(table, key, form):
    """The index of the text of `key` in `form` (0 one, 1 few, 2 many) in a table, the
    forms `key#1`, `key#2` right after `key` (sorted); -1 when the table lacks `key`.
    No string is built: the hot path draws counts on every refresh."""
    i = _find(table, key)
    if i < 0 or form == 2:
        return i
    suffix = "#1" if form == 0 else "#2"
    n = len(key) + 2
    j = i + 2
    while j < len(table) and j <= i + 4:
        k = table[j]
        if len(k) == n and k.startswith(key) and k.endswith(suffix):
            return j
        j += 2
    return i


def tn(key, n):
    """The text of `key` in the plural form of the count `n`, in the language in use
    (English where the table lacks it), not yet filled in: `tn("m.frames", n) % n`."""
    table = _ACTIVE[0]
    if table is None:
        use("en")
        table = _ACTIVE[0]
    form = plural(n)
    i = _form(table, key, form)
    if i >= 0:
        return table[i + 1]
    if _ACTIVE[2] is None:
        _ACTIVE[2] = texts("en")
    i = _form(_ACTIVE[2], key, plural(n, "en"))
    return _ACTIVE[2][i + 1] if i >= 0 else key


def label(name):
    """The label printed on key `name` in the language in use (lower case, as prompts
    name it): `l.NAME`, or the name."""
    return t("l." + name, name)


def word(w):
    """A word of the notation as the screens show it (a ball, a reason): `w.` + word,
    or the word itself."""
    return t("w." + w, w)


def upper_word(w):
    """The same in capitals."""
    return upper(word(w))


def _up(o):
    """The capital of the letter with code point `o` (Latin-1, Latin Extended-A, Greek,
    Cyrillic), or `o`: the Unicode case pairs of those blocks by arithmetic, no table."""
    if 0x61 <= o <= 0x7A or (0xE0 <= o <= 0xFE and o != 0xF7):
        return o - 32
    if o == 0xFF:
        return 0x178
    if o == 0xB5:  # micro sign: Greek capital mu, as Unicode has it
        return 0x39C
    if 0x100 <= o <= 0x17F:
        if o == 0x131:  # dotless i
            return 0x49
        if o == 0x17F:  # long s
            return 0x53
        odd_upper = 0x139 <= o <= 0x148 or 0x179 <= o <= 0x17E
        if o == 0x138 or o == 0x149:  # kra, 'n: no capital
            return o
        lower = (o & 1) == 0 if odd_upper else (o & 1) == 1
        return o - 1 if lower else o
    if 0x3B1 <= o <= 0x3CB:
        return 0x3A3 if o == 0x3C2 else o - 32
    if o == 0x3AC:
        return 0x386
    if 0x3AD <= o <= 0x3AF:
        return o - 37
    if o == 0x3CC:
        return 0x38C
    if o == 0x3CD or o == 0x3CE:
        return o - 63
    if 0x430 <= o <= 0x44F:
        return o - 32
    if 0x450 <= o <= 0x45F:
        return o - 80
    return o


def _down(o):
    """The small letter of the capital with code point `o` (the blocks of `_up`), or
    `o`: `_up` the other way."""
    if 0x41 <= o <= 0x5A or (0xC0 <= o <= 0xDE and o != 0xD7):
        return o + 32
    if o == 0x178:
        return 0xFF
    if 0x100 <= o <= 0x17F:
        if o == 0x130 or o == 0x138 or o == 0x149 or o == 0x17F:  # no pair by arithmetic
            return o
        odd_upper = 0x139 <= o <= 0x148 or 0x179 <= o <= 0x17E
        capital = (o & 1) == 1 if odd_upper else (o & 1) == 0
        return o + 1 if capital else o
    if 0x391 <= o <= 0x3AB and o != 0x3A2:
        return o + 32
    if o == 0x386:
        return 0x3AC
    if 0x388 <= o <= 0x38A:
        return o + 37
    if o == 0x38C:
        return 0x3CC
    if o == 0x38E or o == 0x38F:
        return o + 63
    if 0x410 <= o <= 0x42F:
        return o + 32
    if 0x400 <= o <= 0x40F:
        return o + 80
    return o


def _cased(s, change, above):
    """`s` with each letter past code point `above` changed by `change` (`_up`,
    `_down`); `s` itself when none changes (no string is built)."""
    for c in s:
        o = ord(c)
        if o > above and change(o) != o:
            break
    else:
        return s
    return "".join(chr(change(ord(c))) for c in s)


def lower(s):
    """`s` in small letters, the same on CPython and MicroPython (whose `str.lower()` is
    ASCII only): a text of capitals set in a line of small ones (`z 7 frejmów`)."""
    return _cased(s, _down, 0x40)


def upper(s):
    """`s` in capitals, the same on CPython and MicroPython (whose `str.upper()` is ASCII
    only)."""
    return _cased(s, _up, 0x60)


ELLIPSIS = "\u2026"  # what ends a text cut short


def fit(s, chars):
    """`s` cut to at most `chars` characters, an ellipsis last when cut (str slicing: at
    a character, never inside one's UTF-8 bytes). THE cut of a text: the screens' field
    (ui/draw.py) and a name in a question (keys/grammar.py) alike."""
    if len(s) <= chars:
        return s
    if chars < 1:
        return ""
    return s[:chars - 1] + ELLIPSIS


def _match(template, text):
    """The arguments of `text` if it is `template` (%s and %d its only conversions) with
    them filled in, else None."""
    parts = []
    rest = template
    while True:
        i = rest.find("%")
        if i < 0:
            parts.append(rest)
            break
        parts.append(rest[:i])
        rest = rest[i + 2:]
    if len(parts) == 1:
        return () if text == template else None
    if len(text) < len(parts[0]) + len(parts[-1]) or not text.startswith(parts[0]) \
            or not text.endswith(parts[-1]):
        return None
    args = []
    pos = len(parts[0])
    end = len(text) - len(parts[-1])
    for lit in parts[1:-1]:
        j = text.find(lit, pos) if lit else pos
        if j < 0 or j > end:
            return None
        args.append(text[pos:j])
        pos = j + len(lit)
    args.append(text[pos:end])
    return args


def refusal(text, family=None):
    """A refusal of the rules core (its English ValueError text) in the language in use:
    the table's translation of the core template it matches, its arguments (balls,
    numbers) filled in, the words among them translated, in the plural of the first
    number; as it is when none matches. Of the templates that match, the most specific
    wins, the one with the most words of its own (`ball on is a colour, not red` over
    `ball on is %s, not %s`, `ball %d is not on the table` over `%s is not on the
    table`): a `%s` must never swallow words of the core, which would then stay English.
    English says the core's own words, unless its table words the template otherwise
    (then with `%s` conversions only). With `family` "pool", a template's rack form
    (`KEY|rack`, where the core says frame for a rack) where the table has one."""
    table = _ACTIVE[0]
    if table is None:
        return text
    pool = family == "pool"
    english = _ACTIVE[1] == "en"
    i = 0
    n = len(table)
    while i < n and table[i] < "=":
        i += 2
    best = -1
    most = -1
    found = None
    while i < n and table[i][0] == "=":
        key = table[i]
        if key.find("#") < 0 and key.find("|") < 0:
            own = len(key) - 1 - 2 * key.count("%")  # its own characters, not the slots
            if own > most:
                args = _match(key[1:], text)
                if args is not None:
                    best, most, found = i, own, args
        i += 2
    if found is None:
        return text
    key = table[best]
    count = 2
    for a in found:  # the first number among them takes its plural
        if a.isdigit():
            count = int(a)
            break
    j = _find(table, key + "|rack") if pool else -1
    if j < 0:
        if english and table[best + 1] == key[1:]:  # English: the core's own words
            return text
        j = _form(table, key, plural(count))
    return table[j + 1] % tuple(word(a) for a in found)
