// The muggins web table: lobby, table view and controls. Plain JavaScript, no build step.
"use strict";

const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";
let catalogue = null;
let ws = null;
let tableId = null;
let me = null;          // my seat, or null when watching
let last = null;        // the last state message
let logEvents = [];
let selected = [];      // selected pieces in my hand
let retry = 0;

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}
function svg(tag, attrs = {}) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}
async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}
function tokenKey(id) { return "muggins-seat-" + id; }

// ----------------------------------------------------------------------------------- lobby ---
async function showLobby() {
  $("lobby").hidden = false; $("table").hidden = true;
  if (!catalogue) catalogue = await api("/api/games");
  const game = $("game");
  if (!game.options.length) {
    for (const g of catalogue.games) game.append(el("option", { value: g.name }, g.title || g.name));
    game.addEventListener("change", fillGame);
    $("nplayers").addEventListener("change", fillSeats);
    $("create").addEventListener("submit", createTable);
    $("grace").value = catalogue.defaults.grace;
    fillGame();
  }
  refreshTables();
}
function currentGame() { return catalogue.games.find((g) => g.name === $("game").value); }
function fillGame() {
  const g = currentGame();
  $("preset").replaceChildren(...g.presets.map((p) => el("option", { value: p }, p)));
  $("preset").value = g.default_preset;
  const n = [];
  for (let i = g.min_players; i <= g.max_players; i++) n.push(el("option", { value: i }, String(i)));
  $("nplayers").replaceChildren(...n);
  $("nplayers").value = g.default_players;
  fillSeats();
}
function fillSeats() {
  const n = Number($("nplayers").value);
  const picks = [];
  for (let i = 0; i < n; i++) {
    const s = el("select", { class: "seatpick", "data-seat": i }, el("option", { value: "" }, "open seat"),
      ...catalogue.bots.map((b) => el("option", { value: b }, b + " bot")));
    if (i > 0) s.value = "casual";
    picks.push(el("label", {}, `Seat ${i + 1} `, s));
  }
  $("seatpicks").replaceChildren(...picks);
}
function parseOptions(text) {
  const out = {};
  for (const part of text.split(",").map((s) => s.trim()).filter(Boolean)) {
    const [k, ...v] = part.split("=");
    if (!v.length) throw new Error(`option '${part}' must look like name=value`);
    out[k.trim()] = v.join("=").trim();
  }
  return out;
}
async function createTable(ev) {
  ev.preventDefault();
  $("create-err").textContent = "";
  try {
    const seats = [...document.querySelectorAll(".seatpick")].map((s) => s.value || null);
    const t = await api("/api/tables", { game: $("game").value, preset: $("preset").value, seats,
      grace: Number($("grace").value), options: parseOptions($("options").value) });
    history.pushState({}, "", "/t/" + t.id);
    route();
  } catch (e) { $("create-err").textContent = e.message; }
}
async function refreshTables() {
  if ($("lobby").hidden) return;
  const { tables } = await api("/api/tables");
  const rows = tables.filter((t) => t.status !== "finished").concat(tables.filter((t) => t.status === "finished").slice(0, 5));
  $("tables").replaceChildren(...(rows.length ? rows.map((t) => el("div", { class: "tablerow" },
    el("a", { href: "/t/" + t.id }, `${t.game} (${t.preset})`), ` — ${t.status} — `,
    t.seats.map((s, i) => s.open ? `seat ${i + 1} open` : s.name).join(", "),
    ` — scores ${t.scores.join(":")}`)) : [el("p", {}, "No tables yet.")]));
  setTimeout(refreshTables, 3000);
}

// ----------------------------------------------------------------------------------- table ---
async function showTable(id) {
  $("lobby").hidden = true; $("table").hidden = false;
  tableId = id;
  const saved = JSON.parse(localStorage.getItem(tokenKey(id)) || "null");
  if (saved) { me = saved.seat; connect(saved.token); return; }
  let t;
  try { t = await api("/api/tables/" + id); } catch (e) { $("table").replaceChildren(el("p", { class: "err" }, e.message)); return; }
  $("join").hidden = false; $("play").hidden = true;
  $("share").value = location.href;
  $("join-title").textContent = `Join ${t.game} (${t.preset})`;
  $("name").value = localStorage.getItem("muggins-name") || "";
  $("seatlist").replaceChildren(...t.seats.map((s, i) => s.open
    ? el("button", { class: "primary take", "data-seat": i, onclick: () => takeSeat(i) }, `Take seat ${i + 1}`)
    : el("span", { class: "taken" }, ` Seat ${i + 1}: ${s.name} `)));
  $("watch").onclick = () => { me = null; connect(null); };
}
async function takeSeat(i) {
  const name = $("name").value.trim();
  if (!name) { $("name").focus(); return; }
  try {
    const r = await api(`/api/tables/${tableId}/seats/${i}`, { name });
    localStorage.setItem(tokenKey(tableId), JSON.stringify({ seat: i, token: r.token }));
    localStorage.setItem("muggins-name", name);
    me = i; connect(r.token);
  } catch (e) { alert(e.message); showTable(tableId); }
}
function connect(token) {
  $("join").hidden = true; $("play").hidden = false;
  logEvents = []; $("log").replaceChildren();
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/ws/${tableId}` + (token ? "?token=" + encodeURIComponent(token) : ""));
  ws.onopen = () => { $("conn").textContent = "connected"; retry = 0; };
  ws.onmessage = (m) => onMessage(JSON.parse(m.data));
  ws.onclose = () => {
    $("conn").textContent = "reconnecting…";
    retry = Math.min(retry + 1, 6);
    setTimeout(() => connect(token), 300 * retry);
  };
}
function send(move, claim) {
  $("play-err").textContent = "";
  const msg = { type: "act", move };
  if (claim !== undefined && claim !== null) msg.claim = claim;
  ws.send(JSON.stringify(msg));
  selected = [];
}
function onMessage(m) {
  if (m.type === "error") {
    $("play-err").textContent = m.message;
    if (m.fatal) { localStorage.removeItem(tokenKey(tableId)); ws.onclose = null; showTable(tableId); }
    return;
  }
  if (m.type !== "state") return;
  if (m.event_start === 0) logEvents = [];
  logEvents.push(...m.events);
  last = m;
  render();
}
function seatName(i) {
  const s = last.table.seats[i];
  return i === me ? "You" : (s && s.name) || `Seat ${i + 1}`;
}
function claimValue() {
  const v = $("claim").value.trim();
  $("claim").value = "";
  return v === "" ? null : Number(v);
}

function render() {
  const v = last.view, t = last.table;
  const waiting = v.waiting_for || v.to_act || [];
  let status;
  if (v.over) status = "Game over: " + (v.winners.length ? v.winners.map(seatName).join(" & ") + " won" : "a draw");
  else if (t.status === "open") status = "Waiting for players…";
  else if (me !== null && waiting.includes(me)) status = "Your turn";
  else status = "Waiting for " + waiting.map(seatName).join(", ");
  $("status").textContent = status + (me === null ? " (watching)" : "");
  $("scores").replaceChildren(...v.scores.map((s, i) => el("span", { class: "score" + (waiting.includes(i) ? " turn" : "") },
    `${seatName(i)}: ${s}`)), el("span", { class: "score" }, `target ${v.target}`));
  renderGrace();
  if (v.game === "dominoes") renderDominoes(v); else renderCards(v);
  renderControls(v);
  renderLog();
  $("record-link").replaceChildren(...(v.over ? [el("a", { href: `/api/tables/${tableId}/record`, download: "" }, "Download the game record")] : []));
}
function renderGrace() {
  // A neutral notice while a muggins window is open: it never says whether anything was missed.
  const v = last.view, bar = $("grace-bar");
  const open = v.window && me !== null && (v.legal || []).includes("muggins");
  bar.hidden = !open;
  if (open) bar.textContent = `${seatName(v.window.scorer)} scored${v.window.claimed !== null ? " and announced " + v.window.claimed : " and announced nothing"}: Muggins?`;
}

// ------------------------------------------------------------------------------- dominoes ---
function tkey(t) { const [a, b] = t.split("-").map(Number); return a >= b ? `${a}-${b}` : `${b}-${a}`; }
const PIPS = { 0: [], 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };
function drawHalf(g, cx, cy, n, u) {
  if (n in PIPS) for (const [px, py] of PIPS[n]) g.append(svg("circle", { cx: cx + px * 0.27 * u, cy: cy + py * 0.27 * u, r: 0.09 * u, fill: "#111" }));
  else g.append(Object.assign(svg("text", { x: cx, y: cy + 0.16 * u, "font-size": 0.5 * u, "text-anchor": "middle" }), { textContent: String(n) }));
}
function drawTile(g, x, y, axis, a, b, u, cls) {
  // (x, y) the centre; axis the long direction; a the half towards -axis, b towards +axis
  const w = (Math.abs(axis[0]) * 2 + Math.abs(axis[1])) * u, h = (Math.abs(axis[1]) * 2 + Math.abs(axis[0])) * u;
  const grp = svg("g", { class: cls || "" });
  grp.append(svg("rect", { class: "face", x: x - w / 2, y: y - h / 2, width: w, height: h, rx: 0.12 * u, fill: "#fffdf6", stroke: "#222", "stroke-width": 0.04 * u }));
  grp.append(svg("line", { x1: x - axis[1] * 0.45 * u, y1: y - axis[0] * 0.45 * u, x2: x + axis[1] * 0.45 * u, y2: y + axis[0] * 0.45 * u, stroke: "#222", "stroke-width": 0.03 * u }));
  drawHalf(grp, x - axis[0] * 0.5 * u, y - axis[1] * 0.5 * u, a, u);
  drawHalf(grp, x + axis[0] * 0.5 * u, y + axis[1] * 0.5 * u, b, u);
  g.append(grp);
  return grp;
}
function geometry(layout) {
  // Each tile: centre, long axis and growth direction, from the tile it is played on and the slot used.
  const nodes = {};
  const ext = (n, d) => Math.abs(d[0] * n.axis[0] + d[1] * n.axis[1]) + 0.5 * Math.abs(d[0] * n.axis[1] - d[1] * n.axis[0]);
  for (const e of layout) {
    const [a, b] = e.tile.split("-").map(Number);
    const cross = e.double && !e.inline;
    if (e.on === null) {
      nodes[tkey(e.tile)] = { x: 0, y: 0, axis: cross ? [0, 1] : [1, 0], d: null, a, b, e, root: true };
      continue;
    }
    const p = nodes[tkey(e.on)];
    if (!p) continue;
    let d;
    if (p.root) d = [[-1, 0], [1, 0], [0, -1], [0, 1]][e.slot] || [1, 0];
    else if (e.slot === 2) d = [-p.d[1], p.d[0]];
    else if (e.slot === 3) d = [p.d[1], -p.d[0]];
    else d = p.d;
    const n = { axis: cross ? [Math.abs(d[1]), Math.abs(d[0])] : d, d, a, b, e };
    const dist = ext(p, d) + ext(n, d);
    n.x = p.x + d[0] * dist; n.y = p.y + d[1] * dist;
    // the touching half (written first) faces the tile played on
    if (!cross && (n.axis[0] < 0 || n.axis[1] < 0)) { n.axis = [-n.axis[0], -n.axis[1]]; [n.a, n.b] = [b, a]; }
    nodes[tkey(e.tile)] = n;
  }
  return nodes;
}
function myTileMoves(v, tile) {
  return (v.legal || []).filter((m) => /^\d+-\d+/.test(m) && tkey(m.split(" ")[0]) === tkey(tile));
}
function renderDominoes(v) {
  const u = 20;
  const nodes = geometry(v.layout);
  const s = svg("svg", { id: "layout" });
  const g = svg("g");
  s.append(g);
  let minx = -3, miny = -2, maxx = 3, maxy = 2;
  const moves = selected.length ? myTileMoves(v, selected[0]) : [];
  const targets = {};
  for (const m of moves) { const w = m.split(" "); if (w[1] === "on") (targets[tkey(w[2])] ||= []).push(m); }
  for (const [k, n] of Object.entries(nodes)) {
    const grp = drawTile(g, n.x * u, n.y * u, n.axis, n.a, n.b, u, "placed" + (targets[k] ? " target" : ""));
    grp.setAttribute("data-tile", k);
    if (targets[k]) {
      grp.querySelector("rect").setAttribute("stroke", "#fc3"); grp.querySelector("rect").setAttribute("stroke-width", 0.15 * u);
      grp.addEventListener("click", () => { const ms = targets[k]; if (ms.length === 1) send(ms[0], claimValue()); else $("play-err").textContent = "choose: " + ms.join(" / "); });
    }
    minx = Math.min(minx, n.x - 1.2); maxx = Math.max(maxx, n.x + 1.2); miny = Math.min(miny, n.y - 1.2); maxy = Math.max(maxy, n.y + 1.2);
  }
  const lead = moves.filter((m) => !m.includes(" on "));
  if (lead.length && !v.layout.length) {
    const r = svg("rect", { class: "target", x: -2.5 * u, y: -1.5 * u, width: 5 * u, height: 3 * u, fill: "none", stroke: "#fc3", "stroke-width": 3, "stroke-dasharray": "6 4", "data-lead": "1" });
    r.setAttribute("pointer-events", "all");
    r.addEventListener("click", () => send(lead[0], claimValue()));
    g.append(r);
  }
  s.setAttribute("viewBox", `${minx * u} ${miny * u} ${(maxx - minx) * u} ${(maxy - miny) * u}`);
  const info = el("div", {}, `Boneyard: ${v.boneyard}` + (v.open_ends && v.open_ends.length ? ` — ends: ${v.open_ends.map((e) => e.value).join(", ")}` : ""));
  $("board").replaceChildren(s, info);
  // others' hands as backs with counts; mine face up
  $("hands").replaceChildren(...v.hand_sizes.map((n, i) => i === me ? "" : el("div", { class: "hand" }, `${seatName(i)}: `,
    ...Array.from({ length: Math.min(n, 12) }, () => el("span", { class: "card back small" }, "")), ` ${n}`)));
  const mine = el("div", { class: "hand", id: "my-tiles" });
  for (const t of v.my_hand || []) {
    const [a, b] = t.split("-").map(Number);
    const ts = svg("svg", { width: 34, height: 64, viewBox: "-10.5 -20.5 21 41", class: "piece" + (selected.includes(t) ? " selected" : ""), "data-tile": t });
    drawTile(ts, 0, 0, [0, 1], a, b, 10, "");
    if (selected.includes(t)) ts.querySelector("rect").setAttribute("stroke", "#e33");
    ts.addEventListener("click", () => { selected = selected.includes(t) ? [] : [t]; render(); });
    ts.setAttribute("draggable", "true");
    ts.addEventListener("dragstart", (ev) => { selected = [t]; ev.dataTransfer.setData("text/plain", t); });
    mine.append(ts);
  }
  s.addEventListener("dragover", (ev) => ev.preventDefault());
  s.addEventListener("drop", (ev) => {
    ev.preventDefault();
    const t = ev.dataTransfer.getData("text/plain");
    const target = ev.target.closest("[data-tile]");
    const ms = myTileMoves(v, t).filter((m) => !target || m.includes(" on ") && tkey(m.split(" ")[2]) === target.getAttribute("data-tile"));
    if (ms.length === 1) send(ms[0], claimValue()); else { selected = [t]; render(); }
  });
  $("myhand").replaceChildren(el("div", {}, me === null ? "" : "Your tiles:"), mine);
  $("explain").replaceChildren();
}

// ---------------------------------------------------------------------------------- cards ---
function cardEl(c, cls = "") {
  const red = /[HD]$/.test(c);
  const face = c.replace("T", "10").replace(/S$/, "♠").replace(/H$/, "♥").replace(/D$/, "♦").replace(/C$/, "♣");
  return el("span", { class: `card ${red ? "red" : ""} ${cls}`, "data-card": c }, face);
}
function renderCards(v) {
  const parts = [];
  if (v.game === "card-muggins") {
    parts.push(el("div", {}, `Running total: `, el("strong", { id: "total" }, String(v.total)), ` / ${v.cap} — stock ${v.stock}`));
    parts.push(el("div", { class: "hand", id: "pile" }, "Pile: ", ...(v.pile || []).map((c) => cardEl(c))));
    if (v.earlier_piles && v.earlier_piles.length) parts.push(el("div", { class: "hand" }, "Earlier: ",
      ...v.earlier_piles.slice(-2).flatMap((p) => [...p.map((c) => cardEl(c, "small")), " | "])));
  } else {
    parts.push(pegBoard(v));
    parts.push(el("div", {}, `Phase: ${v.phase} — count `, el("strong", { id: "count" }, String(v.count)),
      v.starter ? " — starter " : "", v.starter ? cardEl(v.starter, "small") : "", ` — crib ${v.crib_size} cards`));
    parts.push(el("div", { class: "hand", id: "pile" }, "Play: ", ...(v.pile || []).map((p) => cardEl(p.card || p, "small"))));
  }
  $("board").replaceChildren(...parts);
  $("hands").replaceChildren(...v.hand_sizes.map((n, i) => i === me ? "" : el("div", { class: "hand" }, `${seatName(i)}: `,
    ...Array.from({ length: n }, () => el("span", { class: "card back small" }, "")), ` ${n}`)));
  const mine = el("div", { class: "hand", id: "my-cards" });
  for (const c of v.my_hand || []) {
    const e = cardEl(c, selected.includes(c) ? "selected piece" : "piece");
    e.addEventListener("click", () => clickCard(v, c));
    mine.append(e);
  }
  const kept = v.my_kept && !(v.my_hand || []).length ? el("div", { class: "hand" }, "Your hand: ", ...v.my_kept.map((c) => cardEl(c, "small"))) : "";
  $("myhand").replaceChildren(el("div", {}, me === null ? "" : "Your cards:"), mine, kept);
  const ex = (v.shows || []).map((s) => el("div", {}, `${seatName(s.seat)} ${s.what}: `, ...s.cards.map((c) => cardEl(c, "small")),
    ` = ${s.total}: ${s.explain}`));
  $("explain").replaceChildren(...ex);
}
function clickCard(v, c) {
  const play = (v.legal || []).find((m) => m === "play " + c);
  if (play) { send(play, claimValue()); return; }
  selected = selected.includes(c) ? selected.filter((x) => x !== c) : [...selected, c];
  render();
}
function pegBoard(v) {
  const target = v.target, w = 320, rows = v.scores.length;
  const s = svg("svg", { viewBox: `0 0 ${w + 20} ${rows * 22 + 8}`, id: "pegboard" });
  s.append(svg("rect", { x: 0, y: 0, width: w + 20, height: rows * 22 + 8, rx: 6, fill: "#b7864a" }));
  (v.board || v.scores.map((x) => ({ front: x, back: 0 }))).forEach((p, i) => {
    const y = 14 + i * 22;
    for (let k = 0; k <= target; k += 5) s.append(svg("circle", { cx: 10 + (k / target) * w, cy: y, r: 1.3, fill: "#5a3b17" }));
    const colour = ["#c22", "#23c", "#2a2", "#cc2", "#a2c"][i % 5];
    for (const [val, op] of [[p.back, 0.5], [p.front, 1]]) s.append(svg("circle", { cx: 10 + (Math.min(val, target) / target) * w, cy: y, r: 5, fill: colour, opacity: op }));
  });
  return el("div", {}, s);
}

// ------------------------------------------------------------------------------- controls ---
function renderControls(v) {
  const legal = v.legal || [];
  $("claim-box").hidden = !(v.claims === "manual" && me !== null);
  const buttons = [];
  const isPiece = (m) => /^\d+-\d+/.test(m) || m.startsWith("play ") || m.startsWith("discard ");
  for (const m of legal) {
    if (m === "muggins" || isPiece(m)) continue;
    buttons.push(el("button", { class: "move", "data-move": m, onclick: () => send(m, m.startsWith("claim") ? undefined : claimValue()) }, m));
  }
  if (v.game === "dominoes" && selected.length) {
    for (const m of myTileMoves(v, selected[0])) buttons.push(el("button", { class: "move primary", "data-move": m, onclick: () => send(m, claimValue()) }, m));
  }
  const discards = legal.filter((m) => m.startsWith("discard "));
  if (discards.length) {
    const need = discards[0].split(" ").length - 1;
    const pick = discards.find((m) => { const cs = m.split(" ").slice(1); return selected.length === need && cs.every((c) => selected.includes(c)); });
    buttons.push(el("button", { class: "move primary", id: "discard-btn", disabled: pick ? null : "", onclick: () => pick && send(pick) },
      `Discard ${need} to the crib` + (pick ? "" : ` (choose ${need})`)));
    if (!pick) buttons[buttons.length - 1].disabled = true;
  }
  $("moves").replaceChildren(...buttons);
  const mb = $("muggins-btn");
  mb.hidden = me === null;
  mb.disabled = !legal.includes("muggins");
  mb.onclick = () => send("muggins");
}
function describe(e) {
  const who = e.seat !== undefined ? seatName(e.seat) : "";
  switch (e.kind) {
    case "play": return `${who} played ${e.tile || e.card}${e.on ? " on " + e.on : ""}${e.total !== undefined ? " (total " + e.total + ")" : ""}${e.count !== undefined ? " (count " + e.count + ")" : ""}`;
    case "score": return `${who} scored ${e.points} (${e.reason})`;
    case "claim": return `${who} announced ${e.points}`;
    case "missed": return `${who} left ${e.points} unclaimed`;
    case "muggins": return `${who} called Muggins on ${seatName(e.on)}: ${e.outcome}${e.points ? ", " + e.points + " points" : ""}`;
    case "draw": return `${who} drew${e.tile ? " " + e.tile : e.card ? " " + e.card : ""}`;
    case "pass": case "go": case "knock": return `${who}: ${e.kind}`;
    case "hand_start": return `— hand ${e.hand} —`;
    case "round_start": return `— round ${e.round} —`;
    case "hand_end": return `hand over (${e.reason})`;
    case "show": return `${who} shows ${e.what}: ${(e.cards || []).join(" ")}`;
    case "explain": return `${who} ${e.what}: ${e.explain}`;
    case "starter": return `starter ${e.card}`;
    case "game_end": return `game over: ${e.scores.join(" : ")}`;
    default: return null;
  }
}
function renderLog() {
  const items = [];
  for (const e of logEvents) { const t = describe(e); if (t) items.push(el("li", { class: "ev-" + e.kind }, t)); }
  $("log").replaceChildren(...items.slice(-200));
  $("log").scrollTop = $("log").scrollHeight;
}

function route() {
  if (ws) { ws.onclose = null; ws.close(); ws = null; }
  const m = location.pathname.match(/^\/t\/([\w-]+)/);
  if (m) showTable(m[1]); else showLobby();
}
window.addEventListener("popstate", route);
route();
