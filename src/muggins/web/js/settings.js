// What a logged-in player manages on his own profile: his password, the deletion of his account (his games
// stay, under a name that is not his), and his bots for the bot API with their tokens (a token's secret is
// shown once, when it is made; the list shows the others without it).

import { el } from "./util.js";
import { call, loggedOut } from "./account.js";

const MIN_PASSWORD = 8;
const WRONG = "wrong username or password";  // the server's answer to a wrong password

/** The server's message, said for the one who is logged in. @param {unknown} e @returns {string} */
function why(e) {
  const m = /** @type {Error} */ (e).message;
  return m === WRONG ? "That is not your current password." : m;
}

/** @param {string} id @param {string} label @param {Record<string, any>} [attrs] @returns {HTMLInputElement} */
function field(id, label, attrs = {}) {
  return /** @type {HTMLInputElement} */ (el("input", { id, "aria-label": label, placeholder: label, ...attrs }));
}
/** @param {string} id @returns {[HTMLElement, (text: string) => void]} a message line and its writer */
function note(id) {
  const p = el("p", { id, class: "err", role: "alert" });
  return [p, (text) => { p.textContent = text; }];
}
/** A form whose submit runs ``act``. @param {string} id @param {() => Promise<void>} act @param {...(Node|string)} kids */
function form(id, act, ...kids) {
  return el("form", { id, class: "settings-form", onsubmit: (/** @type {Event} */ ev) => { ev.preventDefault(); act(); } }, ...kids);
}

/** Change the password: the current one, and the new one twice. @returns {HTMLElement} */
function passwordForm() {
  const old = field("pw-old", "Current password", { type: "password", autocomplete: "current-password", maxlength: "1024" });
  const pw = field("pw-new", "New password", { type: "password", autocomplete: "new-password", maxlength: "1024" });
  const again = field("pw-again", "New password again", { type: "password", autocomplete: "new-password", maxlength: "1024" });
  const [err, say] = note("pw-err");
  const done = el("p", { id: "pw-done", role: "status" });
  const act = async () => {
    say(""); done.textContent = "";
    if (pw.value.length < MIN_PASSWORD) { say(`A password is at least ${MIN_PASSWORD} characters.`); return; }
    if (pw.value !== again.value) { say("The two new passwords differ."); return; }
    try {
      await call("/api/account/password", "POST", { password: old.value, new_password: pw.value });
    } catch (e) { say(why(e)); return; }
    old.value = pw.value = again.value = "";
    done.textContent = "Password changed. Your other devices are logged out; this one stays logged in.";
  };
  return form("password-form", act, el("h3", {}, "Change my password"), old, pw, again,
    el("button", { type: "submit", id: "pw-btn" }, "Change password"), err, done);
}

/** Delete the account, confirmed by typing its name and its password. @param {string} name @param {HTMLElement} box */
function deleteForm(name, box) {
  const typed = field("del-name", "Your username, to confirm", { autocomplete: "off", maxlength: "40" });
  const pw = field("del-pass", "Password", { type: "password", autocomplete: "current-password", maxlength: "1024" });
  const [err, say] = note("del-err");
  const act = async () => {
    say("");
    if (typed.value !== name) { say(`Type your username, ${name}, to confirm.`); return; }
    let r;
    try { r = await call("/api/account", "DELETE", { password: pw.value }); } catch (e) { say(why(e)); return; }
    loggedOut();
    box.replaceChildren(el("h2", {}, "Account deleted"), el("p", { id: "deleted-msg", role: "status" },
      `The account ${r.deleted} is deleted and you are logged out. Its games are kept under the name “${r.shown_as}”.`),
    el("p", {}, el("a", { href: "/" }, "Back to the lobby")));
  };
  return form("delete-form", act, el("h3", {}, "Delete my account"),
    el("p", { class: "help" }, "This removes your account and logs you out. Your finished games stay in the archive, " +
      "with your name replaced. It cannot be undone."), typed, pw,
    el("button", { type: "submit", id: "del-btn", class: "danger" }, "Delete my account"), err);
}

/** @param {number} t seconds since 1970 @returns {string} */
function when(t) { return t ? new Date(t * 1000).toISOString().slice(0, 16).replace("T", " ") : "never"; }

/** One bot: its tokens (without their secrets), a Revoke button each, and a form for a new token.
 * @param {string} bot @returns {Promise<HTMLElement>} */
async function botItem(bot) {
  const item = el("li", { class: "bot", "data-bot": bot }, el("h4", {}, bot));
  const [err, say] = note(`tok-err-${bot}`);
  const shown = el("div", { class: "new-token" });
  const list = el("ul", { class: "tokens", "aria-label": `Tokens of ${bot}` });
  const draw = async () => {
    let tokens;
    try { tokens = (await call(`/api/bot/accounts/${encodeURIComponent(bot)}/tokens`, "GET")).tokens; } catch (e) { say(why(e)); return; }
    list.replaceChildren(...tokens.map((/** @type {any} */ t) => el("li", { "data-token": String(t.id) },
      `${t.label || "(no label)"} — made ${when(t.created)}, last used ${when(t.last_used)} `,
      el("button", { type: "button", class: "revoke", "aria-label": `Revoke the token ${t.label || t.id} of ${bot}`, onclick: async () => {
        say("");
        try { await call(`/api/bot/tokens/${t.id}`, "DELETE"); } catch (e) { say(why(e)); return; }
        shown.replaceChildren();
        await draw();
      } }, "Revoke"))));
    if (!tokens.length) list.replaceChildren(el("li", {}, "No tokens."));
  };
  const label = field(`tok-label-${bot}`, `Label of a new token of ${bot}`, { maxlength: "40" });
  const make = async () => {
    say("");
    let t;
    try { t = await call(`/api/bot/accounts/${encodeURIComponent(bot)}/tokens`, "POST", { label: label.value }); } catch (e) { say(why(e)); return; }
    label.value = "";
    const secret = /** @type {HTMLInputElement} */ (el("input", { readonly: true, value: t.token, class: "token-secret",
      "aria-label": `New token of ${bot}` }));
    const copied = el("span", { class: "copied", role: "status" });
    const copy = async () => {
      try { await navigator.clipboard.writeText(t.token); copied.textContent = "Token copied."; } catch (e) {
        secret.select(); copied.textContent = "Select the token and copy it (Ctrl+C).";
      }
    };
    shown.replaceChildren(el("p", {}, "Copy this token now: it is shown only this once. ",
      "Give it to your program as Authorization: Bearer TOKEN."), secret,
    el("button", { type: "button", class: "copy-token", onclick: copy }, "Copy"), copied);
    secret.select();
    await draw();
  };
  item.append(list, form(`tok-form-${bot}`, make, label, el("button", { type: "submit", class: "make-token" }, "Make a token")),
    shown, err);
  await draw();
  return item;
}

/** The player's bots, and a form to make one. @returns {Promise<HTMLElement>} */
async function botsSection() {
  const section = el("section", { id: "my-bots", "aria-labelledby": "my-bots-title" },
    el("h3", { id: "my-bots-title" }, "My bots"),
    el("p", { class: "help" }, "A bot account plays through the bot API (see docs/bot-api.md) with a token you make here."));
  const list = el("ul", { id: "bot-list" });
  const [err, say] = note("bot-err");
  const draw = async () => {
    let bots;
    try { bots = (await call("/api/bot/accounts", "GET")).bots; } catch (e) { say(why(e)); return; }
    list.replaceChildren(...await Promise.all(bots.map((/** @type {any} */ b) => botItem(b.username))));
    if (!bots.length) list.replaceChildren(el("li", {}, "No bots yet."));
  };
  const name = field("bot-name", "Name of a new bot", { maxlength: "20", autocomplete: "off" });
  const make = async () => {
    say("");
    try { await call("/api/bot/accounts", "POST", { username: name.value }); } catch (e) { say(why(e)); return; }
    name.value = "";
    await draw();
  };
  section.append(list, form("bot-form", make, name, el("button", { type: "submit", id: "bot-btn" }, "Make a bot")), err);
  await draw();
  return section;
}

/** The settings of the logged-in player, shown on his own profile. @param {string} name @param {HTMLElement} box
 * the profile (replaced when the account is deleted) @returns {Promise<HTMLElement>} */
export async function accountSettings(name, box) {
  return el("section", { id: "settings", "aria-labelledby": "settings-title" },
    el("h2", { id: "settings-title" }, "My account"), passwordForm(), await botsSection(), deleteForm(name, box));
}
