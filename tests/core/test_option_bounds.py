"""Every whole-number rule option has documented bounds, enforced however the rules are built and
published with the game; presets refuse the numbers of players they cannot be played by."""

from __future__ import annotations

import dataclasses
import json
import typing
from typing import Any

import pytest

from muggins.core import RulesError, all_games, get_game, with_options
from muggins.core.rules import option_schema, option_types

GAMES = sorted(all_games())


def bounded_options(game: str) -> list[tuple[str, int, int, bool]]:
    """(name, minimum, maximum, is a list) of every bounded option of ``game``."""
    rules = get_game(game).rules()
    out = []
    for f in dataclasses.fields(rules):
        if "minimum" in f.metadata:
            is_list = isinstance(getattr(rules, f.name), tuple)
            out.append((f.name, f.metadata["minimum"], f.metadata["maximum"], is_list))
    return out


CASES = [(g, *b) for g in GAMES for b in bounded_options(g)]


def test_every_whole_number_option_is_bounded() -> None:
    """An ``int`` option (alone, optional or in a list) without bounds would accept a 4,000-digit value."""
    for game in GAMES:
        rules = get_game(game).rules()
        names = {b[0] for b in bounded_options(game)}
        for name, tp in option_types(type(rules)).items():
            args = typing.get_args(tp)
            if tp is int or int in args or (typing.get_origin(tp) is tuple and args[0] is int):
                assert name in names, f"{game} option {name} has no bounds"
    assert {"target", "false_call_points"} <= {name for _, name, *_ in CASES}


def value(lo_hi: int, is_list: bool, rules: Any, name: str) -> Any:
    if not is_list:
        return lo_hi
    return [lo_hi] * len(getattr(rules, name))


@pytest.mark.parametrize(("game", "name", "lo", "hi", "is_list"), CASES, ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_bounds_are_enforced_and_named(game: str, name: str, lo: int, hi: int, is_list: bool) -> None:
    spec = get_game(game)
    base = spec.rules()
    for ok in (lo, hi):
        for preset in spec.presets:
            try:
                r = spec.rules(preset, {name: value(ok, is_list, base, name)})
            except RulesError as e:  # another rule of the preset may forbid the value (a multiple of 5 cap)
                assert "from" not in str(e) or f"'{name}'" not in str(e)
                continue
            got = getattr(r, name)
            assert (list(got) if is_list else got) == value(ok, is_list, base, name)
    for bad in (lo - 1, hi + 1, 10**18, 2**70, 10**4000, -(10**4000)):
        with pytest.raises(RulesError, match=f"'{name}' must be a whole number from {lo} to {hi}") as info:
            with_options(base, {name: value(bad, is_list, base, name)})
        assert len(str(info.value)) < 200
        with pytest.raises(RulesError, match=f"from {lo} to {hi}"):
            spec.rules(None, {name: value(bad, is_list, base, name)})
        with pytest.raises(RulesError, match=f"from {lo} to {hi}"):
            dataclasses.replace(base, **{name: tuple(value(bad, is_list, base, name)) if is_list else bad})
    for junk in ("9" * 4000, "1e3", "²", "x", 7.5, True, float("inf"), b"5", [1]):
        with pytest.raises(RulesError) as info:
            with_options(base, {name: value(junk, is_list, base, name)})
        assert len(str(info.value)) < 200, str(info.value)


def test_text_options_from_the_command_line_are_still_read() -> None:
    spec = get_game("dominoes")
    r = spec.rules("muggins", {"target": " 150 ", "deal": "7,6,5", "hand-size": "none", "tile_set": "9"})
    assert (r.target, r.deal, r.hand_size, r.tile_set) == (150, (7, 6, 5), None, 9)
    with pytest.raises(RulesError, match="from 1 to 1000"):
        spec.rules("muggins", {"target": "4000"})


def test_an_endless_all_bot_game_cannot_be_set_up() -> None:
    """Reported: a target of 10**9 (or 4,000 digits) was accepted, and an all-bot game never ended."""
    for game in GAMES:
        spec = get_game(game)
        for target in (10**9, "1" + "0" * 3999):
            with pytest.raises(RulesError, match="'target' must be a whole number from 1 to 1000"):
                spec.rules(None, {"target": target})


def test_options_and_names_of_the_wrong_type_are_rules_errors() -> None:
    spec = get_game("dominoes")
    for options in ([("target", 5)], "target=5", 5):
        with pytest.raises(RulesError):
            spec.rules("muggins", options)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        spec.rules("muggins", {5: 5})  # type: ignore[dict-item]
    for preset in (5, ["muggins"], "x" * 10_000):
        with pytest.raises(RulesError) as info:
            spec.rules(preset)  # type: ignore[arg-type]
        assert len(str(info.value)) < 400
    for spinner in (1, True, "x" * 10_000):
        with pytest.raises(RulesError, match="'spinner' must be one of"):
            spec.rules("muggins", {"spinner": spinner})
    with pytest.raises(RulesError, match="'tile_set' must be one of"):
        spec.rules("muggins", {"tile_set": 9.0})


# --------------------------------------------------------------------------------- publication ----

@pytest.mark.parametrize("game", GAMES)
def test_the_option_schema_publishes_types_choices_and_bounds(game: str) -> None:
    spec = get_game(game)
    schema = option_schema(spec.rules())
    json.dumps(schema)
    assert "preset" not in schema
    assert set(schema) == {f.name for f in dataclasses.fields(spec.rules())} - {"preset"}
    for name, lo, hi, is_list in bounded_options(game):
        entry = schema[name]["items"] if is_list else schema[name]
        assert (entry["minimum"], entry["maximum"]) == (lo, hi)
    assert schema["target"]["type"] == "integer" and schema["target"]["maximum"] == 1000
    assert schema["claims"] == {"type": "string", "enum": ["auto", "manual"], "default": spec.rules().claims}
    described = spec.describe()
    assert json.loads(json.dumps(described)) == described
    assert set(described["presets"]) == set(spec.presets)
    for preset, info in described["presets"].items():
        assert info["description"] == spec.descriptions[preset] != ""
        assert info["players"] == spec.players_for(spec.rules(preset)) != []
        assert info["max_step_points"] == spec.rules(preset).max_step_points
        assert info["muggins_rule"] == (spec.rules(preset).claims == "manual")
    assert described["options"] == schema


def test_domino_schema_of_a_preset_shows_its_values() -> None:
    spec = get_game("dominoes")
    schema = option_schema(spec.rules("fives-and-threes"))
    assert schema["target"]["default"] == 61 and schema["deal"]["default"] == [7, 5, 5]
    assert schema["tile_set"] == {"type": "integer", "enum": [6, 9, 12, 15], "default": 6}
    assert schema["hand_size"]["type"] == ["integer", "null"] and schema["hand_size"]["maximum"] == 30


# --------------------------------------------------------------------------- players per preset ----

#: The numbers of players each preset allows, from RULES.md: the partnership game Seven Rocks is for
#: four; the cribbage presets fix their number; the others take two to four (more with a big set).
PLAYERS = {
    ("dominoes", "seven-rocks"): [4],
    ("cribbage", "cribbage"): [2], ("cribbage", "cribbage-61"): [2], ("cribbage", "three-hand"): [3],
    ("cribbage", "four-hand"): [4], ("cribbage", "five-card"): [2], ("cribbage", "cribbage-muggins"): [2],
}


@pytest.mark.parametrize(("game", "preset"), [(g, p) for g in GAMES for p in get_game(g).presets])
def test_each_preset_allows_only_the_players_it_can_be_played_by(game: str, preset: str) -> None:
    spec = get_game(game)
    rules = spec.rules(preset)
    allowed = spec.players_for(rules)
    assert allowed == PLAYERS.get((game, preset), [2, 3, 4])
    for n in range(0, 8):
        if n in allowed:
            assert spec.new(rules, n, seed=n).num_players == n
        else:
            with pytest.raises(RulesError) as info:
                spec.new(rules, n, seed=n)
            assert any(str(k) in str(info.value) for k in allowed)
    for n in (True, 2.0, "2", 2.5):
        with pytest.raises(RulesError):
            spec.new(rules, n, seed=1)  # type: ignore[arg-type]


def test_seven_rocks_names_four_players() -> None:
    spec = get_game("dominoes")
    for n in (2, 3):
        with pytest.raises(RulesError, match="partnerships, two against two: they are for 4 players, not"):
            spec.new(spec.rules("seven-rocks"), n, seed=1)
    assert spec.new(spec.rules("seven-rocks"), 4, seed=1).num_players == 4
    assert spec.players_for(spec.rules("seven-rocks", {"partnerships": False})) == [2, 3, 4]
    assert spec.players_for(spec.rules("muggins", {"partnerships": True})) == [4]
    assert spec.players_for(spec.rules("muggins", {"tile_set": 9})) == [2, 3, 4, 5, 6]
    with pytest.raises(RulesError, match="allow 2 players"):
        spec.new(spec.rules("all-fives", {"hand_size": 10}), 4, seed=1)


def test_the_record_schema_holds_the_domino_option_bounds() -> None:
    """The record schema checks a domino record's options against the same bounds as the engine."""
    from importlib import resources

    schema = json.loads((resources.files("muggins") / "schemas" / "record.schema.json").read_text(encoding="utf-8"))
    known = schema["$defs"]["dominoes"]["properties"]["options"]["properties"]
    engine = option_schema(get_game("dominoes").rules())
    bounded = {name for name, *_ in bounded_options("dominoes")}
    assert set(known) == bounded
    for name in bounded:
        want = {k: v for k, v in engine[name].items() if k != "default"}
        assert known[name] == want, name
