"""Driver for a piezo buzzer on a PWM pin: tones, volume by duty cycle.

A passive piezo sounder (for example Murata PKM17EPPH4001-B0, 4 kHz resonance) driven
straight from a GPIO sounds a square wave at the PWM frequency; how loud depends on the
duty cycle. 50 % duty is the loudest a square wave gets (the most energy at the
fundamental); smaller duties are quieter. So volume 0..100 % maps to duty 0..50 %:
`duty_u16 = volume * 32768 // 100`. Volume 0 and frequency 0 both mean duty 0,
which keeps the pin low and the piezo silent (PWM stays configured; nothing is rebuilt).

- `tone(freq_hz, volume_pct)` starts a tone (freq 0 = silence) and returns at once;
- `quiet()` stops it; `volume` is the volume of a tone given none.

The sounds themselves (which tones, how long) are the app's, in one table:
scoreboard/sounds.py, whose player steps through them from the loop with `tone()` and
`quiet()`, so no beep ever waits on the driver; the volume steps and mute are the
player's too.

`tone()` and `quiet()` allocate nothing (only `PWM.freq()` and `PWM.duty_u16()` calls),
so the app may call them from its hot loop; tests run them under
`micropython.heap_lock()`. The RP2040's PWM reaches every audible frequency from about
8 Hz (125 MHz / 65536 / 256 divider) up, so any audible tone is accepted; tones
below 20 Hz or above 20 kHz are refused with ValueError.

The PWM object comes ready from the board (`machine.PWM(Pin(15))`), as with
micropython-lib's drivers: the driver never builds hardware.
"""

from micropython import const

_FULL_DUTY = const(32768)  # 50 % of 65536: the loudest square wave
_MIN_HZ = const(20)
_MAX_HZ = const(20000)


class Buzzer:
    """A PWM-driven piezo. `pwm` is a ready machine.PWM; `volume` 0..100 (percent)."""

    def __init__(self, pwm, volume=60):
        self.pwm = pwm
        self.volume = volume
        self.freq = 0  # the tone sounding now, 0 = quiet
        pwm.duty_u16(0)

    def duty_for(self, volume_pct):
        """The duty_u16 that a volume (percent) gives."""
        if volume_pct <= 0:
            return 0
        if volume_pct >= 100:
            return _FULL_DUTY
        return volume_pct * _FULL_DUTY // 100

    def tone(self, freq_hz, volume_pct=None):
        """Start a tone of `freq_hz` at `volume_pct` (default: the buzzer's volume).

        freq 0 (or volume 0) is silence. Allocation free.
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

    def deinit(self):
        """Silence and release the PWM (the pin can then be used for something else)."""
        self.quiet()
        self.pwm.deinit()
