"""Rules are data: a frozen dataclass of options per game, with named presets in a registry."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, get_args, get_origin

from muggins.core.chance import Chance
from muggins.core.engine import native_state_type
from muggins.core.errors import RulesError, shown

if TYPE_CHECKING:  # the protocol depends on the muggins options, which use this module
    from muggins.core.protocol import GameState


def bounded(default: Any, lo: int, hi: int) -> Any:
    """A dataclass field for a whole-number option that must lie in ``lo``..``hi`` (each item of a tuple
    option; ``None`` passes where the type allows it). :func:`check_bounds` enforces it and
    :func:`option_schema` publishes it."""
    return field(default=default, metadata={"minimum": lo, "maximum": hi})


def check_bounds(rules: Any) -> None:
    """Raise RulesError naming the range when a bounded option of ``rules`` is not a whole number in it.
    Every rules class calls this from ``__post_init__``, so no way of building rules skips it."""
    for f in dataclasses.fields(rules):
        md = f.metadata
        if "minimum" not in md:
            continue
        value = getattr(rules, f.name)
        lo, hi = md["minimum"], md["maximum"]
        for v in value if isinstance(value, tuple) else (value,):
            if v is None:
                continue
            if type(v) is not int or not lo <= v <= hi:
                raise RulesError(f"option {f.name!r} must be a whole number from {lo} to {hi}; got {shown(v)}")


def _coerce(name: str, value: Any, tp: Any, limits: Mapping[str, int] | None = None) -> Any:
    """Coerce ``value`` (possibly a string from the command line) to the option's type, or raise.
    ``limits`` (a field's bounds) only makes the message of a refused number name the range."""
    origin = get_origin(tp)
    if origin is Literal:
        allowed = get_args(tp)
        for a in allowed:
            if (type(value) is type(a) and value == a) or (isinstance(value, str) and str(a) == value.strip()):
                return a
        raise RulesError(f"option {name!r} must be one of {', '.join(map(str, allowed))}; got {shown(value)}")
    if origin in (types.UnionType, typing.Union):
        args = [a for a in get_args(tp) if a is not type(None)]
        if value is None or value in ("none", "None", "null"):
            if type(None) in get_args(tp):
                return None
        for a in args:
            try:
                return _coerce(name, value, a, limits)
            except RulesError:
                pass
        raise RulesError(f"option {name!r}: invalid value {shown(value)}")
    if tp is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1", "false", "no", "off", "0"):
            return value.lower() in ("true", "yes", "on", "1")
        raise RulesError(f"option {name!r} must be true or false; got {shown(value)}")
    if tp is int:
        if type(value) is int:
            return value
        if isinstance(value, str):
            text = value.strip()
            digits = text[1:] if text[:1] in ("+", "-") else text
            if digits.isascii() and digits.isdigit() and len(digits) <= 18:
                return int(text)
        span = f" from {limits['minimum']} to {limits['maximum']}" if limits else ""
        raise RulesError(f"option {name!r} must be a whole number{span}; got {shown(value)}")
    if tp is str:
        if not isinstance(value, str):
            raise RulesError(f"option {name!r} must be text; got {shown(value)}")
        return value
    if origin is tuple:
        if isinstance(value, str):
            value = [v for v in value.split(",") if v]
        if not isinstance(value, (list, tuple)) or len(value) > 64:
            raise RulesError(f"option {name!r} must be a list; got {shown(value)}")
        inner = get_args(tp)[0]
        return tuple(_coerce(name, v, inner, limits) for v in value)
    return value


def option_types(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def with_options(rules: Any, options: Mapping[str, Any]) -> Any:
    """A copy of ``rules`` with ``options`` applied, each checked and coerced; unknown names raise."""
    if not isinstance(options, Mapping):
        raise RulesError(f"options are a mapping of option names to values; got {shown(options)}")
    types_ = option_types(type(rules))
    limits = {f.name: f.metadata for f in dataclasses.fields(rules) if "minimum" in f.metadata}
    changes: dict[str, Any] = {}
    for name, value in options.items():
        if not isinstance(name, str):
            raise RulesError(f"an option name is text; got {shown(name)}")
        key = name.replace("-", "_")
        if key == "preset":
            raise RulesError("'preset' is not an option; choose the preset itself")
        if key not in types_:
            raise RulesError(f"unknown option {shown(name)}; known options: {', '.join(sorted(types_))}")
        changes[key] = _coerce(key, value, types_[key], limits.get(key))
    try:
        return dataclasses.replace(rules, **changes)
    except (TypeError, ValueError) as e:
        raise RulesError(str(e)) from None


def _schema_of(tp: Any) -> dict[str, Any]:
    origin = get_origin(tp)
    if origin is Literal:
        allowed = list(get_args(tp))
        kind = "integer" if all(type(a) is int for a in allowed) else "string"
        return {"type": kind, "enum": allowed}
    if origin in (types.UnionType, typing.Union):
        inner = _schema_of(next(a for a in get_args(tp) if a is not type(None)))
        inner["type"] = [inner["type"], "null"]
        return inner
    if origin is tuple:
        return {"type": "array", "items": _schema_of(get_args(tp)[0])}
    return {"type": {bool: "boolean", int: "integer", str: "string"}.get(tp, "string")}


def option_schema(rules: Any) -> dict[str, dict[str, Any]]:
    """Every option of ``rules`` (an instance: its values are the defaults shown) as JSON-Schema-like data:
    ``type``, ``enum`` for a choice, ``minimum``/``maximum`` for a bounded number (of each item, for a
    list), and ``default``. For the command line's ``rules --json`` and the web lobby."""
    out: dict[str, dict[str, Any]] = {}
    types_ = option_types(type(rules))
    for f in dataclasses.fields(rules):
        if f.name == "preset":
            continue
        entry = _schema_of(types_[f.name])
        target = entry["items"] if entry["type"] == "array" else entry
        if "minimum" in f.metadata:
            target["minimum"] = f.metadata["minimum"]
            target["maximum"] = f.metadata["maximum"]
        value = getattr(rules, f.name)
        entry["default"] = list(value) if isinstance(value, tuple) else value
        out[f.name] = entry
    return out


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


def load_object(path: str) -> Any:
    """The object an import path ``"package.module:Name"`` names (``"package.module"``: the module). A
    game registers its terminal renderer, bot heuristics, commands and benchmarks this way, so that the
    game package itself imports no terminal, server or command-line code."""
    import importlib

    module, _, attr = path.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class GameCommand:
    """A command group a game adds to the command line (``muggins NAME ...``): a typer app found by
    its import path."""

    name: str
    app: str
    help: str = ""


@dataclass(frozen=True)
class GameSpec:
    """A game in the registry: its rules type, presets and how to start one, and what every interface
    needs to show it, so that no interface names a game.

    ``terminal_renderer`` is the import path of the terminal renderer class (None: the generic one);
    ``page_renderer`` names the renderer the web page uses (None or one the page does not know: its
    generic one); ``piece_noun`` is what a player holds, singular and plural; ``heuristics`` is the import
    path of the bots' judgement module (None: the generic lookahead); ``commands`` add command groups to
    ``muggins``; ``benchmarks`` are import paths of ``f(seconds, repeats) -> dict`` figures that
    ``muggins bench`` adds; ``move_hint`` ends the terminal's help on typing a move; ``default`` makes the
    game the one played when none is named (else the first registered); ``observation`` is the import path
    of the encoder class that turns a seat's view into numbers for learning (None: the generic one, see
    :mod:`muggins.rl.observation`); ``vector`` is the import path of its batched learning environment class
    (None: it has none, see :mod:`muggins.rl.vector`); ``drills`` are import paths of the counting drills
    ``muggins train`` offers (see :mod:`muggins.train`); ``native`` is the import path of the state class
    backed by the game's native engine, which :meth:`new` gives where it is built and plays the rules
    (see :func:`muggins.core.engine.native_state_type`; ``MUGGINS_ENGINE=pure`` forces ``state_type``);
    ``ranked`` names the presets marked ranked, on which rated games are played (:meth:`ranked_error`)."""

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
    terminal_renderer: str | None = None
    page_renderer: str | None = None
    piece_noun: tuple[str, str] = ("piece", "pieces")
    heuristics: str | None = None
    commands: tuple[GameCommand, ...] = ()
    benchmarks: tuple[str, ...] = ()
    move_hint: str = ""
    default: bool = False
    observation: str | None = None
    vector: str | None = None
    drills: tuple[str, ...] = ()
    native: str | None = None
    ranked: tuple[str, ...] = ()

    def ranked_error(self, preset: str | None) -> str | None:
        """Why a rated game may not be played on ``preset`` (None: the default preset) of this game, or None:
        rated games are played on the presets marked ranked (:attr:`ranked`), so that one rating compares
        games of the same kind."""
        name = preset or self.default_preset
        if name in self.ranked:
            return None
        if not self.ranked:
            return f"{self.title} has no ranked preset: its games are not rated"
        return f"rated games of {self.title} are played on its ranked presets: {', '.join(self.ranked)}"

    def pieces(self, n: int) -> str:
        """``"1 tile"``, ``"3 cards"``."""
        return f"{n} {self.piece_noun[0] if n == 1 else self.piece_noun[1]}"

    def rules(self, preset: str | None = None, options: Mapping[str, Any] | None = None) -> Any:
        name = preset or self.default_preset
        if not isinstance(name, str) or name not in self.presets:
            raise RulesError(f"unknown preset {shown(name)} for {self.name}; presets: {', '.join(self.presets)}")
        r = self.presets[name]
        return with_options(r, options) if options else r

    def check(self, rules: Any, num_players: Any) -> int:
        """``num_players`` if ``rules`` can be played by that many, else RulesError naming the numbers
        that can."""
        try:
            return self._check(rules, num_players)
        except RulesError as e:
            allowed = self.players_for(rules)
            raise RulesError(f"{e} (the {rules.preset} rules as set allow "
                             f"{', '.join(map(str, allowed)) or 'no number of'} players)") from None

    def _check(self, rules: Any, n: Any) -> int:
        if type(n) is not int or not self.min_players <= n <= self.max_players:
            raise RulesError(f"{self.name} is for {self.min_players}-{self.max_players} players; got {shown(n)}")
        if self.check_players is not None:
            self.check_players(rules, n)
        return int(n)

    def players_for(self, rules: Any) -> list[int]:
        """Every number of players ``rules`` can be played by."""
        out = []
        for n in range(self.min_players, self.max_players + 1):
            try:
                self._check(rules, n)
            except RulesError:
                continue
            out.append(n)
        return out

    def new(self, rules: Any, num_players: int | None = None, seed: int | None = None,
            chance: Chance | None = None) -> GameState:
        n = self.check(rules, self.default_players if num_players is None else num_players)
        native, _ = native_state_type(self.native, rules, n)
        return (native or self.state_type).new(rules, n, chance if chance is not None else Chance(seed))

    def engine(self, rules: Any = None, num_players: int | None = None) -> tuple[str, str | None]:
        """Which engine :meth:`new` uses for ``rules`` (default: the default preset's) with ``num_players``
        (default: the default number): ``("native", None)``, or ``("pure", why)``."""
        rules = self.rules() if rules is None else rules
        n = self.default_players if num_players is None else num_players
        native, why = native_state_type(self.native, rules, n)
        return ("native", None) if native is not None else ("pure", why)

    def describe(self) -> dict[str, Any]:
        """The game as JSON-able data for a lobby or ``rules --json``: every preset with its description,
        the player counts it allows, the most one scoring step can make, and its option values; and the
        option schema (types, choices, bounds) with the default preset's values."""
        base = self.presets[self.default_preset]
        return {
            "name": self.name, "title": self.title, "default_preset": self.default_preset,
            "min_players": self.min_players, "max_players": self.max_players,
            "default_players": self.default_players,
            "presets": {p: {"description": self.descriptions.get(p, ""), "players": self.players_for(r),
                            "muggins_rule": r.claims == "manual", "max_step_points": r.max_step_points,
                            "options": options_of(r)}
                        for p, r in self.presets.items()},
            "options": option_schema(base),
        }

    def preset_of(self, rules: Any) -> str:
        """The preset ``rules`` differs least from (by number of options)."""
        best = min(self.presets, key=lambda p: (len(diff_options(rules, self.presets[p])), p != rules.preset))
        return best


REGISTRY: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    REGISTRY[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    """Remove a game from the registry (a game registered for a while, as a test does)."""
    REGISTRY.pop(name, None)


def default_game() -> GameSpec:
    """The game played when none is named: the one registered with ``default=True``, else the first."""
    games = all_games()
    if not games:
        raise RulesError("no game is registered")
    return next((g for g in games.values() if g.default), next(iter(games.values())))


def get_game(name: str) -> GameSpec:
    spec = REGISTRY.get(name) if isinstance(name, str) else None
    if spec is not None:
        return spec
    _load_builtin()
    if name not in REGISTRY:
        raise RulesError(f"unknown game {name!r}; games: {', '.join(sorted(REGISTRY))}")
    return REGISTRY[name]


def all_games() -> dict[str, GameSpec]:
    """Every registered game: the built-in ones in a fixed order (whichever was imported first), then
    the others in the order they were registered."""
    builtin = [n for n in _load_builtin() if n in REGISTRY]
    return {**{n: REGISTRY[n] for n in builtin}, **REGISTRY}


_BUILTIN = ("muggins.dominoes", "muggins.cards.muggins31", "muggins.cards.cribbage")


def _load_builtin() -> list[str]:
    """Import the game packages that come with muggins; the names of the games they register, in order."""
    import importlib

    names = []
    for mod in _BUILTIN:
        try:
            spec = getattr(importlib.import_module(mod), "SPEC", None)
        except ModuleNotFoundError as e:  # a game package not built yet
            if e.name is None or not mod.startswith(e.name):
                raise
            continue
        if isinstance(spec, GameSpec):
            names.append(spec.name)
    import os

    for mod in filter(None, (m.strip() for m in os.environ.get("MUGGINS_GAMES", "").split(","))):
        try:  # more games, by module: each registers its GameSpec when imported, or names it SPEC
            extra = getattr(importlib.import_module(mod), "SPEC", None)
        except ImportError as e:
            raise RulesError(f"MUGGINS_GAMES names {mod!r}, which cannot be imported: {e}") from None
        if isinstance(extra, GameSpec) and extra.name not in REGISTRY:
            register(extra)
    return names
