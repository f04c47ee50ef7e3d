"""The native cribbage state's quick paths through the protocol give what the pure engine gives: an Action that
``legal_actions`` just offered is applied by its identity (found among the offered ones, checked in C), an
exact int seat and id are applied with no Python frame, and the legal ids are shared int objects. Random games
are played on both engines move by move with the native state's own objects (ids and Actions), stale and
foreign offers included, and the refusals are the pure engine's, the game unchanged."""

from __future__ import annotations

import gc
import random
import weakref
from typing import Any

import pytest

from muggins.core.chance import Chance
from muggins.core.errors import IllegalAction, NoSuchSeat
from muggins.core.protocol import check_seat
from muggins.core.rules import get_game
from tests.cards.test_native_states import BUILT, NATIVE, _log, _pair, _same_now

pytestmark = pytest.mark.skipif(not BUILT, reason="the native card engines are not built")

#: (preset, options, players): both claim modes, three and four players, the five-card game
CASES = [("cribbage", {"claims": "auto"}, 2), ("cribbage", {"claims": "manual"}, 2),
         ("three-hand", {"claims": "auto"}, 3), ("four-hand", {"claims": "manual"}, 4),
         ("five-card", {"claims": "auto"}, 2)]


def _refused_alike(pure: Any, nat: Any, seat: Any, action: Any, ids: bool = False) -> None:
    """``action`` (an id with ``ids``) for ``seat`` is refused by both engines with the same words, and
    neither game changes."""
    before = _log(nat), nat.history
    with pytest.raises(IllegalAction) as p:
        pure.apply_action_id(seat, action) if ids else pure.apply(seat, action)
    with pytest.raises(IllegalAction) as q:
        nat.apply_action_id(seat, action) if ids else nat.apply(seat, action)
    assert type(q.value) is type(p.value)
    if not ids:
        assert str(q.value) == str(p.value)
    assert (_log(nat), nat.history) == before


@pytest.mark.parametrize(("preset", "options", "n"), CASES, ids=[f"{p}-{o['claims']}-{n}p" for p, o, n in CASES])
@pytest.mark.parametrize("seed", [1, 2])
def test_offered_actions_and_ids_play_as_the_pure_engine(preset: str, options: dict[str, Any], n: int,
                                                         seed: int) -> None:
    assert preset in get_game("cribbage").presets
    pure, nat = _pair("cribbage", preset, options, n, seed)
    rng = random.Random(seed)
    moves = stale_tried = 0
    stale: tuple[int, Any] | None = None
    while not pure.is_over():
        seat = min(pure.to_act()) if rng.random() < 0.2 else min(pure.waiting_for())
        where = f"{preset}/{options}/{n}p seed {seed}, move {moves}, seat {seat}"
        if stale is not None and stale[0] in pure.to_act():  # an Action offered some moves ago, by identity
            old_seat, old = stale
            stale_tried += 1
            if old in pure.legal_actions(old_seat):
                pure.apply(old_seat, old)
                nat.apply(old_seat, old)
                moves += 1
                _same_now(pure, nat, f"{where}: a stale offer")
                stale = None
                continue
            _refused_alike(pure, nat, old_seat, old)
            stale = None
        if moves % 2:  # integer ids: the native list's own int objects
            ids = nat.legal_action_ids(seat)
            assert ids == pure.legal_action_ids(seat), where
            i = rng.choice(ids)
            pure.apply_action_id(seat, i)
            nat.apply_action_id(seat, i)
        else:
            offered = nat.legal_actions(seat)
            assert offered == pure.legal_actions(seat), where
            k = rng.randrange(len(offered))
            if rng.random() < 0.3:  # another seat's offer replaces this one before the apply
                nat.legal_actions((seat + 1) % n)
            if rng.random() < 0.1 and len(offered) > 1:
                stale = (seat, offered[(k + 1) % len(offered)])
            other = (seat + 1) % n
            if other not in pure.to_act():  # an offered Action for a seat that may not take it
                _refused_alike(pure, nat, other, offered[k])
            pure.apply(seat, offered[k])
            nat.apply(seat, offered[k])
        moves += 1
        _same_now(pure, nat, where)
        assert len(nat.log) == len(pure.log), where
    assert stale_tried > 0 or moves < 50
    assert _log(nat) == _log(pure)
    assert nat.history == pure.history
    assert nat.scores() == pure.scores() and nat.winners() == pure.winners()


def test_exact_int_fast_path_refuses_as_the_checked_one() -> None:
    """Seats and ids the quick path does not take (too wide, negative, not ints, bools, the wrong seat, an id
    no move has now) get the pure engine's refusals and change nothing."""
    pure, nat = _pair("cribbage", "cribbage", {"claims": "auto"}, 2, 5)
    seat = min(pure.waiting_for())
    legal = pure.legal_action_ids(seat)
    illegal = next(i for i in range(pure.num_distinct_actions()) if i not in legal)
    for s, i in ((seat, 2**70), (2**70, legal[0]), (-1, legal[0]), (seat, -1), (seat, illegal), (seat, True),
                 (True, legal[0]), (seat, float(legal[0])), (seat, pure.num_distinct_actions())):
        _refused_alike(pure, nat, s, i, ids=True)
    _same_now(pure, nat, "after refusals")
    for i in (legal[0], legal[-1]):  # a legal id, then its seat's second discard: the game goes on alike
        if seat in pure.waiting_for() and i in pure.legal_action_ids(seat):
            pure.apply_action_id(seat, i)
            nat.apply_action_id(seat, i)
            _same_now(pure, nat, f"after id {i}")
    assert _log(nat) == _log(pure)


def test_an_offered_action_is_applied_in_c() -> None:
    """An Action ``legal_actions`` just offered never reaches the Python apply (the engine's ``bind_actions``
    fallback); an equal Action made elsewhere still plays, through it."""
    pure, nat = _pair("cribbage", "cribbage", {"claims": "auto"}, 2, 9)
    slow: list[tuple[int, Any]] = []

    def fallback(seat: int, action: Any) -> None:
        slow.append((seat, action))
        nat._apply(seat, action)

    nat.native.bind_actions(nat._table, nat._fast_ids, nat._window_actions, fallback)
    rng = random.Random(9)
    for _ in range(40):
        seat = min(pure.waiting_for())
        offered = nat.legal_actions(seat)
        action = rng.choice(offered)
        pure.apply(seat, action)
        nat.apply(seat, action)
    assert slow == []
    seat = min(pure.waiting_for())
    action = pure.legal_actions(seat)[0]
    copy = action._replace()  # equal, another object
    assert copy is not action and copy == action
    pure.apply(seat, action)
    nat.apply(seat, copy)
    assert slow == [(seat, copy)]
    _same_now(pure, nat, "after 41 moves")
    assert _log(nat) == _log(pure)


@pytest.mark.parametrize("game", ["cribbage", "card-muggins"])
def test_a_dropped_state_is_freed_at_once_and_its_engine_says_so(game: str) -> None:
    """The engine calls its state back through a weak reference: no cycle keeps a finished game for the
    garbage collector, and an engine kept past its state refuses what needs the state with a clear error."""
    spec = get_game(game)
    state = NATIVE[game].new(spec.rules(spec.default_preset), 2, Chance(4))
    seat = min(state.waiting_for())
    state.apply(seat, state.legal_actions(seat)[0])
    engine = state.native
    gone = weakref.ref(state)
    enabled = gc.isenabled()
    gc.disable()
    try:
        del state
        assert gone() is None
    finally:
        if enabled:
            gc.enable()
    with pytest.raises(ReferenceError, match="gone"):
        engine.apply_action(0, "not an action")  # only the state's own apply could refuse this


@pytest.mark.parametrize("seed", [2**63 - 1, -(2**63), 2**63, -(2**32), 2**32 + 1, 0])
def test_seeds_at_the_edges_of_a_c_long_long_deal_as_python(seed: int) -> None:
    """A seed that fits a C ``long long`` is split into words in C, a wider one in Python: both seed the
    generator as ``random.Random(seed)`` does (the same deals and cuts as the pure engine)."""
    pure, nat = _pair("cribbage", "cribbage", {"claims": "auto"}, 2, seed)
    rng = random.Random(seed)
    for _ in range(30):
        seat = min(pure.waiting_for())
        i = rng.choice(pure.legal_action_ids(seat))
        pure.apply_action_id(seat, i)
        nat.apply_action_id(seat, i)
    assert _log(nat) == _log(pure)
    assert nat.chance.outcomes == pure.chance.outcomes
    assert nat.chance.rng.getstate() == pure.chance.rng.getstate()


def test_bad_seats_are_refused_when_listing() -> None:
    """Listing the moves of something that is no seat raises NoSuchSeat with the protocol's words (the pure
    engine's where it raises it too), for ids and Actions alike."""
    pure, nat = _pair("cribbage", "cribbage", {"claims": "manual"}, 2, 6)
    for seat in (-1, 2, 2**70, -(2**70), True, 1.0, "0", None):
        for method in ("legal_actions", "legal_action_ids"):
            with pytest.raises(NoSuchSeat) as q:
                getattr(nat, method)(seat)
            with pytest.raises(NoSuchSeat) as p:
                check_seat(seat, 2)
            assert str(q.value) == str(p.value), (method, seat)
            try:
                getattr(pure, method)(seat)
            except IllegalAction as e:
                assert type(e) is type(q.value) and str(e) == str(q.value), (method, seat)
            except Exception:  # (the pure engine lists some of them, or fails another way: left as it is)
                pass


def test_a_list_of_legal_moves_the_caller_keeps_is_never_changed() -> None:
    """The engine refills the list of legal ids (or Actions) it gave last only when nobody holds it any more:
    lists a caller keeps, changes or is iterating over stay as they were through later calls and moves, and
    every answer equals the pure engine's."""
    pure, nat = _pair("cribbage", "cribbage", {"claims": "auto"}, 2, 5)
    kept: list[tuple[list[Any], list[Any]]] = []
    rng = random.Random(5)
    for move in range(60):
        seat = min(pure.waiting_for())
        ids, actions = nat.legal_action_ids(seat), nat.legal_actions(seat)
        assert ids == pure.legal_action_ids(seat) and actions == pure.legal_actions(seat)
        if move % 7 == 0:
            ids.append(-1)  # changed by its caller: the engine's next answer is a list of its own
        if move % 3 == 0 or move % 7 == 0:
            kept.append((ids, list(ids)))
            kept.append((actions, list(actions)))
        it = iter(nat.legal_action_ids(seat))
        first = next(it)
        i = rng.choice(pure.legal_action_ids(seat))
        again = nat.legal_action_ids(seat)  # (a new list: the one being iterated over is held)
        assert [first, *it] == again == pure.legal_action_ids(seat)
        pure.apply_action_id(seat, i)
        nat.apply_action_id(seat, i)
        for held, was in kept:
            assert held == was
    _same_now(pure, nat, "after 60 moves")
