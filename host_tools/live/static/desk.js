// scoreboard desk: the tournament pages' script, beside live.js (its words, W(), and
// its stream). `Desk` reads the tournament (/api/tournament/ID, the JSON of
// `scoreboard tournament show --json` and its `extra`; ID the id made of its name, or
// the name), follows its `tournament` events, and posts the actions with the desk's
// token (given once as ?token=, kept for the tab and taken out of the address: no link
// and no history entry carries it); `Bracket.svg(t)` draws the bracket: an
// elimination's rounds in columns with lines from each match to the one its winner
// goes to, the losers' bracket under the winners', the grand final and its reset after
// the winners' final, a group as a cross table (each pair's score, won-lost, frames,
// place) before the knockout; in the desk's geometry (Bracket.DESK) or the TV's, whose
// parts (`Bracket.slides`) each fill a screen with the names at least 4% of its
// height.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";

const Desk = {
  name: null,      // the tournament of the page as its address names it (/desk/ID...)
  id: null,        // its id, once the page has its state
  t: null,         // its latest state
  tables: [],      // the board's tables (the club's, and the boxes')
  token: null,
  listeners: [],   // fn(t) at each new state
  log: [],         // what was painted: {changes, champion, done, t} (the tests read it)

  init() {
    const q = new URLSearchParams(location.search);
    if (q.get("token")) {
      // kept for the tab, and out of the address bar and the history at once (N11)
      sessionStorage.setItem("desk-token", q.get("token"));
      q.delete("token");
      const rest = q.toString();
      history.replaceState(null, "", location.pathname + (rest ? "?" + rest : "") +
                           location.hash);
    }
    Desk.token = sessionStorage.getItem("desk-token");
    const m = location.pathname.match(/^\/desk\/([^/]+)/);
    Desk.name = m ? decodeURIComponent(m[1]) : null;
  },

  // A desk page's address: never with the token (the TV's and the print view's need
  // none; this tab's desk pages have it kept).
  link(path) {
    return path;
  },

  // The address of a tournament's page (`page`: "", "/tv", "/print").
  page(t, page) {
    return "/desk/" + encodeURIComponent(t.id || t.name) + (page || "");
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
    const t = await Desk.post("/api/tournament/" + encodeURIComponent(Desk.id || Desk.name) +
                              "/" + verb, body);
    Desk.take(t);
    return t;
  },

  async load() {
    Desk.take(await Desk.get("/api/tournament/" + encodeURIComponent(Desk.id || Desk.name)));
  },

  // Whether `t` is the page's tournament (by its id once known, else by the address).
  ours(t) {
    if (!Desk.name) return true;
    return Desk.id ? t.id === Desk.id : t.id === Desk.name || t.name === Desk.name;
  },

  // A new state, unless an older one than the page has (events and answers cross).
  take(t) {
    if (!t || !Desk.ours(t)) return;
    Desk.id = t.id;
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

  // The tournament match a box plays (its header's id is ID-MATCH), or null.
  boxMatch(t, live) {
    const prefix = (t.id || t.name) + "-";
    if (!live || !live.id || !live.id.startsWith(prefix)) return null;
    return Desk.match(t, live.id.slice(prefix.length)) || null;
  },

  // What a box plays, in a line: `W1-03: Ann 2-1 Bob`, the frames or racks won (the
  // match's id when it is one of the tournament's), and in snooker the frame in play's
  // points: `Ann 1-0 Bob (frame 2: 45-12)`.
  boxLine(t, live, sep) {
    const m = Desk.boxMatch(t, live);
    const dash = sep === " " ? "-" : "\u2013";
    const s = Desk.boxScore(live);
    let text = (m ? m.id + ": " : "") + live.names[0] + sep +
      (s.won ? s.won[0] + dash + s.won[1] : "") + sep + live.names[1];
    if (s.points) {
      text += " (" + W("v.d_frame_pts", W("v.d_frame"), s.frame, s.points[0] + dash +
                       s.points[1]) + ")";
    }
    return text;
  },

  // A box's score: {won: [A, B] frames or racks won (straight pool: the points), points:
  // [A, B] of the snooker frame in play or null, frame: its number}.
  boxScore(live) {
    const r = live.replay;
    if (!r) return {won: null, points: null, frame: null};
    if (Live.unit(live) === "points") {
      const sc = Live.score(live);
      return {won: sc[0] === null ? null : sc, points: null, frame: null};
    }
    const cur = r.current;
    const last = r.frames.length ? r.frames[r.frames.length - 1] : null;
    const snooker = Live.unit(live) === "frames";
    return {won: [r.frames_won.A, r.frames_won.B],
            points: snooker && cur && cur.score ? [cur.score.A, cur.score.B] : null,
            frame: cur && last ? last.number : null};
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

// The bracket's geometry, in the SVG's units (its fonts are desk.css's: a name 14): the
// desk's and the print view's, with each match's id over its box; the TV's (desk-tv.html)
// narrower and tighter, the id beside the box, no section title (the slide names it),
// made to be scaled up until a name is at least 4% of the screen's height.
// A group is its cross table on the desk (each pair's score), its standings alone on
// the TV (four groups of four on one screen).
const DESK_GEOMETRY = {BW: 210, RH: 21, VG: 16, CG: 40, HEAD: 22, TITLE: 30, PAD: 12,
                       CELL: 46, NAME: 170, LW: 0, HEAD_PX: 12, SCORE_PX: 14, STAT_PAD: 16,
                       CROSS: true};
const TV_GEOMETRY = {BW: 150, RH: 16.5, VG: 3.5, CG: 14, HEAD: 12, TITLE: 0, PAD: 2,
                     CELL: 24, NAME: 112, LW: 28, HEAD_PX: 9, SCORE_PX: 14, STAT_PAD: 10,
                     CROSS: false, TITLE_MORE: 15};

const Bracket = {
  g: DESK_GEOMETRY,
  DESK: DESK_GEOMETRY,
  TV: TV_GEOMETRY,

  // The columns of an elimination's section: [[match, ...], ...] left to right.
  columns(matches) {
    const order = {winners: 0, final: 1, losers: 0};
    const keys = [...new Set(matches.map((m) => order[m.stage] * 1000 + m.round))]
      .sort((a, b) => a - b);
    return keys.map((k) => matches.filter((m) => order[m.stage] * 1000 + m.round === k));
  },

  // One match's box at (x, y): its id (and table) above, or beside it (the TV's), a row a
  // side.
  box(t, m, x, y, g) {
    const G = Bracket.g;
    const how = t.extra[m.id].how;
    const box = svgEl("g", {"class": "match st-" + m.status, "data-match": m.id,
                            "data-status": m.status, "transform": "translate(" + x + "," +
                            y + ")", "data-score": m.score ? m.score.join("-") :
                              how && how !== "played" ? how : ""}, g);
    if (G.LW) {  // after it: the id over the line to the next match, the table under it
      svgEl("text", {"class": "mid", x: G.BW + 3, y: G.RH * 0.72}, box, m.id);
      if (m.table !== null) {
        svgEl("text", {"class": "mid", x: G.BW + 3, y: G.RH * 1.62},
              box, W("v.d_on_table", m.table));
      }
    } else {
      const label = m.id + (m.table !== null ? " \u00b7 " + W("v.d_on_table", m.table) : "");
      svgEl("text", {"class": "mid", x: 2, y: -4}, box, label);
    }
    svgEl("rect", {"class": "frame", x: 0, y: 0, width: G.BW, height: 2 * G.RH, rx: 3}, box);
    for (const i of [0, 1]) {
      const id = i ? m.b : m.a;
      const won = m.winner !== null && m.winner === id && m.status !== "bye";
      const row = svgEl("g", {"class": "row " + (i ? "b" : "a") + (won ? " won" : ""),
                             "transform": "translate(0," + i * G.RH + ")"}, box);
      svgEl("rect", {"class": "bg", x: 0, y: 0, width: G.BW, height: G.RH}, row);
      const side = Desk.side(t, m, i);
      const base = G.RH * 0.74;
      svgEl("text", {"class": "name" + (side.known ? "" : " tbd"), x: 4, y: base,
                     "data-max": G.BW - 34, "data-full": side.text}, row, side.text);
      let score = m.score ? String(m.score[i]) : "";
      if (!m.score && won && how && how !== "played") score = Desk.howShort(how);
      svgEl("text", {"class": "score", x: G.BW - 5, y: base, "text-anchor": "end"}, row,
            score);
    }
    svgEl("line", {"class": "split", x1: 0, x2: G.BW, y1: G.RH, y2: G.RH}, box);
    return box;
  },

  // An elimination's section (its matches) at y0: its width and height. `title`: its
  // name over it (none in the TV's geometry).
  section(t, title, matches, y0, svg) {
    const G = Bracket.g;
    const cols = Bracket.columns(matches);
    const most = Math.max(...cols.map((c) => c.length));
    const g = svgEl("g", {"class": "section"}, svg);
    if (G.TITLE) svgEl("text", {"class": "title", x: G.PAD, y: y0 + 20}, g, title);
    const top = y0 + G.TITLE + G.HEAD;
    const height = most * (2 * G.RH + G.VG);
    const where = {};
    const step = G.LW + G.BW + G.CG;
    cols.forEach((col, c) => {
      const x = G.PAD + c * step;
      const first = col[0];
      const head = first.stage === "final" ? (first.id === "F2" && col.length === 1 ?
        W("v.d_reset") : W("v.d_st_final")) : W("v.d_round", first.round);
      svgEl("text", {"class": "head", x: x + 2, y: top - G.HEAD * 0.3}, g, head);
      const slot = height / col.length;
      col.forEach((m, i) => {
        const y = top + (i + 0.5) * slot - G.RH;
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
        const x1 = src.x + G.BW, y1 = src.y + G.RH;
        const x2 = dst.x, y2 = dst.y + G.RH * (i + 0.5);
        const xm = x1 + G.LW + G.CG / 2;  // past the ids after the box
        const done = Desk.match(t, from.slice(2)).winner !== null;
        svgEl("path", {"class": "link" + (done ? " done" : ""),
                       d: "M" + x1 + " " + y1 + "H" + xm + "V" + y2 + "H" + x2}, g);
      });
    }
    for (const m of matches) Bracket.box(t, m, where[m.id].x, where[m.id].y, g);
    return {w: G.PAD * 2 + cols.length * step - G.CG,
            h: G.TITLE + G.HEAD + height};
  },

  // The width of `text` in the bracket's font at `px` (a canvas measures it: the columns
  // of a group's table are as wide as their headers, which never run together).
  textWidth(text, px, bold) {
    const ctx = Bracket.ctx || (Bracket.ctx = document.createElement("canvas").getContext("2d"));
    ctx.font = (bold ? "700 " : "400 ") + px + 'px "DejaVu Sans Condensed", "Arial Narrow", ' +
      "sans-serif";
    return ctx.measureText(text).width;
  },

  // A group's columns after the cross table: [header's lines, width] of won-lost,
  // frames for-against and the place: each as wide as its widest value, its header on
  // two lines (at a hyphen or a space) when one is wider, never wider than its column.
  statColumns(t, rows) {
    const G = Bracket.g;
    const heads = [W("v.d_won_lost"), W(Desk.racks(t) ? "v.d_racks_fa" : "v.d_frames_fa"),
                   W("v.d_place")];
    const values = [rows.map(([, won, lost]) => won + "-" + lost),
                    rows.map(([, , , ff, fa]) => ff + "-" + fa), [String(rows.length || 1)]];
    const wide = (text) => Bracket.textWidth(text, G.HEAD_PX, false);
    return heads.map((h, k) => {
      const value = Math.max(G.SCORE_PX, ...values[k].map(
        (v) => Bracket.textWidth(v, G.SCORE_PX, true)));
      let lines = [h];
      const cut = Math.max(h.lastIndexOf("-", h.length / 2 + 2), h.lastIndexOf(" ",
                                                                             h.length / 2 + 2));
      if (wide(h) > value && cut > 0) {
        lines = [h.slice(0, cut + 1).trim(), h.slice(cut + 1).trim()];
      }
      return [lines, G.STAT_PAD + Math.max(value, ...lines.map(wide))];
    });
  },

  // A group's cross table at (x0, y0): each pair's score from the row's side, won-lost,
  // frames for-against, the place (once the group is played out).
  group(t, letter, y0, svg, x0 = 0) {
    const G = Bracket.g;
    const matches = t.matches.filter((m) => m.stage === "group " + letter);
    const rows = t.groups[letter] || [];
    const over = matches.every((m) => m.winner !== null || m.status === "bye");
    const g = svgEl("g", {"class": "section group", "data-group": letter,
                          transform: "translate(" + x0 + ",0)"}, svg);
    const titleH = G.TITLE || G.RH * 1.2;
    svgEl("text", {"class": "title", x: G.PAD, y: y0 + titleH * 0.7}, g,
          W("v.d_st_group", letter));
    const top = y0 + titleH + G.HEAD;
    const n = G.CROSS ? rows.length : 0;  // the cross table's columns
    const rank = G.RH * 1.2;
    const cellW = Math.max(G.CELL, G.STAT_PAD / 2 + Math.max(0, ...matches.map(
      (m) => m.score ? Bracket.textWidth(m.score.join("-"), G.SCORE_PX, true) : 0)));
    const xc = G.PAD + rank + G.NAME;
    const stats = Bracket.statColumns(t, rows);
    const xs = xc + n * cellW;
    const width = rank + G.NAME + n * cellW + stats.reduce((a, [, w]) => a + w, 0);
    for (let j = 0; j < n; j++) {
      svgEl("text", {"class": "head", x: xc + j * cellW + cellW / 2, y: top - G.HEAD * 0.3,
                     "text-anchor": "middle"}, g, String(j + 1));
    }
    let at = xs;
    const centres = stats.map(([lines, w]) => {
      lines.forEach((line, i) => svgEl("text", {
        "class": "head", x: at + w / 2, "text-anchor": "middle",
        y: top - G.HEAD * 0.3 - (lines.length - 1 - i) * G.HEAD_PX * 1.2}, g, line));
      at += w;
      return at - w / 2;
    });
    rows.forEach(([pid, won, lost, ff, fa], r) => {
      const y = top + r * G.RH;
      const cross = G.CROSS ? rows : [];
      const base = y + G.RH * 0.74;
      svgEl("rect", {"class": "frame", x: G.PAD, y, width, height: G.RH}, g);
      svgEl("text", {"class": "head", x: G.PAD + 4, y: base}, g, String(r + 1));
      svgEl("text", {"class": "name", x: G.PAD + rank, y: base, "data-max": G.NAME - 4,
                     "data-full": Desk.who(t, pid)}, g, Desk.who(t, pid));
      cross.forEach(([qid], c) => {
        const x = xc + c * cellW;
        if (qid === pid) {
          svgEl("rect", {"class": "self", x, y, width: cellW, height: G.RH}, g);
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
        svgEl("rect", {"class": "bg" + (m.winner === pid ? " won" : ""), x, y, width: cellW,
                       height: G.RH}, cell);
        svgEl("text", {"class": "score", x: x + cellW / 2, y: base,
                       "text-anchor": "middle"}, cell, text);
      });
      [won + "-" + lost, ff + "-" + fa, over ? String(r + 1) : ""].forEach((v, k) =>
        svgEl("text", {"class": "score", x: centres[k], y: base, "text-anchor": "middle"}, g,
              v));
    });
    return {w: G.PAD * 2 + width, h: titleH + G.HEAD + rows.length * G.RH + G.VG + 4};
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

  // A part's matches and its title.
  part(t, part) {
    if (part === "losers") {
      return [W("v.d_st_losers"), t.matches.filter((m) => m.stage === "losers")];
    }
    return [t.format === "groups" ? W("v.d_knockout") : t.format === "double" ?
      W("v.d_st_winners") : W("v.d_bracket"),
            t.matches.filter((m) => m.stage === "winners" || m.stage === "final")];
  },

  // The bracket as one <svg> (`only`: one of its parts), its natural size in its
  // viewBox.
  svg(t, only) {
    const G = Bracket.g;
    const svg = svgEl("svg", {"class": "bracket", "data-changes": t.changes});
    let y = 0, w = 0;
    const add = (size) => { y += size.h + G.VG; w = Math.max(w, size.w); };
    const want = (part) => !only || only === part;
    if (t.format === "groups" && want("groups")) {
      for (const letter of Object.keys(t.groups).sort()) add(Bracket.group(t, letter, y, svg));
    }
    for (const part of ["ko", "losers"]) {
      const [title, matches] = Bracket.part(t, part);
      if (matches.length && want(part)) add(Bracket.section(t, title, matches, y, svg));
    }
    return Bracket.sized(svg, w, y);
  },

  sized(svg, w, h) {
    svg.setAttribute("viewBox", "0 0 " + w + " " + Math.max(h, 1));
    svg.setAttribute("data-w", w);
    svg.setAttribute("data-h", h);
    return svg;
  },

  // Names too long for their box: their first names as initials (`Ł. Żółć`), then
  // an ellipsis (the svg in the page: measured).
  fit(svg) {
    for (const el of svg.querySelectorAll("text[data-max]")) {
      const max = Number(el.dataset.max);
      const full = el.textContent;
      if (el.getComputedTextLength() <= max) continue;
      el.appendChild(svgEl("title", {}, null, full));
      const seed = / \(\d+\)$/.exec(full);  // `Ann Lee (1)`: the seed is no name
      const short = el.classList.contains("tbd") ? full : seed ?
        Live.short(full.slice(0, seed.index)) + seed[0] : Live.short(full);
      el.firstChild.nodeValue = short;
      let chars = [...short];
      while (chars.length > 1 && el.getComputedTextLength() > max) {
        chars = chars.slice(0, -1);
        el.firstChild.nodeValue = chars.join("").trimEnd() + "\u2026";
      }
    }
  },

  // Draw `t` into `holder` (in place of what it held), in the desk's geometry.
  paint(holder, t, only) {
    Bracket.g = DESK_GEOMETRY;
    const svg = Bracket.svg(t, only);
    holder.replaceChildren(svg);
    Bracket.fit(svg);
    return svg;
  },

  // -- the TV's slides ---------------------------------------------------------------
  // What fills one screen of the TV page, each drawn with TV_GEOMETRY and scaled up at
  // least `least` times (the names at least 4% of the screen's height) into a box of
  // `w` x `h` pixels: [{kind: "groups", letters, title}, {kind: "section", part, title,
  // matches, first, last}] (an elimination's columns `first` to `last`, and when its
  // first column is too tall, the matches under a share of it).
  slides(t, w, h, least) {
    const G = TV_GEOMETRY;
    const maxW = w / least, maxH = h / least;
    const out = [];
    if (t.format === "groups") {
      const letters = Object.keys(t.groups).sort();
      Bracket.g = G;
      const probe = svgEl("svg", {});
      const size = letters.length ? Bracket.group(t, letters[0], 0, probe) : {w: 1, h: 1};
      const across = Math.max(1, Math.floor((maxW + G.CG) / (size.w + G.CG)));
      const down = Math.max(1, Math.floor(maxH / size.h));
      for (let i = 0; i < letters.length; i += across * down) {
        out.push({kind: "groups", letters: letters.slice(i, i + across * down), across,
                  title: W("v.d_groups_n")});
      }
    }
    const step = G.LW + G.BW + G.CG;
    const per = Math.max(1, Math.floor((maxW - 2 * G.PAD + G.CG) / step));
    const pair = 2 * G.RH + G.VG;
    const rowsFit = Math.max(1, Math.floor((maxH - G.HEAD) / pair));
    const sections = [];
    for (const part of ["ko", "losers"]) {
      const [title, matches] = Bracket.part(t, part);
      if (!matches.length) continue;
      const cols = Bracket.columns(matches);
      for (let c = 0; c < cols.length; c += per) {
        const chunk = cols.slice(c, c + per);
        const first = chunk[0];
        const pieces = Math.ceil(first.length / rowsFit);
        for (let k = 0; k < pieces; k++) {
          const lo = Math.floor(k * first.length / pieces);
          const hi = Math.floor((k + 1) * first.length / pieces);
          const mine = Bracket.under(t, chunk, first.slice(lo, hi));
          const most = Math.max(...Bracket.columns(mine).map((col) => col.length));
          sections.push({part, title, matches: mine, rounds: [chunk[0][0],
                                                             chunk[chunk.length - 1][0]],
                         h: G.HEAD + most * pair});
        }
      }
    }
    // A part that leaves room under another slide's goes there (the last rounds of the
    // losers' bracket under the winners' final): fewer slides, each full.
    const titled = G.HEAD + G.TITLE_MORE;
    for (const sec of sections) {
      const host = out.find((sl) => sl.kind === "section" &&
                            sl.h + titled + sec.h - G.HEAD <= maxH);
      if (host && sections.indexOf(sec) > 0) {
        host.parts.push(sec);
        host.h += titled + sec.h - G.HEAD;
      } else {
        out.push({kind: "section", parts: [sec], h: sec.h, title: sec.title});
      }
    }
    return out;
  },

  // The matches of the columns `chunk` that the first column's `top` lead to (by their
  // winners), and those.
  under(t, chunk, top) {
    if (top.length === chunk[0].length) return chunk.flat();
    const keep = new Set(top.map((m) => m.id));
    const out = [...top];
    for (const col of chunk.slice(1)) {
      for (const m of col) {
        if (t.extra[m.id].from.some((f) => f && f.startsWith("w:") && keep.has(f.slice(2)))) {
          keep.add(m.id);
          out.push(m);
        }
      }
    }
    return out;
  },

  // One slide's <svg>, fitted.
  slide(holder, t, slide) {
    Bracket.g = TV_GEOMETRY;
    const G = TV_GEOMETRY;
    const svg = svgEl("svg", {"class": "bracket tv", "data-changes": t.changes});
    let w = 0, h = 0;
    if (slide.kind === "groups") {
      let x = 0, y = 0, row = 0;
      slide.letters.forEach((letter, i) => {
        const size = Bracket.group(t, letter, y, svg, x);
        w = Math.max(w, x + size.w);
        row = Math.max(row, size.h);
        h = Math.max(h, y + size.h);
        if ((i + 1) % slide.across === 0) {
          x = 0;
          y += row;
          row = 0;
        } else {
          x += size.w + G.CG;
        }
      });
    } else {
      slide.parts.forEach((sec, i) => {
        if (slide.parts.length > 1) {  // each part named when there are two
          svgEl("text", {"class": "title", x: G.PAD, y: h + G.TITLE_MORE * 0.75}, svg,
                sec.title);
          h += G.TITLE_MORE;
        }
        const size = Bracket.section(t, sec.title, sec.matches, h, svg);
        w = Math.max(w, size.w);
        h += size.h + (i < slide.parts.length - 1 ? G.VG : 0);
      });
    }
    Bracket.sized(svg, w, h);
    holder.replaceChildren(svg);
    Bracket.fit(svg);
    return svg;
  },
};

Desk.init();
