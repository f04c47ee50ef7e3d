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
a constraint for the next draw. What is learned comes from a replay that got past the action, so an
inference whose breach makes the action itself illegal (a partner's knock while he could score) is never
learned: ``build`` must hold such an inference from the log before any replay. Ended hands are rebuilt
the same way with no generator (one canonical world, the same for every sample).

A search asks for hundreds of samples of one position, so what they share is made once per position and
seat and cached (a small module-level cache that holds only what the seat has seen, keyed by the
identity of the position's last history entry): the replay of the ended hands, the current hand's log as
the seat sees it, and the current hand replayed and checked on one canonical world, with every
inference that replay learned. A game that can ``swap`` a world into that template then draws each
sample's world under all those inferences and exchanges its hidden pieces into a clone of the template:
the result is what a replay on that world gives, with no replay and no event-by-event comparison.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from muggins.core.chance import Chance, Outcome
from muggins.core.errors import IllegalAction, RecordError
from muggins.core.protocol import Action, Event, GameState

#: ``build(segment, outcomes, learned, rng)``: the chance outcomes of one hand, rebuilt. ``segment`` is
#: the hand's log as ``seat`` sees it, (index, event dict) pairs from its start event to the next one;
#: ``outcomes`` its true outcomes (only the public ones may be copied); ``rng`` None asks for the
#: canonical world (ended hands). None: no world fits the choices made, draw again. A fifth argument, a
#: dict, may be passed: it lasts as long as the segment and ``learned`` do not change, and ``build`` may
#: keep there what it derives from them alone (never anything drawn from ``rng``).
Build = Callable[..., list[Outcome] | None]
#: ``learn(replay, index, history, learned)``: after history action ``index`` was replayed, record in
#: ``learned`` (log index -> constraint) the inferences its position shows.
Learn = Callable[[GameState, int, list[tuple[int, Action]], dict[int, int]], None]

#: ``swap(template, segment, made, seat)``: the template (the current hand replayed on one world) with its
#: world's hidden pieces exchanged for those of ``made``, exactly as a replay on ``made`` would give them
#: (chance excepted: the caller sets it); None when ``made`` breaks an inference the constraints of
#: ``build`` do not hold (the caller draws again).
Swap = Callable[[GameState, list[tuple[int, dict[str, Any]]], list[Outcome], int], GameState | None]

MAX_TRIES = 400
CACHE_SIZE = 32


class _Plan:
    """What every sample of one position for one seat shares, built from that seat's view only: the
    hand's log as the seat sees it, the inferences it holds, and the current hand replayed on one
    canonical world (the template a sample swaps its own world into).

    ``anchor`` is the true state's last history entry (public: a seat and an action); a plan serves a
    state only while that very object ends its history, so it can never serve another position."""

    __slots__ = ("anchor", "cut", "first", "groups", "last", "learned", "log_len", "memo", "opening", "past",
                 "players", "rules", "segment", "template")

    def __init__(self) -> None:
        self.rules: Any = None
        self.players = 0
        self.anchor: object = None
        self.opening: list[dict[str, Any]] | None = None
        self.log_len = 0
        self.past: GameState | None = None
        self.segment: list[tuple[int, dict[str, Any]]] = []
        self.groups: list[list[Outcome]] = []
        self.last = 0
        self.first = 0
        self.learned: dict[int, int] = {}
        self.memo: dict[str, Any] = {}
        self.template: GameState | None = None
        self.cut = 0


class _Past:
    """The replay of the ended hands for one seat: the state just before the action that started the
    current hand, kept while ``anchor`` (that action's history entry) is the same object."""

    __slots__ = ("anchor", "base")

    def __init__(self, anchor: object, base: GameState) -> None:
        self.anchor = anchor
        self.base = base


# Plans and pasts of recent positions. They hold only what a seat has seen and leak-free replays,
# never a true state, an event of one or its chance outcomes.
_CACHE: OrderedDict[tuple[Any, ...], _Plan | _Past] = OrderedDict()


def _remember(key: tuple[Any, ...], value: _Plan | _Past) -> None:
    _CACHE[key] = value
    _CACHE.move_to_end(key)
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)


def clear_cache() -> None:
    """Forget every cached plan (tests; memory)."""
    _CACHE.clear()


def _same(a: Event, b: dict[str, Any], seat: int) -> bool:
    return a.to_dict(seat) == b


def resample(state: GameState, seat: int, rng: random.Random, *, start_kind: str,
             primary: Callable[[Event], bool], build: Build, learn: Learn | None = None,
             swap: Swap | None = None, draw_kinds: tuple[str, ...] = ("deal",)) -> GameState:
    """A sample of ``state`` for ``seat``: every hand's deal rebuilt by ``build`` (the current one drawn
    from ``rng``, ended ones canonical) and the public history replayed on them, each hand checked
    against the true log as ``seat`` sees it.

    With ``swap`` the current hand is replayed and checked once per position, on a canonical world;
    a sample then swaps its own world (drawn under every inference that replay learned) into that
    template instead of replaying it. ``start_kind`` is the event that starts a hand; ``primary`` tells
    the one event each action logs first (to find which action started each hand); a chance outcome of a
    kind in ``draw_kinds`` closes the outcomes of a hand."""
    plan = _plan(state, seat, start_kind, primary, build, learn, draw_kinds)
    t = plan.template
    if swap is not None and t is not None:
        for _ in range(MAX_TRIES):
            made = build(plan.segment, plan.groups[plan.last], plan.learned, rng, plan.memo)
            if made is None:
                continue
            sample = swap(t, plan.segment, made, seat)
            if sample is not None:
                ch = t.chance.fork(rng)
                ch.outcomes[plan.cut:] = made
                sample.chance = ch
                return sample
        raise RecordError(f"no world consistent with what seat {seat} has seen was found for hand {plan.last + 1}")
    sample = _replay_hand(state, seat, rng, plan.past, plan.last, plan.segment, plan.groups[plan.last],
                          plan.first, len(state.history), build, learn)[0]
    sample.chance.rng = rng
    return sample


def _plan(state: GameState, seat: int, start_kind: str, primary: Callable[[Event], bool], build: Build,
          learn: Learn | None, draw_kinds: tuple[str, ...]) -> _Plan:
    """The plan of ``state`` for ``seat``: cached, or made from the whole log and history."""
    log = state.log
    history = state.history
    anchor = history[-1] if history else None
    key = (type(state), seat, len(log), len(history), id(anchor))
    plan = _CACHE.get(key)
    if (isinstance(plan, _Plan) and plan.anchor is anchor and plan.log_len == len(log)
            and plan.players == state.num_players and (plan.rules is state.rules or plan.rules == state.rules)):
        if anchor is not None or plan.opening == [e.to_dict(seat) for e in log]:
            _CACHE.move_to_end(key)
            return plan
    plan = _Plan()
    plan.rules = state.rules
    plan.players = state.num_players
    plan.anchor = anchor
    plan.log_len = len(log)
    if anchor is None:  # nothing played yet: the opening itself tells positions apart
        plan.opening = [e.to_dict(seat) for e in log]
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
    plan.groups = groups
    plan.last = last
    plan.first = triggers[last]
    plan.segment = [(i, log[i].to_dict(seat)) for i in range(starts[last], len(log))]
    if plan.first >= 0:
        trigger = history[plan.first]
        pkey = (type(state), seat, plan.first, id(trigger))
        past = _CACHE.get(pkey)
        if isinstance(past, _Past) and past.anchor is trigger:
            plan.past = past.base
        else:
            base: GameState | None = None
            for k in range(last):
                end = starts[k + 1]
                seg = [(i, log[i].to_dict(seat)) for i in range(starts[k], end)]
                base = _replay_hand(state, seat, None, base, k, seg, groups[k], triggers[k], triggers[k + 1],
                                    build, learn)[0]
            assert base is not None
            plan.past = base
            _remember(pkey, _Past(trigger, base))
    # the current hand on its canonical world: the template, and every inference its replay shows
    t, learned = _replay_hand(state, seat, None, plan.past, last, plan.segment, groups[last], plan.first,
                              len(history), build, learn, MAX_TRIES)
    plan.template = t
    plan.learned = learned
    plan.cut = len(t.chance.outcomes) - len(groups[last])
    _remember(key, plan)
    return plan


def _replay_hand(state: GameState, seat: int, rng: random.Random | None, base: GameState | None, k: int,
                 segment: list[tuple[int, dict[str, Any]]], outcomes: list[Outcome], first: int, stop: int,
                 build: Build, learn: Learn | None, tries: int = MAX_TRIES // 4) -> tuple[GameState, dict[int, int]]:
    """Hand ``k`` rebuilt and replayed from ``base`` (the replay just before history action ``first``,
    which starts it; None for the first hand) up to just before history action ``stop``, with what its
    replay learned. ``segment`` is the hand's log as ``seat`` sees it; ``rng`` None asks for the
    canonical world first, then fixed draws."""
    log = state.log
    history = state.history
    view = dict(segment)
    learned: dict[int, int] = {}
    if rng is not None:
        tries = MAX_TRIES
    pick = rng if rng is not None else random.Random(k)
    for attempt in range(tries):
        made = build(segment, outcomes, learned, rng if rng is not None else (None if attempt == 0 else pick))
        if made is None:
            continue
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
            return c, learned
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


def primary_events(*kinds: str) -> Callable[[Event], bool]:
    """Whether an event is the first one an action logs (every action logs exactly one): one of the game's
    own move ``kinds``, or what the muggins window logs first for a call or a late claim."""
    own = frozenset((*kinds, "muggins"))

    def primary(e: Event) -> bool:
        k = e.kind
        return k in own or (k == "claim" and bool(e.data.get("late")))

    return primary


def redeal_events(log: list[Any], segment: list[tuple[int, dict[str, Any]]], seat: int, held: list[list[Any]],
                  pool: list[Any], dealt: list[list[str]], piece_of: Any, noun: str,
                  on_draw: Callable[[int, dict[str, Any], list[Any]], dict[str, Any]] | None = None) -> int:
    """Give the events of a hand (``segment``: (index in ``log``, public data)) the pieces of a sampled deal:
    each other seat's ``dealt`` event its hand from ``dealt``, each of his ``draw`` events the next piece of
    ``pool`` (``on_draw`` adds fields a draw's secret part derives from the hand), and keep ``held`` (the
    hands, dealt) up to date with draws and plays. ``noun`` names a piece in the events ("tile", "card").
    Returns how many pieces of ``pool`` were drawn."""
    g = 0
    for i, d in segment:
        k = d["kind"]
        if k == "draw":
            s = d["seat"]
            piece = pool[g]
            g += 1
            if s != seat:
                old = log[i]
                extra = on_draw(s, d, held[s]) if on_draw is not None else {}
                log[i] = Event("draw", s, {**old.data, noun: piece.text, **extra}, old.secret)
            held[s].append(piece)
        elif k == "play":
            held[d["seat"]].remove(piece_of[d[noun]])
        elif k == "dealt" and d["seat"] != seat:
            old = log[i]
            log[i] = Event("dealt", d["seat"], {**old.data, noun + "s": list(dealt[d["seat"]])}, old.secret)
    return g
