"""Game records: a versioned JSON document holding the rules, the players, every chance outcome and
every action, so that a record replays with no random generator. See docs/records.md.

Version 2 writes beside each action its kind and its integer id (docs/actions.md); version 1 records, which
have neither, are still read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from muggins.core.chance import Chance
from muggins.core.errors import IllegalAction, RecordError, RulesError
from muggins.core.protocol import Action, GameState
from muggins.core.rules import diff_options, get_game

FORMAT = "muggins-record"
VERSION = 2  # what to_record writes
READS = (1, 2)  # what replay reads


def to_record(state: GameState, players: list[dict[str, Any]] | None = None,
              meta: dict[str, Any] | None = None) -> dict[str, Any]:
    spec = get_game(state.game)
    preset = state.rules.preset
    base = spec.presets[preset] if preset in spec.presets else spec.rules()
    rec: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": state.game,
        "preset": preset,
        "options": diff_options(state.rules, base),
        "players": players if players is not None else [{"name": f"Seat {i + 1}"} for i in range(state.num_players)],
        "chance": [dict(o) for o in state.chance.outcomes[: state.chance.position]],
        "actions": _numbered_actions(state),
    }
    if meta:
        rec["meta"] = meta
    rec["result"] = {"scores": state.scores(), "over": state.is_over(),
                     "winners": sorted(state.winners())}
    return rec


def _numbered_actions(state: GameState) -> list[dict[str, Any]]:
    """Each action as JSON with its kind and its id. An id may depend on the position it was taken in (a
    domino's place in the layout), so the game is played again from its first position to number them."""
    again = type(state).new(state.rules, state.num_players, state.chance.rewound())
    out = []
    for seat, action in state.history:
        entry = state.action_to_json(seat, action)
        entry["kind"] = action.kind
        entry["id"] = again.action_id(action)
        again.apply(seat, action)
        out.append(entry)
    return out


def _require(cond: bool, msg: str, index: int | None = None) -> None:
    if not cond:
        raise RecordError(msg, index)


def start_from_record(rec: Any) -> GameState:
    """The initial state described by a record (its rules, players and chance outcomes)."""
    _require(isinstance(rec, dict), "a record must be a JSON object")
    _require(rec.get("format", FORMAT) == FORMAT, f"not a {FORMAT} document (format {rec.get('format')!r})")
    version = rec.get("version", VERSION)
    _require(type(version) is int and version in READS,
             f"unsupported record version {version!r} (this program reads versions "
             f"{', '.join(map(str, READS))})")
    preset = rec.get("preset")
    _require(preset is None or (isinstance(preset, str) and preset != ""),
             f"'preset' must be a preset name; got {preset!r}")
    _require(isinstance(rec.get("game"), str), "the record names no game")
    players = rec.get("players")
    _require(isinstance(players, list) and len(players) > 0, "the record needs a non-empty 'players' list")
    chance = rec.get("chance", [])
    _require(isinstance(chance, list) and all(isinstance(c, dict) and "kind" in c for c in chance),
             "'chance' must be a list of objects, each with a 'kind'")
    options = rec.get("options", {})
    _require(isinstance(options, dict), "'options' must be an object")
    try:
        spec = get_game(rec["game"])
        rules = spec.rules(rec.get("preset"), options)
        return spec.new(rules, len(players), chance=Chance(outcomes=chance))
    except RulesError as e:
        raise RecordError(str(e)) from None


def apply_record_action(state: GameState, i: int, entry: Any) -> None:
    _require(isinstance(entry, dict), "each action must be an object with 'seat' and 'move'", i)
    seat = entry.get("seat")
    _require(isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state.num_players,
             f"bad seat {seat!r}", i)
    move = entry.get("move")
    _require(isinstance(move, str), "'move' must be a string", i)
    claim = entry.get("claim")
    _require(claim is None or (isinstance(claim, int) and not isinstance(claim, bool) and claim >= 0),
             f"'claim' must be a non-negative integer; got {claim!r}", i)
    kind = entry.get("kind")
    _require(kind is None or isinstance(kind, str), f"'kind' must be a string; got {kind!r}", i)
    ident = entry.get("id")
    _require(ident is None or (type(ident) is int and ident >= 0),
             f"'id' must be a non-negative integer; got {ident!r}", i)
    try:
        action = state.parse_action(move, seat)
        if claim is not None:
            action = action.with_claim(claim)
        if kind is not None and kind != action.kind:
            raise RecordError(f"the record gives the kind {kind!r}, but the move is a {action.kind!r}")
        if ident is not None:
            _check_id(state, seat, action, ident)
        state.apply(seat, action)
    except (IllegalAction, RecordError) as e:
        raise RecordError(f"{move!r} by seat {seat}: {e}", i) from None


def _check_id(state: GameState, seat: int, action: Action, ident: int) -> None:
    """RecordError unless ``ident`` is the id of ``action`` now. A move that has no id here is illegal:
    its own error (from ``apply``, on a copy) says why better than the numbering could."""
    try:
        actual = state.action_id(action)
    except IllegalAction as e:
        state.clone().apply(seat, action)
        raise RecordError(f"the record gives the id {ident}, but the move has no id here: {e}") from None
    if actual != ident:
        raise RecordError(f"the record gives the id {ident}, but the move is id {actual} here")


def replay(rec: Any) -> GameState:
    """Replay a record, validating every action; raises RecordError naming the failing action."""
    state = start_from_record(rec)
    actions = rec.get("actions", [])
    _require(isinstance(actions, list), "'actions' must be a list")
    for i, entry in enumerate(actions):
        apply_record_action(state, i, entry)
    return state


def player_names(rec: dict[str, Any], seats: int) -> list[str]:
    """The record's player names, seat by seat; a seat without a name is "Seat 1", "Seat 2", ..."""
    players = rec.get("players")
    listed: list[Any] = players if isinstance(players, list) else []
    names = []
    for seat in range(seats):
        p = listed[seat] if seat < len(listed) else None
        name = p.get("name") if isinstance(p, dict) else None
        names.append(name.strip() if isinstance(name, str) and name.strip() else f"Seat {seat + 1}")
    return names


def load(path: str | Path) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{path} is not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None


def save(rec: dict[str, Any], path: str | Path) -> None:
    Path(path).write_text(json.dumps(rec, indent=1) + "\n", encoding="utf-8")
