"""JSON Schemas of the protocol's messages, derived from their declarations.

The event schema comes from :data:`muggins.core.events.EVENTS` and each game's view schema from the view
dataclass its ``view()`` returns, so a field is declared once and the schema cannot drift from the code.
The schemas are checked in under ``muggins/schemas/`` (``events.schema.json``,
``view.<game>.schema.json``); :func:`write_schemas` regenerates them (``python -m muggins.core.schemas``)
and a test checks that the files equal what the code generates.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from muggins.core.events import EVENTS, EventKind, fields_of
from muggins.core.protocol import GameState
from muggins.core.rules import all_games
from muggins.core.views import View

__all__ = ["SCHEMA_DIR", "event_schema", "event_table", "schema_of", "view_schema", "view_type", "write_schemas"]

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"
_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def schema_of(tp: Any) -> dict[str, Any]:
    """The JSON Schema of a declared field type: str, int, bool, None, Literal, unions, ``list[X]``,
    ``tuple[A, B]`` (a fixed-length array) and TypedDicts (closed objects)."""
    origin = get_origin(tp)
    if tp is None or tp is type(None):
        return {"type": "null"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is str:
        return {"type": "string"}
    if tp is Any:
        return {}
    if origin is Literal:
        values = list(get_args(tp))
        return {"const": values[0]} if len(values) == 1 else {"enum": values}
    if origin in (types.UnionType, typing.Union):
        return {"anyOf": [schema_of(a) for a in get_args(tp)]}
    if origin is list:
        return {"type": "array", "items": schema_of(get_args(tp)[0])}
    if origin is tuple:
        args = get_args(tp)
        return {"type": "array", "prefixItems": [schema_of(a) for a in args], "items": False,
                "minItems": len(args)}
    if isinstance(tp, type) and hasattr(tp, "__required_keys__"):
        hints, required = fields_of(tp)
        return _object({k: schema_of(v) for k, v in hints.items()}, [k for k in hints if k in required])
    raise TypeError(f"no JSON Schema for the declared type {tp!r}")


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": properties, "required": required,
                           "additionalProperties": False}
    return out


def _without_none(tp: Any) -> Any:
    args = [a for a in get_args(tp) if a is not type(None)]
    return args[0] if len(args) == 1 else typing.Union[tuple(args)]  # noqa: UP007


def event_schema() -> dict[str, Any]:
    """One event as a viewer receives it (``Event.to_dict``): ``kind``, ``seat`` where the kind names
    one, and the data fields of one of the kind's shapes. A secret field is not required: a viewer other
    than the event's seat does not get it. The kind selects its shapes (``if``/``then``), so a validator
    tries only the shapes of the event's own kind."""
    by_kind: list[dict[str, Any]] = []
    for kind in EventKind:
        spec = EVENTS[kind]
        variants: list[dict[str, Any]] = []
        for shape in spec.shapes:
            hints, required = fields_of(shape)
            props: dict[str, Any] = {"kind": {"const": str(kind)}}
            need = ["kind"]
            if spec.seat != "never":
                props["seat"] = {"type": "integer", "minimum": 0}
                if spec.seat == "always":
                    need.append("seat")
            props.update((k, schema_of(v)) for k, v in hints.items())
            need += [k for k in hints if k in required and k not in spec.secret]
            variant = _object(props, need)
            variant["title"] = f"{kind} ({shape.__name__})"
            variants.append(variant)
        then = variants[0] if len(variants) == 1 else {"anyOf": variants}
        by_kind.append({"if": {"properties": {"kind": {"const": str(kind)}}},
                        "then": {"description": kind.__doc__, **then}})
    return {"$schema": _DIALECT, "title": "muggins event",
            "description": "One entry of a game's event log as one viewer may see it (GameState.events_for). "
                           "Generated from muggins.core.events; see docs/protocol.md.",
            "type": "object", "required": ["kind"],
            "properties": {"kind": {"enum": [str(k) for k in EventKind]}},
            "allOf": by_kind}


def view_type(state_type: type[GameState]) -> type[View]:
    """The view dataclass a game's ``view()`` returns (read from its annotation; a compiled build keeps no
    annotations, so there it is the type of a spectator's view of a new game)."""
    hints = getattr(state_type.view, "__annotations__", None)
    if hints:
        tp = typing.get_type_hints(state_type.view)["return"]
    else:
        from muggins.core.rules import all_games

        spec = next(g for g in all_games().values() if g.state_type is state_type)
        tp = type(spec.new(spec.rules(), spec.default_players, seed=0).view(None))
    if not (isinstance(tp, type) and issubclass(tp, View)):
        raise TypeError(f"{state_type.__name__}.view does not declare a View subclass it returns")
    return tp


def view_schema(view: type[View], game: str) -> dict[str, Any]:
    """The JSON form of one game's view (``to_json()``): every field; those in ``OPTIONAL`` may be
    absent (a spectator's view has no hand) but are never null."""
    hints = typing.get_type_hints(view)
    props: dict[str, Any] = {}
    need: list[str] = []
    for f in dataclasses.fields(view):  # type: ignore[arg-type]
        tp = hints[f.name]
        if f.name in view.OPTIONAL:
            tp = _without_none(tp)
        else:
            need.append(f.name)
        props[f.name] = schema_of(tp)
    props["game"] = {"const": game}
    out = {"$schema": _DIALECT, "title": f"muggins view of a {game} game",
           "description": f"What one seat (or a spectator, seat null) may see: {view.__name__}.to_json(). "
                          "Generated from the view dataclass; see docs/protocol.md."}
    out.update(_object(props, need))
    return out


def _type_text(tp: Any) -> str:
    """A declared type as short text for a Markdown table (``list[str]``, ``int or null``)."""
    origin = get_origin(tp)
    if tp is None or tp is type(None):
        return "null"
    if origin is Literal:
        return " or ".join(json.dumps(a) for a in get_args(tp))
    if origin in (types.UnionType, typing.Union):
        return " or ".join(_type_text(a) for a in get_args(tp))
    if origin in (list, tuple):
        return f"{origin.__name__}[{', '.join(_type_text(a) for a in get_args(tp))}]"
    return getattr(tp, "__name__", str(tp))


def event_table() -> str:
    """The event kinds and their fields as a Markdown table (docs/protocol.md holds it): per shape,
    each field with its type; ``?`` marks a field that may be absent, ``(secret)`` one only the event's
    seat sees."""
    rows = ["| kind | seat | data fields | when |", "|---|---|---|---|"]
    for kind in EventKind:
        spec = EVENTS[kind]
        shapes = []
        for shape in spec.shapes:
            hints, required = fields_of(shape)
            fields = [f"`{k}`{'' if k in required else '?'}: {_type_text(v)}"
                      + (" (secret)" if k in spec.secret else "") for k, v in hints.items()]
            shapes.append(", ".join(fields) or "none")
        doc = (kind.__doc__ or "").replace("|", "\\|")
        rows.append(f"| `{kind}` | {spec.seat} | {'<br>or ' .join(shapes)} | {doc} |")
    return "\n".join(rows) + "\n"


def generated() -> dict[str, dict[str, Any]]:
    """Every schema by file name."""
    out = {"events.schema.json": event_schema()}
    for name, spec in sorted(all_games().items()):
        out[f"view.{name}.schema.json"] = view_schema(view_type(spec.state_type), name)
    return out


def dumps(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def write_schemas(directory: Path | str | None = None) -> list[Path]:
    """Write every generated schema into ``directory`` (default: the package's ``schemas/``)."""
    root = Path(directory) if directory is not None else SCHEMA_DIR
    root.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, schema in generated().items():
        path = root / name
        path.write_text(dumps(schema), encoding="utf-8")
        paths.append(path)
    return paths


if __name__ == "__main__":
    for p in write_schemas():
        print(p)
