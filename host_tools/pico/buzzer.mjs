// The piezo on its PWM pin: the tone it sounds (frequency, duty) over emulated time,
// read from the PWM slice's registers whenever the firmware writes them.
//
// GPIO n is PWM slice (n >> 1) & 7, channel A (even n) or B (odd n). The frequency is
// clk_sys / (DIV x (TOP + 1)), halved in phase-correct mode; the duty is CC / (TOP + 1)
// for the channel (inverted with CSR's A_INV / B_INV). Silent unless the slice is
// enabled, the pin is switched to the PWM function and the duty is above 0. A change is
// read 20 us after the first register write, so that setting DIV, TOP and CC one after
// the other is one change, not three.
const FUNCTION_PWM = 4;

export class Buzzer {
  constructor(rp2040, gp, { now, after, event }) {
    this.rp2040 = rp2040;
    this.pin = rp2040.gpio[gp];
    this.slice = (gp >> 1) & 7;
    this.channelB = gp & 1;
    this.now = now;
    this.event = event;
    this.freq = 0;
    this.duty = 0; // as duty_u16: 0..65536
    this.history = []; // [emulated us, Hz, duty_u16], the last 256 changes
    this.changes = 0;
    this.due = false;
    const later = () => {
      if (this.due) return;
      this.due = true;
      after(20e3, () => {
        this.due = false;
        this.update();
      });
    };
    const pwm = rp2040.pwm;
    const write = pwm.writeUint32.bind(pwm);
    pwm.writeUint32 = (offset, value) => {
      write(offset, value);
      later();
    };
  }

  update() {
    const ch = this.rp2040.pwm.channels[this.slice];
    const intPart = (ch.div >> 4) & 0xff || 256;
    const div = intPart + (ch.div & 0xf) / 16;
    const period = ch.top + 1;
    let level = this.channelB ? ch.cc >>> 16 : ch.cc & 0xffff;
    level = Math.min(level, period) / period;
    if (ch.csr & (this.channelB ? 8 : 4)) level = 1 - level;
    const on = ch.csr & 1 && this.pin.functionSelect === FUNCTION_PWM && level > 0;
    const freq = on ? Math.round(this.rp2040.clkSys / (div * period * (ch.csr & 2 ? 2 : 1))) : 0;
    const duty = on ? Math.round(level * 65536) : 0;
    if (freq === this.freq && duty === this.duty) return;
    this.freq = freq;
    this.duty = duty;
    this.changes += 1;
    const us = Math.round(this.now() / 1e3);
    this.history.push([us, freq, duty]);
    if (this.history.length > 256) this.history.shift();
    this.event(`tone ${us} ${freq} ${duty}`);
  }
}
