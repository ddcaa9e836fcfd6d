"""The Pico W board: the reference board (boards/pico.py: the same wiring, e-ink, LED
chain, keypad and buzzer) on a Raspberry Pi Pico W, whose CYW43 radio puts the box on
the club's Wi-Fi (scoreboard/net: the journal's lines to the desk through an MQTT broker).

The radio takes GPIO 23 (power), 24 (data), 25 (chip select) and 29 (clock) inside the
module: none of them is on the wiring table, so every part sits where it sits on a Pico.
Its driver runs the SPI bus to the chip on a PIO state machine, which the pico-sdk claims
wherever it finds room (PIO1 beside the keypad's PIO0: tests/emulated/test_picow.py checks it on
the emulated chip); the keypad (drivers/pio_keypad.py) removes nothing but its own
program, so neither can pull the other's from under it.

`radio` is the contract's Wi-Fi station (boards/board.py): `start(ssid, password)`
switches the chip on and starts joining; `state()` says how that goes. Switching the
chip on holds the CPU while its firmware is loaded (on the emulated RP2040, which has no
CYW43, the driver gives up after about 350 ms): the net task does it once, when it
starts with Wi-Fi settings, never in a pass. Nothing of the radio runs at import time or
in build(): a box without Wi-Fi settings never powers it.
"""

from boards import pico as _pico

NAME = "picow"
PINS = _pico.PINS


class Radio:
    """The CYW43 as a Wi-Fi station, through MicroPython's `network.WLAN`."""

    def __init__(self, network):
        self._network = network
        self.wlan = None
        self.failed = None  # why the chip did not start, once it did not

    def start(self, ssid, password):
        """Switch the chip on (blocking: its firmware goes over SPI) and start joining
        `ssid`; returns at once after that, the join goes on in the background."""
        net = self._network
        if self.wlan is None:
            self.wlan = net.WLAN(net.STA_IF)
        try:
            self.wlan.active(True)
            # Without a chip `active()` still says True (the driver keeps its state);
            # the MAC address it read from the chip is what says whether it answered.
            if not any(self.wlan.config("mac")):
                raise OSError("no answer from the CYW43")
            self.wlan.config(pm=0xA11140)  # power save off: a box on mains, answers at once
            self.wlan.connect(ssid, password)
        except (OSError, ValueError) as e:
            self.failed = str(e) or "the radio did not start"
            return
        self.failed = None

    def state(self):
        """"up" (joined, with an address), "joining" (or not started), "no radio" (the
        chip did not start: the emulated RP2040 has none) or "refused" (wrong password,
        no such network)."""
        if self.failed is not None:
            return "no radio"
        if self.wlan is None:
            return "joining"
        net = self._network
        s = self.wlan.status()
        if s == net.STAT_GOT_IP:
            return "up"
        if s in (net.STAT_WRONG_PASSWORD, net.STAT_NO_AP_FOUND, net.STAT_CONNECT_FAIL):
            return "refused"
        return "joining"

    def stop(self):
        if self.wlan is not None:
            self.wlan.disconnect()
            self.wlan.active(False)


class Board(_pico.Board):
    """The Pico board with a radio."""

    def __init__(self, machine, time, framebuf, network, rp2=None):
        _pico.Board.__init__(self, machine, time, framebuf, PINS, NAME, rp2)
        self.radio = Radio(network)


def build(machine=None, time=None, framebuf=None, network=None):
    """Make the hardware and return the board (the arguments are for tests, as for
    boards/pico.py); the radio stays off until the net task starts it."""
    rp2 = None
    if machine is None:
        import machine
        import rp2
    if time is None:
        import time
    if framebuf is None:
        import framebuf
    if network is None:
        import network
    return Board(machine, time, framebuf, network, rp2=rp2)
