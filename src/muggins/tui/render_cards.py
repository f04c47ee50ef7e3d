"""Table panels for the card games: card Muggins (pile, running total, stock) and Cribbage (a board with
pegs, the play, the show explained)."""

from __future__ import annotations

from typing import Any

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card(text: str, ascii_only: bool) -> str:
    """``"10H"`` -> ``"10♥"`` (or unchanged in ASCII)."""
    if ascii_only or not text:
        return text
    return text[:-1] + SUITS.get(text[-1], text[-1])


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


def cribbage_lines(v: dict[str, Any], ascii_only: bool, names: list[str]) -> list[str]:
    """Board, starter and crib, the play with its count, and the shows with their explanation."""
    out = []
    for s, b in enumerate(v["board"]):
        track = peg_track(b["front"], b["back"], v["target"], 56, ascii_only)
        out.append(f"{names[s][:12]:<12} {track} {b['front']:>3}")
    starter = card(v["starter"], ascii_only) if v.get("starter") else "-"
    out.append(f"Hand {v['hand']}  dealer {names[v['dealer']]}  phase {v['phase']}  starter {starter}  "
               f"crib {v['crib_size']} cards")
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
            out.append(f"{head}: {sh['total']}  ({sh.get('explain', '')})")
        else:
            out.append(f"{head}: counting...")
    return out
