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
let myToken = null;     // my seat's token: it proves the seat when the page asks for a hint
let hintAt = null;      // the action count the hint shown (or asked for) belongs to
let lobbyTimer = null;
const lobbyPage = { active: 1, finished: 1 };
const POLL_MS = 8000;

// A null, undefined or false attribute is left out (setAttribute would write the text "null"); true is
// written as a bare attribute.
function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids) if (k !== null && k !== undefined && k !== "") e.append(k);
  return e;
}
function svg(tag, attrs = {}) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, v);
  return e;
}
async function api(path, body) {
  const r = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) throw new Error((data && data.error) || r.statusText || `request failed (${r.status})`);
  return data;
}
function tokenKey(id) { return "muggins-seat-" + id; }

// --------------------------------------------------------------------------------- words ---
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
function cardText(c) {
  const m = /^(10|[2-9TJQKA])([SHDC])$/.exec(c || "");
  return m ? (m[1] === "T" ? "10" : m[1]) + SUITS[m[2]] : String(c);
}
// card codes inside a sentence from the engine ("fifteen 2D+4H+9H") written as cards
function prettyCards(text) {
  return String(text).replace(/\b(10|[2-9TJQKA])([SHDC])\b/g, (_, r, s) => (r === "T" ? "10" : r) + SUITS[s]);
}
function cardsText(cs) { return (cs || []).map(cardText).join(" "); }
function plural(n, one, many) { return `${n} ${n === 1 ? one : many || one + "s"}`; }
function listText(xs) {
  if (xs.length <= 1) return xs.join("");
  return xs.slice(0, -1).join(", ") + " and " + xs[xs.length - 1];
}
function words(s) { return String(s).replace(/_/g, " "); }

// ----------------------------------------------------------------------------------- lobby ---
async function showLobby() {
  $("lobby").hidden = false; $("table").hidden = true;
  document.title = "Muggins";
  try {
    if (!catalogue) catalogue = await api("/api/games");
  } catch (e) { $("create-err").textContent = "Cannot reach the server: " + e.message; return; }
  const game = $("game");
  if (!game.options.length) {
    for (const g of catalogue.games) game.append(el("option", { value: g.name }, g.title || g.name));
    game.addEventListener("change", fillGame);
    $("preset").addEventListener("change", fillPreset);
    $("nplayers").addEventListener("change", fillSeats);
    $("create").addEventListener("submit", createTable);
    $("grace").value = catalogue.defaults.grace;
    $("finished-search").addEventListener("submit", (ev) => { ev.preventDefault(); lobbyPage.finished = 1; refreshFinished(); });
    fillGame();
  }
  refreshLobby();
}
function currentGame() { return catalogue.games.find((g) => g.name === $("game").value); }
function fillGame() {
  const g = currentGame();
  $("preset").replaceChildren(...g.presets.map((p) => el("option", { value: p }, p)));
  $("preset").value = g.default_preset;
  fillPreset();
}
// What the catalogue tells of a preset: its description, its main options and their bounds, whether it
// has the muggins rule, and the player counts it allows (each as far as the server publishes it).
function presetInfo(g, preset) {
  const out = { description: (g.descriptions || {})[preset] || "", options: null, schema: null, muggins: null,
    players: null, all: null };
  const details = g.preset_details && typeof g.preset_details === "object" ? g.preset_details : {};
  const d = details[preset];
  if (d && typeof d === "object") {
    if (d.description) out.description = d.description;
    const opts = d.main_options || d.options;
    if (opts && typeof opts === "object") out.options = opts;
    if (d.options && typeof d.options === "object") out.all = d.options;
    if (typeof d.muggins_rule === "boolean") out.muggins = d.muggins_rule;
    if (Array.isArray(d.players)) out.players = d.players;
  }
  const schema = g.options;
  if (schema && typeof schema === "object" && Object.values(schema).every((x) => x && typeof x === "object" && "type" in x)) out.schema = schema;
  if (out.muggins === null && out.all && typeof out.all.claims === "string") out.muggins = out.all.claims === "manual";
  return out;
}
const OPTION_NAMES = { claims: "points", claim_timing: "announce", muggins: "Muggins! call", over_claim: "announcing too much",
  false_call_penalty: "false call", tile_set: "tiles", target: "target" };
const OPTION_WORDS = { tile_set: { 6: "double six", 9: "double nine", 12: "double twelve", 15: "double fifteen" }, claims: { manual: "announced by the player", auto: "counted for you" }, muggins: { steal: "the caller takes the missed points",
  forfeit: "the missed points are lost", steal_and_deduct: "the caller takes them and the scorer loses them" },
  false_call_penalty: { none: "no penalty", deduct: "the caller loses points", award: "the accused gains points" },
  over_claim: { void: "the claim is void", opponent_scores: "the opponent scores the claim" },
  claim_timing: { strict: "with the move", lenient: "with the move or just after" } };
function optionValueText(k, v) {
  if (OPTION_WORDS[k] && OPTION_WORDS[k][v] !== undefined) return OPTION_WORDS[k][v];
  if (Array.isArray(v)) return v.join("/");
  if (v === true) return "yes";
  if (v === false) return "no";
  return words(v);
}
function fillPreset() {
  const g = currentGame(), preset = $("preset").value, info = presetInfo(g, preset);
  const parts = [el("p", { id: "preset-desc" }, info.description || `${g.title || g.name}: ${preset}`)];
  if (info.options) {
    const items = Object.entries(info.options).filter(([k]) => k !== "preset" &&
        !(info.muggins === false && ["claim_timing", "muggins", "over_claim", "false_call_penalty"].includes(k)))
      .slice(0, 10).map(([k, v]) => {
        const b = info.schema && info.schema[k];
        const range = b && b.minimum !== undefined && b.maximum !== undefined ? ` (${b.minimum}–${b.maximum})` : "";
        return el("li", {}, `${OPTION_NAMES[k] || words(k)}: ${optionValueText(k, v)}${range}`);
      });
    if (items.length) parts.push(el("ul", { id: "preset-options" }, ...items));
  }
  if (info.muggins === false) parts.push(el("p", { class: "note" }, "No muggins rule in this preset: points are counted for you and there is nothing to call."));
  else if (info.muggins === true) parts.push(el("p", { class: "note" }, "Muggins rule: you announce your own points; an opponent may call Muggins! on points you miss."));
  $("preset-info").replaceChildren(...parts);
  // the target field: the preset's target as the hint, the bounds the server publishes
  const tgt = info.all && info.all.target !== undefined ? info.all.target : info.options && info.options.target;
  $("target").value = "";
  $("target").placeholder = tgt !== undefined ? String(tgt) : "preset's";
  const tb = info.schema && info.schema.target;
  if (tb && tb.minimum !== undefined) { $("target").min = tb.minimum; $("target").max = tb.maximum; }
  const n = [];
  const allowed = info.players || [];
  for (let i = g.min_players; i <= g.max_players; i++) {
    if (!allowed.length || allowed.includes(i)) n.push(el("option", { value: i }, String(i)));
  }
  $("nplayers").replaceChildren(...n);
  const want = String(g.default_players);
  $("nplayers").value = [...$("nplayers").options].some((o) => o.value === want) ? want : $("nplayers").options[0].value;
  fillSeats();
}
function fillSeats() {
  const n = Number($("nplayers").value);
  const picks = [];
  for (let i = 0; i < n; i++) {
    const s = el("select", { class: "seatpick", "data-seat": i }, el("option", { value: "" }, "a person (open seat)"),
      ...catalogue.bots.map((b) => el("option", { value: b }, b + " bot")));
    if (i > 0) s.value = catalogue.bots.includes("casual") ? "casual" : catalogue.bots[0];
    picks.push(el("label", {}, `Seat ${i + 1} `, s));
  }
  $("seatpicks").replaceChildren(...picks);
}
function parseOptions(text) {
  const out = {};
  for (const part of text.split(",").map((s) => s.trim()).filter(Boolean)) {
    const [k, ...v] = part.split("=");
    if (!v.length || !k.trim()) throw new Error(`option '${part}' must look like name=value`);
    out[k.trim()] = v.join("=").trim();
  }
  return out;
}
async function createTable(ev) {
  ev.preventDefault();
  $("create-err").textContent = "";
  try {
    const seats = [...document.querySelectorAll(".seatpick")].map((s) => s.value || null);
    const options = parseOptions($("options").value);
    const target = $("target").value.trim();
    if (target !== "") {
      const lo = Number($("target").min || 1), hi = Number($("target").max || 1e9);
      if (!/^\d+$/.test(target) || Number(target) < lo || Number(target) > hi) {
        throw new Error(`the target must be a whole number of points` + ($("target").max ? ` from ${lo} to ${hi}` : ""));
      }
      options.target = Number(target);
    }
    const t = await api("/api/tables", { game: $("game").value, preset: $("preset").value, seats,
      grace: Number($("grace").value), options, hints: $("hints").checked });
    history.pushState({}, "", "/t/" + t.id);
    route();
  } catch (e) { $("create-err").textContent = e.message; }
}
function seatsText(t) {
  return t.seats.map((s, i) => s.open ? `seat ${i + 1} open` : s.name || `seat ${i + 1}`).join(", ");
}
function gameTitle(name) {
  const g = catalogue && catalogue.games.find((x) => x.name === name);
  return g && g.title ? g.title : name;
}
function tableRow(t, finished) {
  const title = `${gameTitle(t.game)}: ${t.preset}`;
  const won = t.status === "finished" && Array.isArray(t.winners) && t.winners.length
    ? `won by ${listText(t.winners.map((i) => (t.seats[i] && t.seats[i].name) || `seat ${i + 1}`))}` : "";
  const when = finished && t.ended ? new Date(t.ended * 1000).toLocaleString() : "";
  const kids = [el("a", { href: "/t/" + t.id, class: "table-link" }, title),
    el("span", { class: "tstatus " + t.status }, t.status), el("span", {}, seatsText(t)),
    el("span", {}, "scores " + (t.scores || []).join(" : ")), won ? el("span", {}, won) : "",
    when ? el("span", { class: "when" }, when) : ""];
  if (finished && t.status === "finished") {
    kids.push(el("a", { href: t.record || `/api/tables/${t.id}/record`, class: "record-link", download: "" }, "record"));
  }
  return el("div", { class: "tablerow", "data-id": t.id }, ...kids);
}
function pager(box, page, pages, go) {
  if (!pages || pages <= 1) { box.replaceChildren(); return; }
  box.replaceChildren(
    el("button", { type: "button", class: "prev", disabled: page <= 1, onclick: () => go(page - 1) }, "‹ Previous"),
    el("span", {}, ` page ${page} of ${pages} `),
    el("button", { type: "button", class: "next", disabled: page >= pages, onclick: () => go(page + 1) }, "Next ›"));
}
async function listTables(status, page, q) {
  const qs = new URLSearchParams({ status, page: String(page), limit: "10" });
  if (q) qs.set("q", q);
  const data = await api("/api/tables?" + qs);
  if (data.pages === undefined) {
    // a server without paging lists every table: keep what this list shows and page it here
    let rows = data.tables.filter((t) => status === "finished" ? t.status === "finished" || t.status === "abandoned"
      : t.status !== "finished" && t.status !== "abandoned");
    if (q) rows = rows.filter((t) => JSON.stringify([t.id, t.game, t.preset, t.seats.map((s) => s.name)]).toLowerCase().includes(q.toLowerCase()));
    if (status !== "finished") rows.sort((a, b) => (a.status === "open" ? 0 : 1) - (b.status === "open" ? 0 : 1));
    const pages = Math.max(1, Math.ceil(rows.length / 10));
    return { tables: rows.slice((page - 1) * 10, page * 10), total: rows.length, page, pages };
  }
  return data;
}
async function refreshActive() {
  try {
    const d = await listTables("active", lobbyPage.active, "");
    if (d.pages && lobbyPage.active > d.pages) { lobbyPage.active = d.pages; return refreshActive(); }
    $("tables").replaceChildren(...(d.tables.length ? d.tables.map((t) => tableRow(t, false))
      : [el("p", {}, "No tables in play. Create one above.")]));
    pager($("tables-pager"), d.page || lobbyPage.active, d.pages, (p) => { lobbyPage.active = p; refreshActive(); });
  } catch (e) { $("tables").replaceChildren(el("p", { class: "err" }, "Cannot list the tables: " + e.message)); }
}
async function refreshFinished() {
  try {
    const q = $("finished-q").value.trim();
    const d = await listTables("finished", lobbyPage.finished, q);
    $("finished").replaceChildren(...(d.tables.length ? d.tables.map((t) => tableRow(t, true))
      : [el("p", {}, q ? "No finished game matches." : "No finished games yet.")]));
    pager($("finished-pager"), d.page || lobbyPage.finished, d.pages, (p) => { lobbyPage.finished = p; refreshFinished(); });
  } catch (e) { $("finished").replaceChildren(el("p", { class: "err" }, "Cannot list the finished games: " + e.message)); }
}
// The lobby polls gently, and only while it is shown and the page visible.
async function refreshLobby() {
  clearTimeout(lobbyTimer);
  if ($("lobby").hidden) return;
  if (document.visibilityState !== "hidden") await Promise.all([refreshActive(), refreshFinished()]);
  if (!$("lobby").hidden) lobbyTimer = setTimeout(refreshLobby, POLL_MS);
}
document.addEventListener("visibilitychange", () => { if (!$("lobby").hidden && document.visibilityState === "visible") refreshLobby(); });

// ----------------------------------------------------------------------------------- table ---
async function showTable(id) {
  clearTimeout(lobbyTimer);
  $("lobby").hidden = true; $("table").hidden = false;
  tableId = id;
  const saved = JSON.parse(localStorage.getItem(tokenKey(id)) || "null");
  if (saved) { me = saved.seat; connect(saved.token); return; }
  let t;
  try { t = await api("/api/tables/" + id); } catch (e) {
    $("join").hidden = false; $("play").hidden = true;
    $("join").replaceChildren(el("p", { class: "err" }, e.message), el("a", { href: "/" }, "Back to the lobby"));
    return;
  }
  $("join").hidden = false; $("play").hidden = true;
  $("share").value = location.href;
  $("join-title").textContent = `Join ${t.game} (${t.preset})`;
  const g = catalogue ? catalogue.games.find((x) => x.name === t.game) : null;
  $("join-desc").textContent = g ? presetInfo(g, t.preset).description : "";
  $("join-err").textContent = "";
  $("name").value = localStorage.getItem("muggins-name") || "";
  const open = t.seats.some((s) => s.open);
  $("name-box").hidden = !open;
  $("seatlist").replaceChildren(...t.seats.map((s, i) => s.open
    ? el("button", { class: "primary take", "data-seat": i, onclick: () => takeSeat(i) }, `Take seat ${i + 1}`)
    : el("span", { class: "taken" }, ` Seat ${i + 1}: ${s.name} `)));
  $("watch").textContent = t.status === "finished" ? "See the finished game" : "Watch as a spectator";
  $("watch").onclick = () => { me = null; connect(null); };
}
async function takeSeat(i) {
  const name = $("name").value.trim();
  if (!name) {
    $("join-err").textContent = "Type your name first: the other players see it at the table.";
    $("name").focus();
    return;
  }
  $("join-err").textContent = "";
  try {
    const r = await api(`/api/tables/${tableId}/seats/${i}`, { name });
    localStorage.setItem(tokenKey(tableId), JSON.stringify({ seat: i, token: r.token }));
    localStorage.setItem("muggins-name", name);
    me = i; connect(r.token);
  } catch (e) {
    await showTable(tableId);
    $("join-err").textContent = e.message;
  }
}
function connect(token) {
  $("join").hidden = true; $("play").hidden = false;
  myToken = token; hintAt = null;
  resetAnalysis();
  logEvents = []; last = null; selected = []; $("log").replaceChildren();
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const sock = new WebSocket(`${proto}//${location.host}/ws/${tableId}` + (token ? "?token=" + encodeURIComponent(token) : ""));
  ws = sock;
  sock.onopen = () => { $("conn").textContent = "connected"; retry = 0; };
  sock.onmessage = (m) => onMessage(JSON.parse(m.data));
  sock.onclose = () => {
    if (ws !== sock) return;
    $("conn").textContent = "reconnecting…";
    retry = Math.min(retry + 1, 6);
    setTimeout(() => { if (ws === sock) connect(token); }, 300 * retry);
  };
}
function send(move, claim) {
  $("play-err").textContent = "";
  const msg = { type: "act", move, at: last ? last.table.actions : -1 };  // the position it was chosen in
  if (claim !== undefined && claim !== null) msg.claim = claim;
  if (!ws || ws.readyState !== WebSocket.OPEN) { $("play-err").textContent = "Not connected; trying again…"; return; }
  ws.send(JSON.stringify(msg));
  selected = [];
}
function onMessage(m) {
  if (m.type === "error") {
    $("play-err").textContent = m.message;
    if (m.fatal) { localStorage.removeItem(tokenKey(tableId)); ws.onclose = null; ws = null; showTable(tableId); }
    return;
  }
  if (m.type !== "state") return;
  if (m.event_start === 0) logEvents = [];
  logEvents.push(...m.events);
  if (m.you !== undefined) me = m.you;
  last = m;
  selected = selected.filter((x) => (m.view.my_hand || []).includes(x));
  render();
}

// -------------------------------------------------------------------------------- names ---
function seatName(i) {
  if (i === null || i === undefined) return "";
  const s = last.table.seats[i];
  return i === me ? "You" : (s && s.name) || `Seat ${i + 1}`;
}
function lowerName(i) { return i === me ? "you" : seatName(i); }
function isMe(i) { return i === me && me !== null; }
// "You show" / "North shows"
function says(i, base, third) { return isMe(i) ? `You ${base}` : `${seatName(i)} ${third || base + "s"}`; }
function poss(i) { return isMe(i) ? "your" : "their"; }
function sideSeats(k) {
  const v = last.view;
  if (!v.sides) return [k];
  return v.sides.map((s, i) => (s === k ? i : -1)).filter((i) => i >= 0);
}
function sideName(k) {
  const seats = sideSeats(k);
  if (seats.length === 1) return seatName(seats[0]);
  return seats.map(seatName).join(" & ");
}
// who scored: the seat when the event names one, else the side
function scorerName(e) { return e.seat !== undefined ? seatName(e.seat) : sideName(e.side); }
function hasMuggins() {
  const t = last.table, v = last.view;
  for (const k of ["muggins_rule", "has_muggins", "muggins"]) if (typeof t[k] === "boolean") return t[k];
  return v.claims === "manual";
}
function waitingFor(v) {
  // who must move: waiting_for when the view has it, else the seat whose turn it is; seats that may only
  // call Muggins! are not waited for
  if (v.over) return [];
  if (Array.isArray(v.waiting_for)) return v.waiting_for;
  if (v.turn !== null && v.turn !== undefined) return [v.turn];
  return (v.to_act || []).filter((s) => s === v.turn);
}
function regularMoves(v) { return (v.legal || []).filter((m) => m !== "muggins"); }

// -------------------------------------------------------------------------------- render ---
function render() {
  const v = last.view, t = last.table;
  const waiting = waitingFor(v);
  let status;
  if (v.over) {
    const won = v.winners.map(seatName);
    status = "Game over: " + (won.length ? listText(won) + " won" : "a draw");
  } else if (t.status === "open") status = "Waiting for players…";
  else if (me !== null && waiting.includes(me)) status = "Your turn" + turnHint(v);
  else status = "Waiting for " + listText(waiting.map(seatName)) + hintFor(v, waiting);
  $("status").textContent = status + (me === null ? " (watching)" : "");
  $("status").className = me !== null && waiting.includes(me) && !v.over ? "mine" : "";
  document.title = (me !== null && waiting.includes(me) && !v.over ? "▶ " : "") + "Muggins";
  const nsides = v.scores.length;
  $("scores").replaceChildren(...v.scores.map((s, k) => {
    const seats = nsides < v.players ? sideSeats(k) : [k];
    return el("span", { class: "score" + (seats.some((i) => waiting.includes(i)) ? " turn" : "") },
      `${nsides < v.players ? sideName(k) : seatName(k)}: ${s}`);
  }), el("span", { class: "score target" }, `target ${v.target}`));
  renderWindow();
  const draw = RENDERERS[last.renderer] || renderGeneric;
  draw(v);
  renderControls(v);
  renderLog();
  $("record-link").replaceChildren(...(v.over ? [el("a", { href: `/api/tables/${tableId}/record`, download: "" }, "Download the game record")] : []));
  renderHint(v);
  $("analysis-box").hidden = !(v.over && t.status === "finished");
}

// --------------------------------------------------------------------------------- hints ---
// Asked for by my seat alone, when it is my turn at a table with hints: the server answers this request
// only, so nobody else learns anything of it.
function authHeaders() { return myToken ? { Authorization: "Bearer " + myToken } : {}; }
async function getJSON(path) {
  const r = await fetch(path, { headers: authHeaders() });
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) throw new Error((data && data.error) || r.statusText || `request failed (${r.status})`);
  return data;
}
function renderHint(v) {
  const t = last.table, box = $("hint-box");
  const mine = t.hints && me !== null && myToken && !v.over && t.status === "playing" && waitingFor(v).includes(me);
  if (!mine) { box.hidden = true; return; }
  box.hidden = false;
  if (hintAt === t.actions) return;
  const at = hintAt = t.actions;
  box.textContent = "Hint: thinking…";
  getJSON(`/api/tables/${tableId}/hint`).then((h) => {
    if (hintAt !== at || !last || last.table.actions !== h.index) return;
    const parts = [];
    if (h.count !== null && h.count !== undefined) parts.push(`count of the ends ${h.count}`);
    if (h.move) parts.push(`the bot would play ${prettyCards(h.move)}, expecting ${h.points >= 0 ? "+" : ""}${h.points.toFixed(1)} points to the end of the hand`);
    box.textContent = "Hint: " + (parts.length ? parts.join("; ") : "nothing to suggest here") + ".";
  }, (e) => { if (hintAt === at) box.textContent = "No hint: " + e.message; });
}

// ------------------------------------------------------------------------------ analysis ---
function resetAnalysis() {
  $("analysis").replaceChildren();
  $("analysis-state").textContent = "";
  $("analyse-btn").disabled = false;
  $("analyse-btn").hidden = false;
}
async function analyse() {
  const id = tableId;
  $("analyse-btn").disabled = true;
  $("analysis-state").textContent = "Analysing… (every decision is played out over sampled hands)";
  try {
    let a;
    for (;;) {  // a running analysis answers 202 with how far it is: shown until it is done
      const r = await fetch(`/api/tables/${id}/analysis?wait=0`, { headers: authHeaders() });
      let data = null;
      try { data = await r.json(); } catch (e) { data = null; }
      if (!r.ok) throw new Error((data && data.error) || r.statusText || `request failed (${r.status})`);
      if (tableId !== id) return;
      if (r.status !== 202) { a = data; break; }
      $("analysis-state").textContent = data.total
        ? `Analysing… ${data.done} of ${data.total} actions replayed` : "Analysing… (waiting for its turn)";
      await new Promise((ok) => setTimeout(ok, 400));
    }
    $("analysis-state").textContent = "";
    $("analyse-btn").hidden = true;
    $("analysis").replaceChildren(...analysisView(a));
  } catch (e) {
    if (tableId !== id) return;
    $("analysis-state").textContent = "The analysis failed: " + e.message;
    $("analyse-btn").disabled = false;
  }
}
function fixed(x) { return x === null || x === undefined ? "-" : Number(x).toFixed(1); }
function analysisView(a) {
  const name = (s) => a.players[s] + (s === me ? " (you)" : "");
  const head = ["Player", "Decisions", "Accurate", "Lost to choices", "to counting", "to muggins calls",
    "to false calls", "Total lost", "Misses not called"];
  const rows = a.seats.map((s) => el("tr", { class: "seat-row" },
    el("th", {}, name(s.seat)), el("td", {}, String(s.decisions)),
    el("td", {}, s.accuracy === null ? "-" : Math.round(100 * s.accuracy) + "%"),
    el("td", {}, fixed(s.choices)), el("td", {}, String(s.counting)), el("td", {}, String(s.muggins)),
    el("td", {}, String(s.false_calls)), el("td", {}, fixed(s.total)),
    el("td", {}, `${s.missed_call_points} in ${s.missed_calls}`)));
  const table = el("table", { class: "analysis-seats" },
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", {}, h)))), el("tbody", {}, ...rows));
  const moments = a.moments.length
    ? el("ol", { class: "moments" }, ...a.moments.map((m) => el("li", {},
      el("b", {}, `Action ${m.action + 1}, ${name(m.seat)}: `), `${fixed(m.points)} lost — ${prettyCards(m.text)}`)))
    : el("p", {}, "No point was lost anywhere the analysis could see.");
  return [
    el("h3", {}, "Analysis"),
    el("p", { class: "help" }, `${a.game} / ${a.preset}: ${a.actions} actions, ${a.decisions.length} decisions, `
      + `each played out over ${a.samples} sampled deals. A loss of a point or two on one move may be noise; `
      + "the larger losses and the totals are what to read."),
    table,
    el("h3", {}, "Turning moments"), moments,
    el("img", { id: "analysis-plot", src: a.plot, alt: "The score race and the points lost at each decision" }),
  ];
}
function turnHint(v) {
  if (last.renderer === "pegboard") {
    if (v.phase === "discard") return ": choose " + plural(discardCount(v), "card") + " for the crib";
    if (v.phase === "show") return ": count " + (regularMoves(v).includes("count crib") ? "the crib" : "your hand");
  }
  return "";
}
function hintFor(v, waiting) {
  if (last.renderer === "pegboard" && v.phase === "discard") return " to discard";
  if (last.renderer === "pegboard" && v.phase === "show") return " to count";
  return waiting.length ? " to play" : "";
}
// The notice of an open muggins window: only what is public (who scored, what they announced), the same
// text whatever the play was worth.
function renderWindow() {
  const v = last.view, bar = $("grace-bar"), w = v.window;
  const show = w && hasMuggins() && !v.over;
  bar.hidden = !show;
  if (!show) return;
  const what = { play: "played", go: "took the go", hand: `showed ${poss(w.scorer)} hand`, crib: "showed the crib",
    domino: "dominoed" }[w.reason] || "played";
  const said = w.claimed !== null && w.claimed !== undefined ? `announced ${w.claimed}` : "announced nothing";
  const mayCall = (v.legal || []).includes("muggins");
  let tail;
  if (mayCall) tail = " — if you think points were missed, you may call Muggins! before the next play.";
  else if (isMe(w.scorer)) tail = " — an opponent may call Muggins! until the next play.";
  else tail = " — an opponent of theirs may call Muggins! until the next play.";
  bar.textContent = `${seatName(w.scorer)} ${what} and ${said}${tail}`;
  if (w.scorer_may_claim && isMe(w.scorer)) bar.textContent += " You may still announce your points (type them and press Announce).";
}

// ------------------------------------------------------------------------------- dominoes ---
function tkey(t) { const [a, b] = t.split("-").map(Number); return a >= b ? `${a}-${b}` : `${b}-${a}`; }
const PIPS = { 0: [], 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };
function drawHalf(g, cx, cy, n, u) {
  if (n in PIPS) for (const [px, py] of PIPS[n]) g.append(svg("circle", { cx: cx + px * 0.27 * u, cy: cy + py * 0.27 * u, r: 0.09 * u, fill: "#111" }));
  else g.append(Object.assign(svg("text", { x: cx, y: cy + 0.16 * u, "font-size": 0.5 * u, "text-anchor": "middle" }), { textContent: String(n) }));
}
// A tile in the box (x, y, w, h), in pixels; ``a`` is the half at the left (or top), ``b`` the other.
function drawTileBox(g, x, y, w, h, a, b, cls) {
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
const E = [1, 0], W = [-1, 0], N = [0, -1], S = [0, 1];
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
function myTileMoves(v, tile) {
  return (v.legal || []).filter((m) => /^\d+-\d+/.test(m) && tkey(m.split(" ")[0]) === tkey(tile));
}
function moveLabel(m) {
  const w = m.split(" ");
  if (/^\d+-\d+$/.test(w[0])) {
    if (w.length === 1) return `Lead ${w[0]}`;
    if (w[3] === "side") return `Play ${w[0]} on the side of ${w[2]}`;
    if (w[3] === "end") return `Play ${w[0]} on the end of ${w[2]}`;
    return `Play ${w[0]} on ${w[2]}` + (w[3] ? ` (${w[3]})` : "");
  }
  if (w[0] === "play") return `Play ${cardText(w[1])}`;
  if (w[0] === "discard") return `Discard ${cardsText(w.slice(1))}`;
  return { draw: "Draw a tile", pass: "Pass", knock: "Knock", go: "Go", "count hand": "Count your hand",
    "count crib": "Count the crib", claim: "Announce late", muggins: "Muggins!" }[m] || m;
}
function boardWidth() {
  const b = $("board");
  return Math.max(260, (b && b.clientWidth) || Math.min(window.innerWidth, 960) - 16);
}
function renderDominoes(v) {
  drawnWidth = boardWidth();
  const avail = drawnWidth - 8;
  const unit = Math.max(24, Math.min(34, Math.floor(avail / 15)));   // px per half tile: never smaller than 24
  const plan = new LayoutPlan(v.layout, Math.max(6, Math.floor(avail / unit))).plan();
  const s = svg("svg", { id: "layout" });
  const g = svg("g");
  s.append(g);
  const moves = selected.length ? myTileMoves(v, selected[0]) : [];
  const targets = {};
  for (const m of moves) { const w = m.split(" "); if (w[1] === "on") (targets[tkey(w[2])] ||= []).push(m); }
  let minx = Infinity, miny = Infinity, maxx = -Infinity, maxy = -Infinity;
  for (const p of plan.boxes) {
    const k = tkey(p.e.tile);
    const [a, b] = placedHalves(p);
    const ms = targets[k];
    const grp = drawTileBox(g, p.x * unit, p.y * unit, p.w * unit, p.h * unit, a, b, "placed" + (ms ? " target" : ""));
    grp.setAttribute("data-tile", k);
    if (ms) {
      grp.setAttribute("data-moves", ms.join("|"));
      if (ms.length === 1) grp.setAttribute("data-move", ms[0]);
      grp.prepend(svg("rect", { class: "halo", x: p.x * unit - 3, y: p.y * unit - 3, width: p.w * unit + 6, height: p.h * unit + 6,
        rx: 6, fill: "none", stroke: "#ffd23f", "stroke-width": 5 }));
      grp.addEventListener("click", () => {
        if (ms.length === 1) send(ms[0], claimValue());
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
      r.addEventListener("click", () => send(lead[0], claimValue()));
      g.append(r);
      g.append(Object.assign(svg("text", { x: plan.width / 2 * unit, y: 0.15 * unit, "text-anchor": "middle", "font-size": 0.5 * unit,
        fill: "#fff", "pointer-events": "none" }), { textContent: "lead here" }));
    }
  }
  const pad = 0.3;
  minx -= pad; miny -= pad; maxx += pad; maxy += pad;
  s.setAttribute("viewBox", `${minx * unit} ${miny * unit} ${(maxx - minx) * unit} ${(maxy - miny) * unit}`);
  s.setAttribute("width", Math.round((maxx - minx) * unit));
  s.setAttribute("height", Math.round((maxy - miny) * unit));
  const ends = v.open_ends && v.open_ends.length ? ` — open ends: ${v.open_ends.map((e) => e.value).join(", ")}` : "";
  const count = v.count !== undefined && v.layout.length ? ` — count ${v.count}` : "";
  const info = el("div", { class: "boardinfo" }, `Boneyard: ${v.boneyard}${ends}${count}`);
  const extra = plan.unplaced.length ? el("div", { class: "boardinfo" }, "Also played (no room to draw): " +
    plan.unplaced.map((e) => `${e.tile} on ${e.on}`).join(", ")) : "";
  $("board").replaceChildren(el("div", { class: "layout-wrap" }, s), info, extra);
  // others' hands as backs with counts; mine face up
  $("hands").replaceChildren(...v.hand_sizes.map((n, i) => i === me ? "" : el("div", { class: "hand other" }, `${seatName(i)}: `,
    ...Array.from({ length: Math.min(n, 12) }, () => el("span", { class: "tileback" }, "")), ` ${plural(n, "tile")}`)));
  const mine = el("div", { class: "hand", id: "my-tiles" });
  const myTurn = me !== null && waitingFor(v).includes(me);
  for (const t of v.my_hand || []) {
    const [a, b] = t.split("-").map(Number);
    const playable = myTurn && myTileMoves(v, t).length > 0;
    const cls = "piece" + (selected.includes(t) ? " selected" : "") + (playable ? " playable" : myTurn ? " unplayable" : "");
    const ts = svg("svg", { width: 32, height: 62, viewBox: "0 0 32 62", class: cls, "data-tile": t });
    drawTileBox(ts, 0, 0, 32, 62, a, b, "");
    ts.addEventListener("click", () => {
      selected = selected.includes(t) ? [] : [t];
      $("play-err").textContent = playable || !myTurn ? "" : `${t} does not fit any open end.`;
      render();
    });
    ts.setAttribute("draggable", "true");
    ts.addEventListener("dragstart", (ev) => { selected = [t]; ev.dataTransfer.setData("text/plain", t); });
    mine.append(ts);
  }
  s.addEventListener("dragover", (ev) => ev.preventDefault());
  s.addEventListener("drop", (ev) => {
    ev.preventDefault();
    const t = ev.dataTransfer.getData("text/plain");
    const target = ev.target.closest("[data-tile]");
    const ms = myTileMoves(v, t).filter((m) => !target ? !m.includes(" on ") : m.includes(" on ") && tkey(m.split(" ")[2]) === target.getAttribute("data-tile"));
    if (ms.length === 1) send(ms[0], claimValue()); else { selected = [t]; render(); }
  });
  $("myhand").replaceChildren(el("div", {}, me === null || !(v.my_hand || []).length ? ""
    : "Your tiles" + (myTurn ? " — pick one, then click a yellow tile on the table (or lead here):" : ":")), mine);
  $("explain").replaceChildren();
}

// ---------------------------------------------------------------------------------- cards ---
function cardEl(c, cls = "") {
  const red = /[HD]$/.test(c);
  return el("span", { class: `card ${red ? "red" : ""} ${cls}`, "data-card": c, title: cardText(c) }, cardText(c));
}
function discardCount(v) {
  const d = (v.legal || []).find((m) => m.startsWith("discard "));
  return d ? d.split(" ").length - 1 : 0;
}
function renderCards(v) {
  const parts = [];
  if (last.renderer === "card-pile") {
    parts.push(el("div", { class: "boardinfo" }, `Round ${v.round} — pile total `, el("strong", { id: "total" }, String(v.total)),
      ` of ${v.cap} — stock ${v.stock}` + (v.dealer !== undefined ? ` — ${seatName(v.dealer)} dealt` : "")));
    parts.push(el("div", { class: "hand", id: "pile" }, el("span", { class: "lbl" }, "Pile:"), ...(v.pile || []).map((c) => cardEl(c))));
    if (v.earlier_piles && v.earlier_piles.length) parts.push(el("div", { class: "hand earlier" }, el("span", { class: "lbl" }, "Earlier:"),
      ...v.earlier_piles.slice(-2).flatMap((p, i) => [...(i ? [el("span", { class: "sep" }, "|")] : []), ...p.map((c) => cardEl(c, "small"))])));
    if (v.passed && v.passed.length) parts.push(el("div", { class: "boardinfo" }, `Said go: ${listText(v.passed.map(seatName))}`));
  } else {
    parts.push(pegBoard(v));
    const phase = { discard: "discarding to the crib", play: "the play", show: "the show", over: "game over" }[v.phase] || words(v.phase);
    parts.push(el("div", { class: "boardinfo" }, `Hand ${v.hand}, ${lowerName(v.dealer)} ${isMe(v.dealer) ? "deal" : "deals"} — ${phase} — count `,
      el("strong", { id: "count" }, String(v.count)),
      v.starter ? " — starter " : "", v.starter ? cardEl(v.starter, "small") : "", ` — crib ${plural(v.crib_size, "card")}`));
    parts.push(el("div", { class: "hand", id: "pile" }, el("span", { class: "lbl" }, "Play:"),
      ...(v.pile || []).map((p) => cardEl(p.card || p, "small"))));
    if (v.crib) parts.push(el("div", { class: "hand" }, el("span", { class: "lbl" }, "Crib:"), ...v.crib.map((c) => cardEl(c, "small"))));
  }
  $("board").replaceChildren(...parts);
  $("hands").replaceChildren(...v.hand_sizes.map((n, i) => i === me ? "" : el("div", { class: "hand other" }, `${seatName(i)}: `,
    ...Array.from({ length: n }, () => el("span", { class: "card back small" }, "")), ` ${plural(n, "card")}`)));
  const mine = el("div", { class: "hand", id: "my-cards" });
  const legal = v.legal || [];
  const discarding = legal.some((m) => m.startsWith("discard "));
  for (const c of v.my_hand || []) {
    const playable = legal.includes("play " + c);
    const e = cardEl(c, "piece" + (selected.includes(c) ? " selected" : "") + (playable || discarding ? " playable" : ""));
    e.addEventListener("click", () => clickCard(v, c));
    mine.append(e);
  }
  const kept = v.my_kept && v.my_kept.length && !(v.my_hand || []).length ? el("div", { class: "hand" }, "Your hand: ", ...v.my_kept.map((c) => cardEl(c, "small"))) : "";
  const hint = me === null ? "" : discarding ? `Your cards — pick ${plural(discardCount(v), "card")} for the crib, then press the button:`
    : legal.some((m) => m.startsWith("play ")) ? "Your cards — click one to play it:" : "Your cards:";
  $("myhand").replaceChildren(el("div", {}, (v.my_hand || []).length ? hint : ""), mine, kept);
  const shows = v.shows || [];
  const ex = shows.map((s) => el("div", { class: "show" }, `${isMe(s.seat) ? "Your" : seatName(s.seat) + "'s"} ${s.what}: `,
    ...s.cards.map((c) => cardEl(c, "small")), s.total !== undefined ? ` = ${s.total}` : "",
    s.explain ? ` (${prettyCards(s.explain)})` : ""));
  if (v.previous_hand && !shows.length) {
    ex.unshift(el("div", { class: "show lbl" }, `Last hand's show (starter ${cardText(v.previous_hand.starter)}):`));
    for (const s of v.previous_hand.shows) ex.push(el("div", { class: "show" }, `${isMe(s.seat) ? "Your" : seatName(s.seat) + "'s"} ${s.what}: `,
      ...s.cards.map((c) => cardEl(c, "small")), s.total !== undefined ? ` = ${s.total}` : "", s.explain ? ` (${prettyCards(s.explain)})` : ""));
  }
  $("explain").replaceChildren(...ex);
}
function clickCard(v, c) {
  const play = (v.legal || []).find((m) => m === "play " + c);
  if (play) { send(play, claimValue()); return; }
  if (!(v.legal || []).some((m) => m.startsWith("discard "))) {
    if (waitingFor(v).includes(me)) $("play-err").textContent = `${cardText(c)} would take the count over 31: play another card or say go.`;
    return;
  }
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
  return el("div", { class: "pegwrap" }, s);
}

// -------------------------------------------------------------------------------- generic ---
// A game with no renderer of its own: every public field of the view, the seat's own pieces when the
// view holds a hand, and (in the controls) a button for every legal move.
const SHOWN_ELSEWHERE = new Set(["game", "preset", "seat", "players", "scores", "target", "turn", "to_act",
  "waiting_for", "legal", "my_hand", "hand_sizes", "claims", "window", "over", "winners"]);
const SEAT_FIELDS = new Set(["dealer", "leader", "last_player", "first", "starter_seat"]);
function fieldText(key, value) {
  if (SEAT_FIELDS.has(key) && Number.isInteger(value)) return seatName(value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number" || typeof value === "string") return String(value);
  if (Array.isArray(value) && value.every((x) => typeof x === "number" || typeof x === "string")) return value.join(" ") || "-";
  return JSON.stringify(value);
}
function renderGeneric(v) {
  const rows = Object.keys(v).filter((k) => !SHOWN_ELSEWHERE.has(k)).map((k) =>
    el("div", { class: "field", "data-field": k }, el("span", { class: "lbl" }, words(k) + ": "), fieldText(k, v[k])));
  $("board").replaceChildren(el("div", { class: "generic", id: "generic" }, ...rows));
  const noun = last.piece_noun || ["piece", "pieces"];
  $("hands").replaceChildren(...(v.hand_sizes || []).map((n, i) => i === me ? "" : el("div", { class: "hand other" },
    `${seatName(i)}: ${n} ${n === 1 ? noun[0] : noun[1]}`)));
  const mine = (v.my_hand || []).map((p) => el("span", { class: "piece" }, String(p)));
  $("myhand").replaceChildren(...(mine.length ? [el("div", {}, `Your ${noun[1]}:`), el("div", { class: "hand", id: "my-pieces" }, ...mine)] : []));
  $("explain").replaceChildren();
}
// The fields of an event the log has no sentence for, as JSON.
function eventFields(e) {
  const rest = Object.fromEntries(Object.entries(e).filter(([k]) => k !== "kind" && k !== "seat"));
  return Object.keys(rest).length ? " " + JSON.stringify(rest) : "";
}
const RENDERERS = { "domino-layout": renderDominoes, "card-pile": renderCards, pegboard: renderCards };

// ------------------------------------------------------------------------------- controls ---
function claimValue() {
  const v = $("claim").value.trim();
  $("claim").value = "";
  if (v === "" || !/^\d+$/.test(v)) return null;
  return Number(v);
}
function renderControls(v) {
  const legal = last.table.status === "abandoned" ? [] : v.legal || [];
  const manual = v.claims === "manual" && me !== null && !v.over;
  $("claim-box").hidden = !manual;
  const buttons = [];
  // a game's own renderer plays pieces by clicking them; the generic one has a button for every move
  const own = RENDERERS[last.renderer] !== undefined;
  const isPiece = (m) => own && (/^\d+-\d+/.test(m) || m.startsWith("play ") || m.startsWith("discard "));
  for (const m of legal) {
    if (m === "muggins" || isPiece(m)) continue;
    const onclick = m === "claim"
      ? () => { const c = claimValue(); if (c === null) $("play-err").textContent = "Type your points in the Announce box first."; else send("claim", c); }
      : () => send(m, claimValue());
    buttons.push(el("button", { type: "button", class: "move", "data-move": m, onclick }, moveLabel(m)));
  }
  if (last.renderer === "domino-layout" && selected.length) {
    for (const m of myTileMoves(v, selected[0])) buttons.push(el("button", { type: "button", class: "move primary", "data-move": m,
      onclick: () => send(m, claimValue()) }, moveLabel(m)));
  }
  const discards = legal.filter((m) => m.startsWith("discard "));
  if (discards.length) {
    const need = discards[0].split(" ").length - 1;
    const pick = selected.length === need ? discards.find((m) => { const cs = m.split(" ").slice(1); return cs.every((c) => selected.includes(c)); }) : null;
    buttons.push(el("button", { type: "button", class: "move primary", id: "discard-btn", disabled: !pick, "data-move": pick || null,
      onclick: () => { if (pick) send(pick); } },
      `Discard ${need} to the crib` + (pick ? `: ${cardsText(pick.split(" ").slice(1))}` : ` (choose ${need})`)));
  }
  $("moves").replaceChildren(...buttons);
  const mb = $("muggins-btn"), rule = hasMuggins();
  mb.hidden = me === null || !rule || v.over;
  const canCall = legal.includes("muggins");
  mb.disabled = !canCall;
  mb.onclick = () => send("muggins");
  $("muggins-note").hidden = mb.hidden;
  $("muggins-note").textContent = canCall ? "You may call Muggins! now" : "";
  $("help-muggins").hidden = !rule || me === null || v.over;
}

// -------------------------------------------------------------------------------------- log ---
const SCORE_WHY = { play: "", go: " for the go", "last card": " for the last card", last: " for the last card",
  "his heels": " for his heels", hand: " for the hand", crib: " for the crib", domino: " for dominoing",
  blocked: " for the blocked hand", "own pips": " for the pips left in hand", "three for last": " for last (three for last)",
  "over-claim penalty": " (penalty for an over-announcement)" };
function pts(n) { return plural(n, "point"); }
// "You lose" / "North loses" / "You & South lose"
function verb(name, base, third) { return name === "You" || name.includes(" & ") ? base : third; }
function possessive(name) { return name === "You" ? "Your" : name + "'s"; }
function scoreText(e) {
  const who = scorerName(e);
  const why = SCORE_WHY[e.reason] !== undefined ? SCORE_WHY[e.reason] : ` (${words(e.reason)})`;
  if (e.reason === "mugged") return `${who} ${verb(who, "lose", "loses")} ${pts(-e.points)} to the Muggins! call`;
  if (e.reason === "false call") return e.points < 0 ? `${who} ${verb(who, "lose", "loses")} ${pts(-e.points)} for a false call`
    : `${who} ${verb(who, "get", "gets")} ${pts(e.points)} for the false call`;
  if (e.points < 0) return `${who} ${verb(who, "lose", "loses")} ${pts(-e.points)}${why}`;
  return `${who} scored ${e.points}${why}`;
}
function pieceText(e) { return e.tile ? e.tile : e.card ? cardText(e.card) : ""; }
function itemsText(items) { return (items || []).map(([name, p]) => `${prettyCards(name)} (${p})`).join(", "); }
// The announcement and score that come right after a move of ``seat`` (a play, a go, a show), in words;
// [text bits, events used].
function folded(evs, i, seat, reasons, skipScore) {
  const bits = [];
  let used = 1;
  for (let j = i + 1; j < evs.length && j <= i + 3; j++) {
    const f = evs[j];
    if (f.seat !== seat) break;
    if (f.kind === "claim" && !f.late) bits.push(`announced ${f.points}`);
    else if (f.kind === "over_claim") bits.push(f.message ? f.message.replace(/^announced \d+, /, "") : "more than was made: the claim is void");
    else if (f.kind === "score" && reasons.includes(f.reason)) { if (!skipScore) bits.push(`scored ${f.points}`); }
    else break;
    used = j - i + 1;
  }
  return [bits, used];
}
// Each event as a sentence; some fold in the events that follow them (a play's announcement and score,
// a run of draws, a hand's end and its bonus). Returns [rows, events used].
function describeAt(evs, i) {
  const e = evs[i];
  const who = seatName(e.seat);
  const heading = (text) => [[{ cls: "heading", text }], 1];
  const row = (text, used = 1) => [[{ cls: "ev-" + e.kind, text }], used];
  switch (e.kind) {
    case "lot": return row("Drawing for the lead: " + e.seats.map((s, k) => `${seatName(s)} drew ${e.tiles[k]}`).join(", "));
    case "cut_for_deal": case "cut": return row("Cutting for the deal: " + e.seats.map((s, k) => `${seatName(s)} cut ${cardText(e.cards[k])}`).join(", "));
    case "hand_start": return heading(`Hand ${e.hand}` + (e.leader !== undefined ? ` — ${seatName(e.leader)} ${isMe(e.leader) ? "lead" : "leads"}` : ""));
    case "round_start": return heading(`Round ${e.round} — ${seatName(e.dealer)} ${isMe(e.dealer) ? "deal" : "deals"}` +
      (e.leader !== undefined ? `, ${lowerName(e.leader)} ${isMe(e.leader) ? "lead" : "leads"}` : ""));
    case "deal": return heading(`Hand ${e.hand} — ${seatName(e.dealer)} ${isMe(e.dealer) ? "deal" : "deals"}`);
    case "dealt":
      if (!isMe(e.seat)) return [[], 1];
      if (!(e.tiles || e.cards)) return row(`You were dealt ${plural(e.count, e.tiles !== undefined ? "tile" : "card")}`);
      return row(`You were dealt ${e.tiles ? e.tiles.join(" ") : cardsText(e.cards)}`);
    case "play": {
      let text = e.on === null ? `${who} led ${e.tile}` : `${who} played ${pieceText(e)}`;
      if (e.on) text += e.part === "side" ? ` on the side of ${e.on}` : e.part === "end" ? ` on the end of ${e.on}` : ` on ${e.on}`;
      if (e.total !== undefined) text += ` (total ${e.total})`;
      if (e.count !== undefined) text += ` (count ${e.count})`;
      const itemised = !!(e.points && e.items);
      const [bits, used] = folded(evs, i, e.seat, ["play"], itemised);
      if (itemised) bits.unshift(`${pts(e.points)}: ${itemsText(e.items)}`);
      return row(text + (bits.length ? " — " + bits.join(", ") : ""), used);
    }
    case "claim": return row(`${who} announced ${e.points}${e.late ? " late" : ""}`);
    case "over_claim": return row(`${who} ${e.message || `announced ${e.points}, more than was made: the claim is void`}`);
    case "score":
      if (e.reason === "muggins") return [[], 1]; // told with the call
      return row(scoreText(e));
    case "void": return row(`${possessive(scorerName(e))} ${pts(e.points)}${SCORE_WHY[e.reason] || ""} do not count: ${e.why}`);
    case "missed": return row(`${who} left ${pts(e.points)} unannounced`);
    case "muggins": {
      const on = lowerName(e.on);
      if (e.outcome === "false_call") return row(`${who} called Muggins! on ${on}: a false call, nothing was missed`);
      if (e.outcome === "forfeit") return row(`${who} called Muggins! on ${on}: ${on} ${isMe(e.on) ? "forfeit" : "forfeits"} the ${pts(e.missed)} missed`);
      return row(`${who} called Muggins! on ${on} and took ${pts(e.points)}` + (e.outcome === "steal_and_deduct" ? ` off ${on}` : ""));
    }
    case "draw": {
      // a run of draws by one seat is one line
      let j = i;
      while (j + 1 < evs.length && evs[j + 1].kind === "draw" && evs[j + 1].seat === e.seat && evs[j + 1].why === e.why) j++;
      const run = evs.slice(i, j + 1);
      const why = e.why === "go" ? " (could not play)" : "";
      const known = run.filter((f) => f.tile || f.card).map((f) => f.tile || cardText(f.card));
      const noun = e.card !== undefined || e.why !== undefined ? "card" : "tile";
      const what = known.length === run.length ? listText(known) : run.length === 1 ? `a ${noun}` : plural(run.length, noun);
      return row(`${who} drew ${what}${why}`, run.length);
    }
    case "pass": return row(`${who} passed` + (e.ends ? ` (open ends ${e.ends.join(", ")})` : ""));
    case "knock": return row(`${who} knocked` + (e.ends ? ` (open ends ${e.ends.join(", ")})` : ""));
    case "go": {
      if (e.takes) {
        const [bits, used] = folded(evs, i, e.seat, ["go"], false);
        return row(`${who} took ${e.takes === "last card" ? "the last card" : "the go"} at ${e.count}` + (bits.length ? " — " + bits.join(", ") : ""), used);
      }
      return row(`${who} said go` + (e.total !== undefined ? ` at ${e.total}` : e.count !== undefined ? ` at ${e.count}` : ""));
    }
    case "pile_end": return row(`The pile closed at ${e.total}${e.seat !== undefined ? `, last card by ${lowerName(e.seat)}` : ""}: ${cardsText(e.cards)}`);
    case "pile_start": return row(`${who} started a new pile`);
    case "round_end": return row(`Round ${e.round} over — ` + e.scores.map((s, k) => `${seatName(k)} ${s}`).join(", "));
    case "discard": return row(e.cards ? `${who} put ${cardsText(e.cards)} in the crib` : `${who} put ${plural(e.count, "card")} in the crib`);
    case "starter": return row(`The starter is ${cardText(e.card)}`);
    case "his_heels": return row(`The starter is a jack: ${lowerName(e.seat)} ${isMe(e.seat) ? "score" : "scores"} two for his heels`);
    case "reset": return row(`The count went back to 0 (it reached ${e.count})`);
    case "show_start": return row("The show, in order: " + e.order.map(([s, w]) => `${isMe(s) ? "your" : seatName(s) + "'s"} ${w === "crib" ? "crib" : "hand"}`).join(", "));
    case "show": {
      const [bits, used] = folded(evs, i, e.seat, [e.what], e.points !== undefined);
      const text = `${says(e.seat, "show", "shows")} ${e.what === "crib" ? "the crib" : poss(e.seat) + " hand"}: ${cardsText(e.cards)}` +
        (e.starter ? ` with the starter ${cardText(e.starter)}` : "") +
        (e.points !== undefined && !(evs[i + 1] && evs[i + 1].kind === "explain") ? ` — ${pts(e.points)}` : "") +
        (bits.length ? " — " + bits.join(", ") : "");
      return row(text, used);
    }
    case "explain": {
      const [, used] = folded(evs, i, e.seat, [e.what], true);
      return row(`${isMe(e.seat) ? "Your" : who + "'s"} ${e.what} counts ${e.total}` + (e.explain ? `: ${prettyCards(e.explain)}` : ""), used);
    }
    case "hand_end": {
      // the bonus for the hand comes in the score events right after; the play's own score is told first
      const pips = (e.pips || []).map((p, s) => `${seatName(s)} ${p}`).filter((_, s) => !(e.reason === "domino" && s === e.seat));
      const before = [], bonus = [];
      let j = i + 1;
      for (; j < evs.length; j++) {
        const f = evs[j];
        if (f.kind === "score" && ["domino", "blocked", "own pips"].includes(f.reason)) bonus.push(f);
        else if (f.kind === "score" || f.kind === "void" || f.kind === "missed") before.push(f);
        else break;
      }
      const rows = [];
      for (const f of before) rows.push(...describeAt([f], 0)[0]);
      const how = e.reason === "domino" ? `${seatName(e.seat)} dominoed` : "blocked, nobody can play";
      const gains = bonus.filter((f) => f.points).map((f) => {
        const name = scorerName(f), low = name === "You" ? "you" : name;
        return f.points > 0 ? `+${f.points} to ${low}` : `-${-f.points} for ${low}`;
      });
      const tail = gains.length ? ` (${gains.join(", ")})` : "";
      rows.push({ cls: "ev-hand_end", text: `Hand over: ${how}; pips left: ${pips.join(", ")}${tail}` });
      return [rows, j - i];
    }
    case "tie_break": return row(e.hands ? `Tied at the top: ${plural(e.hands, "more hand")} to break the tie` : `Tied at the top (${listText(e.seats.map(seatName))}): another round breaks the tie`);
    case "game_end": {
      const won = (e.winners || []).map(seatName);
      let text = `Game over: ${won.length ? listText(won) + " won" : "a draw"} — ` + e.scores.map((s, k) => `${e.scores.length < last.view.players ? sideName(k) : seatName(k)} ${s}`).join(", ");
      if (e.losers) {
        const sk = e.losers.filter((l) => l.result !== "win").map((l) => `${sideName(l.side)}: ${l.result}`);
        if (sk.length) text += ` (${sk.join(", ")})`;
      }
      return heading(text);
    }
    default: return row(`${who ? who + ": " : ""}${words(e.kind)}` + eventFields(e));
  }
}
// The log in the order a reader wants it: what closes the last hand (the count of a shown crib, points
// left unannounced) is logged when the next hand's first move closes its window; it is shown before
// the next hand's heading.
function displayOrder(evs) {
  const out = [];
  for (let i = 0; i < evs.length; i++) {
    const e = evs[i];
    if (["deal", "hand_start", "round_start"].includes(e.kind)) {
      let j = i + 1;
      while (j < evs.length && evs[j].kind === "dealt") j++;
      let k = j;
      while (k < evs.length && (evs[k].kind === "explain" || evs[k].kind === "missed")) k++;
      if (k > j) {
        out.push(...evs.slice(j, k), ...evs.slice(i, j));
        i = k - 1;
        continue;
      }
    }
    out.push(e);
  }
  return out;
}
function renderLog() {
  const items = [];
  const evs = displayOrder(logEvents);
  for (let i = 0; i < evs.length;) {
    const [rows, used] = describeAt(evs, i);
    for (const r of rows) items.push(el("li", { class: r.cls }, r.text));
    i += Math.max(1, used);
  }
  const box = $("log");
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 30;
  box.replaceChildren(...items.slice(-600));
  if (atEnd || !box.dataset.seen) box.scrollTop = box.scrollHeight;
  box.dataset.seen = "1";
}

function route() {
  if (ws) { const old = ws; ws = null; old.onclose = null; old.close(); }
  const m = location.pathname.match(/^\/t\/([\w-]+)/);
  if (m) {
    if (!catalogue) api("/api/games").then((c) => { catalogue = c; }).catch(() => {});
    showTable(m[1]);
  } else showLobby();
}
// the layout is planned for the board's width: drawn again when that width changes (not the height)
let resizeTimer = null, drawnWidth = 0;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => { if (last && !$("play").hidden && boardWidth() !== drawnWidth) render(); }, 150);
});
window.addEventListener("popstate", route);
$("analyse-btn").addEventListener("click", analyse);
route();
