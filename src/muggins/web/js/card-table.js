// The card table, for card Muggins (the pile to 31 or 61) and cribbage (the pegboard, the play, the crib
// and the show): the other hands as backs, my cards to play or to discard.

import { state } from "./state.js";
import { $, el, svg, plural, listText, words, cardText, cardName, prettyCards } from "./util.js";
import { render, playMove } from "./table.js";
import { seatName, lowerName, isMe, waitingFor, sideName, sideSeats } from "./names.js";
import { registerBoard, boardParts } from "./boards.js";

/** A card face; a card in my hand to play or to choose is a button for the keyboard and is named by
 * its words ("ten of spades"). @param {string} c @param {string} [cls] @param {boolean} [active] */
export function cardEl(c, cls = "", active = false) {
  const red = /[HD]$/.test(c);
  // the face ("10♠") is for the eye; the name ("ten of spades") for a screen reader
  return el("span", { class: `card ${red ? "red" : ""} ${cls}`, "data-card": c, title: cardText(c),
    role: active ? "button" : "img", tabindex: active ? 0 : null, "aria-label": cardName(c), "data-face": cardText(c) });
}
export function discardCount(v) {
  const d = (v.legal || []).find((m) => m.startsWith("discard "));
  return d ? d.split(" ").length - 1 : 0;
}
/** @param {any} v @param {import("./boards.js").BoardParts} [into] */
function renderCards(v, into = boardParts()) {
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
  into.board.replaceChildren(...parts);
  into.hands.replaceChildren(...v.hand_sizes.map((n, i) => i === state.me ? "" : el("div", { class: "hand other", "data-seat": i },
    `${seatName(i)}: `, ...Array.from({ length: n }, () => el("span", { class: "card back small", "aria-hidden": "true" }, "")),
    ` ${plural(n, "card")}`)));
  const mine = el("div", { class: "hand", id: "my-cards" });
  const legal = v.legal || [];
  const discarding = legal.some((m) => m.startsWith("discard "));
  for (const c of v.my_hand || []) {
    const playable = legal.includes("play " + c);
    const e = cardEl(c, "piece" + (state.selected.includes(c) ? " selected" : "") + (playable || discarding ? " playable" : ""), true);
    if (discarding) e.setAttribute("aria-pressed", String(state.selected.includes(c)));
    e.addEventListener("click", () => clickCard(v, c));
    mine.append(e);
  }
  const kept = v.my_kept && v.my_kept.length && !(v.my_hand || []).length ? el("div", { class: "hand" }, "Your hand: ", ...v.my_kept.map((c) => cardEl(c, "small"))) : "";
  const hint = state.me === null ? "" : discarding ? `Your cards — pick ${plural(discardCount(v), "card")} for the crib, then press the button:`
    : legal.some((m) => m.startsWith("play ")) ? "Your cards — click one to play it:" : "Your cards:";
  into.myhand.replaceChildren(el("div", { id: "my-cards-label" }, (v.my_hand || []).length ? hint : ""), mine, kept);
  mine.setAttribute("role", "group");
  mine.setAttribute("aria-labelledby", "my-cards-label");
  const shows = v.shows || [];
  const ex = shows.map((s) => el("div", { class: "show" }, `${isMe(s.seat) ? "Your" : seatName(s.seat) + "'s"} ${s.what}: `,
    ...s.cards.map((c) => cardEl(c, "small")), s.total !== undefined ? ` = ${s.total}` : "",
    s.explain ? ` (${prettyCards(s.explain)})` : ""));
  if (v.previous_hand && !shows.length) {
    ex.unshift(el("div", { class: "show lbl" }, `Last hand's show (starter ${cardText(v.previous_hand.starter)}):`));
    for (const s of v.previous_hand.shows) ex.push(el("div", { class: "show" }, `${isMe(s.seat) ? "Your" : seatName(s.seat) + "'s"} ${s.what}: `,
      ...s.cards.map((c) => cardEl(c, "small")), s.total !== undefined ? ` = ${s.total}` : "", s.explain ? ` (${prettyCards(s.explain)})` : ""));
  }
  into.explain.replaceChildren(...ex);
}
function clickCard(v, c) {
  const play = (v.legal || []).find((m) => m === "play " + c);
  if (play) { playMove(play); return; }
  if (!(v.legal || []).some((m) => m.startsWith("discard "))) {
    if (waitingFor(v).includes(state.me)) $("play-err").textContent = `${cardText(c)} would take the count over 31: play another card or say go.`;
    return;
  }
  state.selected = state.selected.includes(c) ? state.selected.filter((x) => x !== c) : [...state.selected, c];
  render();
}
// The cribbage board: a track of holes for each side, folded into rows of thirty, grouped by five and
// numbered every five, with the game hole at the end; each side in its colour and name (partners
// together), its front peg at its score and its back peg at the score before.
export const PEG_COLOURS = ["#c0392b", "#1f5fbf", "#1e7b3a", "#7d3c98", "#a84300"];
const PER_ROW = 30, DX = 10, GROUP_GAP = 6, LANE = 11, LEFT = 30, NUMBERS_H = 12;
function pegBoard(v) {
  const target = v.target, pegs = v.board || v.scores.map((x) => ({ front: x, back: 0 }));
  const lanes = pegs.length, rows = Math.max(1, Math.ceil((target - 1) / PER_ROW));
  const bandH = NUMBERS_H + lanes * LANE + 6;
  const rowW = PER_ROW * DX + (PER_ROW / 5 - 1) * GROUP_GAP;
  const width = LEFT + rowW + 34, height = rows * bandH + 6;
  const sided = v.scores.length < v.players;
  const names = pegs.map((_, k) => sided ? sideName(k) : seatName(k));
  /** hole ``n`` (1..target; 0 is the start) of lane ``k``: its centre @param {number} n @param {number} k */
  const at = (n, k) => {
    if (n <= 0) return [LEFT - 16, 6 + NUMBERS_H + k * LANE + LANE / 2];
    if (n >= target) return [LEFT + rowW + 18, (rows - 1) * bandH + 6 + NUMBERS_H + (lanes * LANE) / 2];
    const r = Math.floor((n - 1) / PER_ROW), c = (n - 1) % PER_ROW;
    return [LEFT + c * DX + Math.floor(c / 5) * GROUP_GAP + DX / 2, r * bandH + 6 + NUMBERS_H + k * LANE + LANE / 2];
  };
  const label = `Cribbage board to ${target}: ` + pegs.map((p, k) => `${names[k]} ${p.front}` + (p.back ? ` (back peg ${p.back})` : "")).join(", ");
  const s = svg("svg", { viewBox: `0 0 ${width} ${height}`, id: "pegboard", role: "img", "aria-label": label });
  s.append(svg("rect", { x: 0, y: 0, width, height, rx: 8, fill: "#c99a5b", stroke: "#7a5328", "stroke-width": 1.5 }));
  for (let r = 0; r < rows; r++) {
    const y0 = r * bandH + 6;
    for (let c = 5; c <= PER_ROW; c += 5) {   // the numbers, every five holes
      const n = r * PER_ROW + c;
      if (n >= target) break;
      const [x] = at(n, 0);
      s.append(Object.assign(svg("text", { x, y: y0 + NUMBERS_H - 3, "text-anchor": "middle", "font-size": 8, fill: "#2b1a08" }),
        { textContent: String(n) }));
    }
    for (let k = 0; k < lanes; k++) {
      const [, y] = at(r * PER_ROW + 1, k);
      s.append(svg("rect", { x: LEFT - 2, y: y - LANE / 2 + 1, width: rowW + 4, height: LANE - 2, rx: 4,
        fill: PEG_COLOURS[k % PEG_COLOURS.length], opacity: 0.22 }));
      for (let c = 0; c < PER_ROW; c++) {
        const n = r * PER_ROW + c + 1;
        if (n >= target) break;
        const [x] = at(n, k);
        s.append(svg("circle", { cx: x, cy: y, r: 1.6, fill: "#3b2610" }));
      }
    }
  }
  const [gx, gy] = at(target, 0);   // the game hole
  s.append(svg("circle", { cx: gx, cy: gy, r: 3, fill: "#3b2610" }));
  s.append(Object.assign(svg("text", { x: gx, y: gy - 6, "text-anchor": "middle", "font-size": 8, fill: "#2b1a08" }), { textContent: String(target) }));
  s.append(Object.assign(svg("text", { x: LEFT - 16, y: 10, "text-anchor": "middle", "font-size": 7, fill: "#2b1a08" }), { textContent: "start" }));
  pegs.forEach((p, k) => {
    const colour = PEG_COLOURS[k % PEG_COLOURS.length];
    for (const [which, val] of [["back", p.back], ["front", p.front]]) {
      const [x, y] = at(Math.min(val, target), k);
      const peg = svg("circle", { cx: x, cy: y, r: which === "front" ? 4.2 : 3.4, fill: colour, stroke: "#1a1a1a",
        "stroke-width": 1, opacity: which === "front" ? 1 : 0.75, "data-peg": `${k}-${which}` });
      s.append(peg);
    }
  });
  const legend = el("div", { class: "peglegend" }, ...pegs.map((p, k) => el("span", { class: "pegname" },
    el("span", { class: "swatch", style: `background:${PEG_COLOURS[k % PEG_COLOURS.length]}`, "aria-hidden": "true" }),
    `${names[k]}${sided && sideSeats(k).length > 1 ? " (partners)" : ""}: ${p.front}`)));
  return el("div", { class: "pegwrap" }, s, legend);
}

registerBoard("card-pile", renderCards);
registerBoard("pegboard", renderCards);
