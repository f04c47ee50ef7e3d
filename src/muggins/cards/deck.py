"""Playing cards: small interned values. Ranks A 2-9 T J Q K, suits C D H S; ``5H`` is the five of hearts."""

from __future__ import annotations

from typing import Any

from muggins.core.errors import UnknownAction

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


class Card:
    """A card. ``rank`` 1 (ace) .. 13 (king); ``value`` is its counting value (face cards 10)."""

    __slots__ = ("index", "rank", "suit", "text", "value")

    _cache: dict[tuple[int, str], Card] = {}

    rank: int
    suit: str
    value: int
    index: int
    text: str

    def __new__(cls, rank: int, suit: str) -> Card:
        return cls.of(rank, suit)

    @classmethod
    def of(cls, rank: int, suit: str) -> Card:
        c = cls._cache.get((rank, suit))
        if c is None:
            if not 1 <= rank <= 13 or suit not in SUITS:
                raise ValueError(f"no such card {rank}{suit}")
            c = object.__new__(cls)
            c.rank, c.suit = rank, suit
            c.value = min(rank, 10)
            c.index = (rank - 1) * 4 + SUITS.index(suit)
            c.text = RANKS[rank - 1] + suit
            cls._cache[(rank, suit)] = c
        return c

    def __reduce__(self) -> tuple[Any, tuple[int, str]]:
        return (Card.of, (self.rank, self.suit))

    def __repr__(self) -> str:
        return f"Card({self.text})"

    def __str__(self) -> str:
        return self.text

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    @property
    def pretty(self) -> str:
        return RANKS[self.rank - 1].replace("T", "10") + SUIT_SYMBOLS[self.suit]


def full_deck() -> list[Card]:
    """The 52 cards in index order (A♣ A♦ A♥ A♠ 2♣ …)."""
    return [Card.of(r, s) for r in range(1, 14) for s in SUITS]


_ALIASES = {"10": "T", "1": "A"}
_SUIT_ALIASES = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}


def parse_card(text: str) -> Card:
    """Parse ``5H``, ``TD``, ``10d``, ``qs``, ``A♠``. Raises UnknownAction with a clear reason."""
    s = text.strip().upper()
    if len(s) < 2:
        raise UnknownAction(f"{text!r} is not a card; write rank then suit, like 5H or TD")
    rank_s, suit_s = s[:-1], s[-1]
    suit_s = _SUIT_ALIASES.get(suit_s, suit_s)
    rank_s = _ALIASES.get(rank_s, rank_s)
    if len(rank_s) != 1 or rank_s not in RANKS:
        raise UnknownAction(f"{text!r}: unknown rank {rank_s!r} (ranks are A 2-9 T J Q K)")
    if suit_s not in SUITS:
        raise UnknownAction(f"{text!r}: unknown suit {suit_s!r} (suits are C D H S)")
    return Card.of(RANKS.index(rank_s) + 1, suit_s)


def parse_cards(text: str) -> list[Card]:
    return [parse_card(w) for w in text.replace(",", " ").split()]
