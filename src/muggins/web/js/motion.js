// What moves when a state message comes in: a tile or card glides from the hand that played it to its
// place, the pegs glide along the cribbage board; a chime when it becomes my turn, a sound for a call
// of Muggins!. Positions are read before the table is drawn again and compared after.

import { state } from "./state.js";
import { positions, glide, slide, chime, mugginsSound } from "./fx.js";
import { waitingFor } from "./names.js";
import { tkey } from "./domino-board.js";

/** @typedef {{mine: Map<string, DOMRect>, hands: Map<string, DOMRect>, pegs: Map<string, number[]>}} Capture */

/** Where my pieces, the other hands and the pegs are now. @returns {Capture} */
export function capture() {
  return {
    // a tile by its key: a play names it in the way it was laid ("2-5"), the hand in its own ("5-2")
    mine: positions("#my-tiles [data-tile], #my-cards [data-card]", (e) => {
      const tile = e.getAttribute("data-tile");
      return tile ? tkey(tile) : e.getAttribute("data-card");
    }),
    hands: positions("#hands [data-seat]", (e) => e.getAttribute("data-seat")),
    // pegs by their holes on the board (the board itself may have moved on the page)
    pegs: new Map([...document.querySelectorAll("#pegboard [data-peg]")].map((e) =>
      [e.getAttribute("data-peg"), [Number(e.getAttribute("cx")), Number(e.getAttribute("cy"))]])),
  };
}

/** After the table is drawn for message ``m``: move what moved and sound what is to be heard.
 * @param {import("./state.js").StateMessage | null} before @param {import("./state.js").StateMessage} m
 * @param {Capture} was */
export function announceChanges(before, m, was) {
  if (before && before.table.id === m.table.id) {
    for (const e of m.events) {
      if (e.kind !== "play") continue;
      const from = e.seat === state.me ? was.mine.get(e.tile ? tkey(e.tile) : e.card) : was.hands.get(String(e.seat));
      const to = e.tile ? document.querySelector(`#layout g.placed[data-tile="${tkey(e.tile)}"]`)
        : e.card ? document.querySelector(`#pile [data-card="${e.card}"]`) : null;
      if (to) glide(to, from);
    }
    for (const peg of document.querySelectorAll("#pegboard [data-peg]")) {
      const old = was.pegs.get(peg.getAttribute("data-peg"));
      if (old) slide(peg, old[0] - Number(peg.getAttribute("cx")), old[1] - Number(peg.getAttribute("cy")), 600);
    }
  }
  if (m.events.some((e) => e.kind === "muggins")) mugginsSound();
  const mine = (x) => x !== null && state.me !== null && !x.view.over && waitingFor(x.view).includes(state.me);
  if (mine(m) && !(before && mine(before))) chime();
}
