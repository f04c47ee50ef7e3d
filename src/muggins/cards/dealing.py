"""What the card games share before the first deal: reading the cards of a chance outcome, and the cut for
the deal (each player draws a card; the highest or lowest rank deals; tied players draw again)."""

from __future__ import annotations

import random
from typing import Any

from muggins.cards.deck import Card, full_deck, parse_card
from muggins.core.chance import Chance
from muggins.core.errors import RecordError, UnknownAction
from muggins.core.protocol import Event

DECK: tuple[Card, ...] = tuple(full_deck())
CARD_BY_TEXT: dict[str, Card] = {c.text: c for c in DECK}  # every card by its canonical text


def record_card(text: Any, what: str) -> Card:
    """A card of a chance outcome (its canonical text is looked up first: deals are read every round); a bad
    one is a RecordError naming where it was found."""
    c = CARD_BY_TEXT.get(text) if isinstance(text, str) else None
    if c is not None:
        return c
    if not isinstance(text, str):
        raise RecordError(f"{what}: {text!r} is not a card")
    try:
        return parse_card(text)
    except UnknownAction as e:
        raise RecordError(f"{what}: {e}") from None


def cut_for_deal(chance: Chance, log: list[Event], num_players: int, lowest: bool, kind: str) -> int:
    """The seat that deals first. Every seat draws a card (a chance outcome of ``kind``, logged as an event
    of that kind); the lowest rank deals when ``lowest`` else the highest (K high, A low); tied seats draw
    again."""
    seats = list(range(num_players))
    while True:
        k = len(seats)

        def make(rng: random.Random, k: int = k, seats: list[int] = seats) -> dict[str, Any]:
            return {"seats": list(seats), "cards": [c.text for c in rng.sample(DECK, k)]}

        out = chance.next(kind, make)
        raw = out.get("cards")
        if out.get("seats") != seats or not isinstance(raw, list) or len(raw) != k:
            raise RecordError(f"{kind} outcome {out!r} does not fit seats {seats}")
        cards = [record_card(t, "cut for deal") for t in raw]
        if len(set(cards)) != k:
            raise RecordError(f"{kind} outcome {out!r} repeats a card")
        log.append(Event(kind, None, {"seats": list(seats), "cards": [c.text for c in cards]}))
        ranks = [c.rank for c in cards]
        best = min(ranks) if lowest else max(ranks)
        tied = [s for s, r in zip(seats, ranks, strict=True) if r == best]
        if len(tied) == 1:
            return tied[0]
        seats = tied
