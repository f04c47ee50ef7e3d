"""Samples of hidden information that hold nothing else: a sample is a game of its own, replayed.

``sample_hidden(seat, rng)`` must give a state consistent with what ``seat`` has seen and holding nothing
of what it has not: not in the hands, nor in the log, the chance stream, the record or the undo history.
So a sample is never a rewritten copy of the true state. The game rebuilds every deal outcome from what
``seat`` sees (its own pieces, every public event) and replays the public history on those outcomes:
the log, the history and the chance stream of the sample are then its own, and its record replays to it.

A hand of a game is verified as it is replayed: every event it produces must look to ``seat`` exactly as
the true one does (the same leader, the same turns, the same revealed hands). A world that breaks a
public inference the game's own rules make (an extra turn kept, a partner's knock, the holder of the
highest double leading) fails that check and is drawn again; the game may ``learn`` such an inference as
a constraint for the next draw. Ended hands are rebuilt the same way with no generator (one canonical
world, the same for every sample); the replay up to the current hand is kept on the true state when its
build allows it, so a sample costs a replay of the current hand only.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from muggins.core.chance import Chance, Outcome
from muggins.core.errors import IllegalAction, RecordError
from muggins.core.protocol import Action, Event, GameState

#: ``build(segment, outcomes, learned, rng)``: the chance outcomes of one hand, rebuilt. ``segment`` is
#: the hand's log as ``seat`` sees it, (index, event dict) pairs from its start event to the next one;
#: ``outcomes`` its true outcomes (only the public ones may be copied); ``rng`` None asks for the
#: canonical world (ended hands).
Build = Callable[[list[tuple[int, dict[str, Any]]], list[Outcome], dict[int, int], random.Random | None],
                 list[Outcome]]
#: ``learn(replay, index, history, learned)``: after history action ``index`` was replayed, record in
#: ``learned`` (log index -> constraint) the inferences its position shows.
Learn = Callable[[GameState, int, list[tuple[int, Action]], dict[int, int]], None]

MAX_TRIES = 400
_MEMO = "_sample_past"


class _Past:
    """The replay of the ended hands for one seat: the state just before the action that started the
    current hand (None when it is the first), kept with what identifies the true game it came from."""

    __slots__ = ("base", "group", "seat", "start_event", "trigger")

    def __init__(self, seat: int, start_event: Event, trigger: int, group: int, base: GameState | None) -> None:
        self.seat = seat
        self.start_event = start_event
        self.trigger = trigger
        self.group = group
        self.base = base


def _same(a: Event, b: dict[str, Any], seat: int) -> bool:
    return a.to_dict(seat) == b


def resample(state: GameState, seat: int, rng: random.Random, *, start_kind: str,
             primary: Callable[[Event], bool], build: Build, learn: Learn | None = None,
             draw_kinds: tuple[str, ...] = ("deal",)) -> GameState:
    """A sample of ``state`` for ``seat``: every hand's deal rebuilt by ``build`` (the current one drawn
    from ``rng``, ended ones canonical) and the public history replayed on them, each hand checked
    against the true log as ``seat`` sees it.

    ``start_kind`` is the event that starts a hand; ``primary`` tells the one event each action logs
    first (to find which action started each hand); a chance outcome of a kind in ``draw_kinds`` closes
    the outcomes of a hand."""
    log = state.log
    history = state.history
    outs = state.chance.outcomes[: state.chance.position]
    groups: list[list[Outcome]] = []
    cur: list[Outcome] = []
    for o in outs:
        cur.append(o)
        if o.get("kind") in draw_kinds:
            groups.append(cur)
            cur = []
    # the log index of each hand's start and the history index of the action that started it
    starts: list[int] = []
    triggers: list[int] = []
    count = 0
    for i, e in enumerate(log):
        if e.kind == start_kind:
            starts.append(i)
            triggers.append(count - 1)
        if primary(e):
            count += 1
    if count != len(history) or len(starts) != len(groups) or not starts:
        raise RecordError("the log, the history and the chance outcomes of this game do not agree")
    last = len(starts) - 1
    past = getattr(state, _MEMO, None) if hasattr(state, "__dict__") else None
    if not (isinstance(past, _Past) and past.seat == seat and past.group == last
            and past.start_event is log[starts[last]] and past.trigger == triggers[last]):
        base: GameState | None = None
        for k in range(last):
            base = _replay_hand(state, seat, None, base, k, starts, triggers, groups, build, learn)
        past = _Past(seat, log[starts[last]], triggers[last], last, base)
        if hasattr(state, "__dict__"):
            state.__dict__[_MEMO] = past
    sample = _replay_hand(state, seat, rng, past.base, last, starts, triggers, groups, build, learn)
    sample.chance.rng = rng
    return sample


def _replay_hand(state: GameState, seat: int, rng: random.Random | None, base: GameState | None, k: int,
                 starts: list[int], triggers: list[int], groups: list[list[Outcome]], build: Build,
                 learn: Learn | None) -> GameState:
    """Hand ``k`` rebuilt and replayed from ``base`` (the replay just before the action that starts it):
    up to just before the action that starts hand ``k + 1`` (the end of the history for the last hand)."""
    log = state.log
    history = state.history
    seg_end = starts[k + 1] if k + 1 < len(starts) else len(log)
    segment = [(i, log[i].to_dict(seat)) for i in range(starts[k], seg_end)]
    view = {i: d for i, d in segment}
    stop = triggers[k + 1] if k + 1 < len(triggers) else len(history)
    first = triggers[k]
    learned: dict[int, int] = {}
    tries = MAX_TRIES if rng is not None else MAX_TRIES // 4
    pick = rng if rng is not None else random.Random(k)  # ended hands: canonical first, then fixed draws
    for attempt in range(tries):
        made = build(segment, groups[k], learned, rng if rng is not None else (None if attempt == 0 else pick))
        try:
            if base is None:
                c = type(state).new(state.rules, state.num_players, Chance(outcomes=made))
                done = 0
            else:
                c = base.clone()
                c.chance.outcomes.extend(made)
                done = len(c.log)
                c.apply(*history[first])
                if learn is not None:
                    learn(c, first, history, learned)
            ok = _check(c, log, view, done, seat)
            i = first + 1
            while ok and i < stop:
                done = len(c.log)
                c.apply(*history[i])
                if learn is not None:
                    learn(c, i, history, learned)
                ok = _check(c, log, view, done, seat)
                i += 1
            if ok and stop == len(history):  # the position itself: the same seats to act next
                ok = c.to_act() == state.to_act() and c.waiting_for() == state.waiting_for()
        except (IllegalAction, RecordError):
            ok = False
        if ok:
            return c
    raise RecordError(f"no world consistent with what seat {seat} has seen was found for hand {k + 1}")


def _check(c: GameState, log: list[Event], view: dict[int, dict[str, Any]], done: int, seat: int) -> bool:
    """Whether the events the replay logged from ``done`` on look to ``seat`` as the true ones do."""
    new = c.log
    if len(new) > len(log):
        return False
    for j in range(done, len(new)):
        want = view.get(j)
        if want is None:
            want = log[j].to_dict(seat)
        if not _same(new[j], want, seat):
            return False
    return True
