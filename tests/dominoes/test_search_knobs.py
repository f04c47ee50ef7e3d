"""The search's tuned knobs: rollouts that defend (``defend=1``), playing for points (``points=1``) and a
sharp model of the others' choices (``infer``/``heavy`` at their top), each on a position that tells them
apart."""

from __future__ import annotations

import math
import random

import pytest

from muggins._accel import load_native
from muggins.bots import make_bot
from muggins.bots.base import with_true_claim
from muggins.bots.search import SearchPolicy
from muggins.core import RulesError
from muggins.dominoes import parse_tile
from tests.helpers import domino_state

native, WHY = load_native("muggins.dominoes.native")


def _lead(hand0: list[str], hand1: list[str], **options: object) -> object:
    return domino_state("muggins", hands=[hand0, hand1], leader=0, **options)


@pytest.mark.skipif(native is None, reason=f"the native domino engine is not usable: {WHY}")
def test_a_defending_rollout_will_not_open_ten_for_the_next_seat_to_score_five() -> None:
    # seat 0 leads: 5-0 and 3-2 both make 5, but 5-0 leaves 5 and 0 open and seat 1 answers 5-5 for 10;
    # seat 1 holds no 3 or 2, so after 3-2 he scores nothing
    st = _lead(["5-0", "3-2", "3-3", "1-1", "3-1", "2-1", "2-2"],
               ["5-5", "6-6", "6-5", "4-4", "0-6", "0-4", "4-6"])
    five_nil, three_two = parse_tile("5-0", 6).index, parse_tile("3-2", 6).index

    def lead(seed: int, defender: int | None) -> int:
        n = native.NativeDominoes.from_state(st)
        if defender is None:
            n.playout(0, seed, 1, False, 1.0)
        else:
            n.playout(0, seed, 1, False, 1.0, defender)
        (gone,) = set(st.hands[0][i].index for i in range(7)) - set(n.hands()[0])
        return gone

    greedy = {lead(seed, None) for seed in range(30)}
    assert greedy == {five_nil, three_two}  # five either way: the greedy tie goes to chance
    assert {lead(seed, 0) for seed in range(30)} == {three_two}
    assert {lead(seed, 1) for seed in range(30)} == {five_nil, three_two}  # seat 1 defends, not seat 0
    with pytest.raises(ValueError, match="defender"):
        native.NativeDominoes.from_state(st).playout(0, 1, 1, False, 1.0, 2)
    with pytest.raises(ValueError, match="defender"):
        native.NativeDominoes.from_state(st).playout(1, 1, 1, False, None, 0)


def _two_ways_to_win() -> tuple[object, int, int]:
    """Target 5: seat 0's leads 5-5 (10) and 3-2 (5) both win the game at once."""
    st = _lead(["5-5", "3-2", "3-3", "1-1", "3-1", "2-1", "2-2"],
               ["6-6", "6-5", "4-4", "0-6", "0-4", "4-6", "0-0"], target=5)
    ids = []
    for text in ("5-5", "3-2"):
        a = st.parse_action(text, 0)
        ids.append(st.action_id(with_true_claim(st, 0, a)))
    return st, ids[0], ids[1]


@pytest.mark.skipif(native is None, reason=f"the native domino engine is not usable: {WHY}")
def test_playing_for_points_prefers_the_bigger_of_two_wins() -> None:
    st, ten, five = _two_ways_to_win()
    for points in (False, True):
        res = native.search(st, 0, 3000, 5.0, seed=1, reward_scale=30.0, play_for_points=points)
        mean = {aid: w / v for aid, v, w in res["children"]}
        if points:
            assert res["action"] == ten
            assert mean[ten] > mean[five] > 0.5  # both wins pay, the 10 more
        else:
            assert mean[ten] == mean[five] == 1.0  # a won game is a won game


def test_the_python_search_plays_for_points_too() -> None:
    st, ten, _ = _two_ways_to_win()
    policy = SearchPolicy(iterations=400, time_limit=30.0, native=False, native_search=False,
                          reward_scale=30.0, play_for_points=True)
    a = policy.choose(st, 0, st.legal_actions(0), random.Random(3))
    assert st.action_id(with_true_claim(st, 0, a)) == ten


def test_the_options_are_bot_options() -> None:
    bot = make_bot("search:iterations=50:defend=1:points=1", 1)
    policy = bot.policy
    assert isinstance(policy, SearchPolicy) and policy.defend and policy.play_for_points
    off = make_bot("search:iterations=50:defend=0:points=0", 1).policy
    assert isinstance(off, SearchPolicy) and not off.defend and not off.play_for_points


@pytest.mark.parametrize("spec", ["search:defend=5", "search:points=-1", "search:model=2", "omniscient:hands=3",
                                  "search:native=7", "search:points=yes"])
def test_an_on_off_option_takes_only_0_or_1(spec: str) -> None:
    with pytest.raises(RulesError, match=r"0 \(off\) or 1 \(on\)|needs a number"):
        make_bot(spec, 1)


def test_a_sharp_choice_model_scales_its_weights_before_they_overflow(monkeypatch: pytest.MonkeyPatch) -> None:
    from muggins.dominoes import state as state_module

    st = _lead(["6-4", "2-2", "3-3", "0-2", "0-3", "5-2", "5-3"],
               ["4-1", "0-0", "1-1", "0-1", "2-3", "1-2", "1-3"])
    st.apply(0, st.parse_action("6-4", 0).with_claim(10))
    st.apply(1, st.parse_action("4-1 on 6-4", 1))
    _, known, z = st.choice_evidence(0, 10.0, heavy=10.0)
    # the 6-1 (5 points, 7 pips) against the 4-1 he played (nothing, 5 pips)
    assert z[0][parse_tile("6-1", 6).index] / known[0] == pytest.approx(math.exp(10 * 5 + 10 * 2))
    # a double weighs its pips and the set's top number again, as the greedy tie-break sheds it
    assert z[0][parse_tile("6-6", 6).index] == pytest.approx(math.exp(10 * (12 + 6)))
    # with less room than these powers need, every weight of the decision shrinks by one factor
    monkeypatch.setattr(state_module, "_EXP_ROOM", 50.0)
    _, known_s, z_s = st.choice_evidence(0, 10.0, heavy=10.0)
    assert max(z_s[0]) <= 2 * math.exp(50.0) and known_s[0] > 0
    factor = known[0] / known_s[0]
    assert factor > 1e50
    assert z_s[0] == pytest.approx([x / factor for x in z[0]], rel=1e-9)
