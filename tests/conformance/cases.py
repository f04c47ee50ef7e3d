"""The cases of the conformance suite and a generic scripted player.

A case is one registered game x preset x claim mode x allowed player count, read from the registry: a game
that registers is tested the moment it does. The default run takes a small sample (two cases per game);
``-m slow`` takes every case.

The scripted player knows nothing of any game: at each step it picks a seat from ``to_act()`` (the seats the
game waits for first; now and then another one, which is how muggins calls and late claims happen) and one
of that seat's legal actions, in manual claim mode with a true claim, an under-claim, an over-claim or
none. Its choices depend only on its seed and the *set* of legal actions (they are sorted by their text
first), so a change in the order a game lists its moves changes nothing downstream.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from muggins.core.errors import RulesError
from muggins.core.protocol import _BASE_FIELDS, Action, GameState
from muggins.core.rules import GameSpec, all_games, with_options

CLAIM_MODES = ("manual", "auto")
MAX_STEPS = 20_000  # no game of the family needs this many actions; reaching it is a failure
HAND_PREFIX = "hand "  # inventory(): "hand N" holds seat N's hand
STOCK = "stock"  # inventory(): the pieces nobody has seen (boneyard, stock, undealt pack)
MEMO_SUFFIX = "_cache"  # an attribute so named is a memo: what a query left behind, not the position


@dataclass(frozen=True)
class Case:
    game: str
    preset: str
    claims: str
    players: int

    @property
    def id(self) -> str:
        return f"{self.game}/{self.preset}/{self.claims}/{self.players}p"

    @property
    def spec(self) -> GameSpec:
        return all_games()[self.game]

    @property
    def rules(self) -> Any:
        return with_options(self.spec.presets[self.preset], {"claims": self.claims})

    def new(self, seed: int) -> GameState:
        return self.spec.new(self.rules, self.players, seed=seed)


def all_cases() -> list[Case]:
    """Every game x preset x claim mode (where the preset allows it) x allowed player count."""
    out = []
    for name, spec in sorted(all_games().items()):
        for preset, base in spec.presets.items():
            for mode in CLAIM_MODES:
                try:
                    rules = with_options(base, {"claims": mode})
                except RulesError:
                    continue
                out.extend(Case(name, preset, mode, n) for n in spec.players_for(rules))
    return out


def sample_cases() -> list[Case]:
    """The default run's sample: for each game, its default preset at its default player count in manual
    claim mode, and one more case in the other mode, with a different preset and player count (chosen
    by a fixed rule, so that the sample is the same on every run)."""
    games = all_games()
    chosen: list[Case] = []
    for name, spec in sorted(games.items()):
        mine = [c for c in all_cases() if c.game == name]
        first = next((c for c in mine if c.preset == spec.default_preset and c.claims == "manual"
                      and c.players == spec.default_players), mine[0])
        others = [c for c in mine if c.claims != first.claims and c.preset != first.preset
                  and c.players != first.players] or [c for c in mine if c != first]
        chosen.append(first)
        if others:
            chosen.append(others[len(others) // 2])
    return chosen


def one_per_game() -> list[Case]:
    return [c for c in sample_cases() if c.claims == "manual"][: len(all_games())]


def params(cases: list[Case] | None = None, sample: list[Case] | None = None) -> list[Any]:
    """``cases`` as pytest parameters: those in ``sample`` run by default, the others under ``-m slow``."""
    cases = all_cases() if cases is None else cases
    quick = set(sample_cases() if sample is None else sample)
    return [pytest.param(c, id=c.id, marks=() if c in quick else pytest.mark.slow) for c in cases]


# ------------------------------------------------------------------------------------ the player ----
def action_key(state: GameState, action: Action) -> tuple[str, str, str]:
    """A sort key of a legal action that does not depend on the order the game lists them in."""
    return (action.kind, state.format_action(action), repr(action.claim))


def sorted_legal(state: GameState, seat: int) -> list[Action]:
    return sorted(state.legal_actions(seat), key=lambda a: action_key(state, a))


def manual(state: GameState) -> bool:
    return getattr(state.rules, "claims", "auto") == "manual"


def with_amount(state: GameState, seat: int, action: Action, rng: random.Random) -> Action:
    """A legal action as a player sends it. A late claim is listed without its amount (the player names
    it); in manual claim mode a scoring move may carry a true claim, an under- or an over-claim or none,
    and a muggins call may name an amount. A move that scores nothing carries no claim: some games
    refuse one on a move that cannot score (a go, a draw)."""
    top = state.max_step_points()
    if action.kind == "claim":
        owed = state.claim_for(seat, action)
        return action.with_claim(owed if rng.random() < 0.7 else rng.randint(0, min(top, owed + 3)))
    if action.kind == "muggins":
        if rng.random() < 0.3:
            return action.with_claim(rng.randint(0, min(top, state.muggable(seat) + 2)))
        return action
    if not manual(state) or action.claim is not None:
        return action
    true = state.claim_for(seat, action)
    if true == 0:  # not every move may carry a claim (a go, a draw); a move that scores may
        return action
    r = rng.random()
    if r < 0.6:
        return action.with_claim(true)
    if r < 0.75 and true > 0:
        return action.with_claim(rng.randint(0, true - 1))
    if r < 0.85 and true < top:
        return action.with_claim(rng.randint(true + 1, min(top, true + 4)))
    return action


def choose(state: GameState, rng: random.Random) -> tuple[int, Action]:
    """The scripted player's next (seat, action): a seat the game waits for, or now and then another seat
    that may act (a muggins call, a late claim)."""
    may = state.to_act()
    waiting = sorted(state.waiting_for())
    others = [s for s in sorted(may - set(waiting)) if state.legal_actions(s)]
    if others and (not waiting or rng.random() < 0.2):
        seat = rng.choice(others)
    else:
        seat = rng.choice(waiting)
    legal = sorted_legal(state, seat)
    return seat, with_amount(state, seat, rng.choice(legal), rng)


def play(state: GameState, rng: random.Random, max_steps: int = MAX_STEPS,
         each: Callable[[GameState, int, Action], None] | None = None) -> int:
    """Play ``state`` on to its end with the scripted player; ``each(state, seat, action)`` is called
    before every action. Returns the number of actions made; fails past ``max_steps``."""
    steps = 0
    while not state.is_over():
        assert steps < max_steps, f"no end after {max_steps} actions"
        seat, action = choose(state, rng)
        if each is not None:
            each(state, seat, action)
        state.apply(seat, action)
        steps += 1
    return steps


def positions(case: Case, seed: int, every: int = 1, limit: int = MAX_STEPS) -> Iterator[GameState]:
    """The positions of one scripted game (every ``every``-th, the last one always), the live state
    itself: copy it before changing it."""
    rng = random.Random(seed)
    state = case.new(seed)
    steps = 0
    while True:
        if steps % every == 0 or state.is_over():
            yield state
        if state.is_over() or steps >= limit:
            return
        seat, action = choose(state, rng)
        state.apply(seat, action)
        steps += 1


# ---------------------------------------------------------------------------------- comparison ----
def freeze(value: Any, _seen: frozenset[int] = frozenset()) -> Any:
    """``value`` as plain nested data that compares by content: containers element by element, values by
    themselves (:func:`is_value`), other objects by their type and every attribute (``__dict__`` and
    ``__slots__``), a random generator by its state."""
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return value
    if isinstance(value, random.Random):
        return ("Random", value.getstate())
    if id(value) in _seen:
        return ("<cycle>", type(value).__name__)
    seen = _seen | {id(value)}
    if isinstance(value, dict):
        return ("dict", tuple(sorted(((repr(k), freeze(v, seen)) for k, v in value.items()))))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(freeze(v, seen) for v in value))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted(repr(freeze(v, seen)) for v in value)))
    if is_value(type(value), value):
        return value
    return (type(value).__name__, attributes(value, seen))


_VALUE_TYPES: dict[type, bool] = {}


def is_value(kind: type, value: Any) -> bool:
    """Whether objects of ``kind`` compare by themselves: a type with its own equality (a rules dataclass,
    an event), or an interned value that copying returns unchanged (a tile, a card, a function). Anything
    else is state, compared attribute by attribute. Decided once per type."""
    known = _VALUE_TYPES.get(kind)
    if known is None:
        try:
            known = kind.__eq__ is not object.__eq__ or copy.copy(value) is value
        except Exception:
            known = False
        _VALUE_TYPES[kind] = known
    return known


def attributes(obj: Any, seen: frozenset[int] = frozenset()) -> tuple[tuple[str, Any], ...]:
    names: set[str] = set(getattr(obj, "__dict__", {}))
    for klass in type(obj).__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names.update((slots,) if isinstance(slots, str) else slots)
    names.discard("__dict__")
    names.discard("__weakref__")
    names = {n for n in names if not n.endswith(MEMO_SUFFIX)}
    out = []
    for name in sorted(names):
        try:
            v = getattr(obj, name)
        except AttributeError:
            continue
        out.append((name, freeze(v, seen)))
    return tuple(out)


def snapshot(state: GameState, full_chance: bool = True) -> dict[str, Any]:
    """Every attribute of ``state`` (the slots, ``__dict__``, ``_FIELDS`` of a compiled build), the log,
    the history and the chance: its outcomes, position and generator, or with ``full_chance=False`` only
    the outcomes drawn so far (an undone or replayed game keeps, or lacks, the future deals).

    To compare two states by what they are rather than by which questions were asked of them, memos
    (attributes named ``*_cache``) are left out and the snapshot first asks the same questions of every
    state (who acts, every seat's legal actions and view, the events), which fills any other lazy field
    alike."""
    for seat in range(state.num_players):
        state.legal_actions(seat)
        state.view(seat)
    state.to_act()
    state.waiting_for()
    state.view(None)
    state.events_for("all")  # an event may fill its data when first read
    out = dict(attributes(state))
    module = sys.modules.get(type(state).__module__)
    for name in (*_BASE_FIELDS, *getattr(module, "_FIELDS", ())):  # a compiled build's declared fields
        if name not in out and not name.endswith(MEMO_SUFFIX) and hasattr(state, name):
            out[name] = freeze(getattr(state, name))
    out["<events>"] = freeze(state.events_for("all"))
    out["<history>"] = freeze(state.history)
    chance = state.chance
    if full_chance:
        out["chance"] = (freeze(chance.outcomes), chance.position, freeze(chance.rng))
    else:
        out["chance"] = (freeze(chance.outcomes[: chance.position]), chance.position)
    return out


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """The names of the snapshot entries that differ (for a readable assertion message)."""
    return sorted(k for k in set(a) | set(b) if a.get(k, "<absent>") != b.get(k, "<absent>"))


def json_round_trip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def pieces(state: GameState) -> list[str]:
    """Every piece of the game, sorted: the multiset of ``inventory()``."""
    return sorted(p for where in state.inventory().values() for p in where)
