"""The search opponent of the batched cribbage environment: the frame it searches from, built in C from the
game alone, equal to the one the protocol state's search builds from the seat's view (and the search on it the
same); its frame, worlds and move blind to the cards its seat cannot see; a seeded run that replays; an
opponent stronger than ``greedy``; and the games it does not play refused."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from muggins._accel import load_native  # noqa: E402
from muggins.cards.cribbage.game import CribbageState  # noqa: E402
from muggins.cards.dealing import DECK  # noqa: E402
from muggins.core.errors import GameOver, RulesError  # noqa: E402
from muggins.core.rules import get_game  # noqa: E402
from muggins.rl import vector_env  # noqa: E402
from tests.rl.vector_helpers import check_determinism, legal_rows  # noqa: E402

engine, why = load_native("muggins.cards.cribbage.native")
core, _ = load_native("muggins.cards.cribbage.vector_native")
pytestmark = pytest.mark.skipif(engine is None or core is None, reason=f"native modules not usable: {why}")

SPEC = get_game("cribbage")


def positions(rules: Any, seed: int) -> Iterator[Any]:
    """The positions of a game played at random through the protocol (``spec.new``: the native-backed state,
    whose ``native`` is the engine's game), the lowest seat waited for moving."""
    st = SPEC.new(rules, 2, seed=seed)
    rng = random.Random(seed)
    while not st.is_over():
        yield st
        seat = min(st.waiting_for())
        st.apply_action_id(seat, rng.choice(st.legal_action_ids(seat)))


@pytest.mark.usefixtures("native_allowed")  # compares the native state with C: under any engine
def test_the_c_frame_equals_the_protocol_frame() -> None:
    """For both seats of every position of seeded games (discard, play and show; several hands), the frame the
    batched environment's search builds in C from the game alone equals the one the search of the pure
    protocol state builds from the seat's view (the position with the unseen cards taken out, the unseen
    cards, the slots with what the other's gos ruled out, the cards played, the kept hands and crib a world
    rebuilds); and the native search of the seat to move gives the same result from both."""
    rules = SPEC.rules("cribbage")
    compared = searched = floors = 0
    phases: set[str] = set()
    hands: set[int] = set()
    for seed in range(6):
        for k, st in enumerate(positions(rules, seed)):
            pure = st.to_pure()
            assert isinstance(pure, CribbageState)
            phases.add(pure.phase)
            hands.add(pure.hand_no)
            for seat in range(2):
                c_frame = engine.seat_frame(st.native, seat)
                assert c_frame == engine.seat_frame(pure, seat), (seed, k, seat)
                floors += any(forbid for _, _, _, forbid in c_frame["slots"])
                compared += 1
            if k % 7 == 0:
                seat = min(st.waiting_for())
                want = engine.search(pure, seat, 24, 100.0, seed=k)
                assert engine.search(st.native, seat, 24, 100.0, seed=k) == want, (seed, k)
                searched += 1
    assert compared >= 1000 and searched >= 100 and floors > 0, (compared, searched, floors)
    assert {"discard", "play", "show"} <= phases and len(hands) > 3


@pytest.mark.usefixtures("native_allowed")  # compares the native state with C: under any engine
def test_a_frame_is_for_the_games_the_search_plays() -> None:
    """No frame for a seat that is not there, a finished game, or a game the native search does not play."""
    nat = engine.NativeCribbage(rules=SPEC.rules("cribbage"), seed=2)
    with pytest.raises(ValueError, match="no seat 2"):
        engine.seat_frame(nat, 2)
    while not nat.is_over():
        seat = min(nat.waiting_for())
        nat.apply_id(seat, nat.legal_ids(seat)[0])
    with pytest.raises(GameOver):
        engine.seat_frame(nat, 0)
    for preset, n in (("three-hand", 3), ("five-card", 2), ("cribbage-muggins", 2)):
        st = SPEC.new(SPEC.rules(preset), n, seed=1)
        with pytest.raises(NotImplementedError, match="two-player six-card"):
            engine.seat_frame(st.native, 0)


def swapped(pure: CribbageState, seat: int, rng: random.Random) -> tuple[CribbageState, bool]:
    """A copy of ``pure`` with the cards ``seat`` cannot see (the other's hand and discards, the pack but the
    starter) swapped among themselves, each for one of the same rank (so the same moves stay legal and score the
    same, and the other's gos still rule out the same cards); and whether the other's cards changed."""
    o = 1 - seat
    hidden = {c.index for c in pure.pack if c != pure.starter}
    if not pure._shown[o]:
        hidden |= {c.index for c in pure.hands[o]}
    if not pure._crib_shown:
        hidden |= {c.index for c in pure.discards[o]}
    perm: dict[int, int] = {}
    for rank in range(1, 14):
        places = sorted(c for c in hidden if DECK[c].rank == rank)
        cards = places[:]
        rng.shuffle(cards)
        perm.update(zip(places, cards, strict=True))

    def moved(cards: list[Any]) -> list[Any]:
        return [DECK[perm.get(c.index, c.index)] for c in cards]

    b = pure.clone()
    b.hands = [moved(h) for h in pure.hands]
    b.kept = [moved(h) for h in pure.kept]
    b.discards = [moved(h) for h in pure.discards]
    b.crib = moved(pure.crib)
    b.pack = moved(pure.pack)
    return b, set(b.hands[o]) != set(pure.hands[o]) or set(b.discards[o]) != set(pure.discards[o])


@pytest.mark.usefixtures("native_allowed")  # compares the native state with C: under any engine
def test_the_search_does_not_depend_on_the_cards_the_seat_cannot_see() -> None:
    """Two games alike in all the searching seat saw but with the cards it never saw swapped among themselves:
    the frame built in C from each game, the worlds drawn from it and the search's result are the same, while
    the other seat's frame tells the games apart."""
    rules = SPEC.rules("cribbage")
    differing = 0
    for seed in range(10):
        rng = random.Random(seed)
        for k, st in enumerate(positions(rules, 100 + seed)):
            if k % 5 or st.phase not in ("discard", "play"):
                continue
            pure = st.to_pure()
            seat = min(pure.waiting_for())
            other, changed = swapped(pure, seat, rng)
            a = engine.NativeCribbage.from_state(pure)
            b = engine.NativeCribbage.from_state(other)
            assert engine.seat_frame(b, seat) == engine.seat_frame(a, seat), (seed, k)
            for s in range(3):
                assert engine.sample_world(b, seat, seed=s) == engine.sample_world(a, seat, seed=s)
            if k % 15 == 0:
                assert engine.search(b, seat, 32, 100.0, seed=k) == engine.search(a, seat, 32, 100.0, seed=k)
            if changed:
                differing += 1
                assert engine.seat_frame(b, 1 - seat) != engine.seat_frame(a, 1 - seat)
    assert differing >= 40, differing


def test_search_opponents_replay_by_seed_and_threads() -> None:
    check_determinism("cribbage", "cribbage", 2, "search", two=("cribbage", 2))


def test_the_search_opponent_is_checked() -> None:
    for bad in (0, 100_001, 2.5, "64", True):
        with pytest.raises(RulesError, match="search_iterations"):
            vector_env("cribbage", "cribbage", 2, num_envs=2, opponents="search", search_iterations=bad)
    for preset, n, opponents in (("three-hand", 3, ["greedy", "search"]), ("five-card", 2, "search"),
                                 ("cribbage-muggins", 2, "search"), ("four-hand", 4, "search")):
        with pytest.raises(NotImplementedError, match="two-player six-card game"):
            vector_env("cribbage", preset, n, num_envs=2, opponents=opponents)
    env = vector_env("cribbage", "cribbage", 2, num_envs=2, opponents="search", search_iterations=8, seed=1)
    assert env.reset()[0]["action_mask"].any(1).all()


def random_learner_wins(opponents: str, games: int, seed: int, **kwargs: Any) -> float:
    """The share of ``games`` 2-player games won by a learner making random legal moves against ``opponents``
    played in C."""
    env = vector_env("cribbage", "cribbage", 2, num_envs=16, opponents=opponents, seed=seed, reward="win",
                     **kwargs)
    obs, _ = env.reset()
    rng = np.random.default_rng(seed)
    won: list[bool] = []
    while len(won) < games:
        obs, reward, term, _, info = env.step(legal_rows(obs, rng, env))
        assert not info["illegal"].any()
        won.extend(bool(reward[i] > 0) for i in np.flatnonzero(term))
    env.close()
    return float(np.mean(won))


def test_the_search_opponent_beats_greedy() -> None:
    """A learner moving at random wins a fair share of its games against ``greedy`` (whose discards are
    random) and far fewer against the search bot played in C (its worlds drawn from what its seat has seen)."""
    against_greedy = random_learner_wins("greedy", 320, seed=1)
    against_search = random_learner_wins("search", 320, seed=1, search_iterations=64)
    assert 0.15 < against_greedy < 0.5, against_greedy
    assert against_search < against_greedy - 0.15, (against_search, against_greedy)
