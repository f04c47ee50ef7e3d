// What a seated player does besides playing: leave the seat, resign, continue on another device (a
// one-time link whose code is in the fragment, never sent in a request's address), and the rematch with
// its invite link.

import { state } from "./state.js";
import { $, el } from "./util.js";
import { api, authHeaders, connect, tokenKey } from "./api.js";

/** @param {string} path @param {string} [method] @returns {Promise<any>} */
async function seatPost(path, method = "POST") {
  const r = await fetch(path, { method, headers: { ...authHeaders() } });
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) throw new Error((data && data.error) || r.statusText || `request failed (${r.status})`);
  return data;
}

/** A link of another device (/t/ID#seat=CODE): the seat is redeemed and this page plays it. @param {string} id */
export async function redeemFromHash(id) {
  const m = /(?:^#|&)seat=([\w-]+)/.exec(location.hash);
  if (!m) return false;
  history.replaceState(null, "", location.pathname);  // the code is spent: it leaves the address bar
  try {
    const r = await api(`/api/tables/${id}/redeem`, { code: m[1] });
    localStorage.setItem(tokenKey(id), JSON.stringify({ seat: r.seat, token: r.token }));
    state.me = r.seat;
    connect(r.token);
    $("seat-msg").textContent = "Your seat moved to this device.";
  } catch (e) {
    state.tableId = id;
    $("play-err").textContent = e.message;
    return false;
  }
  return true;
}

/** @param {string} text */
function say(text) { $("seat-msg").textContent = text; }

/** @param {string} link */
function copyRow(link) {
  const input = el("input", { readonly: true, value: link, class: "invite", "aria-label": "Link" });
  return el("span", {}, input, el("button", { type: "button", class: "copy", onclick: async () => {
    try { await navigator.clipboard.writeText(link); say("Link copied."); } catch (e) {
      /** @type {any} */ (input).select(); say("Select the link and copy it.");
    }
  } }, "Copy"));
}

export function forgetSeat() {
  localStorage.removeItem(tokenKey(state.tableId));
  state.myToken = null; state.me = null;
}

async function leave() {
  const playing = state.last.table.status === "playing" && state.last.table.actions > 0;
  if (playing && !confirm("Leaving during the game is resigning it. Resign?")) return;
  try {
    const r = await seatPost(`/api/tables/${state.tableId}/leave`);
    forgetSeat();
    say(r.outcome === "resigned" ? "You resigned the game." : "You left your seat; you are watching.");
  } catch (e) { say(e.message); }
}
async function resign() {
  if (!confirm("Resign this game? It ends now, lost by your side.")) return;
  try { await seatPost(`/api/tables/${state.tableId}/resign`); say("You resigned the game."); } catch (e) { say(e.message); }
}
async function handoff() {
  try {
    const r = await seatPost(`/api/tables/${state.tableId}/handoff`);
    const link = location.origin + r.link;
    $("seat-extra").replaceChildren(el("p", {}, "Open this link on the other device (it works once, for 10 minutes; "
      + "this page then watches): "), copyRow(link),
      el("button", { type: "button", onclick: async () => {
        await seatPost(`/api/tables/${state.tableId}/handoff`, "DELETE");
        $("seat-extra").replaceChildren(); say("The link no longer works.");
      } }, "Revoke"));
  } catch (e) { say(e.message); }
}
async function rematch() {
  try {
    const r = await seatPost(`/api/tables/${state.tableId}/rematch`);
    localStorage.setItem(tokenKey(r.table.id), JSON.stringify({ seat: r.seat, token: r.token }));
    const link = location.origin + r.link;
    $("seat-extra").replaceChildren(el("p", {}, "Rematch ready. Invite: "), copyRow(link),
      el("a", { href: r.link, id: "go-rematch", class: "button" }, "Go to the rematch"));
  } catch (e) { say(e.message); }
}

/** The seat's buttons, drawn with the table: Leave, Resign and Another device in play; Rematch and
 * Replay when the game has ended. */
export function renderSeatActions() {
  const t = state.last.table, v = state.last.view;
  const ended = ["finished", "abandoned", "resigned"].includes(t.status);
  const seated = state.me !== null && !!state.myToken;
  const kids = [];
  if (seated && !ended) {
    kids.push(el("button", { type: "button", id: "leave-btn", onclick: leave }, "Leave"));
    if (t.status === "playing") kids.push(el("button", { type: "button", id: "resign-btn", onclick: resign }, "Resign"));
    kids.push(el("button", { type: "button", id: "handoff-btn", onclick: handoff }, "Continue on another device"));
  }
  if (ended && seated) kids.push(el("button", { type: "button", id: "rematch-btn", class: "primary", onclick: rematch }, "Rematch"));
  if (ended || seated) kids.push(el("a", { href: `/t/${state.tableId}/replay`, id: "replay-link" },
    ended ? "Replay" : "Replay my game so far"));
  if (t.status === "resigned") kids.push(el("span", { class: "note" }, ` Resigned by ${t.seats[t.resigned].name}.`));
  if (t.rematch && !seated) kids.push(el("a", { href: `/t/${t.rematch}` }, " Rematch table"));
  $("seat-actions").replaceChildren(...kids);
  if (v && !ended && !seated) $("seat-extra").replaceChildren();
}
