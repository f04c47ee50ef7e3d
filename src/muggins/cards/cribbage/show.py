"""The Cribbage show: counting a hand or crib with the starter (RULES.md §5.1, five-card form §5.4).

Fifteens, pairs and runs depend only on the ranks of the five cards, so they are precomputed once for every
rank multiset of three to five cards and looked up by an integer key (the sum of a per-rank weight in base 5);
only the flush and his nobs are worked out per call. ``score_show`` is the fast path used by bots and
simulations; ``explain_show`` enumerates every scoring combination for people and for claims.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, groupby, product

from muggins.cards.deck import SUITS, Card, full_deck
from muggins.core.errors import MugginsError

__all__ = ["ShowError", "ShowScore", "benchmark", "explain_show", "score_parts", "score_show"]


class ShowError(MugginsError, ValueError):
    """A hand, crib or starter that cannot be counted: wrong number of cards, a repeated card, not a card."""


@dataclass(frozen=True)
class ShowScore:
    """A counted hand: the total, its parts, every scoring combination and the spoken count."""

    total: int
    fifteens: int
    pairs: int
    runs: int
    flush: int
    nobs: int
    items: tuple[tuple[str, int], ...]
    text: str


# ---------------------------------------------------------------------------------------------------------
# Rank tables

_RANK_WEIGHT: tuple[int, ...] = tuple(5 ** (r - 1) for r in range(1, 14))  # counts per rank are at most 4
_WEIGHT: dict[Card, int] = {c: _RANK_WEIGHT[c.rank - 1] for c in full_deck()}
_JACK: dict[str, Card] = {s: Card.of(11, s) for s in SUITS}


def _build_tables() -> tuple[dict[int, int], dict[int, tuple[int, int, int]]]:
    """Walk every non-decreasing rank sequence of 3 to 5 ranks (at most four of a rank), adding one rank per
    step and updating each count incrementally, so a multiset costs O(1) work beyond a 16-entry knapsack:

    * fifteens: ``ways[s]`` = subsets summing to ``s``; adding value ``v`` gives ``ways[s] + ways[s - v]``;
    * pairs: a rank already held ``m`` times makes ``m`` new pairs;
    * runs: ranks arrive in order, so a stretch of consecutive ranks is closed (``done``) at the first gap;
      the open stretch has ``length`` ranks and ``combos`` ways to pick one card of each, of which
      ``combos_before`` count the stretch without its last rank (held ``mult`` times).
    """
    points: dict[int, int] = {}
    parts: dict[int, tuple[int, int, int]] = {}

    def walk(size: int, last: int, mult: int, key: int, ways: list[int], pairs: int, done: int,
             length: int, combos_before: int) -> None:
        if size >= 3:
            runs = done + (length * combos_before * mult if length >= 3 else 0)
            p = (2 * ways[15], pairs, runs)
            parts[key] = p
            points[key] = p[0] + p[1] + p[2]
        if size == 5:
            return
        for r in range(max(last, 1), 14):
            v = min(r, 10)
            nxt = ways[:v] + [ways[i] + ways[i - v] for i in range(v, 16)]
            k = key + _RANK_WEIGHT[r - 1]
            if r == last:
                if mult < 4:
                    walk(size + 1, r, mult + 1, k, nxt, pairs + 2 * mult, done, length, combos_before)
            elif r == last + 1:
                walk(size + 1, r, 1, k, nxt, pairs, done, length + 1, combos_before * mult)
            else:
                closed = done + (length * combos_before * mult if length >= 3 else 0)
                walk(size + 1, r, 1, k, nxt, pairs, closed, 1, 1)

    walk(0, 0, 1, 0, [1] + [0] * 15, 0, 0, 0, 1)
    return points, parts


_POINTS, _PARTS = _build_tables()


# ---------------------------------------------------------------------------------------------------------
# Validation


def _validate(hand: Sequence[Card], starter: Card | None, crib: bool) -> tuple[Card, ...]:
    """Raise ShowError with the exact reason, or return the hand as a tuple."""
    try:
        cards = tuple(hand)
    except TypeError:
        raise ShowError(f"a hand must be a sequence of cards, not {type(hand).__name__}") from None
    for c in cards:
        if not isinstance(c, Card):
            raise ShowError(f"{c!r} is not a card (parse text with muggins.cards.deck.parse_card)")
    if starter is not None and not isinstance(starter, Card):
        raise ShowError(f"starter {starter!r} is not a card")
    if crib:
        if len(cards) != 4:
            raise ShowError(f"a crib has 4 cards; got {len(cards)}")
    elif len(cards) not in (3, 4):
        raise ShowError(f"a hand has 4 cards (3 in five-card cribbage); got {len(cards)}")
    seen: set[Card] = set()
    for c in (*cards, starter) if starter is not None else cards:
        if c in seen:
            where = "the starter repeats a card of the hand" if c is starter else "the hand holds it twice"
            raise ShowError(f"duplicate card {c.text}: {where}")
        seen.add(c)
    return cards


# ---------------------------------------------------------------------------------------------------------
# Scoring


def _flush(cards: Sequence[Card], starter: Card | None, crib: bool) -> int:
    """Hand flush: every hand card one suit, +1 if the starter matches. Crib flush: all five cards."""
    s = cards[0].suit
    if any(c.suit != s for c in cards):
        return 0
    matches = starter is not None and starter.suit == s
    if crib:
        return len(cards) + 1 if matches else 0
    return len(cards) + 1 if matches else len(cards)


def _nobs(cards: Sequence[Card], starter: Card | None) -> int:
    """1 for the jack of the starter's suit in hand. A jack starter is itself that jack, so never nobs."""
    return 1 if starter is not None and _JACK[starter.suit] in cards else 0


def score_show(hand: Sequence[Card], starter: Card | None, crib: bool = False) -> int:
    """Points of ``hand`` (4 cards, or 3 in five-card cribbage) with ``starter``; ``crib`` applies the
    crib flush rule. With no starter the hand's cards are counted alone (no nobs, no crib flush)."""
    if starter is not None and len(hand) == 4:
        a, b, c, d = hand
        w = _WEIGHT
        try:
            pts = _POINTS[w[a] + w[b] + w[c] + w[d] + w[starter]]
        except (KeyError, TypeError):
            _validate(hand, starter, crib)
            raise ShowError(f"cannot count {hand!r} with {starter!r}") from None
        if len({a, b, c, d, starter}) != 5:
            _validate(hand, starter, crib)
        s = a.suit
        if b.suit == s and c.suit == s and d.suit == s:
            if starter.suit == s:
                pts += 5
            elif not crib:
                pts += 4
        j = _JACK[starter.suit]
        if j is a or j is b or j is c or j is d:
            pts += 1
        return pts
    total, *_ = score_parts(hand, starter, crib)
    return total


def score_parts(hand: Sequence[Card], starter: Card | None,
                crib: bool = False) -> tuple[int, int, int, int, int, int]:
    """(total, fifteens, pairs, runs, flush, nobs) without listing the combinations: the breakdown at
    table speed, for bulk checking."""
    if starter is not None and len(hand) == 4:
        a, b, c, d = hand
        w = _WEIGHT
        try:
            key = w[a] + w[b] + w[c] + w[d] + w[starter]
        except (KeyError, TypeError):
            key = -1  # not all cards: _validate below names the culprit
        if key >= 0 and len({a, b, c, d, starter}) == 5:
            fifteens, pairs, runs = _PARTS[key]
            s = a.suit
            flush = 0
            if b.suit == s and c.suit == s and d.suit == s:
                flush = 5 if starter.suit == s else 0 if crib else 4
            j = _JACK[starter.suit]
            nobs = 1 if j is a or j is b or j is c or j is d else 0
            return fifteens + pairs + runs + flush + nobs, fifteens, pairs, runs, flush, nobs
    cards = _validate(hand, starter, crib)
    key = sum(_WEIGHT[c] for c in cards) + (_WEIGHT[starter] if starter is not None else 0)
    fifteens, pairs, runs = _PARTS[key]
    flush = _flush(cards, starter, crib)
    nobs = _nobs(cards, starter)
    return fifteens + pairs + runs + flush + nobs, fifteens, pairs, runs, flush, nobs


# ---------------------------------------------------------------------------------------------------------
# Explanation

_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_WORDS = [*_UNITS, "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
          "eighteen", "nineteen", "twenty", *("twenty-" + w for w in _UNITS[1:])]
_GROUP_NAMES = {2: "pair", 3: "pair royal", 4: "double pair royal"}
_TIMES = {1: "a", 2: "two", 3: "three", 4: "four"}


def _word(n: int) -> str:
    return _WORDS[n] if n < len(_WORDS) else str(n)


def _joined(cards: Sequence[Card]) -> str:
    return " ".join(c.text for c in cards)


def explain_show(hand: Sequence[Card], starter: Card | None, crib: bool = False) -> ShowScore:
    """Every scoring combination in the traditional order (fifteens, pairs, runs, flush, nobs) and the count
    as it is said aloud: "fifteen two, fifteen four, and a pair is six". Pairs of one rank form one item
    (pair 2, pair royal 6, double pair royal 12); each fifteen and each distinct run is its own item."""
    hand_cards = _validate(hand, starter, crib)
    cards = sorted((*hand_cards, starter) if starter is not None else hand_cards)
    items: list[tuple[str, int]] = []
    spoken: list[tuple[bool, str]] = []  # (is a fifteen, phrase)
    running = 0

    fifteens = 0
    for size in range(2, len(cards) + 1):
        for combo in combinations(cards, size):
            if sum(c.value for c in combo) == 15:
                items.append(("fifteen " + "+".join(c.text for c in combo), 2))
                fifteens += 2
                running += 2
                spoken.append((True, f"fifteen {_word(running)}"))

    pairs = 0
    groups = [list(g) for _, g in groupby(cards, key=lambda c: c.rank)]
    for g in groups:
        if len(g) >= 2:
            name = _GROUP_NAMES[len(g)]
            pts = len(g) * (len(g) - 1)
            first = pairs == 0
            items.append((f"{name} {_joined(g)}", pts))
            pairs += pts
            running += pts
            spoken.append((False, f"{'a' if first else 'another'} {name} is {_word(running)}"))

    runs = 0
    stretch: list[list[Card]] = []
    for g in [*groups, []]:
        if g and stretch and g[0].rank == stretch[-1][0].rank + 1:
            stretch.append(g)
            continue
        if len(stretch) >= 3:
            count = 0
            for run in product(*stretch):
                items.append((f"run of {len(run)} {_joined(run)}", len(run)))
                count += 1
            runs += count * len(stretch)
            running += count * len(stretch)
            length = _word(len(stretch))
            what = f"a run of {length}" if count == 1 else f"{_TIMES[count]} runs of {length}"
            spoken.append((False, f"{what} is {_word(running)}"))
        stretch = [g] if g else []

    flush = _flush(hand_cards, starter, crib)
    if flush:
        shown = sorted(hand_cards) + ([starter] if flush > len(hand_cards) and starter is not None else [])
        items.append((f"flush {_joined(shown)}", flush))
        running += flush
        spoken.append((False, f"a flush of {_word(flush)} is {_word(running)}"))

    nobs = _nobs(hand_cards, starter)
    if nobs:
        assert starter is not None
        items.append((f"his nobs {_JACK[starter.suit].text}", 1))
        running += 1
        spoken.append((False, f"one for his nobs is {_word(running)}"))

    if not spoken:
        text = "nothing is zero"
    else:
        text = spoken[0][1]
        for is_fifteen, phrase in spoken[1:]:
            text += ", " + (phrase if is_fifteen else "and " + phrase)
    total = fifteens + pairs + runs + flush + nobs
    return ShowScore(total, fifteens, pairs, runs, flush, nobs, tuple(items), text)


# ---------------------------------------------------------------------------------------------------------
# Speed


def _random_deals(n: int, seed: int) -> list[tuple[tuple[Card, ...], Card, bool]]:
    rng = random.Random(seed)
    deck = full_deck()
    deals = []
    for i in range(n):
        five = rng.sample(deck, 5)
        deals.append((tuple(five[:4]), five[4], i % 4 == 3))  # one crib in four, as in a two-hand deal
    return deals


def benchmark(seconds: float = 1.0, repeats: int = 5, seed: int = 0) -> dict[str, float | int | list[float]]:
    """Calls of ``score_show`` per second on random 4-card hands (a quarter counted as cribs), looping over
    a fixed sample for ``seconds`` per run; the median of ``repeats`` runs damps noise from other work.
    Keys follow the ``*_per_second`` / ``*_per_second_runs`` convention of ``muggins bench``."""
    deals = _random_deals(4096, seed)
    rates: list[float] = []
    for _ in range(repeats):
        done = 0
        start = time.perf_counter()
        deadline = start + seconds
        while True:
            for hand, starter, crib in deals:
                score_show(hand, starter, crib)
            done += len(deals)
            now = time.perf_counter()
            if now >= deadline:
                break
        rates.append(done / (now - start))
    return {"hands_per_second": statistics.median(rates),
            "hands_per_second_runs": [round(r, 1) for r in rates],
            "show_repeats": repeats, "show_seconds_per_run": seconds, "show_sample_hands": len(deals)}
