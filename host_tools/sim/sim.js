// The simulator page: MicroPython's WebAssembly port running the real firmware/ on the
// simulator board (firmware/boards/sim.py). This file only loads things, moves bytes and
// calls the firmware: the panels are drawn from its framebuffers, the keys go in as the
// raw bitmap, and everything a referee sees is decided by the firmware.
//
// window.sim is the page's measuring and testing surface (the browser tests read it).

import { Flash, PREFIX, zip } from "./storage.js";
import { Keypad } from "./keypad.js";
import { Buzzer, EinkPanel, LedPanel } from "./panels.js";

const PASS_MS = 10; // the app's key scan period
const FW = "/fw"; // the firmware files in the in-memory filesystem
const FLASH = "/flash"; // the simulated flash
// The board's status block (firmware/boards/sim.py, ST_*).
const ST = { EINK: 0, EINK_FULL: 1, LED: 2, LEVEL: 3, PASSES: 4, STOPPED: 5, KEYMAP: 6, RESETS: 7 };

const $ = (id) => document.getElementById(id);
const sim = {
  phase: "loading",
  ready: false,
  errors: [],
  marks: {}, // performance.now() at each milestone, ms since navigation start
  latency: [], // per key release: ms until the LED and the e-ink panel changed
  journalPath: "",
  consoleLines: [],
};
window.sim = sim;

function setStatus(text, error = false) {
  const el = $("status");
  el.textContent = text;
  el.classList.toggle("error", error);
}

function log(line, isErr = false) {
  sim.consoleLines.push(line);
  if (sim.consoleLines.length > 400) sim.consoleLines.shift();
  const c = $("console");
  c.textContent = sim.consoleLines.join("\n");
  c.scrollTop = c.scrollHeight;
  (isErr ? console.warn : console.log)("[firmware] " + line);
}

function fail(what, e) {
  const text = what + ": " + (e && e.message ? e.message : String(e));
  sim.errors.push(text);
  sim.phase = "error";
  log(text, true);
  // the status line: the error itself, and where (a traceback's last lines)
  const lines = (e && e.message ? e.message : String(e)).split("\n").map((l) => l.trim())
    .filter(Boolean);
  const where = lines.filter((l) => l.startsWith("File ")).pop();
  const last = lines.length ? lines[lines.length - 1] : "unknown error";
  setStatus(what + ": " + last + (where ? " (" + where + ")" : ""), true);
  $("console").parentElement.open = true; // the traceback, for whoever broke the firmware
}

function mark(name) {
  if (!(name in sim.marks)) sim.marks[name] = performance.now();
}

function boxId() {
  let uid = localStorage.getItem(PREFIX + "uid");
  if (!uid || !/^[0-9a-f]{16}$/.test(uid)) {
    const b = new Uint8Array(8);
    crypto.getRandomValues(b);
    uid = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(PREFIX + "uid", uid);
  }
  return uid;
}

function b64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

function saveAs(name, bytes, type) {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

async function main() {
  mark("start");
  const [mod, bundle, demo] = await Promise.all([
    import("/mp/micropython.mjs"),
    fetch("/firmware.json").then((r) => r.json()),
    fetch("/sim/demo.sbn").then((r) => r.text()),
  ]);
  mark("fetched");
  const buzzer = new Buzzer();
  const mp = await mod.loadMicroPython({
    linebuffer: true,
    stdout: (line) => log(line),
    stderr: (line) => log(line, true),
  });
  mark("wasm");
  const FS = mp.FS;
  // every firmware/ file, as on the device's flash
  for (const [rel, text, data] of bundle.files) {
    const parts = rel.split("/");
    let dir = FW;
    try { FS.mkdir(dir); } catch (e) { /* exists */ }
    for (const p of parts.slice(0, -1)) {
      dir += "/" + p;
      try { FS.mkdir(dir); } catch (e) { /* exists */ }
    }
    FS.writeFile(FW + "/" + rel, text !== null ? text : Uint8Array.from(atob(data), (c) => c.charCodeAt(0)));
  }
  sim.firmwareFiles = bundle.files.length;
  sim.firmwareDigest = bundle.digest;
  // the flash, from the browser's storage; a fresh one gets the demonstration match
  const flash = new Flash(FS, FLASH);
  sim.flash = flash;
  const fresh = flash.isEmpty();
  flash.restore();
  if (fresh) {
    flash.mkdirs("matches");
    flash.write("queue/demo.sbn", new TextEncoder().encode(demo));
    flash.sync();
  }
  sim.freshStorage = fresh;
  mark("restored");

  mp.registerJsModule("simjs", {
    tone: (freq, volume) => buzzer.tone(freq, volume),
    quiet: () => buzzer.quiet(),
  });
  mp.runPython(
    "import sys, os\n" +
    "sys.path.insert(0, '" + FW + "')\n" +
    "os.chdir('" + FLASH + "')\n" +
    "from boards.sim import Simulator\n" +
    "_sim = Simulator('" + boxId() + "', flash='" + FLASH + "')\n");
  mark("booted");
  const py = mp.globals.get("_sim");
  const step = py.step;
  const board = py.board;
  const [einkAt, einkLen, ledAt, ledLen, stAt] = board.addresses().split(",").map(Number);
  const M = mp._module;
  const mem = () => M.HEAPU8; // re-read: the memory may grow
  const status = () => new Int32Array(mem().buffer, stAt, 8);
  const einkBytes = () => mem().subarray(einkAt, einkAt + einkLen);
  const ledBytes = () => mem().subarray(ledAt, ledAt + ledLen);

  // -- the page's parts -------------------------------------------------------------------
  const eink = new EinkPanel($("eink"), 400, 300);
  const led = new LedPanel($("led"), 32, 16, 25); // drawn at 2x, shown at 400x200
  const keypad = new Keypad($("keypad"));
  // Latency: from a key's release (as the user made it, and as the firmware saw it,
  // which is later for a click shorter than the keypad's hold time) to the LED and the
  // e-ink panel changing on the page.
  let pending = null;
  keypad.onpress = (i, t) => {
    buzzer.unlock();
    sim.lastDown = t;
  };
  keypad.onrelease = (i, t) => {
    if (pending && !pending.done) finishLatency();
    pending = { key: i, down: sim.lastDown, up: t, seen: null, led: null, eink: null, done: false };
  };
  keypad.onapply = (i, down, t) => {
    if (!down && pending && pending.key === i && pending.seen === null) pending.seen = t;
  };
  function finishLatency() {
    const p = pending;
    p.done = true;
    const since = (t, from) => (t === null || from === null ? null : t - from);
    sim.latency.push({ key: p.key, held: p.up - p.down,
      led: since(p.led, p.up), eink: since(p.eink, p.up),
      ledAfterScan: since(p.led, p.seen), einkAfterScan: since(p.eink, p.seen) });
    if (sim.latency.length > 200) sim.latency.shift();
  }
  const legend = () => {
    const [family, names] = py.legend().split(":");
    const numbers = py.numbers().split(",").map(Number);
    keypad.setLegend(family, names.split(","), numbers);
    sim.family = family;
    sim.names = names.split(",");
  };
  legend();

  const mute = $("mute");
  mute.checked = localStorage.getItem(PREFIX + "mute") === "1";
  buzzer.setMuted(mute.checked);
  mute.addEventListener("change", () => {
    buzzer.setMuted(mute.checked);
    localStorage.setItem(PREFIX + "mute", mute.checked ? "1" : "0");
  });

  // -- the journal pane and the flash files ---------------------------------------------
  function currentJournal() {
    let rel = "";
    try { rel = py.current(); } catch (e) { rel = ""; }
    if (!rel) {
      let newest = -1;
      for (const [p, , mtime] of flash.list()) {
        if (p.startsWith("matches/") && p.endsWith(".sbn") && mtime > newest) {
          newest = mtime;
          rel = p;
        }
      }
    }
    return rel;
  }
  function showJournal() {
    const rel = currentJournal();
    sim.journalPath = rel;
    $("journal-name").textContent = rel ? rel.replace(/^matches\//, "") : "(no match yet)";
    const text = rel ? flash.readText(rel) || "" : "";
    sim.journalText = text;
    const pre = $("journal");
    pre.replaceChildren();
    for (const line of text.split("\n")) {
      if (!line) continue;
      const m = / \*[0-9a-f]{8}$/.exec(line);
      pre.append(m ? line.slice(0, m.index) : line);
      if (m) {
        const s = document.createElement("span");
        s.className = "sum";
        s.textContent = m[0];
        pre.append(s);
      }
      pre.append("\n");
    }
    pre.scrollTop = pre.scrollHeight;
    const ul = $("files");
    ul.replaceChildren();
    for (const [p, size] of flash.list()) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = "#";
      a.textContent = p;
      a.addEventListener("click", (ev) => {
        ev.preventDefault();
        saveAs(p.split("/").pop(), flash.read(p), "text/plain");
      });
      li.append(a, " (" + size + " B)");
      ul.append(li);
    }
  }
  flash.onchange = showJournal;
  showJournal();

  $("download").addEventListener("click", () => {
    const entries = flash.list().filter(([p]) => p.startsWith("matches/"))
      .map(([p]) => [p, flash.read(p)]);
    saveAs("scoreboard-matches.zip", zip(entries), "application/zip");
  });

  // -- queueing a match file: drop it, or pick it --------------------------------------------
  async function queueFiles(files) {
    let n = 0;
    for (const f of files) {
      if (!/\.sbn$/i.test(f.name)) continue;
      const name = f.name.replace(/\.sbn$/i, "").replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 40) || "match";
      flash.write("queue/" + name + ".sbn", new Uint8Array(await f.arrayBuffer()));
      n++;
    }
    if (!n) {
      setStatus("Only .sbn match files can be queued.", true);
      return;
    }
    flash.sync();
    py.reset(); // as after `scoreboard setup`: the box resets and offers the queue
    legend();
    setStatus("Queued " + n + " match file" + (n > 1 ? "s" : "") + "; the box was reset.");
  }
  sim.queueFiles = queueFiles;
  $("queue-file").addEventListener("change", (ev) => {
    queueFiles(Array.from(ev.target.files));
    ev.target.value = "";
  });
  const drop = $("drop");
  document.addEventListener("dragover", (ev) => {
    ev.preventDefault();
    drop.hidden = false;
  });
  document.addEventListener("dragleave", (ev) => {
    if (ev.target === drop) drop.hidden = true;
  });
  document.addEventListener("drop", (ev) => {
    ev.preventDefault();
    drop.hidden = true;
    queueFiles(Array.from(ev.dataTransfer.files));
  });

  // -- reset, clear, another tab ----------------------------------------------------------
  let running = true;
  $("reset").addEventListener("click", () => {
    py.reset();
    legend();
  });
  $("clear").addEventListener("click", () => {
    if (!window.confirm("Erase the simulated flash (every match) and start fresh?")) return;
    running = false;
    Flash.clear();
    location.reload();
  });
  window.addEventListener("storage", (ev) => {
    if (running && ev.key && ev.key.startsWith(PREFIX + "f:")) {
      running = false;
      setStatus("This box is running in another tab: reload to take it over.", true);
    }
  });

  // -- the driver loop: one pass of the app every PASS_MS ----------------------------------
  let seen = { eink: -1, led: -1, level: -1, keymap: status()[ST.KEYMAP], stopped: 0 };
  let lastLed = null;
  let lastEink = null;
  function pass() {
    if (!running) return;
    const t0 = performance.now();
    try {
      step(keypad.bits(t0));
    } catch (e) {
      running = false;
      fail("the simulator stopped", e);
      return;
    }
    const st = status();
    const now = performance.now();
    if (st[ST.EINK] !== seen.eink) {
      seen.eink = st[ST.EINK];
      const bytes = einkBytes();
      eink.draw(bytes);
      mark("firstFrame");
      const changed = !lastEink || bytes.some((b, i) => b !== lastEink[i]);
      lastEink = bytes.slice();
      if (changed && pending && pending.seen !== null && pending.eink === null) pending.eink = performance.now();
    }
    if (st[ST.LED] !== seen.led || st[ST.LEVEL] !== seen.level) {
      seen.led = st[ST.LED];
      seen.level = st[ST.LEVEL];
      const bytes = ledBytes();
      const changed = !lastLed || bytes.some((b, i) => b !== lastLed[i]);
      if (changed) {
        led.draw(bytes, st[ST.LEVEL]);
        lastLed = bytes.slice();
        mark("firstLed");
        if (pending && pending.seen !== null && pending.led === null) pending.led = performance.now();
      }
    }
    if (pending && !pending.done && ((pending.led !== null && pending.eink !== null) ||
        now - pending.up > 5000)) finishLatency();
    if (st[ST.KEYMAP] !== seen.keymap) {
      seen.keymap = st[ST.KEYMAP];
      legend();
    }
    if (st[ST.STOPPED] && !seen.stopped) {
      seen.stopped = 1;
      setStatus("The firmware stopped on its error screen (see the console); Reset the box to restart.", true);
    }
    flash.sync();
    if (flash.error) setStatus(flash.error, true);
    sim.passMs = performance.now() - t0;
    setTimeout(pass, Math.max(0, PASS_MS - (performance.now() - t0)));
  }

  // -- the testing and measuring surface ----------------------------------------------------
  Object.assign(sim, {
    mp, py, keypad, buzzer,
    status: () => Array.from(status()),
    einkBase64: () => b64(einkBytes()),
    ledBase64: () => b64(ledBytes()),
    tones: () => buzzer.log.slice(),
    files: () => flash.list(),
    fileText: (p) => flash.readText(p),
    fileBase64: (p) => b64(flash.read(p)),
    uid: () => boxId(),
    journal: () => { showJournal(); return { path: sim.journalPath, text: sim.journalText }; },
    idle: () => keypad.idle(),
    download: () => {
      const nav = performance.getEntriesByType("navigation");
      const all = nav.concat(performance.getEntriesByType("resource"));
      const sum = (k) => all.reduce((n, e) => n + (e[k] || 0), 0);
      return { requests: all.length, transfer: sum("transferSize"),
        encoded: sum("encodedBodySize"), decoded: sum("decodedBodySize"),
        items: all.map((e) => [e.name, e.transferSize, e.encodedBodySize, e.decodedBodySize]) };
    },
    // resolves once the keys are idle and neither panel changed for quietMs
    settled: (quietMs = 700, timeoutMs = 8000) => new Promise((resolve) => {
      const start = performance.now();
      let last = [seen.eink, seen.led, performance.now()];
      const check = () => {
        const t = performance.now();
        if (seen.eink !== last[0] || seen.led !== last[1] || !keypad.idle()) {
          last = [seen.eink, seen.led, t];
        }
        if (t - last[2] >= quietMs || t - start > timeoutMs) resolve(t - start <= timeoutMs);
        else setTimeout(check, 25);
      };
      check();
    }),
  });
  sim.ready = true;
  sim.phase = "running";
  const version = mp.pyimport("sys").version.split("MicroPython ")[1] || "";
  sim.version = version.split(" ")[0];
  setStatus("Running: the firmware on MicroPython " + sim.version + " (WebAssembly).");
  pass();
  const stats = () => {
    const m = sim.marks;
    const st = status();
    $("stats").textContent = "First frame " + Math.round(m.firstFrame || 0) +
      " ms after the page load (MicroPython ready at " + Math.round(m.wasm) + " ms, booted at " +
      Math.round(m.booted) + " ms). E-ink refreshes since: " + (st[ST.EINK] - st[ST.EINK_FULL]) +
      " partial, " + st[ST.EINK_FULL] + " full; " + st[ST.PASSES] + " passes of the app.";
  };
  setInterval(stats, 1000);
  stats();
}

window.addEventListener("error", (ev) => fail("page error", ev.error || ev.message));
window.addEventListener("unhandledrejection", (ev) => fail("page error", ev.reason));
main().catch((e) => fail("the simulator did not start", e));
