// The keypad: 16 <button>s in the 4x4 grid of the box, named by the firmware's legend.
//
// The page does not interpret keys: it only turns buttons and keyboard keys into the raw
// bitmap that the board's keys() returns (bit i = key i, i = row * 4 + col), and the
// firmware's own debouncer decides what a press, a long press or a repeat is. A click
// lasts a few milliseconds, less than the debounce time, so the changes (key down, key
// up) go through one queue, in the order the user made them, each held for at least
// MIN_MS and MIN_PASSES passes before the next is passed on: a quick click still reaches
// the firmware as a short press, quick presses of different keys keep their order, and
// holding a button (or a key) is a long press.

export const SHORTCUTS = [
  ["Digit1", "1"], ["Digit2", "2"], ["Digit3", "3"], ["Digit4", "4"],
  ["KeyQ", "Q"], ["KeyW", "W"], ["KeyE", "E"], ["KeyR", "R"],
  ["KeyA", "A"], ["KeyS", "S"], ["KeyD", "D"], ["KeyF", "F"],
  ["KeyZ", "Z"], ["KeyX", "X"], ["KeyC", "C"], ["KeyV", "V"],
];
const MIN_MS = 50;
const MIN_PASSES = 3;

export class Keypad {
  constructor(container) {
    this.container = container;
    this.buttons = [];
    this.queue = []; // pending changes, oldest first: [key, down]
    this.state = 0; // the bitmap the firmware sees
    this.since = -1e9; // when the last change was passed on
    this.passes = MIN_PASSES; // passes since then
    this.held = new Set(); // keys held by the user now (pointer or keyboard)
    this.onpress = null; // (key, time) the user pressed a key
    this.onrelease = null; // (key, time) the user released it
    this.onapply = null; // (key, down, time) a change reached the firmware
    for (let i = 0; i < 16; i++) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "key";
      b.dataset.index = String(i);
      b.setAttribute("aria-keyshortcuts", SHORTCUTS[i][1]);
      b.innerHTML = '<span class="num" aria-hidden="true"></span>' +
        '<span class="name"></span><kbd aria-hidden="true">' + SHORTCUTS[i][1] + "</kbd>";
      this._wire(b, i);
      container.appendChild(b);
      this.buttons.push(b);
    }
    this._wireKeyboard();
  }

  setLegend(family, names, numbers) {
    this.container.dataset.family = family;
    names.forEach((name, i) => {
      const b = this.buttons[i];
      b.setAttribute("aria-label", name);
      b.dataset.name = name;
      b.title = name + " (key " + SHORTCUTS[i][1] + "; hold for a long press)";
      b.querySelector(".name").textContent = name;
      b.querySelector(".num").textContent = numbers && numbers[i] ? String(numbers[i]) : "";
    });
  }

  // -- user input -----------------------------------------------------------------------
  press(i) {
    if (this.held.has(i)) return;
    this.held.add(i);
    this.queue.push([i, true]);
    this.buttons[i].classList.add("down");
    if (this.onpress) this.onpress(i, performance.now());
  }

  release(i) {
    if (!this.held.has(i)) return;
    this.held.delete(i);
    this.queue.push([i, false]);
    this.buttons[i].classList.remove("down");
    if (this.onrelease) this.onrelease(i, performance.now());
  }

  releaseAll() {
    for (const i of Array.from(this.held)) this.release(i);
  }

  _wire(b, i) {
    b.addEventListener("pointerdown", (ev) => {
      if (ev.button !== 0) return;
      ev.preventDefault();
      try { b.setPointerCapture(ev.pointerId); } catch (e) { /* synthetic */ }
      this.press(i);
    });
    const up = () => this.release(i);
    b.addEventListener("pointerup", up);
    b.addEventListener("pointercancel", up);
    b.addEventListener("lostpointercapture", up);
    b.addEventListener("contextmenu", (ev) => ev.preventDefault());
    // Enter or Space on a focused button, or a screen reader's activation: a click
    // without a pointer (detail 0) is one short press.
    b.addEventListener("click", (ev) => {
      if (ev.detail === 0 && !this.held.has(i)) {
        this.press(i);
        this.release(i);
      }
    });
  }

  _wireKeyboard() {
    const index = new Map(SHORTCUTS.map(([code], i) => [code, i]));
    // typing into a text field is not a key press (a checkbox or a button is no text field)
    const typing = (t) => t && (/^(TEXTAREA|SELECT)$/.test(t.tagName) || t.isContentEditable ||
      (t.tagName === "INPUT" && !/^(checkbox|radio|button|file|submit|reset)$/.test(t.type)));
    const ignore = (ev) => ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target);
    document.addEventListener("keydown", (ev) => {
      const i = index.get(ev.code);
      if (i === undefined || ignore(ev)) return;
      ev.preventDefault();
      if (!ev.repeat) this.press(i);
    });
    document.addEventListener("keyup", (ev) => {
      const i = index.get(ev.code);
      if (i === undefined) return;
      ev.preventDefault();
      this.release(i);
    });
    window.addEventListener("blur", () => this.releaseAll());
  }

  // -- what the firmware sees -------------------------------------------------------------
  bits(now) {
    // The raw key bitmap for this pass: at most one queued change, held long enough.
    this.passes++;
    if (this.queue.length && now - this.since >= MIN_MS && this.passes >= MIN_PASSES) {
      const [i, down] = this.queue.shift();
      this.state = down ? this.state | (1 << i) : this.state & ~(1 << i);
      this.since = now;
      this.passes = 0;
      if (this.onapply) this.onapply(i, down, now);
    }
    return this.state;
  }

  idle() {
    // True when every key is up and nothing is waiting to be passed on.
    return this.held.size === 0 && this.queue.length === 0 && this.state === 0;
  }
}
