"""Table panels for the card games: card Muggins (pile, running total, stock) and Cribbage (a board with
pegs, the play, the show explained)."""

from __future__ import annotations

import re
from typing import Any

from muggins.core.protocol import Action, GameState
from muggins.tui.renderer import TerminalRenderer
from muggins.tui.text import HandEnd, fit_body, hand_start, scores_text, seat_name

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: A card's name in notation or in a sentence ("TS", "10S", "QH"): not part of a longer word.
CARD_TEXT = re.compile(r"(?<![\w-])(10|[A2-9TJQK])([CDHS])(?![\w-])")


def card(text: str, ascii_only: bool) -> str:
    """A card as the terminal names it everywhere: ``"TH"`` -> ``"10♥"``, or ``"10H"`` in ASCII."""
    if not text:
        return text
    rank = "10" if text[:-1] == "T" else text[:-1]
    return rank + (text[-1] if ascii_only else SUITS.get(text[-1], text[-1]))


def cards_in(text: str, ascii_only: bool) -> str:
    """Every card named in ``text`` (a move, a sentence) named as :func:`card` names it."""
    return CARD_TEXT.sub(lambda m: card(m.group(1) + m.group(2), ascii_only), text)


def possessive(name: str) -> str:
    """``"You"`` -> ``"Your"``, ``"North"`` -> ``"North's"``."""
    return "Your" if name == "You" else f"{name}'s"


def cards(texts: list[str], ascii_only: bool) -> str:
    return " ".join(card(t, ascii_only) for t in texts) or "-"


def card_muggins_lines(v: dict[str, Any], ascii_only: bool, names: list[str]) -> list[str]:
    """The pile in play with its running total against the cap, earlier piles of the round, the stock."""
    out = [f"Pile: {cards(v['pile'], ascii_only)}",
           f"Running total: {v['total']} of {v['cap']}    Stock: {v['stock']} cards    Round {v['round']}, "
           f"dealer {names[v['dealer']]}"]
    if v.get("earlier_piles"):
        out.append("Earlier piles: " + " / ".join(cards(p, ascii_only) for p in v["earlier_piles"][-3:]))
    if v.get("passed"):
        out.append("Passed: " + ", ".join(names[s] for s in v["passed"]))
    return out


def peg_track(front: int, back: int, target: int, width: int, ascii_only: bool) -> str:
    """One seat's row of the board: holes scaled to ``width``, the front peg and the back peg."""
    scale = max(1, -(-target // width))
    holes = ["." if ascii_only else "·"] * (target // scale + 1)
    if back > 0:
        holes[min(back // scale, len(holes) - 1)] = "o" if ascii_only else "○"
    holes[min(front // scale, len(holes) - 1)] = "*" if ascii_only else "●"
    return "".join(holes)


def board_lines(v: dict[str, Any], ascii_only: bool, names: list[str]) -> list[str]:
    """The pegboard: a track for each side, named by its players (partners together, "You & North")."""
    sides = v.get("sides") or list(range(len(v["board"])))
    labels = [" & ".join(names[s] for s in range(len(sides)) if sides[s] == k) for k in range(len(v["board"]))]
    width = min(max(len(x) for x in labels), 30)
    return [f"{label[:width]:<{width}} {peg_track(b['front'], b['back'], v['target'], 56, ascii_only)} "
            f"{b['front']:>3}" for label, b in zip(labels, v["board"], strict=True)]


def cribbage_lines(v: dict[str, Any], ascii_only: bool, names: list[str]) -> list[str]:
    """Board, starter and crib, the play with its count, and the shows with their explanation."""
    out = board_lines(v, ascii_only, names)
    starter = card(v["starter"], ascii_only) if v.get("starter") else "-"
    crib = f"crib {cards(v['crib'], ascii_only)}" if v.get("crib") else f"crib {v['crib_size']} cards"
    out.append(f"Hand {v['hand']}  dealer {names[v['dealer']]}  phase {v['phase']}  starter {starter}  {crib}")
    if v["phase"] in ("play", "pegging") or v.get("pile"):
        played = " ".join(f"{card(p['card'], ascii_only)}" for p in v["pile"]) or "-"
        out.append(f"The play: {played}   count {v['count']}")
    shows = v.get("shows") or []
    if not shows and v.get("previous_hand"):
        shows = v["previous_hand"]["shows"]
        out.append(f"Last hand's show (starter {card(v['previous_hand']['starter'], ascii_only)}):")
    for sh in shows[-3:]:
        what = "crib" if sh["what"] == "crib" else "hand"
        head = f"{possessive(names[sh['seat']])} {what} {cards(sh['cards'], ascii_only)}"
        if "total" in sh:
            out.append(f"{head}: {sh['total']}  ({cards_in(sh.get('explain', ''), ascii_only)})")
        else:
            out.append(f"{head}: counting...")
    return out


def card_muggins_end_lines(st: GameState, start: int, names: list[str], ascii_only: bool) -> list[str]:
    """The last piles of the round with their totals, and each seat's points of the round."""
    first = hand_start(st, start)
    piles = [e.to_dict(None) for e in st.log[first:] if e.kind == "pile_end"]
    lines = [f"{len(piles)} piles this round; the last ones:"]
    for p in piles[-3:]:
        lines.append(f"  {cards(p.get('cards', []), ascii_only)} = {p.get('total')}"
                     f" (last card: {seat_name(names, p.get('seat'))})")
    gained = [0] * st.num_players
    for e in st.log[first:]:
        if e.kind == "score":
            side = e.data.get("side")
            if isinstance(side, int) and 0 <= side < len(gained):
                gained[side] += int(e.data.get("points", 0))
    lines.append("Points this round: " + scores_text(gained, names))
    return lines


def cribbage_end_lines(st: GameState, names: list[str], ascii_only: bool) -> list[str]:
    """The board and every show of the hand with its explanation."""
    v = st.view(None).to_json()
    prev = v.get("previous_hand") if not st.is_over() else None
    shows = prev["shows"] if prev else v.get("shows") or []
    starter = prev["starter"] if prev else v.get("starter")
    lines = board_lines(v, ascii_only, names)
    lines.append(f"Starter {card(starter, ascii_only) if starter else '-'}")
    for sh in shows:
        what = "crib" if sh["what"] == "crib" else "hand"
        head = f"{possessive(names[sh['seat']])} {what} {cards(sh['cards'], ascii_only)}"
        explain = cards_in(sh.get("explain", ""), ascii_only)
        lines.append(f"{head}: {sh['total']}  ({explain})" if "total" in sh else head)
    return lines


class CardRenderer(TerminalRenderer):
    """Cards with their suits; the cards kept from a hand shown beside the hand."""

    shows_other_events = False

    def piece_words(self, pieces: list[str], ascii_only: bool) -> list[str]:
        return [card(c, ascii_only) for c in pieces]

    def text(self, text: str, ascii_only: bool) -> str:
        return cards_in(text, ascii_only)

    def hand_words(self, v: dict[str, Any], ascii_only: bool) -> list[str]:
        words = super().hand_words(v, ascii_only)
        kept = v.get("my_kept")
        if kept and kept != v.get("my_hand"):
            words = (words or ["-"]) + ["  kept:"] + [card(c, ascii_only) for c in kept]
        return words


class CardMugginsRenderer(CardRenderer):
    """Card Muggins: the pile with its running total against the cap; a round's end shows its piles."""

    def body(self, st: GameState, v: dict[str, Any], names: list[str], width: int, rows: int,
             ascii_only: bool, hints: bool) -> list[str]:
        return fit_body(card_muggins_lines(v, ascii_only, names), width, rows)

    def hand_end(self, st: GameState, before: GameState, seat: int, action: Action, start: int,
                 number: int, names: list[str], ascii_only: bool) -> HandEnd:
        return HandEnd(number, "Round", card_muggins_end_lines(st, start, names, ascii_only), start)


class CribbageRenderer(CardRenderer):
    """Cribbage: the pegboard, the play with its count and the shows explained."""

    def body(self, st: GameState, v: dict[str, Any], names: list[str], width: int, rows: int,
             ascii_only: bool, hints: bool) -> list[str]:
        return fit_body(cribbage_lines(v, ascii_only, names), width, rows)

    def hand_end(self, st: GameState, before: GameState, seat: int, action: Action, start: int,
                 number: int, names: list[str], ascii_only: bool) -> HandEnd:
        return HandEnd(number, "Hand", cribbage_end_lines(st, names, ascii_only), start)
