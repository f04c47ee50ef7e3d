// Helpers every part of the page uses: building elements, and writing cards, counts and lists in words.

const SVGNS = "http://www.w3.org/2000/svg";

/** The element with this id (the page's fixed elements, looked up by id). @param {string} id @returns {any} */
export const $ = (id) => document.getElementById(id);

// A null, undefined or false attribute is left out (setAttribute would write the text "null"); true is
// written as a bare attribute.
/**
 * @param {string} tag @param {Record<string, any>} [attrs] @param {...(Node | string | null | undefined)} kids
 * @returns {HTMLElement}
 */
export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids) if (k !== null && k !== undefined && k !== "") e.append(k);
  return e;
}
/** @param {string} tag @param {Record<string, any>} [attrs] @returns {SVGElement} */
export function svg(tag, attrs = {}) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, v);
  return e;
}
/** @type {Record<string, string>} */
export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
/** A card code ("TS") as its face ("10♠"). @param {string} c @returns {string} */
export function cardText(c) {
  const m = /^(10|[2-9TJQKA])([SHDC])$/.exec(c || "");
  return m ? (m[1] === "T" ? "10" : m[1]) + SUITS[m[2]] : String(c);
}
// card codes inside a sentence from the engine ("fifteen 2D+4H+9H") written as cards
/** @param {string} text @returns {string} */
export function prettyCards(text) {
  return String(text).replace(/\b(10|[2-9TJQKA])([SHDC])\b/g, (_, r, s) => (r === "T" ? "10" : r) + SUITS[s]);
}
/** @param {string[] | null | undefined} cs @returns {string} */
export function cardsText(cs) { return (cs || []).map(cardText).join(" "); }
/** "1 point", "2 points". @param {number} n @param {string} one @param {string} [many] @returns {string} */
export function plural(n, one, many) { return `${n} ${n === 1 ? one : many || one + "s"}`; }
/** "a, b and c". @param {string[]} xs @returns {string} */
export function listText(xs) {
  if (xs.length <= 1) return xs.join("");
  return xs.slice(0, -1).join(", ") + " and " + xs[xs.length - 1];
}
/** @param {unknown} s @returns {string} */
export function words(s) { return String(s).replace(/_/g, " "); }
/** @param {number} n */
export function pts(n) { return plural(n, "point"); }

const NUMBERS = ["blank", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
  "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen"];
/** A tile as it is said: "5-3" is "five-three". @param {string} t @returns {string} */
export function tileName(t) {
  return String(t).split("-").map((n) => NUMBERS[Number(n)] ?? n).join("-");
}
const RANK_NAMES = { A: "ace", T: "ten", J: "jack", Q: "queen", K: "king", 10: "ten" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
/** A card as it is said: "TS" is "ten of spades". @param {string} c @returns {string} */
export function cardName(c) {
  const m = /^(10|[2-9TJQKA])([SHDC])$/.exec(c || "");
  if (!m) return String(c);
  return `${RANK_NAMES[m[1]] || NUMBERS[Number(m[1])]} of ${SUIT_NAMES[m[2]]}`;
}
