"""The answers of the native domino state that used to come from its pure twin, made from the C data: equal
to the pure engine's, and no twin built to give them (every preset with every number of players it allows).

What a consumer asks besides the views: the inventory (OpenSpiel's chance nodes), the mask of legal ids and
the action of an id (the learning adapters), the number of the hand (the terminal table), a move's text read
back (records: calls, late claims, draws, plays on a double), the change counter a mask cache keys on, and
``sample_hidden`` (the search, heuristic and analysis bots): the same world drawn with the same numbers.
Skips when the native module is not built (fails instead under CI=true: tests/conftest.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from muggins._accel import load_native
from muggins.core.chance import Chance
from muggins.core.errors import MugginsError, RecordError
from muggins.core.protocol import Action
from muggins.dominoes.action_ids import free_places
from muggins.dominoes.state import DominoState
from muggins.dominoes.tiles import full_set

native, WHY = load_native("muggins.dominoes.native")
if native is None:
    pytest.skip(f"the native domino engine is not usable: {WHY}", allow_module_level=True)

from muggins.dominoes.fast import NativeDominoState  # noqa: E402 - after the skip
from tests.dominoes.test_native_events import CASES, OPTIONS, SPEC, choose  # noqa: E402
from tests.twins import count_twins  # noqa: E402

TEXTS = ("muggins", "muggins 3", "claim 2", "claim", "draw", "pass", "knock", "draw 2", "", "5-3 on 9-9 end",
         "6-6", "play", "lead 6-6 inline", 7, "muggins 999")


def answer(f: Any, *args: Any) -> Any:
    """What ``f(*args)`` gives, or the refusal (its type and words)."""
    try:
        return f(*args)
    except MugginsError as e:
        return type(e).__name__, str(e)


def same_answers(pure: DominoState, fast: NativeDominoState, rng: random.Random) -> None:
    assert fast.inventory() == pure.inventory()
    assert fast.hand_no == pure.hand_no
    assert free_places(fast) == free_places(pure)  # type: ignore[arg-type]
    for seat in range(pure.num_players):
        mask = pure.legal_action_mask(seat)
        assert fast.legal_action_mask(seat) == mask
        assert fast.legal_action_mask(seat, numpy=True).tolist() == pure.legal_action_mask(seat, numpy=True).tolist()
        ids = [i for i, x in enumerate(mask) if x]
        for i in ids[:40] + rng.sample(range(len(mask)), 3) + [-1, len(mask), True]:
            assert answer(fast.action_from_id, seat, i) == answer(pure.action_from_id, seat, i), (seat, i)
        for a in pure.legal_actions(seat):
            if a.kind == "play" and a.target is not None:
                for text in (f"{a.subject} on {a.target}", f"{a.subject} on {a.target} end",
                             f"{a.subject} on {a.target} side"):
                    assert answer(fast.parse_action, text, seat) == answer(pure.parse_action, text, seat), text
        for written in TEXTS:
            assert answer(fast.parse_action, written, seat) == answer(pure.parse_action, written, seat), written
    assert answer(fast.legal_action_mask, pure.num_players) == answer(pure.legal_action_mask, pure.num_players)


@pytest.mark.parametrize(("preset", "players"), CASES, ids=[f"{p}:{n}" for p, n in CASES])
def test_native_answers_equal_the_pure_answers_with_no_twin(preset: str, players: int,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(3):
        rng = random.Random(seed * 31 + players)
        options = dict(OPTIONS[(seed * 5 + players) % len(OPTIONS)], claims=rng.choice(["manual", "auto"]))
        rules = SPEC.rules(preset, options)
        fast = NativeDominoState.new(rules, players, Chance(seed))
        pure = DominoState.new(rules, players, Chance(seed))
        with count_twins(monkeypatch) as twins:
            seen = {fast._ver}
            moves = 0
            while not pure.is_over() and moves < 400:
                seat, action = choose(pure, rng, 0.5)
                pure.apply(seat, action)
                fast.apply(seat, action)
                assert fast._ver not in seen  # a cache keyed by it sees every move
                seen.add(fast._ver)
                moves += 1
                if moves % 4 == 0:
                    same_answers(pure, fast, rng)
            same_answers(pure, fast, rng)
        assert not twins, twins


def _families() -> list[tuple[str, int, Any]]:
    """Every preset with every number of players it allows (the options of the event tests by turns), and
    the option families of the lockstep tests (knocks, kept turns, voluntary draws, the spinner filled first)."""
    import dataclasses

    from muggins.dominoes.rules import PRESETS
    from tests.dominoes.test_native import FAMILY

    out: list[tuple[str, int, Any]] = [(p, n, SPEC.rules(p, OPTIONS[i % len(OPTIONS)]))
                                       for i, (p, n) in enumerate(CASES)]
    options: list[tuple[str, int, Any]] = [f[:3] for f in FAMILY]
    out += [(p, n, dataclasses.replace(PRESETS[p], **o)) for p, n, o in options]
    return out


FAMILIES = _families()


def same_game(pure: Any, fast: NativeDominoState) -> None:
    for seat in [None, *range(pure.num_players)]:
        assert fast.view(seat).to_json() == pure.view(seat).to_json()
    assert [e.to_dict("all") for e in fast.log] == [e.to_dict("all") for e in pure.log]
    assert fast.history == pure.history
    assert fast.chance is not None
    assert fast.chance.outcomes[:fast.chance.position] == pure.chance.outcomes[:pure.chance.position]


@pytest.mark.parametrize(("preset", "players", "rules"), FAMILIES, ids=[f"{p}:{n}:{i}" for i, (p, n, _) in
                                                                      enumerate(FAMILIES)])
def test_native_samples_are_the_pure_samples(preset: str, players: int, rules: Any,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The same world from the same generator (the same numbers drawn: its state after is the same), and the
    sample plays on as the pure one does (the next hands dealt from that generator), with no twin built."""
    for seed in range(2):
        fast = NativeDominoState.new(rules, players, Chance(seed))
        pure = DominoState.new(rules, players, Chance(seed))
        rng = random.Random(seed)
        moves = 0
        with count_twins(monkeypatch) as twins:
            while not pure.is_over() and moves < 300:
                seat, action = choose(pure, rng, 0.5)
                pure.apply(seat, action)
                fast.apply(seat, action)
                moves += 1
                if moves % 11 == 0:
                    who = moves // 11 % players
                    r_pure, r_fast = random.Random(moves), random.Random(moves)
                    try:
                        a = pure.sample_hidden(who, r_pure)
                    except RecordError as e:  # no world found by the pure sampler: nor by the native one
                        with pytest.raises(RecordError) as got:
                            fast.sample_hidden(who, r_fast)
                        assert str(got.value) == str(e)
                        continue
                    b = fast.sample_hidden(who, r_fast)
                    assert type(b) is NativeDominoState
                    assert r_fast.getstate() == r_pure.getstate(), (seed, moves)
                    same_game(a, b)
                    pick = random.Random(moves)
                    for _ in range(60):  # played on past the hand's end: its next deal from the generator
                        if a.is_over():
                            break
                        s, act = choose(a, pick, 0.5)
                        a.apply(s, act)
                        b.apply(s, act)
                    same_game(a, b)
                    assert r_fast.getstate() == r_pure.getstate()
        # a game with extra turns is sampled on the pure twin (NativeDominoState.sample_hidden says why)
        assert not twins or rules.extra_turn != "none", twins


def refusal(state: Any, seat: int, action: Action) -> tuple[str, str] | None:
    try:
        state.clone().apply(seat, action)
    except MugginsError as e:
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize(("preset", "players", "rules"), FAMILIES, ids=[f"{p}:{n}:{i}" for i, (p, n, _) in
                                                                      enumerate(FAMILIES)])
def test_a_refused_move_has_the_pure_words_and_builds_no_twin(preset: str, players: int, rules: Any,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Every tile of the seat to move on the last layout tiles (any part), a tile it does not hold, draw, pass
    and knock, a claim on a draw: refused with the pure engine's type and words (``_why_illegal``'s)."""
    fast = NativeDominoState.new(rules, players, Chance(5))
    pure = DominoState.new(rules, players, Chance(5))
    rng = random.Random(5)
    tiles = full_set(rules.tile_set)
    with count_twins(monkeypatch) as twins:
        for _ in range(80):
            if pure.is_over():
                break
            seat = min(pure.waiting_for())
            laid = pure._ltile[-4:]
            tries = [Action("draw"), Action("pass"), Action("knock"), Action("draw", claim=2),
                     Action("play", rng.choice(tiles)), Action("play", rng.choice(tiles), rng.choice(tiles))]
            tries += [Action("play", t, on, part) for t in pure.hands[seat] for on in laid for part in (None, "end")]
            for action in tries:
                assert refusal(fast, seat, action) == refusal(pure, seat, action), action
            seat, action = choose(pure, rng, 0.5)
            pure.apply(seat, action)
            fast.apply(seat, action)
    assert not twins, twins
