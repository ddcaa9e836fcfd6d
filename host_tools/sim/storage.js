// The simulated flash: a folder of the WebAssembly filesystem mirrored into the browser's
// localStorage, so that a reload is a power cut and the firmware's journal recovery
// brings the box back where it was.
//
// Keys (one origin, one box):
//   PREFIX + "meta"        JSON {dirs: [relative dir, ...], files: {relative path: mtime}}
//   PREFIX + "f:" + PATH   the file's bytes as a binary string (one char per byte)
//   PREFIX + "uid"         the box's unique id (hex), kept until the storage is cleared
//
// After every pass of the app the page calls sync(): files whose size or mtime changed
// are saved at once (localStorage is synchronous), removed files are dropped.

export const PREFIX = "scoreboard-sim:v1:";

function bytesToBinary(bytes) {
  let out = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return out;
}

function binaryToBytes(text) {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

export class Flash {
  constructor(FS, root, store = window.localStorage) {
    this.FS = FS;
    this.root = root; // e.g. "/flash"
    this.store = store;
    this.known = new Map(); // relative path -> "size:mtime"
    this.dirs = new Set();
    this.saves = 0;
    this.lastSync = 0; // Date.now() at the end of the last sync()
    this.error = null;
    this.onchange = null; // called with the list of changed paths
  }

  // -- the filesystem side ------------------------------------------------------------
  mkdirs(rel) {
    let path = this.root;
    try { this.FS.mkdir(path); } catch (e) { /* exists */ }
    for (const part of rel.split("/").filter(Boolean)) {
      path += "/" + part;
      try { this.FS.mkdir(path); } catch (e) { /* exists */ }
    }
  }

  walk() {
    // [[relative path, stat]] of every file, and the set of folders, under the root
    const files = [];
    const dirs = new Set();
    const visit = (abs, rel) => {
      for (const name of this.FS.readdir(abs)) {
        if (name === "." || name === "..") continue;
        const a = abs + "/" + name;
        const r = rel ? rel + "/" + name : name;
        const st = this.FS.stat(a);
        if (this.FS.isDir(st.mode)) {
          dirs.add(r);
          visit(a, r);
        } else {
          files.push([r, st]);
        }
      }
    };
    visit(this.root, "");
    return { files, dirs };
  }

  read(rel) {
    return this.FS.readFile(this.root + "/" + rel);
  }

  readText(rel) {
    try {
      return new TextDecoder().decode(this.read(rel));
    } catch (e) {
      return null;
    }
  }

  write(rel, bytes) {
    const slash = rel.lastIndexOf("/");
    if (slash > 0) this.mkdirs(rel.slice(0, slash));
    this.FS.writeFile(this.root + "/" + rel, bytes);
  }

  // -- the storage side ---------------------------------------------------------------
  isEmpty() {
    return this.store.getItem(PREFIX + "meta") === null;
  }

  restore() {
    // Put the saved files back into the filesystem, before the firmware boots.
    this.mkdirs("");
    const meta = JSON.parse(this.store.getItem(PREFIX + "meta") || '{"dirs":[],"files":{}}');
    for (const d of meta.dirs) this.mkdirs(d);
    let count = 0;
    for (const [rel, mtime] of Object.entries(meta.files)) {
      const data = this.store.getItem(PREFIX + "f:" + rel);
      if (data === null) continue;
      this.write(rel, binaryToBytes(data));
      const path = this.root + "/" + rel;
      try { this.FS.utime(path, mtime, mtime); } catch (e) { /* keep now */ }
      count++;
    }
    this.sync(true); // learn what is there without saving it again
    return count;
  }

  sync(learnOnly = false) {
    // Save what changed since the last call; return the changed paths.
    const { files, dirs } = this.walk();
    const changed = [];
    const seen = new Set();
    let metaDirty = false;
    for (const [rel, st] of files) {
      seen.add(rel);
      const mtime = st.mtime instanceof Date ? st.mtime.getTime() : Number(st.mtime);
      const sig = st.size + ":" + mtime;
      let data = null;
      if (this.known.get(rel) === sig) {
        // mtimes are whole milliseconds: a same-size rewrite in the millisecond of the last
        // save would keep its signature, so compare such a file's bytes
        if (learnOnly || mtime < this.lastSync - 1) continue;
        data = bytesToBinary(this.read(rel));
        if (data === this.store.getItem(PREFIX + "f:" + rel)) continue;
      }
      this.known.set(rel, sig);
      changed.push(rel);
      metaDirty = true;
      if (!learnOnly) this._put(PREFIX + "f:" + rel, data !== null ? data : bytesToBinary(this.read(rel)));
    }
    for (const rel of Array.from(this.known.keys())) {
      if (seen.has(rel)) continue;
      this.known.delete(rel);
      changed.push(rel);
      metaDirty = true;
      if (!learnOnly) this.store.removeItem(PREFIX + "f:" + rel);
    }
    if (dirs.size !== this.dirs.size || [...dirs].some((d) => !this.dirs.has(d))) {
      this.dirs = dirs;
      metaDirty = true;
    }
    if (metaDirty && !learnOnly) {
      const meta = { dirs: [...this.dirs].sort(), files: {} };
      for (const [rel, sig] of this.known) meta.files[rel] = Number(sig.split(":")[1]);
      this._put(PREFIX + "meta", JSON.stringify(meta));
      this.saves++;
    }
    this.lastSync = Date.now();
    if (changed.length && this.onchange) this.onchange(changed);
    return changed;
  }

  _put(key, value) {
    try {
      this.store.setItem(key, value);
      this.error = null;
    } catch (e) {
      this.error = "browser storage full: " + e.message;
    }
  }

  list() {
    // [[relative path, size, mtime]] of the files now in the flash, sorted
    return this.walk().files
      .map(([rel, st]) => [rel, st.size, st.mtime instanceof Date ? st.mtime.getTime() : st.mtime])
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }

  static clear(store = window.localStorage) {
    const keys = [];
    for (let i = 0; i < store.length; i++) {
      const k = store.key(i);
      if (k && k.startsWith(PREFIX)) keys.push(k);
    }
    for (const k of keys) store.removeItem(k);
    return keys.length;
  }
}

// -- a zip file of some flash files (stored, not deflated: the files are small text) ----
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const DOS_DATE = (1 << 5) | 1; // 1980-01-01: the box has no calendar clock

export function zip(entries) {
  // entries: [[name, Uint8Array]] -> Uint8Array of a zip archive
  const enc = new TextEncoder();
  const parts = [];
  const central = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBytes = enc.encode(name);
    const crc = crc32(data);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(6, 0x0800, true); // UTF-8 names
    local.setUint16(12, DOS_DATE, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, data.length, true);
    local.setUint16(26, nameBytes.length, true);
    parts.push(new Uint8Array(local.buffer), nameBytes, data);
    const cen = new DataView(new ArrayBuffer(46));
    cen.setUint32(0, 0x02014b50, true);
    cen.setUint16(4, 20, true);
    cen.setUint16(6, 20, true);
    cen.setUint16(8, 0x0800, true);
    cen.setUint16(14, DOS_DATE, true);
    cen.setUint32(16, crc, true);
    cen.setUint32(20, data.length, true);
    cen.setUint32(24, data.length, true);
    cen.setUint16(28, nameBytes.length, true);
    cen.setUint32(42, offset, true);
    central.push(new Uint8Array(cen.buffer), nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const size = central.reduce((n, p) => n + p.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, size, true);
  end.setUint32(16, offset, true);
  const all = parts.concat(central, [new Uint8Array(end.buffer)]);
  const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of all) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
