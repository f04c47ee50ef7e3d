// The log: every event the seat may see, told as sentences ("North played 5-3 on 3-3 — announced 10"),
// a play folded with its announcement and score, a heading for each hand.

import { state } from "./state.js";
import { $, el, plural, listText, words, cardText, cardsText, prettyCards, pts } from "./util.js";
import { seatName, lowerName, isMe, says, poss, sideName, scorerName } from "./names.js";

export function eventFields(e) {
  const rest = Object.fromEntries(Object.entries(e).filter(([k]) => k !== "kind" && k !== "seat"));
  return Object.keys(rest).length ? " " + JSON.stringify(rest) : "";
}
const SCORE_WHY = { play: "", go: " for the go", "last card": " for the last card", last: " for the last card",
  "his heels": " for his heels", hand: " for the hand", crib: " for the crib", domino: " for dominoing",
  blocked: " for the blocked hand", "own pips": " for the pips left in hand", "three for last": " for last (three for last)",
  "over-claim penalty": " (penalty for an over-announcement)" };
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
/** @returns {[string[], number]} */
function folded(evs, i, seat, reasons, skipScore) {
  /** @type {string[]} */
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
export function describeAt(evs, i) {
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
      let text = `Game over: ${won.length ? listText(won) + " won" : "a draw"} — ` + e.scores.map((s, k) => `${e.scores.length < state.last.view.players ? sideName(k) : seatName(k)} ${s}`).join(", ");
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
// The kinds of event that an action of a seat logs first (a play, a draw, a pass, a discard, a show, a
// late announcement, a call): the row that tells one is numbered with its move.
const MOVE_KINDS = new Set(["play", "draw", "pass", "knock", "go", "discard", "show", "claim", "muggins"]);
/** The move numbers (1 = the record's first action) a row of the log tells for the first time, from the
 * action index of each of its events. @param {any[]} evs @param {number} i @param {number} used
 * @param {Map<any, number | null>} actionOf @param {Set<number>} told @returns {number[]} */
function movesTold(evs, i, used, actionOf, told) {
  const out = [];
  for (let j = i; j < i + used && j < evs.length; j++) {
    const a = actionOf.get(evs[j]);
    if (a === null || a === undefined || told.has(a) || !MOVE_KINDS.has(evs[j].kind)) continue;
    if (evs[j].kind === "go" && evs[j].takes) continue;  // taking the go follows another's move
    told.add(a);
    out.push(a + 1);
  }
  return out;
}
export function renderLog() {
  const items = [];
  /** @type {Map<any, number | null>} */
  const actionOf = new Map(state.logEvents.map((e, k) => [e, state.eventActions[k] ?? null]));
  const told = new Set();
  const evs = displayOrder(state.logEvents);
  for (let i = 0; i < evs.length;) {
    const [rows, used] = describeAt(evs, i);
    const moves = movesTold(evs, i, Math.max(1, used), actionOf, told);
    rows.forEach((r, k) => {
      const n = k === 0 && moves.length ? (moves.length === 1 ? String(moves[0]) : `${moves[0]}–${moves[moves.length - 1]}`) : null;
      items.push(el("li", { class: r.cls + (n ? " numbered" : ""), "data-n": n, id: n ? `move-${moves[0]}` : null }, r.text));
    });
    i += Math.max(1, used);
  }
  const box = $("log");
  const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 30;
  box.replaceChildren(...items.slice(-600));
  if (atEnd || !box.dataset.seen) box.scrollTop = box.scrollHeight;
  box.dataset.seen = "1";
}
