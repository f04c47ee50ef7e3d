"""Which engine backs the game states that ``spec.new`` gives: the native one (a game's compiled engine,
where it is built and the rules are in its scope) or the pure one (the reference).

``MUGGINS_ENGINE=pure`` forces the reference everywhere; ``native`` (the default, also when unset) uses a
game's native engine where it can. The choice is read when asked, so a test may switch it."""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any, cast

ENGINE_ENV = "MUGGINS_ENGINE"
CHOICES = ("native", "pure")


_KEY = os.environ.encodekey(ENGINE_ENV)  # the name as os.environ's store keeps it


def engine_choice() -> str:
    """``"native"`` or ``"pure"``, from MUGGINS_ENGINE as set now; ValueError for anything else.

    ``os.environ.get`` of a name that is not set raises and catches a KeyError (about 1.5 µs, read for every
    new game): the mapping's own store is read where it has one, which every change made through
    ``os.environ`` (``monkeypatch.setenv`` included) keeps up to date."""
    env = os.environ
    data = getattr(env, "_data", None)
    if type(data) is dict:
        raw = data.get(_KEY)
        if raw is None:  # (the usual cases first: this is read for every new game)
            return "native"
        value: str = env.decodevalue(raw)
    else:
        value = env.get(ENGINE_ENV) or "native"
    if value in CHOICES:
        return value
    value = value.strip().lower() or "native"
    if value not in CHOICES:
        raise ValueError(f"{ENGINE_ENV}={value!r}: choose one of {', '.join(CHOICES)}")
    return value


def native_module(name: str) -> ModuleType | None:
    """The native engine module ``name`` when native states are wanted and it is built; None otherwise
    (the caller uses the pure engine)."""
    if engine_choice() == "pure":
        return None
    from muggins._accel import load_native

    return load_native(name)[0]


_TYPES: dict[str, Any] = {}
_SCOPE: dict[tuple[str, int, int], tuple[Any, Any, str | None]] = {}  # (path, id(rules), players): the answer


def native_state_type(path: str | None, rules: Any, num_players: int) -> tuple[Any, str | None]:
    """The native-backed state class at import path ``path`` (a game's ``GameSpec.native``) and None when
    ``spec.new`` gives its states for ``rules`` with ``num_players``; else None and why the pure engine plays
    them (``MUGGINS_ENGINE=pure``, no native engine for the game, not built, rules outside its scope).

    The class named by ``path`` is a :class:`~muggins.core.protocol.GameState` with
    ``unsupported(rules, num_players) -> str | None`` (why it cannot play them, a missing build included;
    None: it can) and ``new(rules, num_players, chance)``, dealing exactly what the pure state deals from
    the same :class:`~muggins.core.chance.Chance`."""
    if path is None:
        return None, "the game has no native engine"
    if engine_choice() == "pure":
        return None, f"{ENGINE_ENV}=pure"
    key = (path, id(rules), num_players)
    hit = _SCOPE.get(key)
    if hit is not None and hit[0] is rules:  # rules are frozen and a build does not change while it runs
        return hit[1], hit[2]
    cls = _TYPES.get(path)
    if cls is None:
        from muggins.core.rules import load_object

        cls = _TYPES[path] = load_object(path)
    why: str | None = cls.unsupported(rules, num_players)
    if len(_SCOPE) >= 256:
        _SCOPE.clear()
    _SCOPE[key] = (rules, cls if why is None else None, why)
    return (cls, None) if why is None else (None, why)


def describe_engines() -> str:
    """One line for people: the engine ``spec.new`` uses for each game's default preset and players."""
    from muggins.core.rules import all_games

    parts = []
    for spec in all_games().values():
        engine, why = spec.engine()
        parts.append(f"{spec.name} {engine}" + (f" ({why})" if why else ""))
    return "engines: " + ", ".join(parts)


_REFUSING: dict[type, type] = {}


def refusing_type(kind: type) -> type:
    """A subclass of the pure state class ``kind`` whose regular moves are its ``legal(seat)``: a native-backed
    state runs the pure engine's own checks of a move (and their words) on a blank state of it, holding what
    those checks read of the native position and the native engine's legal moves."""
    made = _REFUSING.get(kind)
    if made is None:
        def regular(self: Any, seat: int) -> list[Any]:
            return cast("list[Any]", self.legal(seat))

        made = _REFUSING[kind] = type(f"Refusing{kind.__name__}", (kind,), {"_regular": regular})
    return made
