"""The buzzer driver against a fake PWM: tones, volume by duty cycle, patterns, mute.

The RP2040 datasheet's PWM section: the output is high for duty_u16/65536 of each
period; a square wave (50 %) is the loudest a piezo gets, so volume 100 % = duty 32768
and 0 % = duty 0 (pin low, silent).
"""

import asyncio

import pytest

from drivers import buzzer
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


def test_mute_silences_now_and_later():
    _, pwm, bz = make(volume=70)
    bz.tone(1000)
    assert pwm.duty_u16() == 70 * 32768 // 100
    bz.mute(True)
    assert pwm.duty_u16() == 0
    bz.tone(1000)
    assert pwm.duty_u16() == 0
    bz.mute(False)
    bz.tone(1000)
    assert pwm.duty_u16() > 0


def test_set_volume_follows_a_sounding_tone():
    _, pwm, bz = make()
    bz.tone(1500)
    bz.set_volume(20)
    assert pwm.duty_u16() == 20 * 32768 // 100


def test_out_of_range_tones_are_refused():
    _, _, bz = make()
    with pytest.raises(ValueError):
        bz.tone(10, 50)
    with pytest.raises(ValueError):
        bz.tone(30000, 50)


def test_pattern_plays_in_order_and_ends_quiet():
    bus, _pwm, bz = make(volume=50)
    asyncio.run(bz.play(((1000, 1), (0, 1), (2000, 1))))
    steps = [(e[2], e[3]) for e in bus.log if e[0] == "pwm"]
    assert steps == [("duty", 0),  # constructor
                     ("freq", 1000), ("duty", 16384),
                     ("duty", 0),  # the rest
                     ("freq", 2000), ("duty", 16384),
                     ("duty", 0)]  # quiet at the end
    assert not bz.playing and buzzer.pattern_ms(buzzer.FRAME_END) == 680


def test_cancelled_pattern_goes_quiet():
    _, pwm, bz = make()

    async def go():
        task = asyncio.ensure_future(bz.play(((1000, 1000),)))
        await asyncio.sleep(0.01)
        assert pwm.duty_u16() > 0 and bz.playing
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(go())
    assert pwm.duty_u16() == 0 and not bz.playing


def test_deinit_releases_the_pwm():
    _, pwm, bz = make()
    bz.tone(1000)
    bz.deinit()
    assert pwm.deinited and pwm.duty_u16() == 0


@pytest.mark.parametrize("name, hz", [("A4", 440), ("A5", 880), ("C4", 262), ("C6", 1047),
                                      ("F#5", 740), ("Bb4", 466), ("G#7", 3322)])
def test_note_names_equal_temperament(name, hz):
    assert buzzer.note_hz(name) == hz


def test_melody_and_its_errors():
    assert buzzer.melody("C6:100 -:50 G6:200") == ((1047, 100), (0, 50), (1568, 200))
    for bad in ("H4:100", "C:100", "C6", "C6:x"):
        with pytest.raises(ValueError):
            buzzer.melody(bad)
