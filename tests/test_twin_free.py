"""A whole game as the server plays it, on the native state ``spec.new`` gives, never builds the pure twin.

The server asks on every move for each seat's view and events, the legal moves with their text and JSON, and
now and then a hint (sampled worlds), the record, a move read back from its text, a refused move and an
undo. Each of those is answered from the native engine's data: :func:`tests.twins.count_twins` counts every
pure twin built or brought up to date, and lists who asked for it when one was. One game per game family,
both claim modes. Skips when the native engines are not built (fails instead under CI=true).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from muggins.core import get_game
from muggins.core.errors import IllegalAction
from muggins.core.protocol import Action
from muggins.core.records import to_record
from muggins.server.insight import hint_of
from tests.twins import count_twins

GAMES = [("dominoes", "muggins", 2), ("dominoes", "all-fives", 4), ("dominoes", "five-up", 3),
         ("cribbage", "cribbage", 2), ("cribbage", "four-hand", 4), ("card-muggins", "muggins", 3)]

#: a move nobody may make now in any of these games (no such piece, or no such move now)
REFUSED = (Action("knock"), Action("pass"), Action("go"), Action("draw"))


def _serve(state: Any, rng: random.Random, refused: bool) -> None:
    """One move of a web table: every seat's view and events, the offer, a move's text read back, now and then
    a hint, a refused move and the record; then a random legal move."""
    n = state.num_players
    for seat in (None, *range(n)):
        state.view(seat).to_json()
        state.events_for(seat if seat is not None else "all", max(0, len(state.log) - 8))
    seat = rng.choice(sorted(state.to_act()))
    legal = state.legal_actions(seat)
    action = rng.choice(legal)
    text = state.format_action(action)
    state.action_to_json(seat, action)
    if action.kind not in ("muggins", "claim"):
        assert state.parse_action(text, seat) == action.with_claim(None)
    state.legal_action_ids(seat)
    if refused:
        for bad in REFUSED:
            if all(a.with_claim(None) != bad for a in legal):
                with pytest.raises(IllegalAction):
                    state.apply(seat, bad)
    if rng.random() < 0.05:
        hint_of(state, seat, samples=3)
        to_record(state)
    claim = state.claim_for(seat, action) if state.rules.claims == "manual" and action.kind == "play" else None
    state.apply(seat, action if not claim else action.with_claim(claim))


@pytest.mark.usefixtures("native_allowed")  # a test of the native states: under any engine
@pytest.mark.parametrize(("game", "preset", "players"), GAMES, ids=[f"{g}:{p}:{n}" for g, p, n in GAMES])
@pytest.mark.parametrize("claims", ["auto", "manual"])
def test_a_served_game_builds_no_pure_twin(game: str, preset: str, players: int, claims: str,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_game(game)
    rules = spec.rules(preset, {"claims": claims})
    if spec.engine(rules, players)[0] != "native":
        pytest.skip(f"{game} {preset} is played by the pure engine here")
    rng = random.Random(players)
    with count_twins(monkeypatch) as twins:
        state = spec.new(rules, players, seed=7)
        moves = 0
        while not state.is_over() and moves < 400:
            _serve(state, rng, refused=True)
            moves += 1
            if moves % 50 == 0:  # a player takes two moves back
                before = state.history[:-2]
                state.undo(2)
                assert state.history == before
        to_record(state)
        state.inventory()
    assert not twins, dict(twins)


def test_card_inventories_are_the_pure_inventories_with_no_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every preset of both card games with every number of players, after every move: the same places holding
    the same cards in the same order."""
    from tests.cards.test_native_states import CASES, _pair
    from tests.conformance.cases import choose

    for game, preset, options, players in CASES:
        pure, nat = _pair(game, preset, options, players, 3)
        rng = random.Random(players)
        with count_twins(monkeypatch) as twins:
            for _ in range(200):
                if pure.is_over():
                    break
                seat, action = choose(pure, rng)
                pure.apply(seat, action)
                nat.apply(seat, action)
                assert nat.inventory() == pure.inventory()
        assert not twins, (game, preset, twins)


def test_a_refused_card_move_has_the_pure_words_and_builds_no_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every card game preset and player count: plays of every card held and of others, go, draw, pass,
    counts, discards of one and two cards, claims on them, for every seat, refused with the pure engine's type
    and words (its own checks, run on what they read of the native position)."""
    from muggins.cards.dealing import DECK
    from muggins.core.errors import MugginsError
    from tests.cards.test_native_states import CASES, _pair
    from tests.conformance.cases import choose

    def refusal(state: Any, seat: int, action: Action) -> tuple[str, str] | None:
        copy = state.clone()
        try:
            copy.apply(seat, action)
        except MugginsError as e:
            return type(e).__name__, str(e)
        return None

    for game, preset, options, players in CASES:
        pure, nat = _pair(game, preset, options, players, 2)
        rng = random.Random(2)
        with count_twins(monkeypatch) as twins:
            for _ in range(40):
                if pure.is_over():
                    break
                for seat in range(players):
                    tries = [Action("go"), Action("draw"), Action("pass"), Action("count", "crib"), Action("count"),
                             Action("play", rng.choice(DECK)), Action("play", rng.choice(DECK), claim=3),
                             Action("discard", (rng.choice(DECK), rng.choice(DECK))), Action("go", claim=1),
                             Action("discard", (rng.choice(DECK),)), *(Action("play", c) for c in pure.hands[seat])]
                    for action in tries:
                        assert refusal(nat, seat, action) == refusal(pure, seat, action), (game, seat, action)
                seat, action = choose(pure, rng)
                pure.apply(seat, action)
                nat.apply(seat, action)
        assert not twins, (game, preset, twins)
