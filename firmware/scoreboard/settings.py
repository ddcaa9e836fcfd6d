"""The box's own settings on flash: `settings.txt`, one `key=value` a line.

The buzzer's volume (`volume=60`, in percent; 0 is mute), changed on the start screen
with a long `menu`, the box's language (`lang=pl`: en, pl or bg, scoreboard/lang;
stepped on the start screen with a long `undo`; en when the file does not say) and the LED panel's
brightness (`led=8`, 0..15; the board caps it to
stay inside a USB port's current whatever is asked), and the table the box stands at
(`table=5`, 1..99: set by the desk, `scoreboard setup --table N` through the request
channel's `table` verb; the start screen shows it and `hello` says it, so that the desk
knows which box is which table whatever USB port it is on; none when the file does not
say). A box on the club's Wi-Fi (scoreboard/net) also keeps there the network's name
(`wifi=Club WiFi`) and the broker's address (`broker=192.168.1.10` or
`192.168.1.10:1883`: an IPv4 address, no name: the box asks no DNS server). The file is
tiny and replaced
atomically like the journal's own small files (scoreboard.files: written as
`settings.txt.new`, then renamed over the old one), so a power cut leaves the old or the
new settings, never half of one. Unknown keys are kept as they are. `files` is the
box's scoreboard.files.Files (the journal's). A settings.txt the box cannot read (not
UTF-8, a folder) is set aside as settings.bad and the defaults used: the box still
starts, and the panel says so (`files.repaired`).

The two passwords (the Wi-Fi's, `wifi_pass`, and the box's own on the broker,
`mqtt_pass`) are kept apart, in `netpass.txt`, the same way: no request of the desk
reads that file (scoreboard/channel.py reaches settings.txt, never it), the `settings`
request lists only whether each is set, and nothing the box prints or journals holds
them. `scoreboard setup --wifi SSID --broker HOST` sets all four through the request
channel: `settings KEY=VALUE...` (`change`), each VALUE percent-encoded (a space is
%20) so that any name or password goes in one word.
"""

VOLUMES = (100, 60, 30, 0)  # what a long `menu` steps through; 0 = mute
_NAME = "settings.txt"
_SECRETS = "netpass.txt"
SECRETS = ("mqtt_pass", "wifi_pass")  # kept in netpass.txt, never listed
# What the desk may set (`settings KEY=VALUE`): the network's; the rest is the
# referee's, on the box's own menus.
SETTABLE = ("broker", "wifi") + SECRETS
BROKER_PORT = 1883  # MQTT's registered port, when `broker=` names none


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


def load_secrets(files):
    """The passwords of netpass.txt ({} when none is set)."""
    values = {}
    try:
        with open(files.path(_SECRETS)) as f:
            for line in f:
                key, sep, value = line.rstrip("\n").partition("=")
                if sep and key in SECRETS:
                    values[key] = value
    except (OSError, UnicodeError):
        pass
    return values


def unquote(word):
    """A percent-encoded value (`Club%20WiFi`) as text; ValueError when it is not."""
    raw = word.encode()
    if b"%" not in raw:
        return word
    out = bytearray()
    i = 0
    while i < len(raw):
        b = raw[i]
        if b == 0x25:
            digits = raw[i + 1:i + 3]
            if len(digits) != 2:
                raise ValueError("a %% not followed by two hex digits")
            out.append(int(digits, 16))
            i += 3
        else:
            out.append(b)
            i += 1
    return bytes(out).decode()


def broker_of(values):
    """(host, port) of `broker=`, or None when none is set; ValueError when it is no
    IPv4 address (with an optional :PORT)."""
    text = values.get("broker")
    if not text:
        return None
    host, colon, port = text.partition(":")
    parts = host.split(".")
    ok = len(parts) == 4 and all(p.isdigit() and len(p) <= 3 and int(p) <= 255
                                 for p in parts)
    if not ok or (colon and not (port.isdigit() and 0 < int(port) < 65536)):
        raise ValueError("broker %s: an IPv4 address, with :PORT if not %d"
                         % (text, BROKER_PORT))
    return host, int(port) if colon else BROKER_PORT


def _check(key, value):
    """ValueError saying why `value` cannot be setting `key` (bounds of the protocols)."""
    if "\n" in value or "\r" in value:
        raise ValueError("%s: no line break" % key)
    n = len(value.encode())
    if key == "broker" and value:
        broker_of({"broker": value})
    elif key == "wifi" and n > 32:
        raise ValueError("wifi: a network name is at most 32 bytes")
    elif key == "wifi_pass" and value and not 8 <= n <= 63:
        raise ValueError("wifi_pass: a WPA2 password is 8 to 63 characters")
    elif key == "mqtt_pass" and n > 64:
        raise ValueError("mqtt_pass: at most 64 bytes")


def change(files, values, words):
    """Set `KEY=VALUE` words (percent-encoded values; an empty one removes the key) of
    SETTABLE into `values` (the app's settings) and netpass.txt, all or none: ValueError
    with the reason of the first that cannot be. Returns the keys changed."""
    new = {}
    for w in words:
        key, sep, value = w.partition("=")
        if not sep or key not in SETTABLE:
            raise ValueError("settings KEY=VALUE, KEY one of %s" % " ".join(SETTABLE))
        value = unquote(value)
        _check(key, value)
        new[key] = value
    secrets = load_secrets(files)
    plain = dict(values)
    for key, value in new.items():
        target = secrets if key in SECRETS else plain
        if value:
            target[key] = value
        elif key in target:
            del target[key]
    if any(k in SECRETS for k in new):
        files.write_small(_SECRETS, "\n".join("%s=%s" % (k, secrets[k]) for k in sorted(secrets)))
    if any(k not in SECRETS for k in new):
        save_settings(files, plain)
        values.clear()
        values.update(plain)
    return sorted(new)


def secrets_set(files):
    """The passwords that are set (their names only)."""
    return sorted(load_secrets(files))
