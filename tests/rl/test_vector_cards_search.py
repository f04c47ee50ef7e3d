"""The search opponent of the batched card Muggins environment: the frame it searches from, built in C from
the game and the round's events, equal to the one the protocol state's search builds from the seat's view and
events (and the search on it the same); its worlds blind to the cards its seat cannot see; a seeded run that
replays; and an opponent stronger than ``greedy``."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from muggins._accel import load_native  # noqa: E402
from muggins.cards.dealing import CARD_BY_TEXT, DECK  # noqa: E402
from muggins.cards.muggins31.state import CardMugginsState  # noqa: E402
from muggins.core.chance import Chance  # noqa: E402
from muggins.core.errors import GameOver, RulesError  # noqa: E402
from muggins.core.rules import get_game  # noqa: E402
from muggins.rl import vector_env  # noqa: E402
from tests.rl.test_vector_cards import CASES, case_id  # noqa: E402
from tests.rl.vector_helpers import check_determinism  # noqa: E402

engine, why = load_native("muggins.cards.muggins31.native")
core, _ = load_native("muggins.cards.muggins31.vector_native")
pytestmark = pytest.mark.skipif(engine is None or core is None, reason=f"native modules not usable: {why}")

SPEC = get_game("card-muggins")


def true_id(nat: Any, rules: Any, seat: int, card: int) -> int:
    """The id of ``seat`` laying ``card`` (-1: go) announcing its true points."""
    width = rules.max_step_points + 2 if rules.claims == "manual" else 1
    if card < 0:
        return 52 * width
    pts = nat.true_points(seat, card * width) if width > 1 else 0
    return card * width + (pts + 1 if pts > 0 else 0)


def next_move(nat: Any, rules: Any, rng: random.Random, legal: list[int]) -> tuple[int, int]:
    """Mostly the seat to play laying a random card announcing its true points; now and then any legal id of
    any seat that may act (a call, a late claim, a wrong amount)."""
    if rng.random() < 0.15:
        seat = rng.choice(sorted(nat.to_act()))
        return seat, rng.choice(legal if seat == nat.turn() else nat.legal_ids(seat))
    seat = nat.turn()
    return seat, true_id(nat, rules, seat, rng.choice(nat.regular(seat)))


def deal_outcome(nat: Any) -> dict[str, Any]:
    """The chance outcome of the round ``nat`` has just dealt, as the pure engine records one."""
    events = nat.events()
    start = max(k for k, e in enumerate(events) if e.kind == "round_start")
    hands = [e.data["cards"] for e in events[start:] if e.kind == "dealt"]
    return {"kind": "deal", "hands": hands, "stock": [DECK[c].text for c in nat.stock()]}


def twins(rules: Any, n: int, seed: int) -> Iterator[tuple[Any, CardMugginsState]]:
    """The positions of a game played by a native game that logs it all (``NativeCardMuggins(rules, n,
    seed)``) beside the pure protocol state dealt the same cards (its chance made of the native game's cut and
    deals) and given the same moves."""
    nat = engine.NativeCardMuggins(rules, n, seed)
    cuts = [{"kind": "cut_for_deal", **e.data} for e in nat.events() if e.kind == "cut_for_deal"]
    pure = CardMugginsState.new(rules, n, Chance(outcomes=[*cuts, deal_outcome(nat)]))
    rng = random.Random(seed)
    while not nat.is_over():
        yield nat, pure
        seat, i = next_move(nat, rules, rng, nat.legal_ids(nat.turn()))
        before = nat.round_no()
        nat.apply_id(seat, i)
        if nat.round_no() != before and not nat.is_over():
            pure.chance.outcomes.append(deal_outcome(nat))
        pure.apply_action_id(seat, i)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_c_frame_equals_the_protocol_frame(case: tuple[str, int, dict[str, Any]]) -> None:
    """For every seat of many seeded positions, the frame the batched environment's search builds in C from
    the game and its event log equals the one the protocol state's search builds from the seat's view and
    events (the hands with the unseen cards taken out, the public position, the unseen cards, the slots with
    what each seat's gos ruled out, the others' plays of the round), and the native search of the seat to play
    gives the same result on both. The protocol state is the pure one, dealt what the native game dealt."""
    preset, n, opts = case
    rules = SPEC.rules(preset, {"target": 181, **opts})  # games of several rounds
    compared = searched = later = 0
    for seed in range(8):
        for k, (nat, pure) in enumerate(twins(rules, n, seed)):
            for seat in range(n):
                assert engine.seat_frame(nat, seat) == engine.seat_frame(pure, seat), (seed, k, seat)
                compared += 1
            later += nat.round_no() > 1
            if k % 9 == 0:
                seat = nat.turn()
                want = engine.search(pure, seat, 24, 100.0, seed=k)
                assert engine.search(nat, seat, 24, 100.0, seed=k) == want, (seed, k)
                searched += 1
    assert compared >= 400 and later > 0 and searched >= 20, (compared, later, searched)


def test_a_frame_needs_the_round_from_its_deal() -> None:
    """A native game whose log does not hold the round's start (a copy with no log) has no frame; nor has a
    finished game or a seat that is not there."""
    rules = SPEC.rules("muggins")
    nat = engine.NativeCardMuggins(rules, 2, 3)
    bare = engine.from_state(nat)  # the position alone: its log starts empty
    with pytest.raises(NotImplementedError, match="event log"):
        engine.seat_frame(bare, 0)
    with pytest.raises(ValueError, match="no seat 2"):
        engine.seat_frame(nat, 2)
    while not nat.is_over():
        nat.apply_id(nat.turn(), nat.choose_id(1))
    with pytest.raises(GameOver):
        engine.seat_frame(nat, 0)


def dealing(pack: list[int], n: int, each: int) -> Callable[[int], tuple[list[list[int]], list[int]]]:
    """A chance that deals ``pack`` every round: ``n`` hands of ``each`` cards, the rest the stock."""
    return lambda dealer: ([pack[s * each:(s + 1) * each] for s in range(n)], pack[n * each:])


def seen_by(nat: Any, seat: int, dealt: list[int]) -> set[int]:
    """The cards ``seat`` has seen this round: dealt to it, drawn by it, laid by anyone."""
    seen = set(dealt) | set(nat.pile()) | set(nat.closed())
    start = max(k for k, e in enumerate(nat.events()) if e.kind == "round_start")
    for e in nat.events()[start:]:
        if e.kind == "draw" and e.seat == seat:
            seen.add(CARD_BY_TEXT[e.data["card"]].index)
    return seen


def test_the_worlds_do_not_depend_on_the_cards_the_seat_cannot_see() -> None:
    """Two games alike in all the searching seat saw - its own cards, every card laid, every count, every go -
    but with the cards it never saw (the others' hands, the stock) shuffled among themselves (each for one of
    the same value, so the same moves stay legal and score the same): the frame it searches from, the worlds
    it draws and the search's result are the same in both, while another seat's frame tells them apart."""
    rules = SPEC.rules("muggins", {"target": 181})
    differing = 0
    for seed in range(12):
        n = 2 + seed % 3
        each = rules.hand_size
        rng = random.Random(seed)
        pack = list(range(52))
        rng.shuffle(pack)
        a = engine.NativeCardMuggins(rules, n, seed)
        a.follow_chance(dealing(pack, n, each))
        while a.round_no() < 2 or rng.random() < 0.9:
            a.apply_id(*next_move(a, rules, rng, a.legal_ids(a.turn())))
            if a.is_over():
                break
        if a.is_over() or a.round_no() != 2:
            continue
        seat = a.turn()
        seen = seen_by(a, seat, pack[seat * each:(seat + 1) * each])
        hidden = [k for k, c in enumerate(pack) if c not in seen]
        other = list(pack)
        for value in range(1, 11):  # the unseen cards of each value shuffled among their places
            places = [k for k in hidden if min(10, pack[k] // 4 + 1) == value]
            cards = [pack[k] for k in places]
            rng.shuffle(cards)
            for k, c in zip(places, cards, strict=True):
                other[k] = c
        b = engine.NativeCardMuggins(rules, n, seed)
        b.follow_chance(dealing(other, n, each))
        for s, i in a.history_ids():
            b.apply_id(s, i)
        assert b.held(seat) == a.held(seat) and b.pile() == a.pile() and b.side_scores() == a.side_scores()
        others = [s for s in range(n) if s != seat]
        if all(b.held(s) == a.held(s) for s in others):
            continue
        differing += 1
        assert engine.seat_frame(b, seat) == engine.seat_frame(a, seat)
        for k in range(4):
            assert engine.sample_world(b, seat, seed=k) == engine.sample_world(a, seat, seed=k)
        assert engine.search(b, seat, 32, 100.0, seed=seed) == engine.search(a, seat, 32, 100.0, seed=seed)
        changed = [s for s in others if b.held(s) != a.held(s)]
        assert engine.seat_frame(b, changed[0]) != engine.seat_frame(a, changed[0])
    assert differing >= 6


def test_search_opponents_replay_by_seed_and_threads() -> None:
    check_determinism("card-muggins", "muggins", 3, "search")


def test_the_search_opponent_is_checked() -> None:
    for bad in (0, 100_001, 2.5, "64"):
        with pytest.raises(RulesError, match="search_iterations"):
            vector_env("card-muggins", "muggins", 2, num_envs=2, opponents="search", search_iterations=bad)
    env = vector_env("card-muggins", "muggins", 3, num_envs=2, opponents=["greedy", "search"], seed=1)
    env.reset()
    assert env.game(0).num_events() > 0  # the games keep the round's events for the search
    plain = vector_env("card-muggins", "muggins", 3, num_envs=2, opponents="greedy", seed=1)
    plain.reset()
    assert plain.game(0).num_events() == 0


def greedy_learner_wins(opponents: str, games: int, seed: int, **kwargs: Any) -> float:
    """The share of ``games`` 2-player ``muggins`` games won by a learner that lays the card making the most
    points now (ties at random), announcing them, and lets every window go, against ``opponents`` in C."""
    env = vector_env("card-muggins", "muggins", 2, num_envs=16, opponents=opponents, seed=seed, **kwargs)
    obs, _ = env.reset()
    rng = np.random.default_rng(seed)
    width = env.compact.amounts
    won: list[bool] = []
    while len(won) < games:
        rows = np.zeros((env.num_envs, 2), np.int64)
        for i in range(env.num_envs):
            mask = obs["action_mask"][i]
            cards = np.flatnonzero(mask[:52])
            if len(cards):
                g = env.game(i)
                pts = np.array([g.true_points(0, int(c) * width) for c in cards])
                c = int(cards[np.flatnonzero(pts == pts.max())[rng.integers((pts == pts.max()).sum())]])
                rows[i] = (c, pts.max() + 1 if pts.max() > 0 else 0)
            else:
                rows[i, 0] = 52 if mask[52] else env.let_go
        obs, _, term, _, info = env.step(rows)
        assert not info["illegal"].any()
        for i in np.flatnonzero(term):
            won.append(0 in env.game(i).winners())
    env.close()
    return float(np.mean(won))


def test_the_search_opponent_beats_greedy() -> None:
    """A learner playing greedy's way wins about half its games against ``greedy`` and clearly fewer against
    the search bot played in C (its worlds drawn from what its seat has seen)."""
    against_greedy = greedy_learner_wins("greedy", 480, seed=1)
    against_search = greedy_learner_wins("search", 480, seed=1, search_iterations=1000)
    assert 0.4 < against_greedy < 0.7
    assert against_search < against_greedy - 0.08, (against_search, against_greedy)
