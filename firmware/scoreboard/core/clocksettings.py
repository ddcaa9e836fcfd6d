"""Shot-clock settings, apart from the running clock: `Settings`, the named profiles,
and the notation's `clock` keys read and written (`shot`, `warn`, `ext`, `first`, `wait`,
`beeps`). The keys are checked here, once, with a message naming the key and the limit;
the header, `clock on` and the checkpoint all read them through `parse_words`.
"""

from micropython import const

_MAX_SECS = const(600)
_MAX_EXT = const(9)
_DEFAULT_WARN = const(10)
KEYS = ("shot", "warn", "ext", "first", "wait", "beeps")
# The shot-clock profiles, the one table of them: every profile in the notation's order,
# then the orders the box offers them in. The set-up list starts with no clock and goes
# up in strictness; the clock menu during a match offers the WPA's first, the likeliest
# switch from the seed's default, then pro, then back to the seed's.
PROFILES = ("seed", "wpa", "pro", "off")
SETUP_ORDER = ("off", "seed", "wpa", "pro")
MENU_ORDER = ("wpa", "pro", "seed")


class Settings:
    """Shot-clock settings, in whole seconds; every value may be changed.

    shot: the limit per shot. warn: the warning at this many seconds left (0 = none).
    ext_count x ext_secs: extensions per side per frame. first: the limit of the first
    shot after the break-off (0 = same as shot); it allows no extension. wait_go: the
    clock starts only on `go`, not on an outcome line. beeps: an audible countdown over
    the last N seconds (0 = none).
    """

    def __init__(self, *, shot=45, warn=10, ext_count=0, ext_secs=0, first=0,
                 wait_go=False, beeps=0):
        self.shot = shot
        self.warn = warn
        self.ext_count = ext_count
        self.ext_secs = ext_secs
        self.first = first
        self.wait_go = wait_go
        self.beeps = beeps

    def copy(self):
        return Settings(shot=self.shot, warn=self.warn, ext_count=self.ext_count,
                        ext_secs=self.ext_secs, first=self.first, wait_go=self.wait_go,
                        beeps=self.beeps)

    def __eq__(self, other):
        return (isinstance(other, Settings) and self.shot == other.shot
                and self.warn == other.warn and self.ext_count == other.ext_count
                and self.ext_secs == other.ext_secs and self.first == other.first
                and self.wait_go == other.wait_go and self.beeps == other.beeps)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return "Settings(" + format_settings(self) + ")"

    def validate(self):
        """Raise ValueError, naming the key, when the settings do not make a clock."""
        for key, value in (("shot", self.shot), ("warn", self.warn),
                           ("ext", self.ext_count), ("ext", self.ext_secs),
                           ("first", self.first), ("beeps", self.beeps)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError("clock " + key + ": a whole number is needed")
        if not 1 <= self.shot <= _MAX_SECS:
            raise ValueError("clock shot=" + str(self.shot) + ": must be 1 to "
                             + str(_MAX_SECS) + " seconds")
        if not 0 <= self.first <= _MAX_SECS:
            raise ValueError("clock first=" + str(self.first) + ": must be 0 (none) to "
                             + str(_MAX_SECS) + " seconds")
        shortest = self.shot if not self.first else min(self.shot, self.first)
        if not 0 <= self.warn < shortest:
            raise ValueError("clock warn=" + str(self.warn) + ": must be less than the "
                             "shortest limit (" + str(shortest) + " s)")
        if not 0 <= self.beeps < shortest:
            raise ValueError("clock beeps=" + str(self.beeps) + ": must be less than "
                             "the shortest limit (" + str(shortest) + " s)")
        if not 0 <= self.ext_count <= _MAX_EXT:
            raise ValueError("clock ext=" + str(self.ext_count) + "x" + str(self.ext_secs)
                             + ": at most " + str(_MAX_EXT) + " extensions")
        if not 0 <= self.ext_secs <= _MAX_SECS or (self.ext_count and not self.ext_secs):
            raise ValueError("clock ext=" + str(self.ext_count) + "x" + str(self.ext_secs)
                             + ": an extension is 1 to " + str(_MAX_SECS) + " seconds")
        if not isinstance(self.wait_go, bool):
            raise ValueError("clock wait: True or False")


def profile(name):
    """A fresh Settings for a named profile (docs/rules.md); None for 'off'."""
    if name == "seed":  # seed 004 1.11: at most 45 s, warning 10 s before the end
        return Settings(shot=45, warn=10)
    if name == "wpa":  # 35 s, warning at 10 s, 1x25 s per rack, 60 s after the break
        return Settings(shot=35, warn=10, ext_count=1, ext_secs=25, first=60)
    if name == "pro":  # 30 s, audible countdown of the last 5 s, 1x30 s per rack
        return Settings(shot=30, warn=0, ext_count=1, ext_secs=30, beeps=5)
    if name == "off":
        return None
    raise ValueError("unknown clock profile '" + str(name) + "' (seed, wpa, pro, off)")


def profile_words(name):
    """The notation's keys of a named profile (`shot=45 warn=10`): what a header's `clock`
    line or `clock on` carries for it; '' for 'off'."""
    return format_settings(profile(name))


def _seconds(key, text, shown=None, most=_MAX_SECS):
    """ASCII digits only, at most 4 of them (a longer number is out of range anyway)."""
    if not text or any(c not in "0123456789" for c in text):
        raise ValueError("clock " + key + "=" + (shown or text)
                         + ": a whole number of seconds is needed")
    if len(text) > 4:
        raise ValueError("clock " + key + "=" + (shown or text) + ": at most "
                         + str(most) + (" extensions" if most == _MAX_EXT else " seconds"))
    return int(text)


def parse_words(words, base=None):
    """Settings from `key=value` words as the notation writes them (`shot=45 ext=1x25`),
    for the header, `clock on` and the checkpoint; `parse_settings` checks the keys and
    values, once. ValueError names the key."""
    keys = {}
    for word in words:
        eq = word.find("=")
        if eq <= 0 or eq == len(word) - 1:
            raise ValueError("clock setting must be key=value, not '%s'" % word)
        key = word[:eq]
        if key in keys:
            raise ValueError("clock key '%s' given twice" % key)
        keys[key] = word[eq + 1:]
    return parse_settings(keys, base)


def parse_settings(keys, base=None):
    """Settings from the notation's clock keys, a dict of str -> str.

    Keys: shot, warn, ext (NxS), first, wait (only `go`), beeps. Keys not given keep the
    value in `base`; without a base, `shot` is required and the others default to the
    seed's rule (warning 10 s before the end when the limit is longer, no extension, no
    first-shot limit, no countdown). Raises ValueError naming the key.
    """
    if base is None:
        if "shot" not in keys:
            raise ValueError("clock: shot=S is required")
        s = Settings(shot=0, warn=-1)
    else:
        s = base.copy()
    for key in keys:
        if key not in KEYS:
            raise ValueError("unknown clock key '%s' (%s)" % (key, " ".join(KEYS)))
    for key in KEYS:  # a fixed order: the first error is the same on every interpreter
        if key not in keys:
            continue
        text = keys[key]
        if key == "shot":
            s.shot = _seconds(key, text)
        elif key == "warn":
            s.warn = _seconds(key, text)
        elif key == "first":
            s.first = _seconds(key, text)
        elif key == "beeps":
            s.beeps = _seconds(key, text)
        elif key == "ext":
            parts = text.split("x")
            if len(parts) != 2:
                raise ValueError("clock ext=" + text + ": NxS is needed, e.g. ext=1x25")
            s.ext_count = _seconds(key, parts[0], text, _MAX_EXT)
            s.ext_secs = _seconds(key, parts[1], text)
        elif text != "go":  # wait
            raise ValueError("clock wait=" + text + ": only wait=go is known")
        else:
            s.wait_go = True
    if s.warn < 0:
        s.warn = _DEFAULT_WARN if s.shot > _DEFAULT_WARN else 0
        if s.first and s.warn >= s.first:
            s.warn = 0
    s.validate()
    return s


def format_settings(s):
    """The notation's keys for s (parse_settings of them gives s back); '' for None."""
    if s is None:
        return ""
    out = "shot=" + str(s.shot) + " warn=" + str(s.warn)
    if s.ext_count:
        out += " ext=" + str(s.ext_count) + "x" + str(s.ext_secs)
    if s.first:
        out += " first=" + str(s.first)
    if s.beeps:
        out += " beeps=" + str(s.beeps)
    if s.wait_go:
        out += " wait=go"
    return out
