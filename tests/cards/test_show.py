"""The Cribbage show (RULES.md §5.1, five-card cribbage §5.4): the worked examples H1-H20 of §7.3, input
checks, properties, and differential checks against the ``cribbage-scorer`` package and against an
independent brute-force scorer written here."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement, pairwise

import pytest
from cribbage_scorer import cribbage_scorer as peer  # type: ignore[import-untyped]
from hypothesis import given
from hypothesis import strategies as st

from muggins.cards.cribbage.show import (
    ShowError,
    ShowScore,
    benchmark,
    explain_show,
    score_parts,
    score_show,
)
from muggins.cards.deck import SUITS, Card, full_deck, parse_card, parse_cards
from muggins.core.errors import MugginsError

DECK = full_deck()
IMPOSSIBLE = {19, 25, 26, 27}
NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                "nineteen", "twenty", "twenty-one", "twenty-two", "twenty-three", "twenty-four",
                "twenty-five", "twenty-six", "twenty-seven", "twenty-eight", "twenty-nine"]


# ---------------------------------------------------------------------------------------------------------
# An independent scorer: every subset of the actual cards, straight from the §5.1 table.


def _is_run(cards: Sequence[Card]) -> bool:
    ranks = sorted(c.rank for c in cards)
    return all(b == a + 1 for a, b in pairwise(ranks))


def brute_rank_points(cards: Sequence[Card]) -> int:
    """Fifteens, pairs and runs by enumerating subsets: runs count only at the longest length found."""
    points = 0
    for k in range(2, len(cards) + 1):
        for combo in combinations(cards, k):
            if sum(min(c.rank, 10) for c in combo) == 15:
                points += 2
    points += sum(2 for x, y in combinations(cards, 2) if x.rank == y.rank)
    for k in range(len(cards), 2, -1):
        found = sum(1 for combo in combinations(cards, k) if _is_run(combo))
        if found:
            points += found * k
            break
    return points


def brute_flush_nobs(hand: Sequence[Card], starter: Card | None, crib: bool) -> int:
    points = 0
    if len({c.suit for c in hand}) == 1:
        with_starter = starter is not None and starter.suit == hand[0].suit
        if with_starter:
            points += len(hand) + 1
        elif not crib:
            points += len(hand)
    if starter is not None and any(c.rank == 11 and c.suit == starter.suit for c in hand):
        points += 1
    return points


def brute_show(hand: Sequence[Card], starter: Card | None, crib: bool = False) -> int:
    cards = [*hand, starter] if starter is not None else list(hand)
    return brute_rank_points(cards) + brute_flush_nobs(hand, starter, crib)


def peer_show(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    score, _ = peer.show_calc_score((starter.rank, starter.suit), [(c.rank, c.suit) for c in hand], crib)
    return int(score)


# ---------------------------------------------------------------------------------------------------------
# Helpers


def counted(hand: str, starter: str | None, crib: bool = False) -> ShowScore:
    """explain_show of a hand written as text, checked against the fast scorers before it is returned."""
    cards = parse_cards(hand)
    start = parse_card(starter) if starter is not None else None
    shown = explain_show(cards, start, crib)
    assert score_show(cards, start, crib) == shown.total
    assert score_parts(cards, start, crib) == (shown.total, shown.fifteens, shown.pairs, shown.runs,
                                               shown.flush, shown.nobs)
    assert brute_show(cards, start, crib) == shown.total
    return shown


def parts(s: ShowScore) -> tuple[int, int, int, int, int, int]:
    return s.total, s.fifteens, s.pairs, s.runs, s.flush, s.nobs


# ---------------------------------------------------------------------------------------------------------
# RULES.md §7.3, H1-H20 (starter listed last)


def test_h1_29_hand() -> None:
    s = counted("5H 5D 5C JS", "5S")
    assert parts(s) == (29, 16, 12, 0, 0, 1)
    assert [p for what, p in s.items if what.startswith("fifteen")] == [2] * 8
    assert ("double pair royal 5C 5D 5H 5S", 12) in s.items
    assert ("his nobs JS", 1) in s.items
    assert s.text.endswith("and a double pair royal is twenty-eight, and one for his nobs is twenty-nine")


def test_h2_pair_royal_and_seven_fifteens() -> None:
    assert parts(counted("5H 5D JS QS", "5C")) == (20, 14, 6, 0, 0, 0)


def test_h3_double_run() -> None:
    s = counted("4H 5D 6C 6S", "QD")
    assert parts(s) == (14, 6, 2, 6, 0, 0)
    assert s.text == ("fifteen two, fifteen four, fifteen six, and a pair is eight, "
                      "and two runs of three is fourteen")


def test_h4_double_run_with_a_blank_starter() -> None:
    assert parts(counted("7H 8D 8C 9S", "2D")) == (12, 4, 2, 6, 0, 0)


def test_h5_four_threes_and_a_nine() -> None:
    assert parts(counted("3H 3D 3C 3S", "9D")) == (24, 12, 12, 0, 0, 0)


def test_h6_four_card_hand_flush() -> None:
    s = counted("2H 4H 6H 8H", "KS")
    assert parts(s) == (4, 0, 0, 0, 4, 0)
    assert s.items == (("flush 2H 4H 6H 8H", 4),)
    assert s.text == "a flush of four is four"


def test_h7_crib_flush_needs_five() -> None:
    assert parts(counted("2H 4H 6H 8H", "KS", crib=True)) == (0, 0, 0, 0, 0, 0)


def test_h8_five_card_crib_flush() -> None:
    s = counted("2H 4H 6H 8H", "KH", crib=True)
    assert parts(s) == (5, 0, 0, 0, 5, 0)
    assert s.items == (("flush 2H 4H 6H 8H KH", 5),)


def test_h9_nobs() -> None:
    s = counted("JH 2C 4D 6S", "KH")
    assert parts(s) == (1, 0, 0, 0, 0, 1)
    assert s.text == "one for his nobs is one"


def test_h10_jack_starter_is_never_nobs() -> None:
    assert parts(counted("JH 2C 4D 6S", "JD")) == (2, 0, 2, 0, 0, 0)


def test_h11_nineteen_hand_scores_nothing() -> None:
    s = counted("TS 6H 2D AC", "KD")
    assert parts(s) == (0, 0, 0, 0, 0, 0)
    assert s.items == ()
    assert s.text == "nothing is zero"


def test_h12_run_of_five() -> None:
    s = counted("AH 2D 3C 4S", "5H")
    assert parts(s) == (7, 2, 0, 5, 0, 0)
    assert ("run of 5 AH 2D 3C 4S 5H", 5) in s.items


def test_h13_double_double_run() -> None:
    s = counted("4H 4D 5C 6S", "6D")
    assert parts(s) == (24, 8, 4, 12, 0, 0)
    assert sum(1 for what, _ in s.items if what.startswith("run of 3")) == 4


def test_h14_triple_run() -> None:
    assert parts(counted("6H 7D 8C 8S", "8D")) == (21, 6, 6, 9, 0, 0)


def test_h15_five_card_hand_flush_with_run_and_nobs() -> None:
    assert parts(counted("5D TD JD QD", "KD")) == (18, 8, 0, 4, 5, 1)


def test_h16_pair_royal_in_a_triple_run() -> None:
    assert parts(counted("3H 4H 5H 5D", "5C")) == (17, 2, 6, 9, 0, 0)


def test_h17_two_pairs_five_fifteens() -> None:
    assert parts(counted("7C 7D 8H 8S", "AD")) == (14, 10, 4, 0, 0, 0)


def test_h18_run_of_four() -> None:
    assert parts(counted("9H TD JC QS", "AD")) == (4, 0, 0, 4, 0, 0)


def test_h19_aces_and_twos_quadruple_run() -> None:
    assert parts(counted("AH AD 2C 2S", "3H")) == (16, 0, 4, 12, 0, 0)


def test_h20_hand_flush_without_the_starter_and_no_nobs() -> None:
    s = counted("4C 5C 6C JC", "5D")
    assert parts(s) == (20, 8, 2, 6, 4, 0)
    assert s.text == ("fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten, "
                      "and two runs of three is sixteen, and a flush of four is twenty")


def test_rules_symbols_parse_like_letters() -> None:
    """The examples are printed with suit symbols; both spellings name the same cards."""
    assert parse_cards("5\u2665 5\u2666 5\u2663 J\u2660") == parse_cards("5H 5D 5C JS")


# ---------------------------------------------------------------------------------------------------------
# Five-card cribbage (§5.4): three cards in hand


def test_five_card_cribbage_three_card_flush() -> None:
    assert parts(counted("2H 4H 6H", "KS")) == (3, 0, 0, 0, 3, 0)


def test_five_card_cribbage_three_card_flush_with_starter() -> None:
    assert parts(counted("2H 4H 6H", "KH")) == (4, 0, 0, 0, 4, 0)


def test_five_card_cribbage_three_card_hand_run_fifteens_nobs() -> None:
    assert parts(counted("4H 5D JC", "6C")) == (8, 4, 0, 3, 0, 1)  # 4+5+6, 5+J; run 4-5-6; nobs
    assert parts(counted("4H 5D 6C", "TS")) == (7, 4, 0, 3, 0, 0)


def test_five_card_cribbage_crib_still_has_four_cards() -> None:
    assert parts(counted("2H 4H 6H 8H", "KH", crib=True)) == (5, 0, 0, 0, 5, 0)
    with pytest.raises(ShowError, match="crib has 4 cards"):
        score_show(parse_cards("2H 4H 6H"), parse_card("KH"), crib=True)


# ---------------------------------------------------------------------------------------------------------
# Without a starter (the cards alone, as when choosing a discard before the cut)


def test_no_starter_counts_the_cards_alone() -> None:
    assert parts(counted("5H 5D 5S JC", None)) == (14, 8, 6, 0, 0, 0)
    assert parts(counted("2H 4H 6H 8H", None)) == (4, 0, 0, 0, 4, 0)
    assert parts(counted("2H 4H 6H 8H", None, crib=True)) == (0, 0, 0, 0, 0, 0)
    assert parts(counted("3C 4C 5C", None)) == (6, 0, 0, 3, 3, 0)


# ---------------------------------------------------------------------------------------------------------
# Input checks


@pytest.mark.parametrize(("hand", "starter", "crib", "message"), [
    ("5H 5D", "5C", False, "a hand has 4 cards .3 in five-card cribbage.; got 2"),
    ("5H 5D 5S JC 2C", "5C", False, "got 5"),
    ("5H 5D 5S", "5C", True, "a crib has 4 cards; got 3"),
    ("5H 5D 5S 5H", "5C", False, "duplicate card 5H: the hand holds it twice"),
    ("5H 5D 5S JC", "5H", False, "duplicate card 5H: the starter repeats a card of the hand"),
    ("5H 5D 5S", "5S", False, "duplicate card 5S"),
])
def test_bad_hands_are_refused_with_the_reason(hand: str, starter: str, crib: bool, message: str) -> None:
    cards, start = parse_cards(hand), parse_card(starter)
    for scorer in (score_show, explain_show, score_parts):
        with pytest.raises(ShowError, match=message):
            scorer(cards, start, crib)


def test_non_cards_are_refused() -> None:
    cards = parse_cards("5H 5D 5S JC")
    with pytest.raises(ShowError, match="'5C' is not a card"):
        score_show([*cards[:3], "5C"], parse_card("2C"))  # type: ignore[list-item]
    with pytest.raises(ShowError, match="starter '5C' is not a card"):
        score_show(cards, "5C")  # type: ignore[arg-type]
    with pytest.raises(ShowError, match="not a card"):
        score_parts([*cards[:3], [1]], parse_card("2C"))  # type: ignore[list-item]


def test_show_error_is_a_muggins_error_and_a_value_error() -> None:
    assert issubclass(ShowError, MugginsError)
    assert issubclass(ShowError, ValueError)


# ---------------------------------------------------------------------------------------------------------
# Properties

five_cards = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


def _hand_and_starter(cards: list[Card], size: int) -> tuple[list[Card], Card]:
    return cards[:size], cards[4]


@given(five_cards, st.sampled_from([3, 4]), st.booleans(), st.randoms(use_true_random=False))
def test_order_of_the_hand_does_not_matter(cards: list[Card], size: int, crib: bool,
                                           rng: random.Random) -> None:
    crib = crib and size == 4
    hand, starter = _hand_and_starter(cards, size)
    shuffled = hand[:]
    rng.shuffle(shuffled)
    assert score_show(shuffled, starter, crib) == score_show(hand, starter, crib)
    assert explain_show(shuffled, starter, crib) == explain_show(hand, starter, crib)


@given(five_cards, st.sampled_from([3, 4]), st.booleans(), st.booleans())
def test_total_is_the_sum_of_items_and_of_parts(cards: list[Card], size: int, crib: bool,
                                                no_starter: bool) -> None:
    crib = crib and size == 4
    hand, starter = _hand_and_starter(cards, size)
    start = None if no_starter else starter
    s = explain_show(hand, start, crib)
    assert s.total == sum(p for _, p in s.items) == s.fifteens + s.pairs + s.runs + s.flush + s.nobs
    kinds = {"fifteen ": "fifteens", "pair ": "pairs", "pair royal ": "pairs", "double pair royal ": "pairs",
             "run of ": "runs", "flush ": "flush", "his nobs ": "nobs"}
    by_kind = Counter[str]()
    for what, p in s.items:
        by_kind[next(k for prefix, k in kinds.items() if what.startswith(prefix))] += p
    assert by_kind == Counter({"fifteens": s.fifteens, "pairs": s.pairs, "runs": s.runs,
                               "flush": s.flush, "nobs": s.nobs})
    assert s.total == score_show(hand, start, crib) == brute_show(hand, start, crib)
    assert s.total not in IMPOSSIBLE


@given(five_cards, st.sampled_from([3, 4]), st.booleans())
def test_spoken_count_ends_with_the_total(cards: list[Card], size: int, crib: bool) -> None:
    crib = crib and size == 4
    hand, starter = _hand_and_starter(cards, size)
    s = explain_show(hand, starter, crib)
    assert s.text.split()[-1] == NUMBER_WORDS[s.total]
    fifteen_calls = [w for w in s.text.split(", ") if w.startswith("fifteen ")]
    assert [NUMBER_WORDS.index(w.split()[1]) for w in fifteen_calls] == list(range(2, s.fifteens + 1, 2))


# ---------------------------------------------------------------------------------------------------------
# Differential checks


def _random_deals(n: int, seed: int, size: int = 4) -> list[tuple[list[Card], Card]]:
    rng = random.Random(seed)
    deals = []
    for _ in range(n):
        cards = rng.sample(DECK, size + 1)
        deals.append((cards[:size], cards[size]))
    return deals


@pytest.mark.parametrize("crib", [False, True], ids=["hand", "crib"])
def test_agrees_with_cribbage_scorer_on_20000_random_hands(crib: bool) -> None:
    deals = _random_deals(20_000, seed=2024 + crib)
    wrong = [(h, s) for h, s in deals if score_show(h, s, crib) != peer_show(h, s, crib)]
    assert wrong == []


def test_agrees_with_brute_force_on_random_three_card_hands() -> None:
    """cribbage-scorer only counts four-card hands, so five-card cribbage hands go to the brute force."""
    wrong = [(h, s) for h, s in _random_deals(5_000, seed=7, size=3) if score_show(h, s) != brute_show(h, s)]
    assert wrong == []


def _realise(ranks: Sequence[int]) -> list[Card]:
    """Distinct cards with the given ranks, suits dealt round C D H S so no four share a suit."""
    return [Card.of(r, SUITS[i % 4]) for i, r in enumerate(ranks)]


@pytest.mark.parametrize("size", [3, 4, 5])
def test_every_rank_multiset_agrees_with_brute_force(size: int) -> None:
    """Fifteens, pairs and runs come from a table of rank multisets of 3-5 cards: check every entry
    (3 cards: a five-card-cribbage hand alone; 4: that hand with a starter; 5: a hand with a starter)."""
    checked = 0
    for ranks in combinations_with_replacement(range(1, 14), size):
        if max(Counter(ranks).values()) > 4:
            continue
        cards = _realise(ranks)
        hand, starter = (cards, None) if size == 3 else (cards[:-1], cards[-1])
        assert score_show(hand, starter) == brute_show(hand, starter), (hand, starter)
        checked += 1
    assert checked == {3: 455, 4: 1820, 5: 6175}[size]


def test_totals_19_25_26_27_cannot_be_made() -> None:
    """Every rank multiset with every flush/nobs add-on the suits allow (RULES.md §7.3's claim).

    Hand flush (4) needs four distinct hand ranks; a five-card flush (5) needs five distinct ranks; nobs (1)
    needs a jack in hand and a starter that is not a jack; with a four-card flush the starter is off-suit,
    so the hand's jack cannot match it: 4+1 is impossible, 5+1 is possible."""
    made: set[int] = set()
    for ranks in combinations_with_replacement(range(1, 14), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        base = brute_rank_points(_realise(ranks))
        for i in range(5):
            hand = ranks[:i] + ranks[i + 1:]
            nobs = 11 in hand and ranks[i] != 11
            hand_distinct = len(set(hand)) == 4
            all_distinct = len(set(ranks)) == 5
            for crib in (False, True):
                extras = {0} | ({1} if nobs else set())
                if hand_distinct and not crib:
                    extras.add(4)
                if all_distinct:
                    extras |= {5, 6} if nobs else {5}
                made |= {base + e for e in extras}
    assert made.isdisjoint(IMPOSSIBLE)
    assert made == set(range(30)) - IMPOSSIBLE


# Score distribution of all 12,994,800 (hand, starter) pairs: S. Lumetta, "Amusing Cribbage Facts",
# http://lumetta.web.engr.illinois.edu/humor/cribbage.html (also the Wikipedia "Cribbage statistics" table).
PUBLISHED_HAND_DISTRIBUTION = {
    0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268, 7: 751324,
    8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656, 14: 90100, 15: 9168,
    16: 58248, 17: 11196, 18: 2708, 20: 8068, 21: 2496, 22: 444, 23: 356, 24: 3680, 28: 76, 29: 4,
}
PUBLISHED_CRIB_ZEROS = 1022208  # Wikipedia "Cribbage statistics": zero-point cribs


@pytest.mark.slow
def test_all_12994800_hands_and_cribs_against_brute_force() -> None:
    """Every four-card hand with every starter, as a hand and as a crib, against the brute-force scorer of
    this module (cribbage-scorer would take about eight minutes per mode). The brute force's suit-free part
    (fifteens, pairs, runs) is cached per rank multiset, keyed by a product of primes; flush and nobs are
    worked out for every pair. The hand totals must match the published distribution."""
    primes = [0, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41]
    rank_cache: dict[int, int] = {}
    hand_totals: Counter[int] = Counter()
    crib_totals: Counter[int] = Counter()
    wrong: list[tuple[tuple[Card, ...], Card, bool]] = []
    for hand in combinations(DECK, 4):
        key4 = primes[hand[0].rank] * primes[hand[1].rank] * primes[hand[2].rank] * primes[hand[3].rank]
        suit = hand[0].suit
        flush = all(c.suit == suit for c in hand)
        jack_suits = {c.suit for c in hand if c.rank == 11}
        for starter in DECK:
            if starter in hand:
                continue
            key = key4 * primes[starter.rank]
            base = rank_cache.get(key)
            if base is None:
                base = rank_cache[key] = brute_rank_points([*hand, starter])
            nobs = 1 if starter.suit in jack_suits else 0
            five_flush = flush and starter.suit == suit
            want_hand = base + nobs + (5 if five_flush else 4 if flush else 0)
            want_crib = base + nobs + (5 if five_flush else 0)
            got_hand = score_show(hand, starter)
            got_crib = score_show(hand, starter, True)
            if got_hand != want_hand:
                wrong.append((hand, starter, False))
            if got_crib != want_crib:
                wrong.append((hand, starter, True))
            hand_totals[got_hand] += 1
            crib_totals[got_crib] += 1
    assert wrong[:10] == []
    assert len(rank_cache) == 6175
    assert sum(hand_totals.values()) == sum(crib_totals.values()) == 12_994_800
    assert dict(hand_totals) == PUBLISHED_HAND_DISTRIBUTION
    assert crib_totals[0] == PUBLISHED_CRIB_ZEROS
    assert IMPOSSIBLE.isdisjoint(hand_totals) and IMPOSSIBLE.isdisjoint(crib_totals)


@pytest.mark.slow
def test_all_three_card_hands_against_brute_force() -> None:
    """Five-card cribbage: every three-card hand with every starter (1,082,900 pairs), full brute force."""
    wrong = []
    for hand in combinations(DECK, 3):
        for starter in DECK:
            if starter not in hand and score_show(hand, starter) != brute_show(hand, starter):
                wrong.append((hand, starter))
    assert wrong[:10] == []


def test_benchmark_reports_a_median_of_its_runs() -> None:
    """Shape only (speed is measured by benchmarks/bench_show.py, never asserted)."""
    result = benchmark(seconds=0.01, repeats=3, seed=1)
    runs = result["hands_per_second_runs"]
    assert isinstance(runs, list) and len(runs) == 3
    assert result["hands_per_second"] == pytest.approx(sorted(runs)[1], abs=0.1)
    assert min(runs) > 0


@pytest.mark.slow
def test_all_12994800_hands_and_cribs_against_cribbage_scorer() -> None:
    """Every (hand, starter) pair, as a hand and as a crib, against the independent cribbage-scorer package
    (about 20 minutes: the peer scores some 20,000 hands a second)."""
    wrong: list[tuple[tuple[Card, ...], Card, bool]] = []
    for hand in combinations(DECK, 4):
        for starter in DECK:
            if starter in hand:
                continue
            for crib in (False, True):
                if score_show(hand, starter, crib) != peer_show(list(hand), starter, crib):
                    wrong.append((hand, starter, crib))
    assert wrong[:10] == []
