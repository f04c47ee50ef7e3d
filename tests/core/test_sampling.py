"""sample_hidden holds nothing of what the seat cannot see, and breaks nothing the seat can infer.

Every preset of dominoes, card Muggins and cribbage is played by random moves from fixed seeds; at
several positions each seat's sample is checked: the same view and the same public log as the true
state, a record that replays to the sample itself, an undo that brings back no true hand, and the same
sample from a second true state that differs only in what the seat cannot see.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from muggins.bots.registry import make_bot
from muggins.core import Chance, get_game
from muggins.core.protocol import GameState
from muggins.core.records import replay, to_record

GAMES = ("dominoes", "card-muggins", "cribbage")
CASES = [(g, p) for g in GAMES for p in get_game(g).presets]
STOPS = (0, 9, 35, 120)


def _players(game: str, preset: str) -> int:
    r = get_game(game).presets[preset]
    if game == "dominoes":
        return 4 if r.partnerships else 2
    return int(getattr(r, "players", 2) or 2)


def _play(state: GameState, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        if state.is_over():
            return
        seat = min(state.waiting_for() or state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def _positions(game: str, preset: str, seeds: range = range(2), stops: tuple[int, ...] = STOPS,
               **options: Any) -> list[GameState]:
    spec = get_game(game)
    out = []
    for seed in seeds:
        for stop in stops:
            st = spec.new(spec.rules(preset, options), _players(game, preset), chance=Chance(seed))
            _play(st, stop, random.Random(seed * 7 + 1))
            out.append(st)
    return out


def _twin(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """A true state the seat cannot tell from ``state`` whose hidden pieces differ, or None if none
    of a few tries differs: a sample for another seat, made into a game (its record, replayed)."""
    for _ in range(6):
        others = [s for s in range(state.num_players) if s != seat]
        # a sample for ``seat`` is a true game in its own right: it is the twin
        t = replay(to_record(state.sample_hidden(seat, rng)))
        if any(_hidden(t, s) != _hidden(state, s) for s in others):
            return t
    return None


def _hidden(state: GameState, s: int) -> Any:
    return sorted(map(str, state.hands[s]))  # type: ignore[attr-defined]


def _fingerprint(state: GameState) -> Any:
    rec = to_record(state)
    return (rec["chance"], rec["actions"], state.events_for(None),
            [state.view(s) for s in range(state.num_players)])


@pytest.mark.parametrize(("game", "preset"), CASES)
def test_sample_is_consistent_leak_free_and_its_own_game(game: str, preset: str) -> None:
    for st in _positions(game, preset):
        for seat in range(st.num_players):
            smp = st.sample_hidden(seat, random.Random(11))
            assert smp.view(seat) == st.view(seat)
            assert smp.events_for(seat) == st.events_for(seat)
            again = replay(to_record(smp))
            assert again.events_for(None) == smp.events_for(None)
            assert [again.view(s) for s in range(st.num_players)] == [smp.view(s) for s in range(st.num_players)]
            if smp.history:  # undoing the sample rebuilds the sample's own past, never the true one
                back = smp.clone()
                back.undo(len(back.history))
                fresh = replay({**to_record(smp), "actions": []})
                assert back.events_for(None) == fresh.events_for(None)
            twin = _twin(st, seat, random.Random(3))
            if twin is None:
                continue
            assert twin.view(seat) == st.view(seat)
            assert twin.events_for(seat) == st.events_for(seat)
            assert _fingerprint(twin.sample_hidden(seat, random.Random(5))) == \
                _fingerprint(st.sample_hidden(seat, random.Random(5)))


@pytest.mark.parametrize(("game", "preset"), CASES)
def test_view_and_events_hold_nothing_hidden(game: str, preset: str) -> None:
    for st in _positions(game, preset, range(1)):
        for seat in range(st.num_players):
            twin = _twin(st, seat, random.Random(8))
            if twin is None:
                continue
            assert twin.view(seat) == st.view(seat)
            assert twin.events_for(seat) == st.events_for(seat)
            assert twin.view(None) == st.view(None)
            assert twin.events_for(None) == st.events_for(None)


def _impossible(st: GameState, smp: GameState, seat: int) -> bool:
    """Whether the sample's world could not have produced what the seat saw (replayed from its own
    deal, its public log would differ)."""
    again = replay(to_record(smp))
    return again.events_for(seat) != st.events_for(seat)


INFERENCES = [("seven-toed-pete", {}), ("seven-rocks", {"knocking": True}),
               ("muggins", {"first_lead": "highest_double"}),
               ("all-fives", {"first_lead": "highest_double_forced"})]


@pytest.mark.parametrize(("preset", "options"), INFERENCES)
def test_public_inferences_hold_in_every_sample(preset: str, options: dict[str, Any]) -> None:
    """An extra turn kept or lost, a partner's knock, the highest double's holder leading: every sample
    replayed from its own deal shows the seat the very events it saw."""
    bad = total = 0
    for st in _positions("dominoes", preset, range(3), (1, 6, 14, 30, 60), **options):
        for seat in range(st.num_players):
            for k in range(3):
                total += 1
                bad += _impossible(st, st.sample_hidden(seat, random.Random(k)), seat)
    assert total and bad == 0


FAIR = ("random", "greedy", "heuristic", "search:iterations=30:time=5", "beginner", "casual", "club")


@pytest.mark.parametrize("game", GAMES)
def test_fair_bots_choose_alike_in_states_the_seat_cannot_tell_apart(game: str) -> None:
    preset = get_game(game).default_preset
    for st in _positions(game, preset, range(1))[1:3]:
        if st.is_over():
            continue
        seat = min(st.waiting_for() or st.to_act())
        twin = _twin(st, seat, random.Random(2))
        if twin is None:
            continue
        for name in FAIR:
            a = make_bot(name, 1).act(st, seat, random.Random(4))
            b = make_bot(name, 1).act(twin, seat, random.Random(4))
            assert a == b, name


@pytest.mark.parametrize("game", ["dominoes", "card-muggins"])
def test_sample_of_a_sample_is_drawn_alike(game: str) -> None:
    """A sample's sample for the same seat is drawn from the same worlds: for a fixed seed it is the
    very same world (the sample holds exactly what the seat knows)."""
    st = _positions(game, get_game(game).default_preset, range(1))[2]
    for seat in range(st.num_players):
        smp = st.sample_hidden(seat, random.Random(1))
        for k in range(5):
            assert _fingerprint(smp.sample_hidden(seat, random.Random(k))) == \
                _fingerprint(st.sample_hidden(seat, random.Random(k)))


def test_no_module_cache_remembers_moves() -> None:
    from muggins.cards.cribbage import game as cribbage
    from muggins.dominoes import state as dominoes
    from muggins.dominoes.tiles import Tile

    before = dict(cribbage._DISCARDS)
    _positions("cribbage", get_game("cribbage").default_preset, range(1))
    _positions("dominoes", "muggins", range(1))
    assert before == cribbage._DISCARDS  # the table of every discard, made once for the whole pack
    assert not hasattr(dominoes, "_ACTIONS")
    assert not hasattr(Tile.of(5, 5), "on")


def _exact(state: GameState) -> Any:
    """Everything of a state a replay must give again: the unredacted log, the record and the hidden pieces."""
    hidden = [list(map(str, h)) for h in state.hands]  # type: ignore[attr-defined]
    rest = getattr(state, "boneyard", None) or getattr(state, "stock", None) or []
    return ([e.to_dict() for e in state.log], to_record(state), hidden, list(map(str, rest)),
            [state.legal_actions(s) for s in range(state.num_players)], state.to_act())


EXACT = [("dominoes", p, {}) for p in get_game("dominoes").presets] + [
    ("dominoes", "muggins", {"voluntary_draw": True}), ("dominoes", "seven-rocks", {"knocking": True}),
    ("dominoes", "seven-toed-pete", {"voluntary_draw": True, "draw": "until_playable"}),
    ("dominoes", "all-fives", {"first_lead": "highest_double_forced"})] + [
    ("card-muggins", p, {}) for p in get_game("card-muggins").presets]


@pytest.mark.parametrize(("game", "preset", "options"), EXACT)
def test_sample_is_exactly_what_its_own_record_replays_to(game: str, preset: str, options: dict[str, Any]) -> None:
    """A sample made by swapping a drawn world into a cached template is, to the last hidden flag and
    the order of every hand and of the boneyard or stock, the game its own record replays to."""
    for st in _positions(game, preset, range(2), (1, 5, 12, 30, 70), **options):
        for seat in range(st.num_players):
            for k in range(3):
                smp = st.sample_hidden(seat, random.Random(k))
                assert _exact(replay(to_record(smp))) == _exact(smp)
                assert smp.events_for(seat) == st.events_for(seat)


def test_the_plan_cache_serves_only_its_own_position_and_holds_nothing_hidden() -> None:
    from muggins.core import sampling

    sampling.clear_cache()
    spec = get_game("dominoes")
    a, b = (spec.new(spec.rules(p), 2, chance=Chance(3)) for p in ("muggins", "muggins-spinner"))
    assert a.events_for(0) == b.events_for(0)  # the same opening, other rules: never the same plan
    assert a.sample_hidden(0, random.Random(1)).rules == a.rules
    assert b.sample_hidden(0, random.Random(1)).rules == b.rules
    st = _positions("dominoes", "muggins", range(1), (12,))[0]
    for seat in range(2):
        first = _fingerprint(st.sample_hidden(seat, random.Random(7)))
        assert _fingerprint(st.sample_hidden(seat, random.Random(7))) == first  # served from the cache
    seat = min(st.to_act())
    st.apply(seat, st.legal_actions(seat)[0])  # a new position: a new plan, never the old one
    smp = st.sample_hidden(0, random.Random(7))
    assert smp.events_for(0) == st.events_for(0) and len(smp.history) == len(st.history)
    true_events = {id(e) for e in st.log}
    true_outcomes = {id(o) for o in st.chance.outcomes}
    for entry in sampling._CACHE.values():
        for state in (getattr(entry, "template", None), getattr(entry, "past", None),
                      getattr(entry, "base", None)):
            if state is not None:
                assert not true_events & {id(e) for e in state.log}
                assert not true_outcomes & {id(o) for o in state.chance.outcomes}
                for s in range(2):  # a hand the seat cannot see is the canonical world's, not the true one
                    assert state.hands is not st.hands and state.hands[s] is not st.hands[s]
