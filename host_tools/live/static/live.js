// scoreboard live: the pages' one script. Follows /api/stream (Server-Sent Events) and
// keeps every table's latest state; a page gives render(table) and, for the shot clock,
// the element to count down in. The countdown is drawn from the box's stamps: the state
// says what the clock had left at the last line and when that line came (server time),
// and the page counts on from there every frame, without asking the server again.
//
// The page outlives `live`: an OBS browser source loads it once and never again. So a
// page for a table not found yet waits for it, a stream that closes (live stopped, the
// network gone) shows `no signal` on every table, and the page follows again when live
// is back: the browser's own reconnects, and a new stream when the server refused one.
"use strict";

// The words, in the language `scoreboard live --lang` speaks: /words.js gives them
// (window.WORDS, from the box's own tables: host_tools/live/words.py).
const WORDS = (window.WORDS && window.WORDS.words) || {};
if (window.WORDS) document.documentElement.lang = window.WORDS.lang;

// The text of `key` with its %s and %d filled in by turns.
function W(key, ...args) {
  let i = 0;
  return (WORDS[key] || key).replace(/%[sd]/g, () => String(args[i++]));
}

// A word of the notation as the box's screens show it (a ball, how a match ended).
function word(w) {
  return WORDS["w." + w] || w;
}

const POOL = ["eightball", "nineball", "tenball"];

const LOST_AFTER = 1500;  // ms of a closed stream before the page says no signal
const AGAIN_MS = [2000, 5000];  // a new stream after a refusal: between these, at random

const Live = {
  tables: {},      // table number -> state (host_tools/live/table.py snapshot)
  offset: 0,       // this browser's clock minus the server's, ms
  log: [],         // what was painted: {table, lines, a, b, t} (the tests read it)
  render: null,    // render(state): the page draws one table
  empty: null,     // empty(text): what the page says while it has no table ("": nothing)
  only: null,      // a table number, or null for every table
  lost: false,     // the stream has been closed a while: live is away
  lastId: null,    // the last event's id (a new stream goes on from it)
  tries: 0,        // new streams after one ended for good (the tests read it)
  lostTimer: null,
  on: {},          // more events a page follows: kind -> fn(data) (the desk's
                   // `tournament`); `tables`: after a snapshot of every table is taken

  start(render, only, empty) {
    Live.render = render;
    Live.only = only;
    Live.empty = empty || null;
    Live.note();
    Live.connect();
    requestAnimationFrame(Live.tick);
  },

  connect() {
    const query = [];
    if (Live.only) query.push("table=" + Live.only);
    if (Live.lastId !== null) query.push("last=" + Live.lastId);
    // The browser reconnects by itself with Last-Event-ID after a stream ends.
    const es = new EventSource("/api/stream" + (query.length ? "?" + query.join("&") : ""));
    const take = (state) => {
      if (Live.only && state.table !== Live.only) return;
      Live.tables[state.table] = state;
      Live.render(state);
      Live.painted(state);
      Live.note();
    };
    const clock = (data) => { Live.offset = Date.now() - data.server_ms; };
    const seen = (e) => { if (e.lastEventId) Live.lastId = e.lastEventId; };
    es.addEventListener("tables", (e) => {
      const data = JSON.parse(e.data);
      seen(e);
      clock(data);
      data.tables.forEach(take);
      // Every table this live has: one held but not here is another run's (live was
      // started again): it has no signal on this one.
      const here = new Set(data.tables.map((t) => t.table));
      for (const n in Live.tables) {
        if (!here.has(Number(n))) take(Live.absent(Number(n)));
      }
      if (Live.on.tables) Live.on.tables(data);
    });
    for (const kind in Live.on) {
      if (kind === "tables") continue;
      es.addEventListener(kind, (e) => {
        seen(e);
        Live.on[kind](JSON.parse(e.data));
      });
    }
    for (const kind of ["line", "table"]) {
      es.addEventListener(kind, (e) => {
        const data = JSON.parse(e.data);
        seen(e);
        clock(data);
        take(data.state);
      });
    }
    es.onerror = () => {
      // A refusal (503: too many pages, or any answer but a stream) ends an EventSource
      // for good; anything else it tries again by itself (readyState CONNECTING).
      if (es.readyState === EventSource.CLOSED) {
        es.close();
        Live.tries += 1;
        setTimeout(Live.connect, AGAIN_MS[0] + Math.random() * (AGAIN_MS[1] - AGAIN_MS[0]));
      }
      // A moment's grace: a stream the server ends for a reader too far behind is
      // open again within a second.
      if (Live.lostTimer === null) {
        Live.lostTimer = setTimeout(() => Live.setLost(true), LOST_AFTER);
      }
    };
    es.onopen = () => {
      clearTimeout(Live.lostTimer);
      Live.lostTimer = null;
      Live.setLost(false);
    };
  },

  // Live away or back: every table drawn again with it.
  setLost(lost) {
    if (Live.lost === lost) return;
    Live.lost = lost;
    document.body.classList.toggle("offline", lost);
    for (const n in Live.tables) Live.render(Live.tables[n]);
    Live.note();
  },

  // What the page says while it has no table to show: the overlay waiting for its box,
  // the TV page for any; "" once there is one.
  note() {
    if (!Live.empty) return;
    const has = Live.only ? Live.only in Live.tables : Object.keys(Live.tables).length > 0;
    let text = "";
    if (!has && Live.only) {
      text = Live.lost ? W("v.no_signal", Live.only) : W("v.waiting_box", Live.only);
    } else if (!has) {
      text = Live.lost ? W("v.away") : W("v.waiting");
    }
    Live.empty(text);
  },

  // The state of a table the server does not have.
  absent(n) {
    return {table: n, signal: false, status: "no signal", stem: null, lines: 0, id: null,
            names: null, format: null, replay: null, clock: null, last: null, at: null};
  },

  // The table's box is heard, and live with it.
  signal(state) {
    return state.signal && !Live.lost;
  },

  // After the browser has painted the change: two animation frames later (a hidden
  // page paints nothing and runs no animation frames: there, at once).
  painted(state) {
    const score = Live.score(state);
    const entry = () => Live.log.push({table: state.table, lines: state.lines, a: score[0],
                                       b: score[1], signal: state.signal, t: Date.now()});
    if (document.hidden) {
      setTimeout(entry, 0);
      return;
    }
    requestAnimationFrame(() => requestAnimationFrame(entry));
  },

  // The big numbers: the frame's points, or in pool (no points) the racks won.
  score(state) {
    const r = state.replay;
    if (!r) return [null, null];
    const cur = r.current;
    if (cur && cur.score) return [cur.score.A, cur.score.B];
    if (r.frames.length && !cur) {
      const f = r.frames[r.frames.length - 1];
      if (f.score) return [f.score.A, f.score.B];
    }
    return [r.frames_won.A, r.frames_won.B];
  },

  // Seconds left on the shot clock now, or null without a clock; negative past TIME.
  clockLeft(state) {
    const c = state.clock;
    if (!c || !state.at) return null;
    if (!c.running) return c.remaining_ms;
    const serverNow = Date.now() - Live.offset;
    return c.remaining_ms - (serverNow - state.at);
  },

  tick() {
    for (const n in Live.tables) {
      const el = document.querySelector('[data-clock="' + n + '"]');
      if (!el) continue;
      const state = Live.tables[n];
      const left = Live.clockLeft(state);
      if (left === null || !Live.signal(state) || !state.replay || !state.replay.current) {
        el.textContent = "";
        el.className = "clock";
        continue;
      }
      const running = state.clock.running;
      el.textContent = left <= 0 ? W("v.time") : String(Math.ceil(left / 1000));
      el.className = "clock" + (running ? " running" : "") +
        (left <= 0 ? " time" : left <= state.clock.warn_ms ? " warn" : "");
    }
    requestAnimationFrame(Live.tick);
  },

  // Whether a frame has points of its own (snooker): else (pool) the racks won are the
  // score, shown once.
  framePoints(state) {
    return Live.unit(state) === "frames";
  },

  // Racks for pool, frames for snooker; points for straight pool (no frames).
  unit(state) {
    const game = state.game || (state.replay && state.replay.game);
    return game === "straight" ? "points" : POOL.includes(game) ? "racks" : "frames";
  },

  // The kind of match in words: `best of 3 frames`, `race to 5 racks`, not the
  // notation's `best-of 3`.
  caption(state) {
    const f = (state.format || "").split(" ");
    const n = Number(f[1]);
    if (!f[0] || !Number.isInteger(n)) return state.format || "";
    const racks = Live.unit(state) === "racks";
    if (f[0] === "best-of") return W(racks ? "v.best_of_racks" : "v.best_of", n);
    if (f[0] === "race-to") return W(racks ? "v.race_to_racks" : "v.race_to", n);
    if (f[0] === "frames") return W(f[2] === "by" ? "v.frames_points" : "v.frames", n);
    if (f[0] === "points") return W("v.points", n);
    return state.format;
  },

  // The caption over the frames won: frames, or racks in pool.
  framesCaption(state) {
    const unit = Live.unit(state);
    return unit === "points" ? "" : W(unit === "racks" ? "v.racks_col" : "v.frames_col");
  },

  // The line under the names: break, ball on, reds / balls, points remaining.
  details(state) {
    const r = state.replay;
    if (!r || !r.current) return "";
    const c = r.current;
    const out = [];
    if (c.break) out.push(W("v.break", c.break));
    if (c.ball_on) out.push(W("v.ball_on", word(c.ball_on)));
    if (c.reds !== null && c.reds !== undefined) out.push(W("v.reds", c.reds));
    if (c.remaining) out.push(W("v.remaining", c.remaining));
    if (c.snookers_required) out.push(W("v.snookers", c.snookers_required));
    return out.join(" \u00b7 ");
  },

  // A score from the side of `first` ("A" or "B"): `58-49` for the winner of a frame.
  scoreOf(score, first) {
    return first === "B" ? W("v.score", score.B, score.A) : W("v.score", score.A, score.B);
  },

  // A frame or the match just decided, as a referee says it, the winner first, or "".
  result(state) {
    const r = state.replay;
    if (!r || !state.names) return "";
    const name = (side) => state.names[side === "A" ? 0 : 1];
    if (r.status === "finished") {
      if (r.winner) {
        const won = r.frames_won;
        const other = r.winner === "A" ? "B" : "A";
        return W("v.wins", name(r.winner), won[r.winner], won[other]);
      }
      return r.result && r.result.how ? W("v.match", word(r.result.how)) : W("v.match_over");
    }
    if (!r.current && r.frames.length) {
      const f = r.frames[r.frames.length - 1];
      const racks = Live.unit(state) === "racks";
      if (!f.winner) return W(racks ? "v.rack_over" : "v.frame_over", f.number);
      const text = W(racks ? "v.rack_won" : "v.frame_won", name(f.winner), f.number);
      return f.score ? text + ", " + Live.scoreOf(f.score, f.winner) : text;
    }
    return "";
  },

  status(state) {
    if (!Live.signal(state)) return W("v.no_signal", state.table);
    if (!state.replay) return W("v.no_match", state.table);
    return "";
  },

  // `Łukasz Żółć` as `Ł. Żółć`: the first names by their initials, for a name that
  // does not fit whole.
  short(name) {
    const words = name.split(" ").filter((w) => w);
    if (words.length < 2) return name;
    return words.slice(0, -1).map((w) => [...w][0] + ".").join(" ") + " " +
      words[words.length - 1];
  },

  text(el, value) {
    if (el && el.textContent !== String(value)) el.textContent = value;
  },
};
