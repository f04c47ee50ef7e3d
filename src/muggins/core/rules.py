"""Rules are data: a frozen dataclass of options per game, with named presets in a registry."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args, get_origin

from muggins.core.chance import Chance
from muggins.core.errors import RulesError
from muggins.core.protocol import GameState


def _coerce(name: str, value: Any, tp: Any) -> Any:
    """Coerce ``value`` (possibly a string from the command line) to the option's type, or raise."""
    origin = get_origin(tp)
    if origin is Literal:
        allowed = get_args(tp)
        for a in allowed:
            if value == a or (isinstance(value, str) and str(a) == value):
                return a
        raise RulesError(f"option {name!r} must be one of {', '.join(map(str, allowed))}; got {value!r}")
    if origin in (types.UnionType, typing.Union):
        args = [a for a in get_args(tp) if a is not type(None)]
        if value is None or value in ("none", "None", "null"):
            if type(None) in get_args(tp):
                return None
        errors = []
        for a in args:
            try:
                return _coerce(name, value, a)
            except RulesError as e:
                errors.append(str(e))
        raise RulesError(f"option {name!r}: invalid value {value!r}")
    if tp is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1", "false", "no", "off", "0"):
            return value.lower() in ("true", "yes", "on", "1")
        raise RulesError(f"option {name!r} must be true or false; got {value!r}")
    if tp is int:
        if isinstance(value, bool):
            raise RulesError(f"option {name!r} must be an integer; got {value!r}")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise RulesError(f"option {name!r} must be an integer; got {value!r}") from None
    if tp is str:
        return str(value)
    if origin is tuple:
        if isinstance(value, str):
            value = [v for v in value.split(",") if v]
        if not isinstance(value, (list, tuple)):
            raise RulesError(f"option {name!r} must be a list; got {value!r}")
        inner = get_args(tp)[0]
        return tuple(_coerce(name, v, inner) for v in value)
    return value


def option_types(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def with_options(rules: Any, options: Mapping[str, Any]) -> Any:
    """A copy of ``rules`` with ``options`` applied, each checked and coerced; unknown names raise."""
    types_ = option_types(type(rules))
    changes: dict[str, Any] = {}
    for name, value in options.items():
        key = name.replace("-", "_")
        if key == "preset":
            raise RulesError("'preset' is not an option; choose the preset itself")
        if key not in types_:
            raise RulesError(f"unknown option {name!r}; known options: {', '.join(sorted(types_))}")
        changes[key] = _coerce(key, value, types_[key])
    try:
        return dataclasses.replace(rules, **changes)
    except (TypeError, ValueError) as e:
        raise RulesError(str(e)) from None


def options_of(rules: Any) -> dict[str, Any]:
    """Every option value, JSON-able."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(rules):
        v = getattr(rules, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


def diff_options(rules: Any, base: Any) -> dict[str, Any]:
    a, b = options_of(rules), options_of(base)
    return {k: v for k, v in a.items() if b.get(k) != v}


@dataclass(frozen=True)
class GameSpec:
    """A game in the registry: its rules type, presets and how to start one."""

    name: str
    title: str
    state_type: type[GameState]
    presets: Mapping[str, Any]
    default_preset: str
    min_players: int
    max_players: int
    default_players: int = 2
    check_players: Callable[[Any, int], None] | None = None
    descriptions: Mapping[str, str] = field(default_factory=dict)

    def rules(self, preset: str | None = None, options: Mapping[str, Any] | None = None) -> Any:
        name = preset or self.default_preset
        if name not in self.presets:
            raise RulesError(f"unknown preset {name!r} for {self.name}; presets: {', '.join(self.presets)}")
        r = self.presets[name]
        return with_options(r, options) if options else r

    def new(self, rules: Any, num_players: int | None = None, seed: int | None = None,
            chance: Chance | None = None) -> GameState:
        n = self.default_players if num_players is None else num_players
        if not self.min_players <= n <= self.max_players:
            raise RulesError(f"{self.name} is for {self.min_players}-{self.max_players} players; got {n}")
        if self.check_players is not None:
            self.check_players(rules, n)
        return self.state_type.new(rules, n, chance if chance is not None else Chance(seed))

    def preset_of(self, rules: Any) -> str:
        """The preset ``rules`` differs least from (by number of options)."""
        best = min(self.presets, key=lambda p: (len(diff_options(rules, self.presets[p])), p != rules.preset))
        return best


REGISTRY: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    REGISTRY[spec.name] = spec
    return spec


def get_game(name: str) -> GameSpec:
    _load_builtin()
    if name not in REGISTRY:
        raise RulesError(f"unknown game {name!r}; games: {', '.join(sorted(REGISTRY))}")
    return REGISTRY[name]


def all_games() -> dict[str, GameSpec]:
    _load_builtin()
    return dict(REGISTRY)


def _load_builtin() -> None:
    import importlib

    for mod in ("muggins.dominoes", "muggins.cards.muggins31", "muggins.cards.cribbage"):
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as e:  # a game package not built yet
            if e.name is None or not mod.startswith(e.name):
                raise
