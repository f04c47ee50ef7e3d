// The end of a hand: while the table pauses, the board shows the hand as it ended (the final layout of
// dominoes; the piles or the show in the lines under it), what each seat held and the points of the
// hand, with a "Next hand" button and the seconds left. The last play's Muggins! call stays open.

import { state } from "./state.js";
import { $, el, listText, prettyCards, cardText, cardsText } from "./util.js";
import { boardFor } from "./boards.js";
import { seatName, sideName, hasMuggins, isMe } from "./names.js";

/** @type {ReturnType<typeof setInterval> | undefined} */
let ticker;
/** @type {number} the page's clock when the pause's seconds left were told */
let toldAt = 0;

/** Sends "next": this seat is ready for the next hand. */
export function nextHand() {
  if (state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(JSON.stringify({ type: "next" }));
  const b = $("next-hand");
  if (b) b.disabled = true;
}

/** @param {any} end @returns {string} */
function gainedText(end) {
  const v = state.last.view;
  const sides = end.gained.length < v.players;
  return end.gained.map((g, k) => `${sides ? sideName(k) : seatName(k)} ${g >= 0 ? "+" : ""}${g}`).join(", ");
}

/** The terminal's lines write a ten as "T♦": the page writes "10♦". @param {string} text */
function tens(text) { return text.replace(/\bT(?=[♠♥♦♣])/g, "10"); }

/** The show of a card game's hand: the starter, then each hand and crib shown with its count.
 * @param {{starter: string | null, shows: any[]}} show */
function showOf(show) {
  return el("div", { class: "endshow" }, el("p", {}, `Starter ${show.starter ? cardText(show.starter) : "-"}`),
    ...show.shows.map((s) => el("p", {}, `${isMe(s.seat) ? "Your" : seatName(s.seat) + "'s"} ${s.what === "crib" ? "crib" : "hand"}: ${cardsText(s.cards)}`
      + ("total" in s ? ` = ${s.total}` + (s.explain ? ` (${prettyCards(s.explain)})` : "") : ""))));
}

/** Draws the hand's end over the table while it pauses (or the last hand's at the game's end). */
export function renderHandEnd() {
  const end = state.last && state.last.hand_end;
  const box = $("handend");
  clearInterval(ticker);
  if (!end) { box.hidden = true; box.replaceChildren(); return; }
  const v = state.last.view;
  const shown = end.paused || end.replay;  // the board shows the hand as it ended, not the next deal
  if (end.layout && shown) {
    const draw = boardFor(state.last.renderer);
    if (draw) draw({ ...v, layout: end.layout, open_ends: [], legal: [], my_hand: [] });
    const info = $("board").querySelector(".boardinfo");  // the next hand's boneyard and count: not this one's
    if (info) info.textContent = `The layout as ${end.word.toLowerCase()} ${end.number} ended.`;
    $("myhand").replaceChildren();
  } else if (shown) {  // the piles or the show are in the lines: the next hand's cards wait
    $("board").replaceChildren(); $("myhand").replaceChildren();
  }
  if (shown) $("hands").replaceChildren();
  if (end.paused) {
    $("moves").replaceChildren();
    $("status").textContent = `${end.word} ${end.number} is over` + (state.me === null ? " (watching)" : "");
    $("status").className = "";
  }
  const kids = [el("h3", {}, `${end.word} ${end.number} is over`),
    el("p", {}, "Points this " + end.word.toLowerCase() + ": " + gainedText(end)),
    end.show ? showOf(end.show) : el("pre", { class: "endlines" }, tens(prettyCards(end.lines.join("\n"))))];
  if (end.paused) {
    const mine = state.me !== null && end.waiting.includes(state.me);
    const others = end.waiting.filter((s) => s !== state.me).map(seatName);
    if (hasMuggins()) kids.push(el("p", { class: "help" }, "A Muggins! call on the last play is still open."));
    kids.push(el("div", { class: "next-row" },
      state.me !== null ? el("button", { id: "next-hand", class: "primary", disabled: !mine, onclick: nextHand },
        mine ? `Next ${end.word.toLowerCase()}` : "Ready") : "",
      el("span", { id: "next-wait", role: "status" }, others.length ? `Waiting for ${listText(others)}.` : ""),
      el("span", { id: "next-left" })));
    toldAt = performance.now();
    const tick = () => {
      const left = Math.max(0, end.left - (performance.now() - toldAt) / 1000);
      const t = $("next-left");
      if (t) t.textContent = ` The next ${end.word.toLowerCase()} is dealt in ${Math.ceil(left)} s.`;
    };
    box.replaceChildren(...kids);
    tick();
    ticker = setInterval(tick, 500);
  } else box.replaceChildren(...kids);
  box.hidden = false;
}
