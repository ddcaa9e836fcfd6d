// scoreboard live: the pages' one script. Follows /api/stream (Server-Sent Events) and
// keeps every table's latest state; a page gives render(table) and, for the shot clock,
// the element to count down in. The countdown is drawn from the box's stamps: the state
// says what the clock had left at the last line and when that line came (server time),
// and the page counts on from there every frame, without asking the server again.
"use strict";

const Live = {
  tables: {},      // table number -> state (host_tools/live/table.py snapshot)
  offset: 0,       // this browser's clock minus the server's, ms
  log: [],         // what was painted: {table, lines, a, b, t} (the tests read it)
  render: null,    // render(state): the page draws one table
  only: null,      // a table number, or null for every table

  start(render, only) {
    Live.render = render;
    Live.only = only;
    const url = "/api/stream" + (only ? "?table=" + only : "");
    const es = new EventSource(url);  // reconnects by itself, with Last-Event-ID
    const take = (state) => {
      if (Live.only && state.table !== Live.only) return;
      Live.tables[state.table] = state;
      Live.render(state);
      Live.painted(state);
    };
    const clock = (data) => { Live.offset = Date.now() - data.server_ms; };
    es.addEventListener("tables", (e) => {
      const data = JSON.parse(e.data);
      clock(data);
      data.tables.forEach(take);
    });
    for (const kind of ["line", "table"]) {
      es.addEventListener(kind, (e) => {
        const data = JSON.parse(e.data);
        clock(data);
        take(data.state);
      });
    }
    es.onerror = () => {
      document.body.classList.add("offline");
    };
    es.onopen = () => {
      document.body.classList.remove("offline");
    };
    requestAnimationFrame(Live.tick);
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
      if (left === null || !state.signal || !state.replay || !state.replay.current) {
        el.textContent = "";
        el.className = "clock";
        continue;
      }
      const running = state.clock.running;
      el.textContent = left <= 0 ? "TIME" : String(Math.ceil(left / 1000));
      el.className = "clock" + (running ? " running" : "") +
        (left <= 0 ? " time" : left <= state.clock.warn_ms ? " warn" : "");
    }
    requestAnimationFrame(Live.tick);
  },

  // The line under the names: break, ball on, reds / balls, points remaining.
  details(state) {
    const r = state.replay;
    if (!r || !r.current) return "";
    const c = r.current;
    const out = [];
    if (c.break) out.push("break " + c.break);
    if (c.ball_on) out.push("on " + c.ball_on);
    if (c.reds !== null && c.reds !== undefined) out.push("reds " + c.reds);
    if (c.remaining) out.push(c.remaining + " remaining");
    if (c.snookers_required) out.push(c.snookers_required + " snooker" +
                                      (c.snookers_required > 1 ? "s" : "") + " needed");
    return out.join(" \u00b7 ");
  },

  // A frame or the match just decided, as a referee says it, or "".
  result(state) {
    const r = state.replay;
    if (!r || !state.names) return "";
    const name = (side) => state.names[side === "A" ? 0 : 1];
    if (r.status === "finished") {
      if (r.winner) return name(r.winner) + " wins " + r.frames_won.A + "\u2013" +
                           r.frames_won.B;
      return r.result ? "match " + r.result.how : "match over";
    }
    if (!r.current && r.frames.length) {
      const f = r.frames[r.frames.length - 1];
      const sc = f.score ? " " + f.score.A + "\u2013" + f.score.B : "";
      return (f.winner ? "frame " + f.number + " to " + name(f.winner) : "frame " +
              f.number + " over") + sc;
    }
    return "";
  },

  status(state) {
    if (!state.signal) return "table " + state.table + ": no signal";
    if (!state.replay) return "table " + state.table + ": no match";
    return "";
  },

  text(el, value) {
    if (el && el.textContent !== String(value)) el.textContent = value;
  },
};
