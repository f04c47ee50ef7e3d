// Learning in the page: every game's rules (from the registry the lobby reads) with worked examples, a
// guided first game on a real deal that teaches announcing and calling Muggins!, and the counting drills
// of "muggins train", answered here and kept in the same record.

import { state } from "./state.js";
import { $, el, prettyCards, words } from "./util.js";
import { api } from "./api.js";
import { render } from "./table.js";
import { boardFor, boardParts } from "./boards.js";

function showLearn() {
  $("lobby").hidden = true; $("table").hidden = true; $("learn").hidden = false;
}

/** @param {Record<string, any>} opts */
function optionsText(opts) {
  return Object.entries(opts).map(([k, v]) => `${words(k)} ${Array.isArray(v) ? v.join("/") : v}`).join(", ");
}

/** A worked example: its position drawn by the table's own board when the game has one (the text
 * drawing behind a toggle), then the question, the count and why. @param {any} ex @param {string} game */
function example(ex, game) {
  const text = el("pre", { class: "drawing" }, ex.body);
  const drawn = ex.view && boardFor(ex.renderer);
  const board = el("div", { class: "example-board" });
  return el("figure", { class: "example", "data-game": game }, drawn ? board : text,
    drawn ? el("details", { class: "example-text" }, el("summary", {}, "As text"), text) : "",
    el("figcaption", {}, el("b", {}, ex.prompt + " "), `${ex.answer}. `, ...ex.why.map((/** @type {string} */ w) => el("span", { class: "why" }, prettyCards(w) + " "))));
}

/** Draws each example's position into its own box (once the boxes are on the page, as the board fits
 * its width) as the table draws a state message: seen by the seat whose view it is, if any. The ids a
 * board gives its parts are made the example's own. @param {any[]} examples @param {HTMLElement[]} boxes */
function drawExamples(examples, boxes) {
  const saved = { last: state.last, me: state.me, selected: state.selected };
  try {
    examples.forEach((ex, i) => {
      const draw = ex.view && boardFor(ex.renderer);
      if (!draw) return;
      const seat = typeof ex.view.seat === "number" ? ex.view.seat : null;
      state.last = { type: "state", view: ex.view, table: { id: "example", status: "playing", seats: [] }, renderer: ex.renderer,
        events: [], you: seat };
      state.me = seat; state.selected = [];
      const box = boxes[i];
      draw(ex.view, boardParts(box));
      for (const e of box.querySelectorAll("[id]")) {
        const id = e.id, own = `example-${i}-${id}`;
        e.id = own;
        for (const r of box.querySelectorAll(`[aria-labelledby="${CSS.escape(id)}"]`)) r.setAttribute("aria-labelledby", own);
      }
    });
  } finally {
    Object.assign(state, saved);
  }
}

export async function showRules() {
  showLearn();
  $("learn").replaceChildren(el("h2", {}, "Rules"), el("p", { class: "help" }, "Loading…"));
  const data = await api("/api/rules");
  /** @type {any[]} */
  const examples = [];
  const parts = [el("h2", {}, "Rules"), el("p", {}, el("a", { href: "/tutorial" }, "Take the guided first game"), " · ",
    el("a", { href: "/drills" }, "Counting drills"), " · ", el("a", { href: "/" }, "Lobby"))];
  for (const g of data.games) {
    parts.push(el("h3", { id: "rules-" + g.name }, g.title));
    for (const p of g.presets) {
      parts.push(el("section", { class: "preset-rules", "data-preset": p.name },
        el("h4", {}, p.name + (p.default ? " (the default)" : "")),
        el("p", {}, p.description), el("ul", {}, ...p.rules.map((/** @type {string} */ r) => el("li", {}, r))),
        el("p", { class: "help" }, `Players: ${p.players.join(", ")}.`
          + (Object.keys(p.differs).length ? ` Differs from the default: ${optionsText(p.differs)}.` : ""))));
    }
    if (g.examples.length) parts.push(el("h4", {}, "Worked examples"), ...g.examples.map((/** @type {any} */ ex) => example(ex, g.name)));
    examples.push(...g.examples);
  }
  $("learn").replaceChildren(...parts);
  drawExamples(examples, [...$("learn").querySelectorAll("figure.example")].map((f) => /** @type {HTMLElement} */ (f.querySelector(".example-board"))));
}

// ------------------------------------------------------------------------------------ the tutorial ----
/** @type {{data: any, at: number} | null} */
let tutor = null;

export async function showTutorial() {
  $("lobby").hidden = true; $("learn").hidden = true; $("table").hidden = false;
  $("join").hidden = true; $("play").hidden = false;
  const data = await api("/api/tutorial");
  tutor = { data, at: 0 };
  state.tableId = null; state.myToken = null; state.me = 0; state.logEvents = []; state.eventActions = [];
  state.offline = tutorMove;
  showStep();
}

function showStep() {
  const d = tutor.data, step = d.steps[tutor.at];
  state.last = { type: "state", view: step.expect === "next" || step.expect === "done" ? { ...step.view, legal: [] } : step.view,
    table: { id: "tutorial", status: "playing", seats: d.names.map((/** @type {string} */ n) => ({ name: n, bot: null, open: false })),
      muggins_rule: true, hints: false, actions: tutor.at, scores: step.view.scores, preset: step.view.preset },
    renderer: d.renderer, piece_noun: d.piece_noun, events: [], you: 0, hand_end: null };
  state.selected = [];
  const told = d.steps.slice(0, tutor.at + 1);
  state.logEvents = told.flatMap((/** @type {any} */ s) => s.events);
  state.eventActions = told.flatMap((/** @type {any} */ s) => s.events.map(() => (s.actions ? s.actions - 1 : null)));
  render();
  const kids = [el("p", { id: "tutor-text" }, step.text)];
  if (step.expect === "next") kids.push(el("button", { type: "button", class: "primary", id: "tutor-next", onclick: () => advance() }, "Next"));
  if (step.expect === "done") kids.push(el("a", { href: "/", id: "tutor-done" }, "Play a real game"));
  kids.push(el("p", { class: "err", id: "tutor-err", role: "alert" }));
  $("tutor").hidden = false;
  $("tutor").replaceChildren(el("h3", {}, `Guided first game: step ${tutor.at + 1} of ${d.steps.length}`), ...kids);
}

function advance() {
  if (tutor.at < tutor.data.steps.length - 1) tutor.at += 1;
  showStep();
}

/** A move of the learner, checked against the step. @param {string} move @param {number | null} claim */
function tutorMove(move, claim) {
  const step = tutor.data.steps[tutor.at];
  const err = $("tutor-err");
  if (step.expect === "muggins") {
    if (move === "muggins") advance(); else err.textContent = "Press Muggins! to take the points the Teacher forgot.";
    return;
  }
  if (step.expect !== "play") return;
  if (move === "muggins") { err.textContent = "The Teacher's play scored nothing: there is nothing to call. Play your tile."; return; }
  const ok = step.accept.find((/** @type {any} */ a) => a.move === move);
  if (!ok) { err.textContent = "That move scores nothing here: choose the one the text names."; return; }
  if (claim !== ok.claim) {
    err.textContent = claim === null ? `Type ${ok.claim} in the Announce box before you play the tile.`
      : `You announced ${claim}, but the move makes ${ok.claim}: announce exactly what it makes.`;
    return;
  }
  advance();
}

// -------------------------------------------------------------------------------------- the drills ----
/** @type {{session: string, asked: any} | null} */
let drill = null;

export async function showDrills() {
  showLearn();
  const data = await api("/api/drills");
  const stats = new Map(data.stats.drills.map((/** @type {any} */ s) => [s.drill, s]));
  const rows = data.drills.map((/** @type {any} */ d) => {
    const s = /** @type {any} */ (stats.get(d.key));
    return el("li", {}, el("button", { type: "button", class: "primary drill-start", "data-drill": d.key, onclick: () => startDrill(d.key) }, d.title),
      el("span", { class: "note" }, s ? ` ${s.right} of ${s.answered} right in ${s.sessions} sessions` : " not tried yet"));
  });
  $("learn").replaceChildren(el("h2", {}, "Counting drills"),
    el("p", { class: "help" }, "Positions from real games: give the count. Your results are kept with those of `muggins train`."),
    el("ul", { class: "drills" }, ...rows), el("div", { id: "drill" }), el("p", {}, el("a", { href: "/" }, "Lobby"), " · ", el("a", { href: "/rules" }, "Rules")));
}

/** @param {string} key */
async function startDrill(key) {
  const r = await api(`/api/drills/${encodeURIComponent(key)}/sessions`, { rounds: 5 });
  drill = { session: r.session, asked: r.question };
  ask(r.title);
}

/** @param {string} [title] */
function ask(title) {
  const q = drill.asked;
  const input = el("input", { id: "drill-answer", inputmode: "numeric", autocomplete: "off", "aria-label": q.prompt });
  const form = el("form", { id: "drill-form", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); answer(); } },
    el("label", {}, q.prompt + " ", input), el("button", { type: "submit", class: "primary" }, "Answer"),
    el("button", { type: "button", id: "drill-stop", onclick: stop }, "Stop"));
  $("drill").replaceChildren(el("h3", {}, (title ? title + ": " : "") + `question ${q.number} of ${q.rounds}`),
    el("pre", { class: "drawing" }, q.body), form, el("p", { class: "err", id: "drill-err", role: "alert" }), el("div", { id: "drill-verdict" }));
  input.focus();
}

async function answer() {
  const given = $("drill-answer").value;
  try {
    const r = await api(`/api/drills/sessions/${drill.session}/answer`, { given });
    const verdict = el("div", { id: "drill-result", class: r.right ? "right" : "wrong" },
      el("p", {}, r.right ? `Right: ${r.answer}.` : `Not quite: the count is ${r.answer} (you said ${r.given}).`),
      ...r.why.map((/** @type {string} */ w) => el("p", { class: "why" }, prettyCards(w))),
      el("p", { class: "note" }, `${r.score[0]} of ${r.score[1]} right.` + (r.done ? (r.stored ? " Saved to your training record." : "") : "")));
    if (r.next) {
      drill.asked = r.next;
      verdict.append(el("button", { type: "button", class: "primary", id: "drill-next", onclick: () => ask() }, "Next question"),
        el("button", { type: "button", id: "drill-stop", onclick: stop }, "Stop"));
    }
    $("drill-form").remove();
    $("drill-err").textContent = "";
    $("drill-verdict").replaceChildren(verdict);
  } catch (e) { $("drill-err").textContent = e.message; }
}

async function stop() {
  const r = await api(`/api/drills/sessions/${drill.session}/stop`, {});
  $("drill").replaceChildren(el("p", { id: "drill-result" }, r.stored ? `Stopped: ${r.right} of ${r.answered} right, saved.` : "Stopped."));
}
