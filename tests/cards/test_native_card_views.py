"""The native card states' views against the pure engine's: made from the engine's data and the log, equal
field for field, with no pure twin built.

Each game is played on a native-backed state and a pure one dealt from the same seed, with the conformance
suite's scripted player (any seat that may act; true, under-, over- or no claims; muggins calls and late
claims). After every move the views of every seat and of a spectator (None) must be equal, so a native view
shows a seat nothing the pure view hides; the moves go in as integer ids or as Actions. Every preset of both
games with every number of players it allows, in both claim modes, and the option variants of the
engines' differential tests. The native state must answer a web-like game (views, legal actions, ids,
notation) without building its pure twin.

Skips when the native modules are not built (fails instead under CI=true: tests/conftest.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from muggins.core.errors import NoSuchSeat
from tests.cards.test_native_states import BUILT, CASES, _pair
from tests.conformance.cases import choose

pytestmark = pytest.mark.skipif(not BUILT, reason="the native card engines are not built")

IDS = [f"{g}:{p}:{'-'.join(f'{k}={v}' for k, v in o.items())}:{n}" for g, p, o, n in CASES]
MAX_MOVES = 600


def same_views(pure: Any, nat: Any, where: str) -> None:
    for seat in (None, *range(pure.num_players)):
        a, b = pure.view(seat).to_json(), nat.view(seat).to_json()
        assert a == b, (where, seat, {k: (a[k], b.get(k)) for k in a if a[k] != b.get(k)})


#: texts read in every position as the pure state reads them (the move, or the same refusal)
TEXTS = ("count", "show", "count crib", "count hand", "go", "pass", "muggins", "muggins 3", "claim 2", "claim",
         "5H", "play 10S", "discard 5H 6D", "discard AS", "play", "", "count the crib", "muggins 999", 7)


def same_answers(pure: Any, nat: Any, where: str) -> None:
    """What bots and the server ask: the points of each legal move, its text, JSON and id, the move read
    back from its text (by the seat and by nobody), any text read as the pure state reads it."""
    for seat in range(pure.num_players):
        for a in pure.legal_actions(seat):
            assert nat.claim_for(seat, a) == pure.claim_for(seat, a), (where, seat, a)
            text = pure.format_action(a)
            assert nat.format_action(a) == text, (where, a)
            assert nat.action_to_json(seat, a) == pure.action_to_json(seat, a), (where, a)
            assert nat.parse_action(text, seat) == pure.parse_action(text, seat), (where, text)
            assert nat.action_id(a) == pure.action_id(a), (where, a)
        for a in pure.legal_actions(pure.num_players - 1 - seat):  # another seat's move: no points for him
            assert nat.claim_for(seat, a) == pure.claim_for(seat, a), (where, seat, a)
    for text in TEXTS:
        for seat in (None, 0, pure.num_players - 1):
            assert read(nat, text, seat) == read(pure, text, seat), (where, text, seat)


def read(state: Any, text: Any, seat: int | None) -> Any:
    try:
        return state.parse_action(text, seat)
    except Exception as e:  # the refusal itself is compared
        return type(e).__name__, str(e)


def play(game: str, preset: str, options: dict[str, Any], n: int, seed: int, by_action: float) -> Any:
    """One scripted game, views compared after every move; ``by_action``: how often a move goes in as an
    Action rather than by its id. Returns the native state."""
    pure, nat = _pair(game, preset, options, n, seed)
    rng = random.Random(seed * 7919 + n)
    where = f"{game}/{preset}/{options}/{n}p seed {seed}"
    same_views(pure, nat, where)
    moves = 0
    while not pure.is_over() and moves < MAX_MOVES:
        seat, action = choose(pure, rng)
        i = pure.action_id(action)
        if rng.random() < by_action:
            nat.apply(seat, action)
        else:
            nat.apply_action_id(seat, i)
        pure.apply(seat, action)
        moves += 1
        same_views(pure, nat, f"{where}, move {moves} ({seat}, {action})")
        if moves % 3 == 0:
            same_answers(pure, nat, f"{where}, move {moves}")
        if moves % 5 == 0:  # a copy's views go on as its own game
            twin = nat.clone()
            same_views(pure, twin, f"{where}, clone at move {moves}")
    return nat


@pytest.mark.parametrize(("game", "preset", "options", "players"), CASES, ids=IDS)
def test_native_card_views_equal_the_pure_views_after_every_move(game: str, preset: str,
                                                                 options: dict[str, Any], players: int) -> None:
    for seed in range(3):
        nat = play(game, preset, options, players, seed, by_action=0.5 if seed % 2 else 0.0)
        assert nat._twin_cache is None, "the views were made from a replayed pure game"


@pytest.mark.slow
@pytest.mark.parametrize(("game", "preset", "options", "players"), CASES, ids=IDS)
def test_many_native_card_views_equal_the_pure_views(game: str, preset: str, options: dict[str, Any],
                                                     players: int) -> None:
    for seed in range(3, 30):
        play(game, preset, options, players, seed, by_action=0.5)


@pytest.mark.parametrize("game", ["card-muggins", "cribbage"])
def test_a_view_refuses_a_bad_seat_as_the_pure_view_does(game: str) -> None:
    pure, nat = _pair(game, "cribbage" if game == "cribbage" else "muggins", {}, 2, 1)
    for bad in (2, -1, True, 1.0, "0"):
        with pytest.raises(NoSuchSeat) as expected:
            pure.view(bad)
        with pytest.raises(NoSuchSeat) as got:
            nat.view(bad)
        assert str(got.value) == str(expected.value)
    assert nat._twin_cache is None and nat._tracker_cache is None  # refused before anything was read


@pytest.mark.parametrize(("game", "preset", "options", "players"),
                         [c for c in CASES if c[2] == {"claims": "manual"}][:6], ids=lambda x: str(x))
def test_a_web_like_game_never_builds_the_pure_twin(game: str, preset: str, options: dict[str, Any],
                                                    players: int) -> None:
    """What the server does on every move: every seat's view, the legal actions and ids, the move's text and
    JSON, the move applied; the history read back."""
    pure, nat = _pair(game, preset, options, players, 11)
    rng = random.Random(11)
    moves = 0
    while not pure.is_over() and moves < 300:
        for s in (None, *range(players)):
            nat.view(s)
        seat, action = choose(pure, rng)
        offered = nat.legal_actions(seat)
        assert offered == pure.legal_actions(seat)
        nat.legal_action_ids(seat)
        assert nat.format_action(action) == pure.format_action(action)
        assert nat.action_to_json(seat, action) == pure.action_to_json(seat, action)
        nat.apply(seat, action)
        pure.apply(seat, action)
        moves += 1
    assert nat.history == pure.history
    assert nat._twin_cache is None


def same_game(pure: Any, nat: Any, where: str) -> None:
    same_views(pure, nat, where)
    assert [e.to_dict("all") for e in nat.log] == [e.to_dict("all") for e in pure.log], where
    assert nat.history == pure.history, where
    assert nat.chance.outcomes[:nat.chance.position] == pure.chance.outcomes[:pure.chance.position], where


def same_samples(pure: Any, nat: Any, seat: int, seed: int, where: str) -> None:
    """The native sample of ``seat`` is the pure one: the same draws from the generator, the same game, and
    it plays on (new deals from that generator included) as the pure sample does."""
    rng_pure, rng_nat = random.Random(seed), random.Random(seed)
    a = pure.sample_hidden(seat, rng_pure)
    b = nat.sample_hidden(seat, rng_nat)
    assert type(b) is type(nat), where
    assert rng_nat.getstate() == rng_pure.getstate(), where  # the same numbers drawn
    same_game(a, b, where)
    pick = random.Random(seed)
    for k in range(40):
        if a.is_over():
            break
        s, action = choose(a, pick)
        a.apply(s, action)
        b.apply(s, action)
        same_views(a, b, f"{where}, sample move {k}")
    same_game(a, b, where)
    assert rng_nat.getstate() == rng_pure.getstate(), where


SAMPLED = CASES


@pytest.mark.parametrize(("game", "preset", "options", "players"), SAMPLED,
                         ids=[i for c, i in zip(CASES, IDS, strict=True) if c in SAMPLED])
def test_native_samples_are_the_pure_samples(game: str, preset: str, options: dict[str, Any], players: int) -> None:
    for seed in range(2):
        pure, nat = _pair(game, preset, options, players, seed)
        rng = random.Random(seed)
        moves = 0
        while not pure.is_over() and moves < 250:
            seat, action = choose(pure, rng)
            pure.apply(seat, action)
            nat.apply(seat, action)
            moves += 1
            if moves % 9 == 0 and not pure.is_over():
                who = moves // 9 % players
                same_samples(pure, nat, who, moves, f"{game}/{preset}/{options}/{players}p seed {seed} move {moves}")
        assert nat._twin_cache is None
        while not pure.is_over() and moves < 1500:  # a game played out: its sample too
            seat, action = choose(pure, rng)
            pure.apply(seat, action)
            nat.apply(seat, action)
            moves += 1
        same_samples(pure, nat, seed % players, 5, f"{game}/{preset}/{options}/{players}p seed {seed} at the end")
