// The replay: a game stepped forward and back move by move (buttons, or the arrow keys), the board drawn
// at each step as its viewer saw it, and beside each move what the analysis says of it. Step N is the
// position after move N: the same number as "Action N" in the analysis and the log.

import { state } from "./state.js";
import { $, el, prettyCards } from "./util.js";
import { getJSON, tokenKey } from "./api.js";
import { render } from "./table.js";
import { seatName } from "./names.js";

/** @type {{data: any, at: number, analysis: any} | null} */
let replay = null;

/** @param {string} id */
export async function showReplay(id) {
  $("lobby").hidden = true; $("learn").hidden = true; $("table").hidden = false;
  $("join").hidden = true; $("play").hidden = false;
  state.tableId = id;
  const saved = JSON.parse(localStorage.getItem(tokenKey(id)) || "null");
  state.myToken = saved ? saved.token : null;
  let data;
  try { data = await getJSON(`/api/tables/${id}/replay`); } catch (e) {
    $("play-err").textContent = "No replay: " + e.message;
    return;
  }
  replay = { data, at: data.steps.length - 1, analysis: null };
  document.body.classList.add("replaying");
  $("replay-bar").hidden = false;
  $("replay-bar").replaceChildren(
    el("button", { type: "button", id: "rp-first", "aria-label": "First move", onclick: () => go(0) }, "|◀"),
    el("button", { type: "button", id: "rp-back", "aria-label": "Back one move", onclick: () => go(replay.at - 1) }, "◀"),
    el("span", { id: "rp-at", role: "status" }),
    el("button", { type: "button", id: "rp-fwd", "aria-label": "Forward one move", onclick: () => go(replay.at + 1) }, "▶"),
    el("button", { type: "button", id: "rp-last", "aria-label": "Last move", onclick: () => go(data.steps.length - 1) }, "▶|"),
    el("a", { href: `/t/${id}` }, " Back to the table"),
    el("div", { id: "rp-move" }), el("div", { id: "rp-notes" }));
  document.addEventListener("keydown", keys);
  if (data.table.status !== "finished") $("rp-notes").textContent = data.steps.length && data.table.status !== "playing"
    ? `No analysis: the game was ${data.table.status} before its end.` : "The analysis comes when the game has ended.";
  else {
    getJSON(`/api/tables/${id}/analysis`).then((a) => { if (replay && replay.data === data) { replay.analysis = a; go(replay.at); } },
      () => { $("rp-notes").textContent = "No analysis for this game."; });
  }
  go(replay.at);
}

/** @param {KeyboardEvent} e */
function keys(e) {
  if (!replay || /** @type {any} */ (e.target).tagName === "INPUT") return;
  if (e.key === "ArrowLeft") go(replay.at - 1);
  else if (e.key === "ArrowRight") go(replay.at + 1);
}

/** @param {number} i */
function go(i) {
  const d = replay.data;
  replay.at = Math.max(0, Math.min(d.steps.length - 1, i));
  const step = d.steps[replay.at];
  state.me = d.you;
  const shown = d.steps.slice(0, replay.at + 1);
  state.logEvents = shown.flatMap((/** @type {any} */ s) => s.events);
  // each step's events were logged by its move (action number - 1); the deal's by none
  state.eventActions = shown.flatMap((/** @type {any} */ s) => s.events.map(() => (s.number ? s.number - 1 : null)));
  const table = { ...d.table, status: step.view.over ? d.table.status : "playing", actions: replay.at };
  state.last = { type: "state", view: { ...step.view, legal: [] }, table, renderer: d.renderer,
    piece_noun: d.piece_noun, events: [], you: d.you, hand_end: step.hand_end ? { ...step.hand_end, paused: false, replay: true } : null };
  render();
  $("controls").hidden = true;
  $("rp-at").textContent = ` Move ${replay.at} of ${d.steps.length - 1} `;
  $("rp-back").disabled = $("rp-first").disabled = replay.at === 0;
  $("rp-fwd").disabled = $("rp-last").disabled = replay.at === d.steps.length - 1;
  $("rp-move").textContent = replay.at === 0 ? "The deal." : `Move ${replay.at}: ${seatName(step.seat)}`
    + (step.move ? ` — ${prettyCards(step.move)}` : "");
  notes(replay.at);
}

/** What the analysis says of move ``n`` (its action n - 1). @param {number} n */
function notes(n) {
  const a = replay.analysis;
  if (!a) return;
  const at = n - 1;
  const items = [];
  for (const dcs of a.decisions.filter((/** @type {any} */ x) => x.action === at)) {
    const opts = dcs.options.slice(0, 3).map((/** @type {any} */ o) => `${prettyCards(o.move)} ${Number(o.points).toFixed(1)}`).join(", ");
    items.push(el("li", {}, dcs.accurate ? "A good choice" : `${Number(dcs.loss).toFixed(1)} points lost to the choice`,
      ` (best: ${prettyCards(dcs.best)}; ${opts})`));
  }
  for (const s of a.slips.filter((/** @type {any} */ x) => x.action === at)) items.push(el("li", {}, prettyCards(s.text)));
  $("rp-notes").replaceChildren(el("h4", {}, `Analysis of move ${n}`),
    items.length ? el("ul", {}, ...items) : el("p", { class: "help" }, n === 0 ? "The deal." : "Nothing to say of this move."));
}

export function leaveReplay() {
  replay = null;
  document.body.classList.remove("replaying");
  document.removeEventListener("keydown", keys);
  $("replay-bar").hidden = true;
  $("controls").hidden = false;
}
