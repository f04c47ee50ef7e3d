"""How close the bots' Cribbage discards come to the best expected value, counted exactly.

    nice -n 10 python benchmarks/bench_discard.py [--deals 1000] [--seed 1] [--json] [--sampled 60]

For each of ``--deals`` random two-player deals (a seeded shuffle; six cards to the pone and six to the
dealer, alternately) every one of the 15 possible discards of each seat gets its exact expected value:

* the kept hand: the mean show over the 46 starters the seat cannot see;
* the crib, added for the dealer and subtracted for the pone: the two thrown cards plus two cards drawn
  uniformly from the 45 cards that are neither in the seat's six nor the starter, averaged exactly over
  every (starter, pair of fills) - 46 x 990 = 45,540 cribs per discard. The enumeration is grouped, not
  sampled: fifteens, pairs and runs depend only on the five ranks, so the (starter, pair) choices are
  counted per rank multiset; the crib flush and his nobs are counted from the suits.

The reference ignores what the opponent would actually throw into the crib: both fill cards are uniform
over the unseen cards, which is the information a seat has when it discards. The bots are asked through
their real policies on a real game state (``stacked``): ``heuristic`` (``HeuristicPolicy`` ->
``heuristics.cribbage.choose_discard``) and ``search`` (``SearchPolicy`` -> ``search_override`` ->
``choose_discard``, the same function with its own random stream). ``--sampled N`` also scores the
estimate the bot used to make (the crib valued over N random fills shared by all discards).

Reported per seat and together: sum(EV of the bot's discard) / sum(best EV), the share of decisions where
the bot's discard is a best one, and the mean EV lost per deal.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from math import comb
from typing import Any

from muggins.bots.heuristics import cribbage as crib_h
from muggins.bots.heuristics.cribbage import _rank_points
from muggins.bots.policies import HeuristicPolicy
from muggins.bots.search import SearchPolicy
from muggins.cards.cribbage.game import CribbageState, stacked
from muggins.cards.cribbage.show import score_show
from muggins.cards.deck import SUITS, Card, full_deck
from muggins.core import get_game
from muggins.core.protocol import Action

DECK = full_deck()
_W: dict[Card, int] = {c: 5 ** (c.rank - 1) for c in DECK}  # a rank multiset is a base-5 number
_JACK: dict[str, Card] = {s: Card.of(11, s) for s in SUITS}
TIE = 1e-9


# fifteens + pairs + runs by rank multiset: the bot's table, checked against a card-by-card brute force
# in tests/bots/test_discard.py
RANK_POINTS = _rank_points()


def exact_discard_evs(six: Sequence[Card], dealer: bool) -> dict[frozenset[Card], float]:
    """Exact expected (hand + own crib) or (hand - opponent's crib) of every discard of ``six``."""
    held = set(six)
    unseen = [c for c in DECK if c not in held]
    n_unseen = len(unseen)                       # 46
    rank_n = [0] * 14
    for c in unseen:
        rank_n[c.rank] += 1
    suit_n = {s: sum(1 for c in unseen if c.suit == s) for s in SUITS}

    # Ordered (starter, unordered pair of fills) choices, grouped by the rank multiset of the three cards.
    groups: dict[int, int] = {}
    for rs in range(1, 14):
        ns = rank_n[rs]
        if not ns:
            continue
        left = rank_n[:]
        left[rs] -= 1
        ws = 5 ** (rs - 1)
        for a in range(1, 14):
            if not left[a]:
                continue
            for b in range(a, 14):
                ways = comb(left[a], 2) if a == b else left[a] * left[b]
                if ways:
                    k = ws + 5 ** (a - 1) + 5 ** (b - 1)
                    groups[k] = groups.get(k, 0) + ns * ways
    pairs_left = comb(n_unseen - 1, 2)           # 990 pairs of fills once the starter is out
    total = n_unseen * pairs_left                # 45,540
    assert sum(groups.values()) == total
    group_items = list(groups.items())

    out: dict[frozenset[Card], float] = {}
    for thrown in combinations(six, 2):
        kept = [c for c in six if c not in thrown]
        hand = sum(score_show(kept, s) for s in unseen) / n_unseen
        kt = _W[thrown[0]] + _W[thrown[1]]
        points = sum(ways * RANK_POINTS[kt + k] for k, ways in group_items)
        if thrown[0].suit == thrown[1].suit:     # a crib flush needs all five cards of the suit
            u = suit_n[thrown[0].suit]
            points += 5 * u * comb(u - 1, 2)
        for s in unseen:                         # his nobs: the jack of the starter's suit in the crib
            jack = _JACK[s.suit]
            if jack in thrown:
                points += pairs_left
            elif jack is not s and jack not in held:
                points += n_unseen - 2           # the pairs of fills that hold that jack
        crib = points / total
        out[frozenset(thrown)] = hand + crib if dealer else hand - crib
    return out


def brute_force_evs(six: Sequence[Card], dealer: bool,
                    only: Sequence[frozenset[Card]] | None = None) -> dict[frozenset[Card], float]:
    """The same expectation by scoring every (starter, pair of fills) crib one by one (slow; for tests)."""
    held = set(six)
    unseen = [c for c in DECK if c not in held]
    out: dict[frozenset[Card], float] = {}
    for thrown in combinations(six, 2):
        if only is not None and frozenset(thrown) not in only:
            continue
        kept = [c for c in six if c not in thrown]
        hand = sum(score_show(kept, s) for s in unseen) / len(unseen)
        t0, t1 = thrown
        crib = n = 0
        for s in unseen:
            rest = [c for c in unseen if c is not s]
            crib += sum(score_show((t0, t1, x, y), s, True) for x, y in combinations(rest, 2))
            n += comb(len(rest), 2)
        out[frozenset(thrown)] = hand + crib / n if dealer else hand - crib / n
    return out


def deal(rng: random.Random) -> tuple[list[Card], list[Card], Card]:
    """A shuffled pack dealt one at a time from the dealer's left: (dealer's six, pone's six, a starter)."""
    pack = DECK[:]
    rng.shuffle(pack)
    return pack[1:12:2], pack[0:12:2], pack[12]


def deal_state(dealer_six: Sequence[Card], pone_six: Sequence[Card], starter: Card) -> CribbageState:
    """A real two-player game at the discard, seat 0 dealing (the starter stays face down)."""
    rules = get_game("cribbage").rules("cribbage")
    return stacked(rules, [[c.text for c in dealer_six], [c.text for c in pone_six]], starter.text, dealer=0)


def sampled_chooser(samples: int) -> Callable[[CribbageState, int, list[Action], random.Random], Action]:
    """The crib estimated over ``samples`` random fills shared by all discards (``discard_value``)."""
    def choose(state: CribbageState, seat: int, actions: list[Action], rng: random.Random) -> Action:
        hand = state.hands[seat]
        unknown = [c for c in DECK if c not in hand]
        fills = []
        for _ in range(samples):
            cards = rng.sample(unknown, 3)
            fills.append((tuple(cards[:2]), cards[2]))
        best, best_v = actions[0], float("-inf")
        for a in actions:
            thrown = tuple(a.subject)
            v = crib_h.discard_value(tuple(c for c in hand if c not in thrown), thrown, unknown, seat == 0, fills)
            if v > best_v:
                best, best_v = a, v
        return best
    return choose


class Tally:
    """Sums for one chooser in one seat."""

    def __init__(self) -> None:
        self.chosen = 0.0
        self.best = 0.0
        self.hits = 0
        self.n = 0
        self.seconds: list[float] = []

    def add(self, evs: dict[frozenset[Card], float], pick: frozenset[Card], seconds: float) -> None:
        top = max(evs.values())
        self.chosen += evs[pick]
        self.best += top
        self.hits += evs[pick] >= top - TIE
        self.n += 1
        self.seconds.append(seconds)

    def report(self, deals: int) -> dict[str, float]:
        """Figures per deal (the ``both`` tally holds two decisions a deal)."""
        return {"ratio": self.chosen / self.best, "best_pick_share": self.hits / self.n,
                "mean_ev_lost_per_deal": (self.best - self.chosen) / deals,
                "mean_best_ev_per_deal": self.best / deals,
                "mean_decision_ms": 1000 * statistics.fmean(self.seconds),
                "max_decision_ms": 1000 * max(self.seconds)}


def run(deals: int, seed: int, sampled: int = 0) -> dict[str, Any]:
    rng = random.Random(seed)
    choosers: dict[str, Callable[[CribbageState, int, list[Action], random.Random], Action]] = {
        "heuristic": HeuristicPolicy().choose,
        "search": SearchPolicy().choose,
    }
    if sampled:
        choosers[f"sampled{sampled}"] = sampled_chooser(sampled)
    bot_rngs = {name: random.Random(f"{seed}:{name}") for name in choosers}
    tallies = {name: {"dealer": Tally(), "pone": Tally(), "both": Tally()} for name in choosers}
    t_ref = 0.0
    start = time.perf_counter()
    for _ in range(deals):
        dealer_six, pone_six, starter = deal(rng)
        state = deal_state(dealer_six, pone_six, starter)
        for seat, role, six in ((0, "dealer", dealer_six), (1, "pone", pone_six)):
            t0 = time.perf_counter()
            evs = exact_discard_evs(six, role == "dealer")
            t_ref += time.perf_counter() - t0
            actions = state.legal_actions(seat)
            assert len(actions) == 15 and all(a.kind == "discard" for a in actions)
            for name, choose in choosers.items():
                t0 = time.perf_counter()
                a = choose(state, seat, actions, bot_rngs[name])
                dt = time.perf_counter() - t0
                pick = frozenset(a.subject)
                tallies[name][role].add(evs, pick, dt)
                tallies[name]["both"].add(evs, pick, dt)
    return {
        "deals": deals, "seed": seed,
        "reference": "exact mean over the 46 unseen starters of the kept hand, plus (dealer) or minus (pone) "
                     "the exact mean crib of the two thrown cards with two fills uniform over the 45 cards "
                     "neither in the seat's six nor the starter; ignores what the opponent would really throw",
        "search_note": "search discards through search_override -> choose_discard (the heuristic's function, "
                       "own random stream)",
        "bots": {name: {role: t.report(deals) for role, t in by.items()} for name, by in tallies.items()},
        "reference_ms_per_seat": 1000 * t_ref / (2 * deals),
        "seconds": time.perf_counter() - start,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sampled", type=int, default=0, metavar="N",
                    help="also score the crib estimate over N random fills (what the bot used to do)")
    ap.add_argument("--json", action="store_true", help="print the JSON result only")
    args = ap.parse_args()
    if args.deals < 1:
        ap.error("--deals must be at least 1")
    res = run(args.deals, args.seed, args.sampled)
    if args.json:
        print(json.dumps(res, indent=2))
        return
    print(f"{res['deals']} deals, seed {res['seed']}; reference: {res['reference']}")
    print(res["search_note"])
    for name, by in res["bots"].items():
        for role, r in by.items():
            print(f"{name:>10} {role:>6}: ratio {r['ratio']:.4f}  best pick {100 * r['best_pick_share']:.1f}%  "
                  f"EV lost/deal {r['mean_ev_lost_per_deal']:.4f} (best {r['mean_best_ev_per_deal']:.3f})  "
                  f"decision {r['mean_decision_ms']:.2f} ms (max {r['max_decision_ms']:.2f})")
    print(f"reference {res['reference_ms_per_seat']:.2f} ms per seat; {res['seconds']:.1f} s in all")


if __name__ == "__main__":
    main()
