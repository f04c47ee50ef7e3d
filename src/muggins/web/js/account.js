// The account area of the header: log in, sign up and log out (accounts are optional: guests play as
// before). The session is an HttpOnly cookie the page never reads. A table's page asks for the seat the
// logged-in account holds there, so the seat comes back on any device.

import { $, el } from "./util.js";
import { tokenKey } from "./api.js";

/** @type {{ username: string } | null} */
let account = null;

/** A request of the account's own (a JSON body, any method); its error is the server's message.
 * @param {string} path @param {string} method @param {any} [body] @returns {Promise<any>} */
export async function call(path, method, body) {
  const r = await fetch(path, { method, headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) throw new Error((data && data.error) || r.statusText || `request failed (${r.status})`);
  return data;
}

function draw() {
  const box = $("account");
  if (account) {
    box.replaceChildren(el("a", { id: "account-name", href: `/players/${encodeURIComponent(account.username)}`,
      title: "My profile" }, account.username),
      el("button", { type: "button", id: "logout-btn", onclick: logOut }, "Log out"));
    return;
  }
  const user = el("input", { id: "login-user", placeholder: "username", autocomplete: "username",
    maxlength: "20", "aria-label": "Username" });
  const pass = el("input", { id: "login-pass", type: "password", placeholder: "password",
    autocomplete: "current-password", maxlength: "1024", "aria-label": "Password" });
  const err = el("span", { id: "login-err", class: "err", "aria-live": "polite" });
  /** @param {string} path @param {number} [min] */
  const send = (path, min = 0) => async () => {
    const u = /** @type {HTMLInputElement} */ (user).value, p = /** @type {HTMLInputElement} */ (pass).value;
    if (p.length < min) { err.textContent = `a password is at least ${min} characters`; return; }
    try { account = await call(path, "POST", { username: u, password: p }); draw(); }
    catch (e) { err.textContent = /** @type {Error} */ (e).message; }
  };
  const form = el("form", { id: "login-form", onsubmit: (/** @type {Event} */ ev) => { ev.preventDefault(); send("/api/session")(); } },
    user, pass, el("button", { type: "submit", id: "login-btn" }, "Log in"),
    el("button", { type: "button", id: "signup-btn", onclick: send("/api/account", 8) }, "Sign up"), err);
  box.replaceChildren(form);
}

async function logOut() {
  try { await call("/api/session", "DELETE"); } catch (e) { /* the cookie may be gone already */ }
  loggedOut();
}

/** The header shows a guest again (after logging out, or when the account is deleted). */
export function loggedOut() {
  account = null;
  draw();
}

/** @type {Promise<any> | null} */
let known = null;
/** Who is logged in, once the header has asked (null: a guest). @returns {Promise<{ username: string } | null>} */
export async function currentAccount() {
  if (known) await known;
  return account;
}

/** Who is logged in (null: a guest), asked once; the header shows it. @returns {Promise<any>} */
export function setupAccount() {
  known = (async () => {
    try { account = (await call("/api/session", "GET")).account; } catch (e) { account = null; }
    draw();
    return account;
  })();
  return known;
}

/** The seat the logged-in account holds at table ``id``, taken again under a fresh token and saved as
 * the page saves a seat it takes; false when there is none (a guest, or no seat of the account there).
 * @param {string} id @returns {Promise<boolean>} */
export async function reclaimSeat(id) {
  if (!account || localStorage.getItem(tokenKey(id))) return false;
  try {
    const mine = await call(`/api/tables/${id}/my-seat`, "GET");
    const r = await call(`/api/tables/${id}/seats/${mine.seat}`, "POST", {});
    localStorage.setItem(tokenKey(id), JSON.stringify({ seat: r.seat, token: r.token }));
    return true;
  } catch (e) {
    return false;
  }
}
