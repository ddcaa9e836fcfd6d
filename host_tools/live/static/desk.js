// scoreboard desk: the tournament pages' script, beside live.js (its words, W(), and
// its stream). `Desk` reads the tournament (/api/tournament/NAME, the JSON of
// `scoreboard tournament show --json` and its `extra`), follows its `tournament`
// events, and posts the actions with the desk's token (given once as ?token=, kept for
// the tab); `Bracket.svg(t)` draws the bracket: an elimination's rounds in columns
// with lines from each match to the one its winner goes to, the losers' bracket under
// the winners', the grand final and its reset after the winners' final, a group as a
// cross table (each pair's score, won-lost, frames, place) before the knockout.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";

const Desk = {
  name: null,      // the tournament of the page (/desk/NAME...), or null
  t: null,         // its latest state
  tables: [],      // the board's tables (the club's, and the boxes')
  token: null,
  listeners: [],   // fn(t) at each new state
  log: [],         // what was painted: {changes, champion, done, t} (the tests read it)

  init() {
    const q = new URLSearchParams(location.search);
    if (q.get("token")) sessionStorage.setItem("desk-token", q.get("token"));
    Desk.token = q.get("token") || sessionStorage.getItem("desk-token");
    const m = location.pathname.match(/^\/desk\/([^/]+)/);
    Desk.name = m ? decodeURIComponent(m[1]) : null;
  },

  // A desk page's address, with the token the page was opened with.
  link(path) {
    return path + (Desk.token ? "?token=" + encodeURIComponent(Desk.token) : "");
  },

  async get(path) {
    const r = await fetch(path, {cache: "no-store"});
    const data = await r.json().catch(() => ({error: r.status + " " + r.statusText}));
    if (!r.ok) throw new Error(data.error || String(r.status));
    return data;
  },

  // An action: its answer (the tournament after it), or an Error of its one line.
  async post(path, body) {
    const headers = {"Content-Type": "application/json"};
    if (Desk.token) headers.Authorization = "Bearer " + Desk.token;
    const r = await fetch(path, {method: "POST", headers, body: JSON.stringify(body)});
    const data = await r.json().catch(() => ({error: r.status + " " + r.statusText}));
    if (!r.ok) throw new Error(String(data.error || r.status).split("\n")[0]);
    return data;
  },

  async act(verb, body) {
    const t = await Desk.post("/api/tournament/" + encodeURIComponent(Desk.name) + "/" +
                              verb, body);
    Desk.take(t);
    return t;
  },

  async load() {
    Desk.take(await Desk.get("/api/tournament/" + encodeURIComponent(Desk.name)));
  },

  // A new state, unless an older one than the page has (events and answers cross).
  take(t) {
    if (!t || (Desk.name && t.name !== Desk.name)) return;
    if (Desk.t && t.changes !== null && Desk.t.changes !== null &&
        t.changes < Desk.t.changes) return;
    // the same change again (a page's answer and its event, a reload after a snapshot):
    // nothing to draw again
    if (Desk.t && t.changes !== null && t.changes === Desk.t.changes &&
        (!t.tables || JSON.stringify(t.tables) === JSON.stringify(Desk.tables))) return;
    if (t.tables) Desk.tables = t.tables;
    Desk.t = t;
    for (const fn of Desk.listeners) fn(t);
    const entry = () => Desk.log.push({changes: t.changes, champion: t.champion,
                                       done: Desk.decided(t), t: Date.now()});
    if (document.hidden) setTimeout(entry, 0);
    else requestAnimationFrame(() => requestAnimationFrame(entry));
  },

  // Follow the stream: the tournament's changes, and every table (render(state)).
  follow(render) {
    Live.on.tournament = (data) => Desk.take(data.tournament);
    Live.on.tables = () => { if (Desk.name) Desk.load().catch(() => {}); };
    Live.start(render || (() => {}), null, null);
  },

  decided(t) {
    return t.matches.filter((m) => ["done", "walkover", "bye"].includes(m.status)).length;
  },

  match(t, id) {
    return t.matches.find((m) => m.id === id);
  },

  // table number -> the match that holds it (assigned, called or playing)
  busyTables(t) {
    const out = {};
    for (const m of t.matches) {
      if (m.table !== null && ["assigned", "called", "playing"].includes(m.status)) {
        out[m.table] = m;
      }
    }
    return out;
  },

  player(t, id) {
    return t.players.find((p) => p.id === id);
  },

  who(t, id) {
    const p = Desk.player(t, id);
    return p ? p.name : "?";
  },

  // Who comes to a side: the player's name, else where from.
  side(t, m, i) {
    const id = i ? m.b : m.a;
    if (id !== null) {
      const p = Desk.player(t, id);
      return {text: p.name + (p.seed !== null ? " (" + p.seed + ")" : ""), known: true};
    }
    const from = t.extra[m.id].from[i];
    if (!from || m.status === "bye") return {text: W("v.d_bye"), known: false};
    const [kind, rest, place] = from.split(":");
    const text = kind === "w" ? W("v.d_winner_of", rest) :
      kind === "l" ? W("v.d_loser_of", rest) :
      kind === "g" ? W("v.d_group_place", rest, Number(place)) :
      kind === "r" ? W("v.d_reset") : from;
    return {text, known: false};
  },

  // The tournament match a box plays (its header's id is NAME-MATCH), or null.
  boxMatch(t, live) {
    const prefix = t.name + "-";
    if (!live || !live.id || !live.id.startsWith(prefix)) return null;
    return Desk.match(t, live.id.slice(prefix.length)) || null;
  },

  // What a box plays, in a line: `W1-03: Ann 2-1 Bob` (the match's id when it is one
  // of the tournament's).
  boxLine(t, live, sep) {
    const s = Live.score(live);
    const m = Desk.boxMatch(t, live);
    return (m ? m.id + ": " : "") + live.names[0] + sep + (s[0] === null ? "" : s[0] +
      (sep === " " ? "-" : "\u2013") + s[1]) + sep + live.names[1];
  },

  stage(stage) {
    if (stage.startsWith("group ")) return W("v.d_st_group", stage.slice(6));
    return {winners: W("v.d_st_winners"), losers: W("v.d_st_losers"),
            final: W("v.d_st_final")}[stage] || stage;
  },

  status(m) {
    const words = {waiting: "v.d_s_waiting", ready: "v.d_s_ready", assigned: "v.d_s_assigned",
                   called: "v.d_s_called", playing: "v.d_s_playing", done: "v.d_s_done",
                   bye: "v.d_s_bye", walkover: "v.d_s_walkover"};
    return W(words[m.status] || m.status);
  },

  how(how) {
    const words = {played: "v.d_how_played", walkover: "v.d_how_walkover",
                   retired: "v.d_how_retired", abandoned: "v.d_how_abandoned"};
    return W(words[how] || how);
  },

  // The short mark of a result without a score, on the winner's row.
  howShort(how) {
    const words = {walkover: "v.d_wo", retired: "v.d_ret", abandoned: "v.d_abd"};
    return words[how] ? W(words[how]) : "";
  },

  // `race to 5 racks`, `best of 7 frames`: a stage's length in words.
  length(t, m) {
    return Live.caption({format: t.extra[m.id].format, game: t.game});
  },

  racks(t) {
    return Live.unit({game: t.game}) === "racks";
  },

  text(el, value) {
    if (el.textContent !== String(value)) el.textContent = value;
  },
};

function svgEl(tag, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

const Bracket = {
  BW: 210, RH: 21, VG: 16, CG: 40, HEAD: 22, TITLE: 30, PAD: 12, CELL: 46, NAME: 170,

  // The columns of an elimination's section: [[match, ...], ...] left to right.
  columns(matches) {
    const order = {winners: 0, final: 1, losers: 0};
    const keys = [...new Set(matches.map((m) => order[m.stage] * 1000 + m.round))]
      .sort((a, b) => a - b);
    return keys.map((k) => matches.filter((m) => order[m.stage] * 1000 + m.round === k));
  },

  // One match's box at (x, y): its id (and table) above, a row a side.
  box(t, m, x, y, g) {
    const B = Bracket;
    const how = t.extra[m.id].how;
    const box = svgEl("g", {"class": "match st-" + m.status, "data-match": m.id,
                            "data-status": m.status, "transform": "translate(" + x + "," +
                            y + ")", "data-score": m.score ? m.score.join("-") :
                              how && how !== "played" ? how : ""}, g);
    const label = m.id + (m.table !== null ? " \u00b7 " + W("v.d_on_table", m.table) : "");
    svgEl("text", {"class": "mid", x: 2, y: -4}, box, label);
    svgEl("rect", {"class": "frame", x: 0, y: 0, width: B.BW, height: 2 * B.RH, rx: 3}, box);
    for (const i of [0, 1]) {
      const id = i ? m.b : m.a;
      const won = m.winner !== null && m.winner === id && m.status !== "bye";
      const row = svgEl("g", {"class": "row " + (i ? "b" : "a") + (won ? " won" : ""),
                             "transform": "translate(0," + i * B.RH + ")"}, box);
      svgEl("rect", {"class": "bg", x: 0, y: 0, width: B.BW, height: B.RH}, row);
      const side = Desk.side(t, m, i);
      svgEl("text", {"class": "name" + (side.known ? "" : " tbd"), x: 6, y: B.RH - 6,
                     "data-max": B.BW - 44}, row, side.text);
      let score = m.score ? String(m.score[i]) : "";
      if (!m.score && won && how && how !== "played") score = Desk.howShort(how);
      svgEl("text", {"class": "score", x: B.BW - 6, y: B.RH - 6, "text-anchor": "end"}, row,
            score);
    }
    svgEl("line", {"class": "split", x1: 0, x2: B.BW, y1: B.RH, y2: B.RH}, box);
    return box;
  },

  // An elimination's section (its matches) at y0: its width and height.
  section(t, title, matches, y0, svg) {
    const B = Bracket;
    const cols = B.columns(matches);
    const most = Math.max(...cols.map((c) => c.length));
    const g = svgEl("g", {"class": "section"}, svg);
    svgEl("text", {"class": "title", x: B.PAD, y: y0 + 20}, g, title);
    const top = y0 + B.TITLE + B.HEAD;
    const height = most * (2 * B.RH + B.VG);
    const where = {};
    cols.forEach((col, c) => {
      const x = B.PAD + c * (B.BW + B.CG);
      const first = col[0];
      const head = first.stage === "final" ? (first.id === "F2" && col.length === 1 ?
        W("v.d_reset") : W("v.d_st_final")) : W("v.d_round", first.round);
      svgEl("text", {"class": "head", x: x + 2, y: top - 12}, g, head);
      const slot = height / col.length;
      col.forEach((m, i) => {
        const y = top + (i + 0.5) * slot - B.RH;
        where[m.id] = {x, y};
      });
    });
    // The lines first (under the boxes): from a match to the side its winner takes.
    for (const m of matches) {
      t.extra[m.id].from.forEach((from, i) => {
        if (!from || !from.startsWith("w:")) return;
        const src = where[from.slice(2)];
        if (!src) return;
        const dst = where[m.id];
        const x1 = src.x + B.BW, y1 = src.y + B.RH;
        const x2 = dst.x, y2 = dst.y + B.RH * (i + 0.5);
        const xm = x1 + B.CG / 2;
        const done = Desk.match(t, from.slice(2)).winner !== null;
        svgEl("path", {"class": "link" + (done ? " done" : ""),
                       d: "M" + x1 + " " + y1 + "H" + xm + "V" + y2 + "H" + x2}, g);
      });
    }
    for (const m of matches) B.box(t, m, where[m.id].x, where[m.id].y, g);
    return {w: B.PAD * 2 + cols.length * (B.BW + B.CG) - B.CG,
            h: B.TITLE + B.HEAD + height};
  },

  // A group's cross table at y0: each pair's score from the row's side, won-lost,
  // frames for-against, the place (once the group is played out).
  group(t, letter, y0, svg) {
    const B = Bracket;
    const matches = t.matches.filter((m) => m.stage === "group " + letter);
    const rows = t.groups[letter] || [];
    const over = matches.every((m) => m.winner !== null || m.status === "bye");
    const g = svgEl("g", {"class": "section group", "data-group": letter}, svg);
    svgEl("text", {"class": "title", x: B.PAD, y: y0 + 20}, g, W("v.d_st_group", letter));
    const top = y0 + B.TITLE + B.HEAD;
    const n = rows.length;
    const x0 = B.PAD + 24 + B.NAME;
    const heads = [W("v.d_won_lost"), W(Desk.racks(t) ? "v.d_racks_fa" : "v.d_frames_fa"),
                   W("v.d_place")];
    for (let j = 0; j < n; j++) {
      svgEl("text", {"class": "head", x: x0 + j * B.CELL + B.CELL / 2, y: top - 6,
                     "text-anchor": "middle"}, g, String(j + 1));
    }
    heads.forEach((h, k) => svgEl("text", {"class": "head", x: x0 + n * B.CELL + k * 70 + 35,
                                           y: top - 6, "text-anchor": "middle"}, g, h));
    rows.forEach(([pid, won, lost, ff, fa], r) => {
      const y = top + r * B.RH;
      svgEl("rect", {"class": "frame", x: B.PAD, y, width: 24 + B.NAME + n * B.CELL + 210,
                     height: B.RH}, g);
      svgEl("text", {"class": "head", x: B.PAD + 6, y: y + B.RH - 6}, g, String(r + 1));
      svgEl("text", {"class": "name", x: B.PAD + 24, y: y + B.RH - 6, "data-max": B.NAME - 6},
            g, Desk.who(t, pid));
      rows.forEach(([qid], c) => {
        const x = x0 + c * B.CELL;
        if (qid === pid) {
          svgEl("rect", {"class": "self", x, y, width: B.CELL, height: B.RH}, g);
          return;
        }
        const m = matches.find((k) => (k.a === pid && k.b === qid) || (k.a === qid && k.b === pid));
        if (!m) return;
        const cell = svgEl("g", {"class": "match cell st-" + m.status, "data-match": m.id,
                                 "data-status": m.status,
                                 "data-score": m.score ? m.score.join("-") : ""}, g);
        let text = "";
        if (m.score) text = m.a === pid ? m.score[0] + "-" + m.score[1] : m.score[1] + "-" + m.score[0];
        else if (m.winner !== null) text = m.winner === pid ? Desk.howShort(t.extra[m.id].how) || "+" : "-";
        svgEl("rect", {"class": "bg" + (m.winner === pid ? " won" : ""), x, y, width: B.CELL,
                       height: B.RH}, cell);
        svgEl("text", {"class": "score", x: x + B.CELL / 2, y: y + B.RH - 6,
                       "text-anchor": "middle"}, cell, text);
      });
      const xs = x0 + n * B.CELL;
      [won + "-" + lost, ff + "-" + fa, over ? String(r + 1) : ""].forEach((v, k) =>
        svgEl("text", {"class": "score", x: xs + k * 70 + 35, y: y + B.RH - 6,
                       "text-anchor": "middle"}, g, v));
    });
    return {w: B.PAD * 2 + 24 + B.NAME + n * B.CELL + 210, h: B.TITLE + B.HEAD + n * B.RH + 8};
  },

  // The parts of the bracket that are drawn: the groups, the knockout (the winners'
  // bracket and the final), the losers' bracket; those `t` has.
  parts(t) {
    const out = [];
    if (t.format === "groups") out.push("groups");
    if (t.matches.some((m) => m.stage === "winners" || m.stage === "final")) out.push("ko");
    if (t.matches.some((m) => m.stage === "losers")) out.push("losers");
    return out;
  },

  // The bracket as one <svg> (`only`: one of its parts), its natural size in its
  // viewBox.
  svg(t, only) {
    const B = Bracket;
    const svg = svgEl("svg", {"class": "bracket", "data-changes": t.changes});
    let y = 0, w = 0;
    const add = (size) => { y += size.h + B.VG; w = Math.max(w, size.w); };
    const want = (part) => !only || only === part;
    if (t.format === "groups" && want("groups")) {
      for (const letter of Object.keys(t.groups).sort()) add(B.group(t, letter, y, svg));
    }
    const ko = t.matches.filter((m) => m.stage === "winners" || m.stage === "final");
    const losers = t.matches.filter((m) => m.stage === "losers");
    if (ko.length && want("ko")) {
      add(B.section(t, t.format === "groups" ? W("v.d_knockout") :
        t.format === "double" ? W("v.d_st_winners") : W("v.d_bracket"), ko, y, svg));
    }
    if (losers.length && want("losers")) add(B.section(t, W("v.d_st_losers"), losers, y, svg));
    svg.setAttribute("viewBox", "0 0 " + w + " " + Math.max(y, 1));
    svg.setAttribute("data-w", w);
    svg.setAttribute("data-h", y);
    return svg;
  },

  // Names too long for their box end in an ellipsis (the svg in the page: measured).
  fit(svg) {
    for (const el of svg.querySelectorAll("text[data-max]")) {
      const max = Number(el.dataset.max);
      const full = el.textContent;
      if (el.getComputedTextLength() <= max) continue;
      el.appendChild(svgEl("title", {}, null, full));
      let chars = [...full];
      while (chars.length > 1 && el.getComputedTextLength() > max) {
        chars = chars.slice(0, -1);
        el.firstChild.nodeValue = chars.join("").trimEnd() + "\u2026";
      }
    }
  },

  // Draw `t` into `holder` (in place of what it held).
  paint(holder, t, only) {
    const svg = Bracket.svg(t, only);
    holder.replaceChildren(svg);
    Bracket.fit(svg);
    return svg;
  },
};

Desk.init();
