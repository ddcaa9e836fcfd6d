"""Driver for a piezo buzzer on a PWM pin: tones, patterns, volume by duty cycle, mute.

A passive piezo sounder (for example Murata PKM17EPPH4001-B0, 4 kHz resonance) driven
straight from a GPIO sounds a square wave at the PWM frequency; how loud depends on the
duty cycle. 50 % duty is the loudest a square wave gets (the most energy at the
fundamental); smaller duties are quieter. So volume 0..100 % maps to duty 0..50 %:
`duty_u16 = volume * 32768 // 100`. Volume 0, frequency 0 and mute all mean duty 0,
which keeps the pin low and the piezo silent (PWM stays configured; nothing is rebuilt).

- `tone(freq_hz, volume_pct)` starts a tone (freq 0 = silence) and returns at once;
- `quiet()` stops it;
- `await play(pattern)` plays a pattern, a tuple of (freq_hz, ms) steps (freq 0 = a
  rest), at the buzzer's volume, then goes quiet (also when cancelled);
- `mute(True)` silences everything until `mute(False)`; `volume` is the default volume.

`tone()` and `quiet()` allocate nothing (only `PWM.freq()` and `PWM.duty_u16()` calls),
so the app may call them from its hot loop; tests run them under
`micropython.heap_lock()`. The RP2040's PWM reaches every audible frequency from about
8 Hz (125 MHz / 65536 / 256 divider) up, so any tone in a pattern is accepted; tones
below 20 Hz or above 20 kHz are refused with ValueError.

The PWM object comes ready from the board (`machine.PWM(Pin(15))`), as with
micropython-lib's drivers: the driver never builds hardware.
"""

import asyncio

from micropython import const

_SLEEP_MS = getattr(asyncio, "sleep_ms", None)


def _sleep_ms(ms):
    """asyncio.sleep_ms on MicroPython; asyncio.sleep (seconds) on CPython (tests)."""
    if _SLEEP_MS is not None:
        return _SLEEP_MS(ms)
    return asyncio.sleep(ms / 1000)


_FULL_DUTY = const(32768)  # 50 % of 65536: the loudest square wave
_MIN_HZ = const(20)
_MAX_HZ = const(20000)

# A few patterns the app can use (frequency Hz, duration ms); 0 Hz is a rest.
BEEP = ((2000, 80),)
LOW = ((400, 250),)  # an impossible entry: a low beep
WARNING = ((2400, 120), (0, 80), (2400, 120))
COUNTDOWN = ((3000, 60),)
TIME = ((1500, 700),)
FRAME_END = ((1568, 150), (0, 40), (2093, 150), (0, 40), (2637, 300))


class Buzzer:
    """A PWM-driven piezo. `pwm` is a ready machine.PWM; `volume` 0..100 (percent)."""

    def __init__(self, pwm, volume=60, muted=False):
        self.pwm = pwm
        self.volume = volume
        self.muted = muted
        self.freq = 0  # the tone sounding now, 0 = quiet
        self.playing = False
        pwm.duty_u16(0)

    def set_volume(self, volume_pct):
        """Set the default volume (clamped to 0..100); a tone sounding now follows it."""
        self.volume = 0 if volume_pct < 0 else 100 if volume_pct > 100 else volume_pct
        if self.freq:
            self.tone(self.freq, self.volume)

    def mute(self, on=True):
        """Mute (True) or unmute (False); muting silences a tone sounding now."""
        self.muted = bool(on)
        if on:
            self.quiet()

    def duty_for(self, volume_pct):
        """The duty_u16 that a volume (percent) gives; 0 when muted."""
        if self.muted or volume_pct <= 0:
            return 0
        if volume_pct >= 100:
            return _FULL_DUTY
        return volume_pct * _FULL_DUTY // 100

    def tone(self, freq_hz, volume_pct=None):
        """Start a tone of `freq_hz` at `volume_pct` (default: the buzzer's volume).

        freq 0 (or volume 0, or mute) is silence. Allocation free.
        """
        if volume_pct is None:
            volume_pct = self.volume
        duty = self.duty_for(volume_pct)
        if freq_hz <= 0 or duty == 0:
            self.pwm.duty_u16(0)
            self.freq = 0
            return
        if freq_hz < _MIN_HZ or freq_hz > _MAX_HZ:
            raise ValueError("tone outside 20 Hz..20 kHz")
        if freq_hz != self.freq:
            self.pwm.freq(freq_hz)
        self.pwm.duty_u16(duty)
        self.freq = freq_hz

    def quiet(self):
        """Stop the tone (duty 0). Allocation free."""
        self.pwm.duty_u16(0)
        self.freq = 0

    async def play(self, pattern, volume_pct=None):
        """Play (freq_hz, ms) steps one after the other, then go quiet.

        Awaits between steps, so the loop keeps running; cancelling the task (a new
        pattern, a key press) silences the buzzer on the way out.
        """
        self.playing = True
        try:
            for freq, ms in pattern:
                self.tone(freq, volume_pct)
                if ms > 0:
                    await _sleep_ms(ms)
        finally:
            self.quiet()
            self.playing = False

    def deinit(self):
        """Silence and release the PWM (the pin can then be used for something else)."""
        self.quiet()
        self.pwm.deinit()


def pattern_ms(pattern):
    """The total length of a pattern in milliseconds."""
    total = 0
    for _freq, ms in pattern:
        total += ms
    return total


_NOTE_STEPS = {"C": -9, "D": -7, "E": -5, "F": -4, "G": -2, "A": 0, "B": 2}


def note_hz(name):
    """The frequency of a note name, equal temperament, A4 = 440 Hz: "A4" 440, "C6"
    1047, "F#5" 740, "Bb4" 466 (rounded to whole hertz, as PWM.freq() takes)."""
    if not name or name[0].upper() not in _NOTE_STEPS:
        raise ValueError("not a note: %r" % name)
    steps = _NOTE_STEPS[name[0].upper()]
    rest = name[1:]
    while rest and rest[0] in "#b":
        steps += 1 if rest[0] == "#" else -1
        rest = rest[1:]
    if not rest or not (rest.isdigit() or (rest[0] == "-" and rest[1:].isdigit())):
        raise ValueError("no octave in %r" % name)
    steps += (int(rest) - 4) * 12
    return int(440 * 2 ** (steps / 12) + 0.5)


def melody(text):
    """A pattern from a short score: "C6:100 E6:100 G6:200 -:50 C7:300" is
    ((1047, 100), (1319, 100), (1568, 200), (0, 50), (2093, 300)); "-" is a rest.
    For settings files and tests; the built-in patterns above are plain tuples."""
    steps = []
    for word in text.split():
        note, sep, ms = word.partition(":")
        if not sep or not ms.isdigit():
            raise ValueError("want NOTE:MS, got %r" % word)
        steps.append((0 if note == "-" else note_hz(note), int(ms)))
    return tuple(steps)

