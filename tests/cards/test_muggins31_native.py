"""The native card Muggins engine (cards/muggins31/native.pyx) against the pure one, move by move.

Lockstep: a random legal id (any claim code, calls and late claims included) is applied to both engines; after
every move their legal ids (every seat), the seats to act, scores, turn, total, pile, stock, every hand, the
open window and the new events (kind, seat, every field, secrets included) must agree, and so must the final
result. Chance is shared by feeding: after the pure engine draws a deal, the same cards are fed to the native
one before it applies the move, so the native engine deals, refills and ends rounds itself. Every preset is
played with two to four players, and the options no preset uses each in a variant of their own.

Skips when the native module is not built (fails instead under CI=true: tests/conftest.py).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from muggins._accel import load_native
from muggins.cards.dealing import CARD_BY_TEXT
from muggins.cards.muggins31.rules import PRESETS, CardMugginsRules
from muggins.cards.muggins31.state import CardMugginsState
from muggins.core.chance import Chance
from muggins.core.errors import ClaimError, GameOver, IllegalAction, NotYourTurn, UnknownAction

native, WHY = load_native("muggins.cards.muggins31.native")
pytestmark = pytest.mark.skipif(native is None, reason=f"the native card Muggins module: {WHY}")

#: the options no preset turns on, each in a variant of the default preset (short targets end games mid-round)
OPTIONS: list[dict[str, object]] = [
    {"thirty_one_plus_last": True, "lead_after_last_passer": True, "claim_timing": "lenient", "target": 41},
    {"go_is_final_for_pile": True, "muggins": "steal_and_deduct", "over_claim": "opponent_scores"},
    {"close_after_others_pass": True, "go_draw": "only_if_below_5", "false_call_penalty": "deduct"},
    {"mug_last": True, "window": "until_next_play", "claim_timing": "lenient", "false_call_penalty": "award"},
    {"mug_last": True, "muggins": "forfeit", "false_call_penalty": "award", "false_call_points": 3},
    {"win_check": "end_of_round", "first_dealer": "low_card", "lead_scores": False, "target": 31},
    {"cap": 43, "cap_bonus": 4, "last_points": 3, "hand_size": 4, "draw_after_play": False},
    {"go_is_final_for_pile": True, "close_after_others_pass": True, "window": "until_next_play",
     "claims": "auto", "target": 25},
]


def _ids(state: CardMugginsState, seat: int) -> list[int]:
    return [i for i, b in enumerate(state.legal_action_mask(seat)) if b]


def _window(state: CardMugginsState) -> tuple | None:
    w = state._window
    if w is None:
        return None
    return (w.scorer, w.missed, w.claimed, w.reason, w.may_claim, w.late)


def _same(state: CardMugginsState, nat: object, where: str) -> None:
    assert nat.is_over() == state.is_over(), where
    assert list(nat.side_scores()) == state.side_scores(), where
    assert nat.to_act() == state.to_act(), where
    assert nat.waiting_for() == state.waiting_for(), where
    assert nat.window() == _window(state), where
    for s in range(state.num_players):
        assert nat.legal_ids(s) == _ids(state, s), where
    if state.is_over():
        assert set(nat.winners()) == set(state.winners()), where
        return
    assert nat.turn() == state.turn and nat.total() == state.total, where
    assert nat.dealer() == state.dealer and nat.round_no() == state.round_no, where
    assert nat.pile() == [c.index for c in state.pile], where
    assert nat.stock() == [c.index for c in reversed(state.stock)], where
    assert nat.passed() == [s for s in range(state.num_players) if state._passed[s]], where
    for s in range(state.num_players):
        assert nat.held(s) == sorted(c.index for c in state.hands[s]), where


def _feed(nat: object, outcome: dict) -> None:
    assert outcome["kind"] == "deal"
    nat.feed_deal([[CARD_BY_TEXT[t].index for t in h] for h in outcome["hands"]],
                  [CARD_BY_TEXT[t].index for t in outcome["stock"]])


def lockstep(rules: CardMugginsRules, players: int, seed: int, calls: float = 0.15) -> CardMugginsState:
    """One game in both engines: the seat to act chosen at random among those who may, its id at random among
    its legal ones (a call or late claim with probability ``calls`` when one is legal). Returns the pure game."""
    state = CardMugginsState.new(rules, players, Chance(seed))
    nat = native.NativeCardMuggins.from_state(state)
    seen = state.chance.position
    mark = base = len(state.log)
    rng = random.Random(seed)
    moves = 0
    _same(state, nat, "start")
    while not state.is_over():
        waiting = sorted(state.waiting_for())
        others = sorted(state.to_act() - state.waiting_for())
        seat = rng.choice(others) if others and rng.random() < calls else waiting[0]
        ids = _ids(state, seat)
        optional = [i for i in ids if state.action_from_id(seat, i).kind in ("muggins", "claim")]
        regular = [i for i in ids if i not in optional]
        i = rng.choice(optional if optional and (not regular or rng.random() < calls) else regular)
        state.apply(seat, state.action_from_id(seat, i))
        for outcome in state.chance.outcomes[seen:state.chance.position]:
            _feed(nat, outcome)
        seen = state.chance.position
        nat.apply_id(seat, i)
        moves += 1
        where = f"{rules.preset} {players}p seed {seed} move {moves}: seat {seat} id {i}"
        got = nat.events(mark - base)
        assert [e.to_dict("all") for e in got] == [e.to_dict("all") for e in state.log[mark:]], where
        assert [e.secret for e in got] == [e.secret for e in state.log[mark:]], where
        mark = len(state.log)
        _same(state, nat, where)
        if moves % 7 == 0:
            _same(state, native.NativeCardMuggins.from_state(state), where + " (from_state)")
    assert moves > 0
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_games_in_lockstep(preset: str, players: int) -> None:
    ends = set()
    for seed in range(12):  # every other game to 150: games that outlast their first round
        rules = PRESETS[preset] if seed % 2 else dataclasses.replace(PRESETS[preset], target=150)
        state = lockstep(rules, players, 100 * players + seed)
        ends.add(state.round_no > 1)
    assert True in ends


@pytest.mark.parametrize("k", range(len(OPTIONS)))
def test_every_option_in_lockstep(k: int) -> None:
    rules = dataclasses.replace(PRESETS["muggins"], **OPTIONS[k])  # type: ignore[arg-type]
    for players in (2, 3, 4):
        for seed in range(6):
            lockstep(rules, players, 7000 + 10 * k + seed, calls=0.3)


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_many_random_games_in_lockstep(preset: str) -> None:
    for seed in range(150):
        lockstep(PRESETS[preset], 2 + seed % 3, 50_000 + seed)


def test_native_games_log_what_the_pure_engine_replays() -> None:
    """A game the native engine deals and plays itself (greedy, true claims): the pure engine, given the same
    cut and deals as chance outcomes and the same moves, logs the same events and ends the same way."""
    for preset in sorted(PRESETS):
        for players in (2, 3, 4):
            rules = PRESETS[preset]
            nat = native.NativeCardMuggins(rules, players, seed=players)
            moves: list[tuple[int, int]] = []
            while not nat.is_over():
                seat = nat.turn()
                i = nat.choose_id(1 if len(moves) % 3 else 0)
                moves.append((seat, i))
                nat.apply_id(seat, i)
            events = nat.events()
            outcomes = []
            for e in events:
                if e.kind == "cut_for_deal":
                    outcomes.append({"kind": "cut_for_deal", **e.data})
            deals = _deals(events, players)
            state = CardMugginsState.new(rules, players, Chance(outcomes=outcomes + deals))
            for seat, i in moves:
                state.apply(seat, state.action_from_id(seat, i))
            assert [e.to_dict("all") for e in state.log] == [e.to_dict("all") for e in events], (preset, players)
            assert state.side_scores() == list(nat.side_scores()) and set(state.winners()) == set(nat.winners())


def _deals(events: list, players: int) -> list[dict]:
    """The deal outcomes behind the native log: each round's dealt hands, its draws in order and the cards never
    drawn (read from what the round shows: every card is dealt, drawn or left in the stock)."""
    out: list[dict] = []
    hands: list[list[str]] = []
    stock: list[str] = []
    for e in [*events, None]:
        if e is None or e.kind == "round_start":
            if hands:
                rest = sorted(set(CARD_BY_TEXT) - {c for h in hands for c in h} - set(stock))
                out.append({"kind": "deal", "hands": hands, "stock": stock + rest})
            hands, stock = [], []
        elif e.kind == "dealt":
            hands.append(list(e.data["cards"]))
        elif e.kind == "draw":
            stock.append(e.data["card"])
    return out


def test_illegal_ids_are_refused_and_change_nothing() -> None:
    rules = PRESETS["muggins"]
    nat = native.NativeCardMuggins(rules, 2, seed=5)
    before = (nat.side_scores(), nat.held(0), nat.held(1), nat.num_events())
    other = 1 - nat.turn()
    with pytest.raises(NotYourTurn):
        nat.apply_id(other, nat.legal_ids(nat.turn())[0])
    with pytest.raises(UnknownAction):
        nat.apply_id(nat.turn(), nat.num_ids())
    with pytest.raises(NotYourTurn):
        nat.apply_id(7, 0)
    unheld = next(c for c in range(52) if c not in nat.held(nat.turn()))
    with pytest.raises(IllegalAction):
        nat.apply_id(nat.turn(), unheld * (rules.max_step_points + 2))
    with pytest.raises(ClaimError):  # no window yet
        nat.apply_id(other, nat.num_ids() - 1)
    assert (nat.side_scores(), nat.held(0), nat.held(1), nat.num_events()) == before
    while not nat.is_over():
        nat.apply_id(nat.turn(), nat.choose_id(1))
    with pytest.raises(GameOver):
        nat.apply_id(0, 0)


def test_every_preset_is_played_and_other_player_counts_say_why() -> None:
    for preset, rules in PRESETS.items():
        for n in (2, 3, 4):
            assert native.unsupported(rules, n) is None
            out = native.random_play_native(rules, n, 0.01, seed=1)
            assert out["games"] > 0 and out["moves"] > 5 * out["games"], preset
        for n in (1, 5):
            why = native.unsupported(rules, n)
            assert why is not None and str(n) in why and preset in why
    wide = dataclasses.replace(PRESETS["deal-seven"], hand_size=14)
    assert native.unsupported(wide, 4) is not None and native.unsupported(wide, 3) is None
