"""What a player's choices tell: the native search (``infer``) weighs each world it draws by how likely it
makes the other seats' plays of the hand, each move taken with weight exp(infer * its points). The
evidence (``DominoState.choice_evidence``) is built from the seat's view alone; the weighted worlds keep
every constraint and still show nothing hidden."""

from __future__ import annotations

import math
import random

import pytest

from muggins._accel import load_native
from muggins.bots import make_bot
from muggins.core import RulesError, get_game
from muggins.dominoes import parse_tile
from muggins.sim.driver import play_game
from tests.dominoes.test_native_search import _fits, _positions
from tests.helpers import domino_state

pytestmark = pytest.mark.usefixtures("native_allowed")  # tests of the native search, under any engine

native, WHY = load_native("muggins.dominoes.native")
if native is None:
    pytest.skip(f"the native domino engine is not usable: {WHY}", allow_module_level=True)


def _idx(text: str) -> int:
    return parse_tile(text, 6).index


def _passed_up_five() -> object:
    """Seat 0 leads 6-4 (10); seat 1 answers 4-1 on the 4 (count 7, nothing) when 6-1 on the 6 would
    have made 5. The 6-1 is in the boneyard."""
    st = domino_state("muggins", hands=[["6-4", "2-2", "3-3", "0-2", "0-3", "5-2", "5-3"],
                                        ["4-1", "0-0", "1-1", "0-1", "2-3", "1-2", "1-3"]], leader=0)
    st.apply(0, st.parse_action("6-4", 0).with_claim(10))
    st.apply(1, st.parse_action("4-1 on 6-4", 1))
    return st


def test_the_evidence_prices_every_tile_at_the_board_the_choice_was_made_on() -> None:
    st = _passed_up_five()
    held, known, z = st.choice_evidence(0, 0.5)
    assert len(held) == 1  # one play by another seat this hand
    assert held[0] == (1 << 6) - 1  # the six tiles seat 1 still hides were all his then
    assert z[0][_idx("6-1")] == pytest.approx(math.exp(2.5))  # 6-1 on the 6: ends 1 and 4, five
    assert z[0][_idx("4-1")] == pytest.approx(1.0)  # what he played: count 7, nothing
    assert z[0][_idx("4-4")] == pytest.approx(1.0)  # 14: nothing
    assert z[0][_idx("3-2")] == 0.0  # fits neither end
    assert known[0] == pytest.approx(1.0)  # the 4-1, the one tile of his seen since
    # with a taste for shedding heavy tiles: a tile's weight is its pips, a double's the set's top number again
    _, known_h, z_h = st.choice_evidence(0, 0.5, heavy=0.1)
    assert z_h[0][_idx("6-1")] == pytest.approx(math.exp(2.5 + 0.7))
    assert z_h[0][_idx("4-4")] == pytest.approx(math.exp(0.1 * 14))  # 8 pips and the set's top number
    assert known_h[0] == pytest.approx(math.exp(0.5))
    # seat 1's own view has no other seat's play to learn from but seat 0's lead
    held1, _, z1 = st.choice_evidence(1, 0.5)
    assert len(held1) == 1 and z1[0][_idx("5-5")] == pytest.approx(math.exp(0.5 * 10))  # a lead of 10


def test_a_play_that_scored_nothing_makes_the_scorer_he_passed_up_unlikely() -> None:
    st = _passed_up_five()
    six_one = _idx("6-1")

    def share(infer: float) -> float:
        worlds = [native.sample_world(st, 0, seed, infer=infer) for seed in range(300)]
        return sum(six_one in hands[1] for hands, _ in worlds) / len(worlds)

    uniform, weighed = share(0.0), share(1.0)
    assert uniform == pytest.approx(6 / 19, abs=0.08)  # six of the 19 tiles seat 0 has not seen
    assert weighed < 0.05 < uniform / 4


@pytest.mark.parametrize(("preset", "players"), [("muggins", 2), ("all-fives", 3), ("sniff", 2)])
def test_weighed_worlds_keep_every_constraint_and_show_nothing_hidden(preset: str, players: int) -> None:
    checked = 0
    for state, seat in _positions(preset, players, seed=5):
        masks, _ = state.sampling_frame(seat)
        for seed in (1, 2):
            hands, stock = native.sample_world(state, seat, seed, infer=0.7)
            assert hands[seat] == sorted(t.index for t in state.hands[seat])
            assert len(stock) == len(state.boneyard)
            for s in range(players):
                if s != seat:
                    assert _fits(hands[s], masks[s])
            twin = state.sample_hidden(seat, random.Random(seed))
            assert twin.choice_evidence(seat, 0.7) == state.choice_evidence(seat, 0.7)
            assert native.sample_world(twin, seat, seed, infer=0.7) == (hands, stock)
            checked += 1
    assert checked > 10


def test_the_search_with_inference_plays_and_its_options_are_bounded() -> None:
    st = _passed_up_five()
    res = native.search(st, 0, 2000, 10.0, seed=3, infer=0.5)
    assert res["iterations"] == 2000
    assert res["action"] in st.legal_action_ids(0)
    assert native.search(st, 0, 2000, 10.0, seed=3, infer=0.5) == res  # reproducible
    for bad in (-0.1, 10.5):
        with pytest.raises(ValueError, match="infer"):
            native.search(st, 0, 100, 1.0, infer=bad)
        with pytest.raises(ValueError, match="infer"):
            native.search(st, 0, 100, 1.0, infer=0.5, infer_heavy=bad)
        with pytest.raises(ValueError, match="infer"):
            native.sample_world(st, 0, 1, infer=bad)
        for key in ("infer", "heavy"):
            with pytest.raises(RulesError, match=key):
                make_bot(f"search:{key}={bad}")
    assert make_bot("search:infer=0.5").policy.infer == 0.5
    with pytest.raises(RulesError):
        make_bot("greedy:infer=0.5")
    assert make_bot("omniscient:hands=1").policy.hands_known
    with pytest.raises(RulesError, match="hands"):
        make_bot("search:hands=1")


def test_the_others_modelled_in_the_tree_play_legal_reproducible_games() -> None:
    """``opponent_model``: the other seat moves in the tree as in the rollouts; the search still answers with a
    legal move, the same for the same seed, and takes a winning play."""
    st = _passed_up_five()
    res = native.search(st, 0, 3000, 10.0, seed=4, opponent_model=True)
    assert res["action"] in st.legal_action_ids(0) and res["iterations"] == 3000
    assert native.search(st, 0, 3000, 10.0, seed=4, opponent_model=True) == res
    win = domino_state("muggins", hands=[["5-5", "0-1"], ["6-6", "3-4"]], leader=0)
    best = native.search(win, 0, 2000, 10.0, seed=1, opponent_model=True)["action"]
    assert best == win.action_id(win.parse_action("5-5", 0).with_claim(10))
    spec = get_game("dominoes")
    bot = make_bot("search:iterations=2000:scale=30:model=1:infer=1:heavy=0.3", 1)
    result = play_game(spec, spec.rules("muggins", {"target": 60}), 2, [bot, make_bot("greedy", 2)], 3)
    assert result.finished and max(result.side_scores) >= 60
    assert bot.policy.native_searches == bot.policy.searches > 0  # every search ran natively


def test_a_hands_seen_ceiling_is_refused_where_no_search_can_show_the_hands_alone() -> None:
    """``omniscient:hands=1`` never quietly becomes the full ceiling: a game whose native search cannot show the
    hands alone refuses it by name (dominoes' options stay out of the other games' searches)."""
    spec = get_game("cribbage")
    with pytest.raises(RulesError, match="hands=1"):
        play_game(spec, spec.rules("cribbage"), 2, [make_bot("omniscient:iterations=50:hands=1", 1),
                                                    make_bot("greedy", 2)], 1)
    # the dominoes-only options are simply not passed to another game's search
    bot = make_bot("search:iterations=50:model=1:infer=1", 1)
    assert play_game(spec, spec.rules("cribbage", {"target": 31}), 2, [bot, make_bot("greedy", 2)], 1).finished


def test_a_hands_seen_ceiling_without_the_native_search_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUGGINS_PURE_PYTHON", "1")
    spec = get_game("dominoes")
    with pytest.raises(RulesError, match="hands=1"):
        play_game(spec, spec.rules("muggins"), 2, [make_bot("omniscient:iterations=50:hands=1", 1),
                                                   make_bot("greedy", 2)], 1)
