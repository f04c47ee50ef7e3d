"""The skills: greedy takes points, heuristics judge each game, search finds a winning move, the
registry builds every name and refuses bad ones."""

from __future__ import annotations

import random

import pytest

from muggins.bots import LEVEL_ATTENTION, GreedyPolicy, SearchPolicy, bot_names, make_bot, parse_bot_name
from muggins.bots.base import regular_actions
from muggins.bots.heuristics import cribbage as crib_h
from muggins.bots.heuristics.card_muggins import ten_card_threat
from muggins.bots.heuristics.dominoes import shed_weight, unload_weight
from muggins.bots.search import sample_determinization, true_determinization
from muggins.cards.cribbage.game import stacked
from muggins.core import RulesError, get_game
from muggins.dominoes import parse_tile
from tests.helpers import domino_state


def test_greedy_takes_the_points() -> None:
    st = domino_state("muggins", hands=[["5-5", "0-0", "0-4", "1-1"], ["5-0", "5-6", "2-2", "3-3"]])
    a = GreedyPolicy().choose(st, 0, regular_actions(st, 0), random.Random(0))
    assert a.subject == parse_tile("5-5")


def test_greedy_sheds_the_heaviest_when_nothing_scores() -> None:
    st = domino_state("muggins", hands=[["6-2", "3-1", "0-0"], ["4-1", "2-2", "3-3"]])
    for seed in range(5):
        a = GreedyPolicy().choose(st, 0, regular_actions(st, 0), random.Random(seed))
        assert a.subject == parse_tile("6-2")


def test_domino_shed_weight_counts_pips_and_a_double_as_much_again_as_the_top_number() -> None:
    st = domino_state("muggins", hands=[["6-6", "3-1", "1-1"], ["4-1", "2-2", "5-0"]])
    weights = {a.subject.text: shed_weight(st, 0, a) for a in regular_actions(st, 0)}
    assert weights == {"6-6": 18.0, "3-1": 4.0, "1-1": 8.0}
    assert unload_weight(regular_actions(st, 0)[0]) in (12.5, 4.0, 2.5)


def test_greedy_sheds_a_double_before_a_heavier_tile_when_nothing_scores() -> None:
    st = domino_state("muggins", hands=[["4-3", "1-1", "4-2"], ["4-1", "2-2", "5-0"]])
    for seed in range(5):
        a = GreedyPolicy().choose(st, 0, regular_actions(st, 0), random.Random(seed))
        assert a.subject == parse_tile("1-1")


@pytest.mark.parametrize("policy", ["search:iterations=60", "omniscient:iterations=60", "heuristic"])
def test_a_winning_move_is_found(policy: str) -> None:
    st = domino_state("muggins", hands=[["5-5", "0-0", "0-4", "1-1"], ["5-0", "5-6", "2-2", "3-3"]],
                      target=10)
    bot = make_bot(policy, 1)
    a = bot.act(st, 0, random.Random(1))
    assert a is not None and a.subject == parse_tile("5-5")


def test_search_respects_its_iteration_budget() -> None:
    st = domino_state("muggins", hands=[["5-5", "0-0", "0-4", "1-1"], ["5-0", "5-6", "2-2", "3-3"]])
    s = SearchPolicy(iterations=37, time_limit=30.0)
    s.choose(st, 0, regular_actions(st, 0), random.Random(0))
    assert s.total_iterations == 37 and s.searches == 1
    s.choose(st, 0, regular_actions(st, 0)[:1], random.Random(0))  # a forced move needs no search
    assert s.searches == 1


def test_search_rejects_an_empty_budget() -> None:
    with pytest.raises(ValueError, match="iteration"):
        SearchPolicy(iterations=0)


def test_determinizations_keep_what_the_seat_knows() -> None:
    st = domino_state("muggins", hands=[["5-5", "0-0", "0-4", "1-1"], ["5-0", "5-6", "2-2", "3-3"]])
    rng = random.Random(0)
    others = set()
    for _ in range(30):
        d = sample_determinization(st, 0, rng)
        assert d.hands[0] == st.hands[0]  # type: ignore[attr-defined]
        others.add(tuple(sorted(t.text for t in d.hands[1])))  # type: ignore[attr-defined]
    assert len(others) > 1  # the unseen hand is redrawn
    t = true_determinization(st, 0, rng)
    assert t.hands == st.hands  # type: ignore[attr-defined]


def test_cribbage_discard_keeps_the_big_hand() -> None:
    rules = get_game("cribbage").rules("cribbage")
    st = stacked(rules, [["5C", "5D", "5H", "JS", "9C", "2D"], ["AC", "3D", "7H", "8S", "QC", "KD"]],
                 starter="4S", dealer=0)
    a = crib_h.choose(st, 0, regular_actions(st, 0), random.Random(0))
    assert sorted(c.text for c in a.subject) == ["2D", "9C"]


def test_cribbage_discard_gives_the_opponent_nothing() -> None:
    """Non-dealer with 5-5 and a junk pair: throwing the fives into the dealer's crib is worse."""
    rules = get_game("cribbage").rules("cribbage")
    st = stacked(rules, [["AC", "3D", "7H", "8S", "QC", "KD"], ["5C", "5D", "9H", "9S", "KC", "2D"]],
                 starter="4S", dealer=0)
    a = crib_h.choose(st, 1, regular_actions(st, 1), random.Random(0))
    thrown = {c.text for c in a.subject}
    assert not thrown & {"5C", "5D"}


@pytest.mark.parametrize(("total", "threat"), [(15, 25.0), (20, 30.0), (21, 2.0), (22, 0.0), (25, 0.0),
                                               (3, 0.0), (0, 10.0)])
def test_ten_card_threat(total: int, threat: float) -> None:
    assert ten_card_threat(total, 31) == threat


def test_registry_names_and_levels() -> None:
    assert set(bot_names()) >= {"random", "greedy", "heuristic", "search", "omniscient", "beginner",
                                "casual", "club", "expert"}
    assert "omniscient" not in bot_names(offered_only=True)
    assert not make_bot("omniscient").offered and make_bot("club").offered
    for level, att in LEVEL_ATTENTION.items():
        assert make_bot(level).attention == att
    assert make_bot("club:vigilance=0.5").attention.vigilance == 0.5
    s = make_bot("search:iterations=12:time=0.25").policy
    assert isinstance(s, SearchPolicy) and s.iterations == 12 and s.time_limit == 0.25
    assert parse_bot_name(" Greedy ") == ("greedy", {})


@pytest.mark.parametrize(("name", "message"), [
    ("grandmaster", "unknown bot"),
    ("greedy:iterations=5", "only to search"),
    ("search:iterations=many", "needs a number"),
    ("search:depth=3", "unknown bot option"),
    ("search:iterations", "key=value"),
    ("club:forget=2", "between 0 and 1"),
    ("search:iterations=0", "at least one iteration"),
    ("search:time=3600", "at most 10 seconds"),
    ("expert:time=nan", "at most 10 seconds"),
    ("search:scale=-5", "positive number of points"),
])
def test_registry_refuses_bad_names(name: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        make_bot(name)


def test_search_leaves_the_cribbage_discard_to_the_exact_count() -> None:
    rules = get_game("cribbage").rules("cribbage")
    st = stacked(rules, [["5C", "5D", "5H", "JS", "9C", "2D"], ["AC", "3D", "7H", "8S", "QC", "KD"]],
                 starter="4S", dealer=0)
    s = SearchPolicy(iterations=5)
    a = s.choose(st, 0, regular_actions(st, 0), random.Random(0))
    assert sorted(c.text for c in a.subject) == ["2D", "9C"] and s.searches == 0
