// The card table, for card Muggins (the pile to 31 or 61) and cribbage (the pegboard, the play, the crib
// and the show): the other hands as backs, my cards to play or to discard.

import { state } from "./state.js";
import { $, el, svg, plural, listText, words, cardText, prettyCards } from "./util.js";
import { send } from "./api.js";
import { render, claimValue } from "./table.js";
import { seatName, lowerName, isMe, waitingFor } from "./names.js";
import { registerBoard } from "./boards.js";

export function cardEl(c, cls = "") {
  const red = /[HD]$/.test(c);
  return el("span", { class: `card ${red ? "red" : ""} ${cls}`, "data-card": c, title: cardText(c) }, cardText(c));
}
export function discardCount(v) {
  const d = (v.legal || []).find((m) => m.startsWith("discard "));
  return d ? d.split(" ").length - 1 : 0;
}
function renderCards(v) {
  const parts = [];
  if (state.last.renderer === "card-pile") {
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
  $("hands").replaceChildren(...v.hand_sizes.map((n, i) => i === state.me ? "" : el("div", { class: "hand other" }, `${seatName(i)}: `,
    ...Array.from({ length: n }, () => el("span", { class: "card back small" }, "")), ` ${plural(n, "card")}`)));
  const mine = el("div", { class: "hand", id: "my-cards" });
  const legal = v.legal || [];
  const discarding = legal.some((m) => m.startsWith("discard "));
  for (const c of v.my_hand || []) {
    const playable = legal.includes("play " + c);
    const e = cardEl(c, "piece" + (state.selected.includes(c) ? " selected" : "") + (playable || discarding ? " playable" : ""));
    e.addEventListener("click", () => clickCard(v, c));
    mine.append(e);
  }
  const kept = v.my_kept && v.my_kept.length && !(v.my_hand || []).length ? el("div", { class: "hand" }, "Your hand: ", ...v.my_kept.map((c) => cardEl(c, "small"))) : "";
  const hint = state.me === null ? "" : discarding ? `Your cards — pick ${plural(discardCount(v), "card")} for the crib, then press the button:`
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
    if (waitingFor(v).includes(state.me)) $("play-err").textContent = `${cardText(c)} would take the count over 31: play another card or say go.`;
    return;
  }
  state.selected = state.selected.includes(c) ? state.selected.filter((x) => x !== c) : [...state.selected, c];
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

registerBoard("card-pile", renderCards);
registerBoard("pegboard", renderCards);
