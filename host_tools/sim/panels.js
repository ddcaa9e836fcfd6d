// The box's outputs: the e-ink panel, the LED panel and the buzzer.
//
// Both panels are drawn pixel for pixel from the firmware's panel buffers (MONO_HLSB:
// one byte is 8 pixels of a row, the most significant bit leftmost; e-ink 1 = black
// ink, LED 1 = lit). Nothing here knows what a score is.

export function pixel(bytes, width, x, y) {
  const stride = (width + 7) >> 3;
  return (bytes[y * stride + (x >> 3)] >> (7 - (x & 7))) & 1;
}

export class EinkPanel {
  constructor(canvas, width, height) {
    this.canvas = canvas;
    canvas.width = width;
    canvas.height = height;
    this.width = width;
    this.height = height;
    this.ctx = canvas.getContext("2d");
    this.image = this.ctx.createImageData(width, height);
    this.frames = 0;
  }

  draw(bytes) {
    const { width, height } = this;
    const px = this.image.data;
    const stride = (width + 7) >> 3;
    let o = 0;
    for (let y = 0; y < height; y++) {
      const row = y * stride;
      for (let x = 0; x < width; x++) {
        const ink = (bytes[row + (x >> 3)] >> (7 - (x & 7))) & 1;
        // ink: near black; paper: the panel's warm white
        px[o] = ink ? 24 : 232;
        px[o + 1] = ink ? 24 : 230;
        px[o + 2] = ink ? 28 : 220;
        px[o + 3] = 255;
        o += 4;
      }
    }
    this.ctx.putImageData(this.image, 0, 0);
    this.frames++;
  }
}

export class LedPanel {
  constructor(canvas, width, height, pitch = 12) {
    this.canvas = canvas;
    this.width = width;
    this.height = height;
    this.pitch = pitch;
    canvas.width = width * pitch;
    canvas.height = height * pitch;
    this.ctx = canvas.getContext("2d");
    this.frames = 0;
  }

  draw(bytes, level) {
    const { ctx, width, height, pitch } = this;
    ctx.fillStyle = "#050505";
    ctx.fillRect(0, 0, width * pitch, height * pitch);
    // brightness 0..15: the MAX7219's duty cycle, never fully dark when lit
    const lit = "rgba(255, 40, 20, " + (0.3 + 0.7 * (level / 15)).toFixed(3) + ")";
    const r = pitch * 0.38;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        ctx.fillStyle = pixel(bytes, width, x, y) ? lit : "#2a0806";
        ctx.beginPath();
        ctx.arc(x * pitch + pitch / 2, y * pitch + pitch / 2, r, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    this.frames++;
  }
}

// The piezo buzzer: a square wave through WebAudio, with a mute switch. Browsers only
// start audio after a user gesture, so the context is made on the first key press.
export class Buzzer {
  constructor() {
    this.muted = false;
    this.ctx = null;
    this.osc = null;
    this.gain = null;
    this.log = []; // [time ms, freq, volume, gain]: what the firmware asked for, and the
    // loudness the page gave it (0 when muted)
    this.freq = 0;
  }

  unlock() {
    if (this.ctx) {
      if (this.ctx.state === "suspended") this.ctx.resume();
      return;
    }
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    this.ctx = new Ctx();
    this.gain = this.ctx.createGain();
    this.gain.gain.value = 0;
    this.gain.connect(this.ctx.destination);
    this.osc = this.ctx.createOscillator();
    this.osc.type = "square";
    this.osc.connect(this.gain);
    this.osc.start();
  }

  tone(freq, volume) {
    this.freq = freq;
    this.volume = volume;
    this.log.push([Math.round(performance.now()), freq, volume, this.level()]);
    if (this.log.length > 500) this.log.splice(0, this.log.length - 500);
    this._apply();
  }

  quiet() {
    this.tone(0, 0);
  }

  setMuted(muted) {
    this.muted = muted;
    this._apply();
  }

  level() {
    // the gain for the tone asked for: a square wave is loud, 0.25 at full volume
    if (this.muted || this.freq <= 0) return 0;
    return 0.25 * Math.max(0, Math.min(100, this.volume)) / 100;
  }

  _apply() {
    if (!this.ctx) return;
    const t = this.ctx.currentTime;
    if (this.freq > 0) this.osc.frequency.setValueAtTime(this.freq, t);
    this.gain.gain.setTargetAtTime(this.level(), t, 0.003);
  }
}
