// The dominoes board: the layout drawn as on a real table (lines turn at the board's edge, doubles lie
// across, a spinner's arms leave at right angles), the other hands as backs, my tiles to pick and play.

import { state } from "./state.js";
import { $, el, svg, plural, tileName } from "./util.js";
import { render, playMove, moveLabel } from "./table.js";
import { seatName, waitingFor } from "./names.js";
import { registerBoard, boardParts } from "./boards.js";

export function tkey(t) { const [a, b] = t.split("-").map(Number); return a >= b ? `${a}-${b}` : `${b}-${a}`; }
const PIPS = { 0: [], 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };
function drawHalf(g, cx, cy, n, u) {
  if (n in PIPS) for (const [px, py] of PIPS[n]) g.append(svg("circle", { cx: cx + px * 0.27 * u, cy: cy + py * 0.27 * u, r: 0.09 * u, fill: "#111" }));
  else g.append(Object.assign(svg("text", { x: cx, y: cy + 0.16 * u, "font-size": 0.5 * u, "text-anchor": "middle" }), { textContent: String(n) }));
}
// A tile in the box (x, y, w, h), in pixels; ``a`` is the half at the left (or top), ``b`` the other.
export function drawTileBox(g, x, y, w, h, a, b, cls) {
  const u = Math.min(w, h), horizontal = w > h;
  const grp = svg("g", { class: cls || "" });
  const inset = 0.05 * u;
  grp.append(svg("rect", { class: "face", x: x + inset, y: y + inset, width: w - 2 * inset, height: h - 2 * inset, rx: 0.12 * u,
    fill: "#fffdf6", stroke: "#222", "stroke-width": 0.04 * u }));
  if (horizontal) {
    grp.append(svg("line", { x1: x + w / 2, y1: y + 0.15 * u, x2: x + w / 2, y2: y + h - 0.15 * u, stroke: "#222", "stroke-width": 0.03 * u }));
    drawHalf(grp, x + w / 4, y + h / 2, a, u); drawHalf(grp, x + 3 * w / 4, y + h / 2, b, u);
  } else {
    grp.append(svg("line", { x1: x + 0.15 * u, y1: y + h / 2, x2: x + w - 0.15 * u, y2: y + h / 2, stroke: "#222", "stroke-width": 0.03 * u }));
    drawHalf(grp, x + w / 2, y + h / 4, a, u); drawHalf(grp, x + w / 2, y + 3 * h / 4, b, u);
  }
  g.append(grp);
  return grp;
}

// The layout as on a real table: each line runs from its parent tile and turns at the edge of the
// board (an east line steps down with one standing tile and comes back west; a west line steps up),
// doubles lie across the line, a spinner's arms leave it at right angles. Units: a tile is 2 by 1.
/** @typedef {[number, number]} Dir */
/** @type {Dir} */ const E = [1, 0];
/** @type {Dir} */ const W = [-1, 0];
/** @type {Dir} */ const N = [0, -1];
/** @type {Dir} */ const S = [0, 1];
const sameDir = (a, b) => a[0] === b[0] && a[1] === b[1];
const flat = (d) => d[1] === 0;
const ARM_LENGTH = 1;
class LayoutPlan {
  constructor(layout, width) {
    this.layout = layout;
    this.width = width;
    this.children = {};
    for (const e of layout) if (e.on) (this.children[tkey(e.on)] ||= []).push(e);
    this.boxes = [];
    this.placed = {};
    this.unplaced = [];
  }
  /** @param {any} e @param {Dir} d @returns {[number, number, boolean]} */
  shape(e, d) {
    const across = !!e.double && !e.inline;
    if (flat(d)) return across ? [1, 2, true] : [2, 1, false];
    return across ? [2, 1, true] : [1, 2, false];
  }
  free(x, y, w, h) {
    const eps = 1e-6;
    if (x < -eps || x + w > this.width + eps) return false;
    return !this.boxes.some((b) => x < b.x + b.w - eps && b.x < x + w - eps && y < b.y + b.h - eps && b.y < y + h - eps);
  }
  /** @param {any} e @param {number[]} anchor @param {Dir} d */
  tryPlace(e, anchor, d) {
    const [w, h, across] = this.shape(e, d);
    const [ax, ay] = anchor;
    let x, y;
    if (sameDir(d, E)) { x = ax; y = ay - h / 2; } else if (sameDir(d, W)) { x = ax - w; y = ay - h / 2; }
    else if (sameDir(d, S)) { x = ax - w / 2; y = ay; } else { x = ax - w / 2; y = ay - h; }
    if (!flat(d)) x = Math.min(Math.max(x, 0), this.width - w); // a standing tile at the edge slides inward
    if (!this.free(x, y, w, h)) return null;
    const p = { x, y, w, h, d, across, e };
    this.boxes.push(p);
    this.placed[tkey(e.tile)] = p;
    return p;
  }
  // the point just beyond p going d: centred, except that a line turning off a tile lying along it
  // leaves from the far half (the corner of the line)
  exit(p, d) {
    let cx = p.x + p.w / 2, cy = p.y + p.h / 2;
    if (!p.across && flat(p.d) && !flat(d)) cx = sameDir(p.d, E) ? p.x + p.w - 0.5 : p.x + 0.5;
    if (!p.across && !flat(p.d) && flat(d)) cy = sameDir(p.d, S) ? p.y + p.h - 0.5 : p.y + 0.5;
    if (sameDir(d, E)) return [p.x + p.w, cy];
    if (sameDir(d, W)) return [p.x, cy];
    if (sameDir(d, S)) return [cx, p.y + p.h];
    return [cx, p.y];
  }
  kids(e) { return (this.children[tkey(e.tile)] || []).slice().sort((a, b) => (a.slot || 0) - (b.slot || 0)); }
  plan() {
    const root = this.layout.find((e) => !e.on);
    if (!root) return this;
    const [w] = this.shape(root, E);
    const p = this.tryPlace(root, [Math.floor(this.width / 2 - w / 2), 0], E);
    for (const c of this.kids(root)) {
      const d = [W, E, N, S][c.slot ?? 1] || E;
      this.line(c, p, d, sameDir(d, E) ? S : sameDir(d, W) ? N : d);
    }
    return this;
  }
  line(e, parent, d, vstep) {
    const later = [];
    this.run(e, parent, d, vstep, later);
    for (const args of later) this.line(...args);
  }
  fit(e, parent, dirs) {
    for (const dd of dirs) { const p = this.tryPlace(e, this.exit(parent, dd), dd); if (p) return [p, dd]; }
    return [null, dirs[dirs.length - 1]];
  }
  run(e, parent, d, vstep, later) {
    let arm = !flat(d), steps = 0, cur = e, prev = parent;
    for (;;) {
      let p = this.tryPlace(cur, this.exit(prev, d), d);
      if (!p && flat(d)) {
        p = this.tryPlace(cur, this.exit(prev, vstep), vstep);
        if (p) d = sameDir(d, E) ? W : E;
      } else if (!p) {
        let dd;
        [p, dd] = this.fit(cur, prev, prev.x < this.width / 2 ? [E, W] : [W, E]);
        if (p) { d = dd; arm = false; }
      }
      if (!p) { // boxed in along the line: any free side of the parent still shows the join
        let dd;
        [p, dd] = this.fit(cur, prev, [S, N, E, W]);
        if (p) { d = dd; arm = false; if (flat(dd)) vstep = S; }
      }
      if (!p) { this.giveUp(cur); return; }
      steps += 1;
      if (arm && steps >= ARM_LENGTH) { arm = false; d = p.x + p.w / 2 < this.width / 2 ? E : W; }
      const kids = this.kids(cur);
      for (const c of kids) {
        if ((c.slot || 0) >= 2) {
          const bd = flat(p.d) ? (c.slot === 2 ? N : S) : (c.slot === 2 ? W : E);
          later.push([c, p, bd, flat(bd) ? vstep : bd]);
        }
      }
      const next = kids.filter((c) => (c.slot || 0) < 2);
      if (!next.length) return;
      for (const extra of next.slice(1)) later.push([extra, p, d, vstep]);
      cur = next[0]; prev = p;
    }
  }
  giveUp(e) {
    const stack = [e];
    while (stack.length) { const c = stack.pop(); this.unplaced.push(c); stack.push(...(this.children[tkey(c.tile)] || [])); }
  }
}
// the halves of a placed tile as drawn: left/top first; the touching half (written first) faces the parent
function placedHalves(p) {
  const [a, b] = p.e.tile.split("-").map(Number);
  if (p.across || !p.e.on) return [a, b];
  return sameDir(p.d, E) || sameDir(p.d, S) ? [a, b] : [b, a];
}
export function myTileMoves(v, tile) {
  return (v.legal || []).filter((m) => /^\d+-\d+/.test(m) && tkey(m.split(" ")[0]) === tkey(tile));
}
export function boardWidth(b = $("board")) {
  return Math.max(260, (b && b.clientWidth) || Math.min(window.innerWidth, 960) - 16);
}
/** @param {any} v @param {import("./boards.js").BoardParts} [parts] */
function renderDominoes(v, parts = boardParts()) {
  const width = boardWidth(parts.board);
  if (parts.board === $("board")) state.drawnWidth = width;
  const avail = width - 8;
  const unit = Math.max(24, Math.min(34, Math.floor(avail / 15)));   // px per half tile: never smaller than 24
  const plan = new LayoutPlan(v.layout, Math.max(6, Math.floor(avail / unit))).plan();
  const s = svg("svg", { id: "layout", role: "group", "aria-label": "The layout" +
    (v.open_ends && v.open_ends.length ? `, open ends ${v.open_ends.map((e) => e.value).join(", ")}` : "") });
  const g = svg("g");
  s.append(g);
  const moves = state.selected.length ? myTileMoves(v, state.selected[0]) : [];
  const targets = {};
  for (const m of moves) { const w = m.split(" "); if (w[1] === "on") (targets[tkey(w[2])] ||= []).push(m); }
  let minx = Infinity, miny = Infinity, maxx = -Infinity, maxy = -Infinity;
  for (const p of plan.boxes) {
    const k = tkey(p.e.tile);
    const [a, b] = placedHalves(p);
    const ms = targets[k];
    const grp = drawTileBox(g, p.x * unit, p.y * unit, p.w * unit, p.h * unit, a, b, "placed" + (ms ? " target" : ""));
    grp.setAttribute("data-tile", k);
    grp.setAttribute("role", "img");
    grp.setAttribute("aria-label", tileName(p.e.tile));
    if (ms) {
      grp.setAttribute("role", "button");
      grp.setAttribute("tabindex", "0");
      grp.setAttribute("aria-label", ms.length === 1 ? spoken(moveLabel(ms[0]))
        : `${tileName(k)}: it takes ${tileName(state.selected[0])} in more than one place, choose with the buttons below`);
      grp.setAttribute("data-moves", ms.join("|"));
      if (ms.length === 1) grp.setAttribute("data-move", ms[0]);
      grp.prepend(svg("rect", { class: "halo", x: p.x * unit - 3, y: p.y * unit - 3, width: p.w * unit + 6, height: p.h * unit + 6,
        rx: 6, fill: "none", stroke: "#ffd23f", "stroke-width": 5 }));
      grp.addEventListener("click", () => {
        if (ms.length === 1) playMove(ms[0]);
        else $("play-err").textContent = "That tile takes it in more than one place: choose with the buttons below.";
      });
    }
    minx = Math.min(minx, p.x); maxx = Math.max(maxx, p.x + p.w); miny = Math.min(miny, p.y); maxy = Math.max(maxy, p.y + p.h);
  }
  const lead = moves.filter((m) => !m.includes(" on "));
  if (!v.layout.length) {
    minx = plan.width / 2 - 3; maxx = plan.width / 2 + 3; miny = -1.5; maxy = 1.5;
    if (lead.length) {
      const r = svg("rect", { class: "target", x: (plan.width / 2 - 2.5) * unit, y: -1.2 * unit, width: 5 * unit, height: 2.4 * unit,
        fill: "rgba(255,210,63,.15)", stroke: "#ffd23f", "stroke-width": 3, "stroke-dasharray": "8 5", "data-lead": "1",
        "data-move": lead[0], rx: 8 });
      r.setAttribute("pointer-events", "all");
      r.setAttribute("role", "button");
      r.setAttribute("tabindex", "0");
      r.setAttribute("aria-label", `Lead ${tileName(state.selected[0])} here`);
      r.addEventListener("click", () => playMove(lead[0]));
      g.append(r);
      g.append(Object.assign(svg("text", { x: plan.width / 2 * unit, y: 0.15 * unit, "text-anchor": "middle", "font-size": 0.5 * unit,
        fill: "#fff", "pointer-events": "none" }), { textContent: "lead here" }));
    }
  }
  const pad = 0.3;
  minx -= pad; miny -= pad; maxx += pad; maxy += pad;
  s.setAttribute("viewBox", `${minx * unit} ${miny * unit} ${(maxx - minx) * unit} ${(maxy - miny) * unit}`);
  s.setAttribute("width", String(Math.round((maxx - minx) * unit)));
  s.setAttribute("height", String(Math.round((maxy - miny) * unit)));
  const ends = v.open_ends && v.open_ends.length ? ` — open ends: ${v.open_ends.map((e) => e.value).join(", ")}` : "";
  const count = v.count !== undefined && v.layout.length ? ` — count ${v.count}` : "";
  const info = el("div", { class: "boardinfo" }, `Boneyard: ${v.boneyard}${ends}${count}`);
  const extra = plan.unplaced.length ? el("div", { class: "boardinfo" }, "Also played (no room to draw): " +
    plan.unplaced.map((e) => `${e.tile} on ${e.on}`).join(", ")) : "";
  parts.board.replaceChildren(el("div", { class: "layout-wrap" }, s), info, extra);
  // others' hands as backs with counts; mine face up
  parts.hands.replaceChildren(...v.hand_sizes.map((n, i) => i === state.me ? "" : el("div", { class: "hand other", "data-seat": i },
    `${seatName(i)}: `, ...Array.from({ length: Math.min(n, 12) }, () => el("span", { class: "tileback", "aria-hidden": "true" }, "")),
    ` ${plural(n, "tile")}`)));
  const mine = el("div", { class: "hand", id: "my-tiles" });
  const myTurn = state.me !== null && waitingFor(v).includes(state.me);
  for (const t of v.my_hand || []) {
    const [a, b] = t.split("-").map(Number);
    const playable = myTurn && myTileMoves(v, t).length > 0;
    const cls = "piece" + (state.selected.includes(t) ? " selected" : "") + (playable ? " playable" : myTurn ? " unplayable" : "");
    const ts = svg("svg", { width: 32, height: 62, viewBox: "0 0 32 62", class: cls, "data-tile": t, role: "button", tabindex: 0,
      "aria-label": tileName(t) + (playable ? "" : myTurn ? ", does not fit" : ""), "aria-pressed": String(state.selected.includes(t)) });
    drawTileBox(ts, 0, 0, 32, 62, a, b, "");
    ts.addEventListener("click", (ev) => {
      state.selected = state.selected.includes(t) ? [] : [t];
      $("play-err").textContent = playable || !myTurn ? "" : `${t} does not fit any open end.`;
      render();
      // chosen from the keyboard: on to its first place on the table
      if (ev.detail === 0 && state.selected.length) {
        const first = /** @type {HTMLElement | null} */ (document.querySelector("#layout [role='button'], #moves button.primary"));
        if (first) first.focus();
      }
    });
    ts.setAttribute("draggable", "true");
    ts.addEventListener("dragstart", (ev) => { state.selected = [t]; ev.dataTransfer.setData("text/plain", t); });
    mine.append(ts);
  }
  s.addEventListener("dragover", (ev) => ev.preventDefault());
  s.addEventListener("drop", (ev) => {
    ev.preventDefault();
    const t = ev.dataTransfer.getData("text/plain");
    const target = /** @type {Element} */ (ev.target).closest("[data-tile]");
    const ms = myTileMoves(v, t).filter((m) => !target ? !m.includes(" on ") : m.includes(" on ") && tkey(m.split(" ")[2]) === target.getAttribute("data-tile"));
    if (ms.length === 1) playMove(ms[0]); else { state.selected = [t]; render(); }
  });
  parts.myhand.replaceChildren(el("div", { id: "my-tiles-label" }, state.me === null || !(v.my_hand || []).length ? ""
    : "Your tiles" + (myTurn ? " — pick one, then click a yellow tile on the table (or lead here); from the keyboard: Tab to a tile, Enter, then Enter on its place:" : ":")), mine);
  mine.setAttribute("role", "group");
  mine.setAttribute("aria-labelledby", "my-tiles-label");
  parts.explain.replaceChildren();
}

/** A move's label with its tiles in words: "Play four-four on six-four". @param {string} label */
function spoken(label) { return label.replace(/\b\d+-\d+\b/g, tileName); }

registerBoard("domino-layout", renderDominoes);
