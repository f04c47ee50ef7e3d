"""The engine keeps the protocol: legal moves apply, everything else is refused with a MugginsError and
changes nothing, the turn sets agree with the legal moves, games end with winners, scores are the sums of
their score events, clones are independent, undo is exact and no piece is lost or made up."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from typing import Any

import pytest

from muggins.core.errors import MugginsError
from muggins.core.protocol import Action, GameState
from tests.conformance.cases import (
    Case,
    differences,
    params,
    pieces,
    play,
    positions,
    snapshot,
    with_amount,
)

SEED = 11
EVERY = 5  # positions looked at closely: every fifth of the scripted game


class Junk:
    """An object no game knows."""

    def __repr__(self) -> str:
        return "Junk()"


JUNK_VALUES: tuple[Any, ...] = (Junk(), 12345, "zz", ("zz",), -1, 2.5)  # None may mean "unsaid"
BAD_SEATS: tuple[Any, ...] = (True, False, 0.0, 1.0, "0", -1, None, 2**70, [0])
BAD_AMOUNTS: tuple[Any, ...] = (True, False, 1.5, 2.0, -1, 10**30, "3", [1])
NOT_ACTIONS: tuple[Any, ...] = (None, "play", ("play",), 42, {"kind": "play"}, Junk(), ["go"])


def listed(state: GameState, seat: int) -> set[Action]:
    return {a.with_claim(None) for a in state.legal_actions(seat)}


def bad_moves(state: GameState, rng: random.Random) -> list[tuple[Any, Any, str]]:
    """(seat, action, why) of moves the rules cannot allow in ``state``."""
    n = state.num_players
    seats = range(n)
    act = state.to_act()
    legal = {s: state.legal_actions(s) for s in seats}
    regular = [(s, a) for s in seats for a in legal[s] if a.kind not in ("muggins", "claim")]
    anyone = sorted(act)[0] if act else 0
    moves: list[tuple[Any, Any, str]] = []
    sample = regular[:: max(1, len(regular) // 6)] or [(anyone, Action("pass"))]
    for seat in BAD_SEATS + (n,):
        s, a = sample[0]
        moves.append((seat, a, f"seat {seat!r}"))
    for thing in NOT_ACTIONS:
        moves.append((anyone, thing, f"not an action: {thing!r}"))
    moves.append((anyone, Action(42), "an action whose kind is not text"))  # type: ignore[arg-type]
    moves.append((anyone, Action("fly"), "an unknown kind"))
    for s, a in sample:
        for junk in JUNK_VALUES:
            for field in ("subject", "target", "part"):
                if getattr(a, field) == junk:
                    continue
                b = a._replace(**{field: junk})
                if b.with_claim(None) not in listed(state, s):
                    moves.append((s, b, f"{a} with {field}={junk!r}"))
        for amount in BAD_AMOUNTS:
            moves.append((s, a.with_claim(amount), f"{a} claiming {amount!r}"))
        # the same move by every seat that may not make it
        for other in seats:
            if a.with_claim(None) not in listed(state, other):
                moves.append((other, a, f"{a} by seat {other}, who may not make it"))
    for s in seats:
        kinds = {a.kind for a in legal[s]}
        for kind in ("muggins", "claim"):
            if kind not in kinds:
                moves.append((s, Action(kind), f"{kind} by seat {s}, who has no window"))
                moves.append((s, Action(kind, claim=1), f"{kind} 1 by seat {s}, who has no window"))
            else:
                for amount in BAD_AMOUNTS:
                    moves.append((s, Action(kind, claim=amount), f"{kind} {amount!r}"))
    if getattr(state.rules, "claims", "auto") != "manual":
        for s, a in sample:
            if state.claim_for(s, a) > 0:
                moves.append((s, a.with_claim(state.claim_for(s, a)), f"{a} with a claim in auto mode"))
    rng.shuffle(moves)
    return moves


def refuse_all(state: GameState, moves: list[tuple[Any, Any, str]]) -> None:
    """Every move is refused with a MugginsError (a subclass: the reason is named)."""
    for seat, action, why in moves:
        try:
            state.apply(seat, action)
        except MugginsError as e:
            assert type(e) is not MugginsError, f"{why}: refused without a specific error type"
            assert str(e), f"{why}: refused without a message"
        else:
            pytest.fail(f"accepted: {why} (seat {seat!r}, after {len(state.history) - 1} actions)")


def check_refusals(state: GameState, moves: list[tuple[Any, Any, str]]) -> None:
    before = snapshot(state)
    refuse_all(state, moves)
    after = snapshot(state)
    if after != before:  # find the move that changed it
        for seat, action, why in moves:
            c = state.clone()
            s0 = snapshot(c)
            refuse_all(c, [(seat, action, why)])
            assert snapshot(c) == s0, f"{why} changed {differences(s0, snapshot(c))}"
        pytest.fail(f"a refused move changed {differences(before, after)}")


@pytest.mark.parametrize("case", params())
class TestEngine:
    def test_every_legal_action_applies_and_turn_sets_agree(self, case: Case) -> None:
        rng = random.Random(SEED)
        for state in positions(case, SEED):
            act, waiting = state.to_act(), state.waiting_for()
            assert waiting <= act
            if state.is_over():
                assert not act and not waiting
                assert all(state.legal_actions(s) == [] for s in range(state.num_players))
                assert state.winners(), "a game over without winners"
                continue
            assert waiting, "nobody is waited for in a game that is not over"
            for seat in range(state.num_players):
                legal = state.legal_actions(seat)
                if seat not in act:
                    assert legal == [], f"seat {seat} is not to act but has moves {legal}"
                    continue
                assert legal, f"seat {seat} may act but has no legal move"
                assert len(set(legal)) == len(legal), f"a move is listed twice: {legal}"
                for action in legal:
                    child = state.clone()
                    child.apply(seat, with_amount(child, seat, action, rng))

    def test_illegal_and_malformed_actions_are_refused_and_change_nothing(self, case: Case) -> None:
        rng = random.Random(SEED)
        last = None
        for k, state in enumerate(positions(case, SEED)):
            last = state
            if k % EVERY == 0 and not state.is_over():
                check_refusals(state, bad_moves(state, rng))
                before = snapshot(state)
                for steps in (-1, True, 1.0, "1", len(state.history) + 1, None):
                    with pytest.raises(MugginsError):
                        state.undo(steps)
                assert snapshot(state) == before, "a refused undo changed the state"
        assert last is not None and last.is_over()
        tried = [(s, a, f"{a} after the end") for s in range(last.num_players)
                 for _, a in last.history[-5:]] + [(0, Action("muggins"), "muggins after the end")]
        check_refusals(last, tried)
        assert last.to_act() == frozenset() and last.waiting_for() == frozenset()

    def test_a_game_ends_with_winners_and_scores_are_the_sums_of_score_events(self, case: Case) -> None:
        for seed in (SEED, SEED + 1, SEED + 2):
            state = case.new(seed)
            made = play(state, random.Random(seed), each=check_scores_now_and_then)
            assert made and state.is_over() and state.winners()
            assert state.winners() <= set(range(state.num_players))
            assert_scores(state)

    def test_clone_is_independent(self, case: Case) -> None:
        rng = random.Random(SEED)
        for k, state in enumerate(positions(case, SEED)):
            if k % EVERY or state.is_over():
                continue
            before = snapshot(state)
            c = state.clone()
            assert snapshot(c) == before, f"a clone differs from its original in {differences(before, snapshot(c))}"
            play(c, rng, max_steps=10**6)
            after = snapshot(state)
            assert after == before, f"playing on a clone changed the original's {differences(before, after)}"

    def test_undo_is_exact(self, case: Case) -> None:
        rng = random.Random(SEED)
        kept: dict[int, dict[str, Any]] = {}
        final = None
        for k, state in enumerate(positions(case, SEED)):
            if k % EVERY == 0 or state.is_over():
                kept[len(state.history)] = snapshot(state, full_chance=False)
            final = state
        assert final is not None
        made = len(final.history)
        backs = sorted({0, 1, made} | set(rng.sample(sorted(kept), min(6, len(kept)))))
        for at in backs:
            if at not in kept:
                continue
            c = final.clone()
            c.undo(made - at)
            got = snapshot(c, full_chance=False)
            assert got == kept[at], f"undo({made - at}) differs in {differences(kept[at], got)}"

    def test_pieces_are_conserved(self, case: Case) -> None:
        full = pieces(case.new(SEED))  # a game without pieces (a shared count) lists none, ever
        assert len(set(full)) == len(full), f"a piece is listed twice: {Counter(full).most_common(3)}"
        assert pieces(case.new(SEED + 1)) == full, "another deal has other pieces"
        for state in positions(case, SEED):
            inv = state.inventory()
            assert all(isinstance(k, str) and all(isinstance(p, str) for p in v) for k, v in inv.items())
            if full:
                assert {f"hand {s}" for s in range(state.num_players)} <= set(inv), "a seat's hand is missing"
            assert pieces(state) == full, f"pieces lost or made up after {len(state.history)} actions"


def check_scores_now_and_then(state: GameState, seat: int, action: Action) -> None:
    if len(state.history) % 10 == 0:
        assert_scores(state)


def assert_scores(state: GameState) -> None:
    sums: dict[int, int] = defaultdict(int)
    for e in state.events_for(None):
        if e["kind"] == "score":
            sums[e["side"]] += e["points"]
    assert state.side_scores() == [sums[s] for s in range(state.num_sides)]
    assert state.scores() == [state.side_scores()[state.side_of(i)] for i in range(state.num_players)]
