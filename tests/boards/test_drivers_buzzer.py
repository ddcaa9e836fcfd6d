"""The buzzer driver against a fake PWM: tones, volume by duty cycle; the sounds'
patterns (scoreboard/sounds.py, the one table) played through it.

The RP2040 datasheet's PWM section: the output is high for duty_u16/65536 of each
period; a square wave (50 %) is the loudest a piezo gets, so volume 100 % = duty 32768
and 0 % = duty 0 (pin low, silent).
"""

import pytest

from drivers import buzzer
from scoreboard.sounds import PATTERNS, Sounds
from support import fakes


def make(**kw):
    bus = fakes.Bus()
    pwm = fakes.PWM(bus)
    return bus, pwm, buzzer.Buzzer(pwm, **kw)


def test_starts_silent():
    _, pwm, _ = make()
    assert pwm.duty_u16() == 0


@pytest.mark.parametrize("volume, duty", [(100, 32768), (50, 16384), (1, 327), (0, 0),
                                          (150, 32768), (-5, 0)])
def test_volume_is_duty_cycle(volume, duty):
    _, pwm, bz = make()
    bz.tone(2000, volume)
    assert pwm.duty_u16() == duty
    if duty:
        assert pwm.freq() == 2000


def test_quiet_and_freq_zero_silence():
    _, pwm, bz = make()
    bz.tone(1000, 80)
    bz.quiet()
    assert pwm.duty_u16() == 0 and bz.freq == 0
    bz.tone(1000, 80)
    bz.tone(0, 80)
    assert pwm.duty_u16() == 0


def test_same_frequency_is_not_set_again():
    bus, _pwm, bz = make()
    bz.tone(1000, 50)
    bz.tone(1000, 60)
    assert [e for e in bus.log if e[2] == "freq"] == [("pwm", "pwm", "freq", 1000)]


def test_a_tone_without_a_volume_takes_the_buzzers():
    _, pwm, bz = make(volume=70)
    bz.tone(1000)
    assert pwm.duty_u16() == 70 * 32768 // 100


def test_out_of_range_tones_are_refused():
    _, _, bz = make()
    with pytest.raises(ValueError):
        bz.tone(10, 50)
    with pytest.raises(ValueError):
        bz.tone(30000, 50)


def test_deinit_releases_the_pwm():
    _, pwm, bz = make()
    bz.tone(1000)
    bz.deinit()
    assert pwm.deinited and pwm.duty_u16() == 0


def test_the_driver_keeps_no_patterns_of_its_own():
    """The referee's sounds are one table, sounds.PATTERNS, played by sounds.Sounds
    through a board's tone() and quiet(): the driver makes tones and nothing else."""
    tables = sorted(n for n, v in vars(buzzer).items() if isinstance(v, tuple))
    assert tables == [] and not hasattr(buzzer.Buzzer, "play")


class _Board:
    """A board whose tone() and quiet() are the real driver's (as boards/pico.py)."""

    def __init__(self, bz):
        self.tone = bz.tone
        self.quiet = bz.quiet

    def ticks_ms(self):
        return 0


@pytest.mark.parametrize("name", sorted(PATTERNS))
def test_every_sound_plays_on_the_driver(name):
    bus, pwm, bz = make()
    player = Sounds(_Board(bz), volume=50)
    bus.clear()
    player.play(name, 0)
    now = 0
    while player.playing:
        now += 10
        player.update(now)
    pattern = PATTERNS[name]
    expected = []
    last = 0
    for freq in pattern[::2]:  # the driver sets a frequency only when it changes
        if freq and freq != last:
            expected.append(freq)
        last = freq
    assert [e[3] for e in bus.log if e[2] == "freq"] == expected
    duties = [e[3] for e in bus.log if e[2] == "duty"]
    assert duties.count(16384) == sum(1 for f in pattern[::2] if f)  # 50 %: half of full
    assert now >= sum(pattern[1::2]) and pwm.duty_u16() == 0
