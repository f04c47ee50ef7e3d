// The daily deal: in the lobby, today's deal of each game (play it, resume it, or see my result); at a
// daily table, a note that everybody plays the same deal; and the page of a deal's results
// (/daily/GAME/DAY), everyone's result ranked by the margin against the bot, each with its replay, shown
// once my own game of that deal has ended.

import { $, el, plural } from "./util.js";
import { api, tokenKey } from "./api.js";
import { route } from "./main.js";

/** @typedef {{status: string, score: number | null, opponent: number | null, margin: number | null,
 *   won: boolean | null, table: string, replay: string}} DailyResult */
/** @typedef {{game: string, title: string, preset: string, bot: string, day: string, played: boolean,
 *   result: DailyResult | null}} DailyGame */

/** @type {{day: string, logged_in: boolean, games: DailyGame[]} | null} */
let today = null;
/** @type {MutationObserver | null} */
let watcher = null;

/** "+5", "−3", "0". @param {number | null} n @returns {string} */
function signed(n) {
  if (n === null || n === undefined) return "";
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

/** My result in words. @param {DailyResult} r @returns {string} */
function resultText(r) {
  if (r.status === "playing") return "in play";
  const how = r.status === "finished" ? (r.won ? "won" : "lost") : r.status;
  return `${r.score} to ${r.opponent} (${signed(r.margin)}), ${how}`;
}

/** @param {string} game @param {string} day */
function resultsPath(game, day) { return `/daily/${encodeURIComponent(game)}/${day}`; }

/** Start (or resume) my game of today's deal of ``game`` and go to its table. @param {string} game */
async function play(game) {
  $("daily-err").textContent = "";
  try {
    const r = await api(`/api/daily/${encodeURIComponent(game)}`, {});
    if (r.token) localStorage.setItem(tokenKey(r.table.id), JSON.stringify({ seat: r.seat, token: r.token }));
    history.pushState({}, "", r.link);
    route();
  } catch (e) { $("daily-err").textContent = /** @type {Error} */ (e).message; }
}

/** One game of today's list. @param {DailyGame} g @returns {HTMLElement} */
function gameRow(g) {
  const kids = [el("span", { class: "daily-game" }, `${g.title}: ${g.preset}`),
    el("span", { class: "note" }, `against the ${g.bot} bot`)];
  const r = g.result;
  if (!today.logged_in) kids.push(el("span", { class: "note" }, "log in to play"));
  else if (!r || r.status === "playing") {
    kids.push(el("button", { type: "button", class: "primary daily-play", "data-game": g.game,
      onclick: () => play(g.game) }, r ? "Resume" : "Play"));
  } else {
    kids.push(el("span", { class: "daily-mine" }, "You: " + resultText(r)),
      el("a", { href: resultsPath(g.game, g.day), class: "daily-results-link" }, "Everyone's results"));
  }
  return el("div", { class: "tablerow daily-row", "data-game": g.game }, ...kids);
}

/** The lobby's list of today's deals (drawn again when somebody logs in or out). */
export async function showDaily() {
  const box = $("daily-list");
  if (!watcher) {  // the header's account area is drawn again at each log in and log out
    watcher = new MutationObserver(() => { if (!$("lobby").hidden) showDaily(); });
    watcher.observe($("account"), { childList: true });
  }
  try { today = await api("/api/daily"); } catch (e) {
    box.replaceChildren(el("p", { class: "err" }, "Cannot load the daily deal: " + /** @type {Error} */ (e).message));
    return;
  }
  $("daily-title").textContent = `Daily deal of ${today.day}`;
  box.replaceChildren(
    el("p", { class: "help" }, "Everybody plays the same deal against the same bot, once a day. "
      + "When your game ends you see everyone's result on it, ranked by the margin against the bot, and their replays."),
    ...today.games.map(gameRow), el("p", { class: "err", id: "daily-err", role: "alert" }));
}

/** At a table: a note when it is one of my games of today's deal. @param {string | null} id */
export async function dailyNote(id) {
  const old = document.getElementById("daily-note");
  if (old) old.remove();
  if (!id) return;
  let list;
  try { list = await api("/api/daily"); } catch (e) { return; }
  const g = list.games.find((/** @type {DailyGame} */ x) => x.result && x.result.table === id);
  if (!g || !location.pathname.startsWith("/t/" + id) || document.getElementById("daily-note")) return;
  $("status").before(el("p", { id: "daily-note", class: "note" }, `The daily deal of ${g.day}: everybody plays it. `,
    el("a", { href: resultsPath(g.game, g.day) }, "Everyone's results"), " open when your game has ended."));
}

/** The day ``days`` after ``day`` (YYYY-MM-DD). @param {string} day @param {number} days @returns {string} */
function dayAfter(day, days) {
  return new Date(Date.parse(day + "T00:00:00Z") + days * 86400000).toISOString().slice(0, 10);
}

/** The page of a deal's results. @param {string} game @param {string} day */
export async function showDailyResults(game, day) {
  $("lobby").hidden = true; $("table").hidden = true;
  const box = $("daily-results");
  box.hidden = false;
  document.title = "Daily deal — Muggins";
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(Date.parse(day + "T00:00:00Z"));
  const back = el("p", { class: "daily-nav" }, el("a", { href: "/" }, "Back to the lobby"),
    valid ? el("a", { href: resultsPath(game, dayAfter(day, -1)), class: "daily-prev" }, "The day before") : null,
    valid && dayAfter(day, 1) <= new Date().toISOString().slice(0, 10)
      ? el("a", { href: resultsPath(game, dayAfter(day, 1)), class: "daily-next" }, "The day after") : null);
  let d;
  try { d = await api(`/api/daily/${encodeURIComponent(game)}/${encodeURIComponent(day)}`); } catch (e) {
    box.replaceChildren(el("h2", {}, `Daily deal of ${day}`),
      el("p", { class: "err", id: "daily-refused", role: "alert" }, /** @type {Error} */ (e).message), back);
    return;
  }
  const head = ["Rank", "Player", "Points (bot's)", "Margin", "Match\u00adpoints %", "Result", "Replay"];
  const rows = d.results.map((/** @type {any} */ r) => el("tr", { class: r.mine ? "mine" : null, "data-player": r.player },
    el("td", {}, String(r.rank)), el("th", { scope: "row" }, r.player + (r.mine ? " (you)" : "")),
    el("td", {}, `${r.score} (${r.opponent})`), el("td", {}, signed(r.margin)),
    el("td", {}, r.matchpoints === null ? "—" : String(r.matchpoints)),
    el("td", {}, r.status === "finished" ? (r.won ? "won" : "lost") : r.status),
    el("td", {}, el("a", { href: r.replay, class: "daily-replay", "aria-label": `Replay of ${r.player}'s game` }, "Replay"))));
  box.replaceChildren(
    el("h2", {}, `Daily deal of ${d.day}: ${d.title}, ${d.preset}`),
    el("p", { class: "help" }, `Everybody played this deal against the ${d.bot} bot. Ranked by the margin (your points `
      + "minus the bot's), finished games before resigned or abandoned ones; matchpoints: the share of the other "
      + "results each one beats, a tie counting half, as bridge clubs score the same hands."
      + (d.playing ? ` ${plural(d.playing, "game")} of it still in play.` : "")),
    el("div", { class: "daily-scroll" }, el("table", { id: "daily-table" }, el("caption", {}, `Results of ${d.day}`),
      el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col" }, h)))), el("tbody", {}, ...rows))),
    back);
}
