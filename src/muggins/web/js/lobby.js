// The lobby: the form that makes a table (game, preset, seats, options) and the lists of tables in play
// and of finished games.

import { state } from "./state.js";
import { $, el, listText, words } from "./util.js";
import { api, tokenKey } from "./api.js";
import { route } from "./main.js";
import { showQuickPlay } from "./quickplay.js";

const lobbyPage = { active: 1, finished: 1 };
const POLL_MS = 8000;

export async function showLobby() {
  $("lobby").hidden = false; $("table").hidden = true;
  document.title = "Muggins";
  try {
    if (!state.catalogue) state.catalogue = await api("/api/games");
  } catch (e) { $("create-err").textContent = "Cannot reach the server: " + e.message; return; }
  const game = $("game");
  if (!game.options.length) {
    for (const g of state.catalogue.games) game.append(el("option", { value: g.name }, g.title || g.name));
    game.addEventListener("change", fillGame);
    $("preset").addEventListener("change", fillPreset);
    $("nplayers").addEventListener("change", fillSeats);
    $("create").addEventListener("submit", createTable);
    $("grace").value = state.catalogue.defaults.grace;
    $("my-name").value = localStorage.getItem("muggins-name") || "";
    $("finished-search").addEventListener("submit", (ev) => { ev.preventDefault(); lobbyPage.finished = 1; refreshFinished(); });
    fillGame();
  }
  showQuickPlay();
  refreshLobby();
}
function currentGame() { return state.catalogue.games.find((g) => g.name === $("game").value); }
function fillGame() {
  const g = currentGame();
  $("preset").replaceChildren(...g.presets.map((p) => el("option", { value: p }, p)));
  $("preset").value = g.default_preset;
  fillPreset();
}
// What the catalogue tells of a preset: its description, its main options and their bounds, whether it
// has the muggins rule, and the player counts it allows (each as far as the server publishes it).
export function presetInfo(g, preset) {
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
    const s = /** @type {HTMLSelectElement} */ (el("select", { class: "seatpick", "data-seat": i },
      el("option", { value: "" }, "a person (open seat)"), ...state.catalogue.bots.map((b) => el("option", { value: b }, b + " bot"))));
    if (i > 0) s.value = state.catalogue.bots.includes("casual") ? "casual" : state.catalogue.bots[0];
    s.addEventListener("change", fillCreatorSeat);
    picks.push(el("label", {}, `Seat ${i + 1} `, s));
  }
  $("seatpicks").replaceChildren(...picks);
  fillCreatorSeat();
}
// The creator sits at the table as he makes it: at one of the seats left to people (the first by default),
// or at none, to hand the link on and watch.
function fillCreatorSeat() {
  const box = $("my-seat"), was = box.value;
  const open = [...document.querySelectorAll(".seatpick")].map((s, i) => (/** @type {HTMLSelectElement} */ (s).value ? -1 : i))
    .filter((i) => i >= 0);
  box.replaceChildren(...open.map((i) => el("option", { value: i }, `Seat ${i + 1}`)),
    el("option", { value: "" }, "none: I only share the link or watch"));
  box.value = [...box.options].some((o) => o.value === was && was !== "") ? was : open.length ? String(open[0]) : "";
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
    const seats = [...document.querySelectorAll(".seatpick")].map((s) => /** @type {HTMLSelectElement} */ (s).value || null);
    const options = parseOptions($("options").value);
    const target = $("target").value.trim();
    if (target !== "") {
      const lo = Number($("target").min || 1), hi = Number($("target").max || 1e9);
      if (!/^\d+$/.test(target) || Number(target) < lo || Number(target) > hi) {
        throw new Error(`the target must be a whole number of points` + ($("target").max ? ` from ${lo} to ${hi}` : ""));
      }
      options.target = Number(target);
    }
    // with no name given, the table's page asks for it with the seats to choose from
    const myName = $("my-name").value.trim(), mySeat = myName ? $("my-seat").value : "";
    const t = await api("/api/tables", { game: $("game").value, preset: $("preset").value, seats,
      grace: Number($("grace").value), options, hints: $("hints").checked, rated: $("rated").checked });
    if (mySeat !== "") {
      const r = await api(`/api/tables/${t.id}/seats/${mySeat}`, { name: myName });
      localStorage.setItem(tokenKey(t.id), JSON.stringify({ seat: Number(mySeat), token: r.token }));
      localStorage.setItem("muggins-name", myName);
    }
    history.pushState({}, "", "/t/" + t.id);
    route();
  } catch (e) { $("create-err").textContent = e.message; }
}
function seatsText(t) {
  return t.seats.map((s, i) => s.open ? `seat ${i + 1} open` : s.name || `seat ${i + 1}`).join(", ");
}
export function gameTitle(name) {
  const g = state.catalogue && state.catalogue.games.find((x) => x.name === name);
  return g && g.title ? g.title : name;
}
function tableRow(t, finished) {
  const title = `${gameTitle(t.game)}: ${t.preset}`;
  const who = (i) => (t.seats[i] && t.seats[i].name) || `seat ${i + 1}`;
  const won = (t.status === "finished" || t.status === "resigned") && Array.isArray(t.winners) && t.winners.length
    ? `won by ${listText(t.winners.map(who))}` + (t.status === "resigned" ? ` (${who(t.resigned)} resigned)` : "") : "";
  const when = finished && t.ended ? new Date(t.ended * 1000).toLocaleString() : "";
  const kids = [el("a", { href: "/t/" + t.id, class: "table-link" }, title),
    el("span", { class: "tstatus " + t.status }, t.status), t.rated ? el("span", { class: "rated-tag" }, "rated") : "",
    el("span", {}, seatsText(t)),
    el("span", {}, "scores " + (t.scores || []).join(" : ")), won ? el("span", {}, won) : "",
    when ? el("span", { class: "when" }, when) : ""];
  if (finished && t.status === "finished") {
    kids.push(el("a", { href: t.record || `/api/tables/${t.id}/record`, class: "record-link", download: "" }, "record"));
  }
  if (finished) kids.push(el("a", { href: `/t/${t.id}/replay`, class: "replay-link" }, "replay"));
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
  clearTimeout(state.lobbyTimer);
  if ($("lobby").hidden) return;
  if (document.visibilityState !== "hidden") await Promise.all([refreshActive(), refreshFinished()]);
  if (!$("lobby").hidden) state.lobbyTimer = setTimeout(refreshLobby, POLL_MS);
}
document.addEventListener("visibilitychange", () => { if (!$("lobby").hidden && document.visibilityState === "visible") refreshLobby(); });
