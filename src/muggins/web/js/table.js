// The table: the join page, and at play the status line, the scores, the Muggins! notice, the board (drawn
// by the game's own board module, or the generic view), the controls, the hint and the log.

import { state } from "./state.js";
import { $, el, listText, plural, words, cardText, cardsText, prettyCards } from "./util.js";
import { api, connect, getJSON, send, tokenKey } from "./api.js";
import { presetInfo, gameTitle } from "./lobby.js";
import { seatName, isMe, poss, sideSeats, sideName, hasMuggins, waitingFor, regularMoves } from "./names.js";
import { boardFor } from "./boards.js";
import { myTileMoves } from "./domino-board.js";
import { discardCount } from "./card-table.js";
import { renderLog } from "./log.js";
import { renderHandEnd } from "./handend.js";
import { renderSeatActions, redeemFromHash } from "./seat.js";
import { renderClock } from "./clock.js";

export async function showTable(id) {
  clearTimeout(state.lobbyTimer);
  $("lobby").hidden = true; $("table").hidden = false;
  state.tableId = id;
  if (await redeemFromHash(id)) return;
  const saved = JSON.parse(localStorage.getItem(tokenKey(id)) || "null");
  if (saved) { state.me = saved.seat; connect(saved.token); return; }
  let t;
  try {
    t = await api("/api/tables/" + id);
    if (!state.catalogue) state.catalogue = await api("/api/games");
  } catch (e) {
    $("join").hidden = false; $("play").hidden = true;
    $("join").replaceChildren(el("p", { class: "err" }, e.message), el("a", { href: "/" }, "Back to the lobby"));
    return;
  }
  $("join").hidden = false; $("play").hidden = true;
  $("share").value = location.href;
  $("join-title").textContent = `${gameTitle(t.game)}: ${t.preset}`;
  $("join-desc").textContent = tableDescription(t);
  $("join-err").textContent = "";
  $("name").value = localStorage.getItem("muggins-name") || "";
  const open = t.seats.some((s) => s.open);
  $("name-box").hidden = !open;
  $("seatlist").replaceChildren(...t.seats.map((s, i) => s.open
    ? el("button", { class: "primary take", "data-seat": i, onclick: () => takeSeat(i) }, `Take seat ${i + 1}`)
    : el("span", { class: "taken" }, ` Seat ${i + 1}: ${s.name} `)));
  $("watch").textContent = t.status === "finished" ? "See the finished game" : "Watch as a spectator";
  $("watch").onclick = () => { state.me = null; connect(null); };
}
// The preset's description, with the table's own target where the table was made to another one.
function tableDescription(t) {
  const g = state.catalogue ? state.catalogue.games.find((x) => x.name === t.game) : null;
  if (!g) return "";
  const info = presetInfo(g, t.preset);
  const presetTarget = info.all && info.all.target !== undefined ? Number(info.all.target) : null;
  const target = t.options && t.options.target !== undefined ? Number(t.options.target) : presetTarget;
  let text = info.description || "";
  if (target !== null && presetTarget !== null && target !== presetTarget) {
    text = text.replace(new RegExp(`\\b${presetTarget}\\b`, "g"), String(target));
  }
  return text + (target !== null ? ` This table plays to ${target} points.` : "");
}
async function takeSeat(i) {
  const name = $("name").value.trim();
  if (!name) {
    $("join-err").textContent = "Type your name first: the other players see it at the table.";
    $("name").focus();
    return;
  }
  $("join-err").textContent = "";
  try {
    const r = await api(`/api/tables/${state.tableId}/seats/${i}`, { name });
    localStorage.setItem(tokenKey(state.tableId), JSON.stringify({ seat: i, token: r.token }));
    localStorage.setItem("muggins-name", name);
    state.me = i; connect(r.token);
  } catch (e) {
    await showTable(state.tableId);
    $("join-err").textContent = e.message;
  }
}
export function render() {
  const focus = focusKey(document.activeElement);
  const v = state.last.view, t = state.last.table;
  const waiting = waitingFor(v);
  let status;
  if (v.over) {
    const won = v.winners.map(seatName);
    status = "Game over: " + (won.length ? listText(won) + " won" : "a draw");
  } else if (t.status === "resigned") {
    status = `Game over: ${seatName(t.resigned)} resigned; ` + listText(t.winners.map(seatName)) + " won";
  } else if (t.status === "open") status = "Waiting for players…";
  else if (state.me !== null && waiting.includes(state.me)) status = "Your turn" + turnHint(v);
  else status = "Waiting for " + listText(waiting.map(seatName)) + hintFor(v, waiting);
  $("status").textContent = status + (state.me === null ? " (watching)" : "");
  $("invite").hidden = t.status !== "open";
  if (t.status === "open") $("invite-link").value = location.origin + "/t/" + t.id;
  $("status").className = state.me !== null && waiting.includes(state.me) && !v.over ? "mine" : "";
  document.title = (state.me !== null && waiting.includes(state.me) && !v.over ? "▶ " : "") + "Muggins";
  const nsides = v.scores.length;
  $("scores").replaceChildren(...v.scores.map((s, k) => {
    const seats = nsides < v.players ? sideSeats(k) : [k];
    return el("span", { class: "score" + (seats.some((i) => waiting.includes(i)) ? " turn" : "") },
      `${nsides < v.players ? sideName(k) : seatName(k)}: ${s}`);
  }), el("span", { class: "score target" }, `target ${v.target}`), t.rated ? el("span", { class: "score rated", id: "rated-mark" }, "Rated") : "");
  renderWindow();
  const draw = boardFor(state.last.renderer) || renderGeneric;
  draw(v);
  renderControls(v);
  renderLog();
  $("record-link").replaceChildren(...(v.over ? [el("a", { href: `/api/tables/${state.tableId}/record`, download: "" }, "Download the game record")] : []));
  renderHint(v);
  renderHandEnd();
  renderSeatActions();
  $("analysis-box").hidden = !(v.over && t.status === "finished");
  renderGraceTimer();
  renderClock();
  restoreFocus(focus);
}

// What has the keyboard's focus, as a selector that finds the same thing once the table is drawn again.
/** @param {Element | null} e @returns {string | null} */
function focusKey(e) {
  if (!e || e === document.body || !(e instanceof Element)) return null;
  if (e.id) return "#" + CSS.escape(e.id);
  const box = e.parentElement && e.parentElement.closest("[id]");
  if (!box) return null;
  for (const a of ["data-tile", "data-card", "data-move", "data-lead"]) {
    if (e.hasAttribute(a)) return `#${CSS.escape(box.id)} [${a}="${CSS.escape(e.getAttribute(a))}"]`;
  }
  return null;
}
/** @param {string | null} key */
function restoreFocus(key) {
  if (!key) return;
  let e = /** @type {HTMLElement | null} */ (document.querySelector(key));
  // the piece that had it was played: the next thing to do has it
  if (!e || e.getClientRects().length === 0) e = document.querySelector("#myhand [tabindex='0'], #moves button, #muggins-btn:not([disabled])");
  if (e && document.activeElement !== e) e.focus({ preventScroll: true });
}

// The Muggins! grace period, counted down on screen: it starts from the server's grace_left, which is the
// same after every play that may be called on, so the countdown tells nothing of what the play was worth.
/** @type {ReturnType<typeof setInterval> | undefined} */
let graceTick;
function renderGraceTimer() {
  const box = $("grace-timer");
  const show = state.graceEnd !== null && !state.last.view.over && !!state.last.view.window;
  box.hidden = !show;
  clearInterval(graceTick);
  if (!show) return;
  const total = Math.max(Number(state.last.table.grace) || 0, 0.1);
  const tick = () => {
    const left = Math.max(0, (state.graceEnd - performance.now()) / 1000);
    $("grace-left").textContent = `Muggins! may be called for ${left.toFixed(1)} s more`;
    $("grace-fill").style.width = `${Math.min(100, (100 * left) / total)}%`;
    box.dataset.left = left.toFixed(1);
    if (left <= 0) { clearInterval(graceTick); box.hidden = true; }
  };
  tick();
  graceTick = setInterval(tick, 100);
}

function renderHint(v) {
  const t = state.last.table, box = $("hint-box");
  const mine = t.hints && state.me !== null && state.myToken && !v.over && t.status === "playing" && waitingFor(v).includes(state.me);
  if (!mine) { box.hidden = true; return; }
  box.hidden = false;
  if (state.hintAt === t.actions) return;
  const at = state.hintAt = t.actions;
  box.textContent = "Hint: thinking…";
  getJSON(`/api/tables/${state.tableId}/hint`).then((h) => {
    if (state.hintAt !== at || !state.last || state.last.table.actions !== h.index) return;
    const parts = [];
    if (h.count !== null && h.count !== undefined) parts.push(`count of the ends ${h.count}`);
    if (h.move) parts.push(`the bot would ${prettyCards(h.phrase || h.move)}, expecting ${h.points >= 0 ? "+" : ""}${h.points.toFixed(1)} points to the end of the hand`);
    box.textContent = "Hint: " + (parts.length ? parts.join("; ") : "nothing to suggest here") + ".";
  }, (e) => { if (state.hintAt === at) box.textContent = "No hint: " + e.message; });
}
function turnHint(v) {
  if (state.last.renderer === "pegboard") {
    if (v.phase === "discard") return ": choose " + plural(discardCount(v), "card") + " for the crib";
    if (v.phase === "show") return ": count " + (regularMoves(v).includes("count crib") ? "the crib" : "your hand");
  }
  return "";
}
function hintFor(v, waiting) {
  if (state.last.renderer === "pegboard" && v.phase === "discard") return " to discard";
  if (state.last.renderer === "pegboard" && v.phase === "show") return " to count";
  return waiting.length ? " to play" : "";
}
// The notice of an open muggins window: only what is public (who scored, what they announced), the same
// text whatever the play was worth.
function renderWindow() {
  const v = state.last.view, bar = $("grace-bar"), w = v.window;
  const show = w && hasMuggins() && !v.over;
  bar.hidden = !show;
  if (!show) return;
  const what = { play: "played", go: "took the go", hand: `showed ${poss(w.scorer)} hand`, crib: "showed the crib",
    domino: "dominoed" }[w.reason] || "played";
  const said = w.claimed !== null && w.claimed !== undefined ? `announced ${w.claimed}` : "announced nothing";
  const mayCall = (v.legal || []).includes("muggins");
  let tail;
  if (mayCall) tail = " — if you think points were missed, you may call Muggins! before the next play.";
  else if (isMe(w.scorer)) tail = " — an opponent may call Muggins! until the next play.";
  else tail = " — an opponent of theirs may call Muggins! until the next play.";
  bar.textContent = `${seatName(w.scorer)} ${what} and ${said}${tail}`;
  if (w.scorer_may_claim && isMe(w.scorer)) bar.textContent += " You may still announce your points (type them and press Announce).";
}
export function moveLabel(m) {
  const w = m.split(" ");
  if (/^\d+-\d+$/.test(w[0])) {
    if (w.length === 1) return `Lead ${w[0]}`;
    if (w[3] === "side") return `Play ${w[0]} on the side of ${w[2]}`;
    if (w[3] === "end") return `Play ${w[0]} on the end of ${w[2]}`;
    return `Play ${w[0]} on ${w[2]}` + (w[3] ? ` (${w[3]})` : "");
  }
  if (w[0] === "play") return `Play ${cardText(w[1])}`;
  if (w[0] === "discard") return `Discard ${cardsText(w.slice(1))}`;
  return { draw: "Draw a tile", pass: "Pass", knock: "Knock", go: "Go", "count hand": "Count your hand",
    "count crib": "Count the crib", claim: "Announce late", muggins: "Muggins!" }[m] || m;
}
// A game with no renderer of its own: every public field of the view, the seat's own pieces when the
// view holds a hand, and (in the controls) a button for every legal move.
const SHOWN_ELSEWHERE = new Set(["game", "preset", "seat", "players", "scores", "target", "turn", "to_act",
  "waiting_for", "legal", "my_hand", "hand_sizes", "claims", "window", "over", "winners"]);
const SEAT_FIELDS = new Set(["dealer", "leader", "last_player", "first", "starter_seat"]);
function fieldText(key, value) {
  if (SEAT_FIELDS.has(key) && Number.isInteger(value)) return seatName(value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number" || typeof value === "string") return String(value);
  if (Array.isArray(value) && value.every((x) => typeof x === "number" || typeof x === "string")) return value.join(" ") || "-";
  return JSON.stringify(value);
}
function renderGeneric(v) {
  const rows = Object.keys(v).filter((k) => !SHOWN_ELSEWHERE.has(k)).map((k) =>
    el("div", { class: "field", "data-field": k }, el("span", { class: "lbl" }, words(k) + ": "), fieldText(k, v[k])));
  $("board").replaceChildren(el("div", { class: "generic", id: "generic" }, ...rows));
  const noun = state.last.piece_noun || ["piece", "pieces"];
  $("hands").replaceChildren(...(v.hand_sizes || []).map((n, i) => i === state.me ? "" : el("div", { class: "hand other" },
    `${seatName(i)}: ${n} ${n === 1 ? noun[0] : noun[1]}`)));
  const mine = (v.my_hand || []).map((p) => el("span", { class: "piece" }, String(p)));
  $("myhand").replaceChildren(...(mine.length ? [el("div", {}, `Your ${noun[1]}:`), el("div", { class: "hand", id: "my-pieces" }, ...mine)] : []));
  $("explain").replaceChildren();
}
// The fields of an event the log has no sentence for, as JSON.
// The most one play can score at this table: the server's bound of every announcement (claim_bound).
function claimBound() {
  const b = state.last && state.last.claim_bound;
  return Number.isInteger(b) ? b : null;
}
/** The points typed in the Announce box: null when it is empty (nothing announced); undefined when the
 * text is not a score one play can make: then a message says why, beside the box, and what was typed stays.
 * @returns {number | null | undefined} */
export function readClaim() {
  const box = $("claim"), text = String(box.value).trim(), bound = claimBound();
  $("claim-err").textContent = "";
  box.removeAttribute("aria-invalid");
  if ($("claim-box").hidden || text === "") return null;
  const most = bound !== null ? `at most ${plural(bound, "point")} — the most one play can score in this game` : "";
  let why = null;
  if (/^[-−]\s*\d/.test(text)) why = `“${text}” is below zero: announce the points your play makes, 0 or more`;
  else if (/^\d*[.,]\d+$/.test(text)) why = `“${text}” is not a whole number: points are counted whole`;
  else if (!/^\d+$/.test(text)) why = `“${text}” is not a number: type the points your play makes, in figures`;
  else if (bound !== null && Number(text) > bound) why = `${text} is too many: you can announce ${most}`;
  if (why === null) return Number(text);
  $("claim-err").textContent = why + (most && !why.includes(most) ? ` (${most}).` : ".");
  box.setAttribute("aria-invalid", "true");
  box.focus();
  return undefined;
}
/** Play ``move`` with what the Announce box holds; nothing is sent when that is refused.
 * @param {string} move @returns {boolean} whether it was sent */
export function playMove(move) {
  const claim = readClaim();
  if (claim === undefined) return false;
  if (!send(move, claim)) return false;
  $("claim").value = "";
  return true;
}
function renderControls(v) {
  const legal = ["abandoned", "resigned"].includes(state.last.table.status) ? [] : v.legal || [];
  // nothing is announced while discarding to the crib: the box and its help are hidden then
  const discarding = v.phase === "discard" || legal.some((m) => m.startsWith("discard "));
  const manual = v.claims === "manual" && state.me !== null && !v.over && !discarding;
  $("claim-box").hidden = !manual;
  if (!manual) $("claim-err").textContent = "";
  const buttons = [];
  // a game's own renderer plays pieces by clicking them; the generic one has a button for every move
  const own = boardFor(state.last.renderer) !== undefined;
  const isPiece = (m) => own && (/^\d+-\d+/.test(m) || m.startsWith("play ") || m.startsWith("discard "));
  for (const m of legal) {
    if (m === "muggins" || isPiece(m)) continue;
    const onclick = m === "claim"
      ? () => {
        const c = readClaim();
        if (c === null) $("claim-err").textContent = "Type your points in the Announce box first.";
        else if (c !== undefined && send("claim", c)) $("claim").value = "";
      }
      : () => playMove(m);
    buttons.push(el("button", { type: "button", class: "move", "data-move": m, onclick }, moveLabel(m)));
  }
  if (state.last.renderer === "domino-layout" && state.selected.length) {
    for (const m of myTileMoves(v, state.selected[0])) buttons.push(el("button", { type: "button", class: "move primary", "data-move": m,
      onclick: () => playMove(m) }, moveLabel(m)));
  }
  const discards = legal.filter((m) => m.startsWith("discard "));
  if (discards.length) {
    const need = discards[0].split(" ").length - 1;
    const pick = state.selected.length === need ? discards.find((m) => { const cs = m.split(" ").slice(1); return cs.every((c) => state.selected.includes(c)); }) : null;
    buttons.push(el("button", { type: "button", class: "move primary", id: "discard-btn", disabled: !pick, "data-move": pick || null,
      onclick: () => { if (pick) send(pick); } },
      `Discard ${need} to the crib` + (pick ? `: ${cardsText(pick.split(" ").slice(1))}` : ` (choose ${need})`)));
  }
  $("moves").replaceChildren(...buttons);
  const mb = $("muggins-btn"), rule = hasMuggins();
  mb.hidden = state.me === null || !rule || v.over;
  const canCall = legal.includes("muggins");
  mb.disabled = !canCall;
  mb.onclick = () => send("muggins");
  $("muggins-note").hidden = mb.hidden;
  $("muggins-note").textContent = canCall ? "You may call Muggins! now" : "";
  $("help-muggins").hidden = !manual;
}
