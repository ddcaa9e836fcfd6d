"""The box's own settings on flash: `settings.txt`, one `key=value` a line.

The buzzer's volume (`volume=60`, in percent; 0 is mute), changed on the start screen
with a long `menu`, and the LED panel's brightness (`led=8`, 0..15; the board caps it to
stay inside a USB port's current whatever is asked). The file is tiny and replaced
atomically (written as `settings.txt.new`, then renamed over the old one), so a power
cut leaves the old or the new settings, never half of one. Unknown keys are kept as they are.
"""

import os

VOLUMES = (100, 60, 30, 0)  # what a long `menu` steps through; 0 = mute
DEFAULTS = {"volume": "60", "led": "8"}
_NAME = "settings.txt"


def _path(root, name=_NAME):
    return root + "/" + name if root else name


def load_settings(root):
    """The settings (str values), the defaults for what the file does not say."""
    values = dict(DEFAULTS)
    try:
        with open(_path(root)) as f:
            for line in f:
                key, sep, value = line.strip().partition("=")
                if sep and key:
                    values[key] = value
    except OSError:
        pass
    return values


def save_settings(root, values):
    new = _path(root, _NAME + ".new")
    with open(new, "w") as f:
        for key in sorted(values):
            f.write("%s=%s\n" % (key, values[key]))
    try:
        os.rename(new, _path(root))
    except OSError:  # a filesystem that will not rename over a file
        os.remove(_path(root))
        os.rename(new, _path(root))


def _number(values, key, top):
    v = values.get(key, DEFAULTS[key])
    return int(v) if v.isdigit() and int(v) <= top else int(DEFAULTS[key])


def volume_of(values):
    return _number(values, "volume", 100)


def led_level_of(values):
    return _number(values, "led", 15)


def next_volume(current):
    """The next step of VOLUMES after `current` (louder steps first, then mute)."""
    for i in range(len(VOLUMES)):
        if VOLUMES[i] == current:
            return VOLUMES[(i + 1) % len(VOLUMES)]
    return VOLUMES[0]
