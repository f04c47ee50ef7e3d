// Quick play and ranked play in the lobby: "Play now" seats the player with the next one waiting for the
// same game and player count; "Ranked" (for accounts) with players of close rating, on a rated table with a
// clock. While the server looks for players the lobby says so, with a Cancel button; when the table is made
// the page keeps the seat's token as taking a seat does and goes to the table.

import { state } from "./state.js";
import { $, el } from "./util.js";
import { api, tokenKey } from "./api.js";
import { route } from "./main.js";

const POLL_MS = 1000;
/** @type {{ ticket: string, timer: ReturnType<typeof setTimeout> | undefined } | null} */
let waiting = null;

/** The quick play box of the lobby, built once from the catalogue. */
export function showQuickPlay() {
  const box = $("quickplay");
  if (!state.catalogue || box.dataset.ready) return;
  box.dataset.ready = "1";
  box.replaceChildren(el("h2", { id: "quickplay-title" }, "Play now"),
    el("p", { class: "help" }, "Play now seats you with the next player waiting for the same game. Ranked (with an " +
      "account) pairs players of close rating on a rated table with a clock. When nobody comes, a bot of your " +
      "strength takes the empty seat after a short wait."),
    ...state.catalogue.games.map(gameRow),
    el("div", { id: "quickplay-wait", role: "status", hidden: true }),
    el("p", { class: "err", id: "quickplay-err", role: "alert" }));
}
/** @param {any} g a game of the catalogue */
function gameRow(g) {
  const title = g.title || g.name, top = Math.min(g.max_players, 4);
  const counts = [];
  for (let n = g.min_players; n <= top; n++) counts.push(el("option", { value: String(n) }, String(n)));
  const players = /** @type {HTMLSelectElement} */ (el("select", { class: "qp-players", "data-game": g.name }, ...counts));
  players.value = String(Math.min(Math.max(g.default_players, g.min_players), top));
  return el("div", { class: "qp-row", "data-game": g.name }, el("span", { class: "qp-title" }, title),
    el("label", {}, "Players ", players),
    el("button", { type: "button", class: "primary qp-quick", "data-game": g.name, "aria-label": `Play now: ${title}`,
      onclick: () => join(g.name, Number(players.value), false) }, "Play now"),
    el("button", { type: "button", class: "qp-ranked", "data-game": g.name, "aria-label": `Ranked: ${title}`,
      onclick: () => join(g.name, Number(players.value), true) }, "Ranked"));
}
/** @param {boolean} busy */
function setBusy(busy) {
  for (const b of document.querySelectorAll(".qp-quick, .qp-ranked")) /** @type {HTMLButtonElement} */ (b).disabled = busy;
}
/** @param {string} game @param {number} players @param {boolean} ranked */
async function join(game, players, ranked) {
  if (waiting) return;
  $("quickplay-err").textContent = "";
  /** @type {Record<string, any>} */
  const body = { game, players, ranked };
  const name = (localStorage.getItem("muggins-name") || "").trim();
  if (name) body.name = name;  // the name a guest is shown by (an account plays under its own)
  setBusy(true);
  try {
    const r = await api("/api/play", body);
    waiting = { ticket: r.ticket, timer: undefined };
    update(r);
  } catch (e) {
    setBusy(false);
    $("quickplay-err").textContent = e.message;
  }
}
/** What the server says of the ticket: still waiting (asked again in a moment), or a table to go to. @param {any} r */
function update(r) {
  if (!waiting) return;
  if (r.status === "matched") { go(r); return; }
  const box = $("quickplay-wait");
  const bot = r.bot_in > 0 ? ` If nobody comes, a bot of your strength joins in ${Math.ceil(r.bot_in)} s.` : " A bot of your strength joins now.";
  box.hidden = false;
  box.replaceChildren(el("span", { id: "quickplay-text" }, `Waiting for a player${r.ranked ? " (ranked)" : ""}…${bot}`),
    el("button", { type: "button", id: "quickplay-cancel", onclick: cancel }, "Cancel"));
  waiting.timer = setTimeout(poll, POLL_MS);
}
async function poll() {
  if (!waiting) return;
  if ($("lobby").hidden) { cancel(); return; }  // the page went elsewhere: the player no longer waits
  try {
    update(await api(`/api/play/${encodeURIComponent(waiting.ticket)}`));
  } catch (e) {
    stop();
    $("quickplay-err").textContent = e.message;
  }
}
function stop() {
  if (waiting) clearTimeout(waiting.timer);
  waiting = null;
  $("quickplay-wait").hidden = true;
  $("quickplay-wait").replaceChildren();
  setBusy(false);
}
async function cancel() {
  const was = waiting;
  stop();
  if (!was) return;
  try { await fetch(`/api/play/${encodeURIComponent(was.ticket)}`, { method: "DELETE" }); } catch (e) { /* it expires anyway */ }
}
/** @param {any} r a matched ticket: the table, the seat and its token */
function go(r) {
  stop();
  localStorage.setItem(tokenKey(r.table), JSON.stringify({ seat: r.seat, token: r.token }));
  history.pushState({}, "", r.link);
  route();
}
