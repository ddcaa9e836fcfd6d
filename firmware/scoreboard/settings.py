"""The box's own settings on flash: `settings.txt`, one `key=value` a line.

The buzzer's volume (`volume=60`, in percent; 0 is mute), changed on the start screen
with a long `menu`, the box's language (`lang=pl`: en, pl or bg, scoreboard/lang;
stepped on the start screen with a long `undo`; en when the file does not say) and the LED panel's
brightness (`led=8`, 0..15; the board caps it to
stay inside a USB port's current whatever is asked), and the table the box stands at
(`table=5`, 1..99: set by the desk, `scoreboard setup --table N` through the request
channel's `table` verb; the start screen shows it and `hello` says it, so that the desk
knows which box is which table whatever USB port it is on; none when the file does not
say). The file is tiny and replaced
atomically like the journal's own small files (scoreboard.files: written as
`settings.txt.new`, then renamed over the old one), so a power cut leaves the old or the
new settings, never half of one. Unknown keys are kept as they are. `files` is the
box's scoreboard.files.Files (the journal's). A settings.txt the box cannot read (not
UTF-8, a folder) is set aside as settings.bad and the defaults used: the box still
starts, and the panel says so (`files.repaired`).
"""

VOLUMES = (100, 60, 30, 0)  # what a long `menu` steps through; 0 = mute
_NAME = "settings.txt"


def _default(key):
    """What a setting is when the file does not say (a function, not a dict: no table
    in the heap)."""
    return "60" if key == "volume" else "8"


def load_settings(files):
    """The settings (str values), the defaults for what the file does not say."""
    values = {"volume": _default("volume"), "led": _default("led")}
    # What the box could not read is set aside first: a save renames over the file
    files.check_small(_NAME, "settings.bad")
    files.check_small(_NAME + ".new", "settings.new.bad")
    try:
        with open(files.path(_NAME)) as f:
            for line in f:
                key, sep, value = line.strip().partition("=")
                if sep and key:
                    values[key] = value
    except OSError:
        pass
    return values


def save_settings(files, values):
    files.write_small(_NAME, "\n".join("%s=%s" % (key, values[key]) for key in sorted(values)))


def _number(values, key, top):
    v = values.get(key, _default(key))
    return int(v) if v.isdigit() and int(v) <= top else int(_default(key))


def volume_of(values):
    return _number(values, "volume", 100)


def led_level_of(values):
    return _number(values, "led", 15)


TABLE_MAX = 99  # the header's `table N` (scoreboard.core.header)


def table_of(values):
    """The table the box stands at (1..TABLE_MAX), or None: not set, or not a number."""
    v = values.get("table", "")
    return int(v) if v.isdigit() and 1 <= int(v) <= TABLE_MAX else None


def lang_of(values):
    """The box's language: `lang=`, or en for none or one the box has no table for."""
    from scoreboard.lang import LANGS

    v = values.get("lang", "en")
    return v if v in LANGS else "en"


def next_volume(current):
    """The next step of VOLUMES after `current` (louder steps first, then mute)."""
    for i in range(len(VOLUMES)):
        if VOLUMES[i] == current:
            return VOLUMES[(i + 1) % len(VOLUMES)]
    return VOLUMES[0]
