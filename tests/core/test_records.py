"""The record format (docs/records.md): the JSON Schema, the example records, round trips of every domino
preset, the move notation that records store, and the errors malformed records give."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from muggins.core import Action, RecordError, all_games, get_game, options_of
from muggins.core.records import (
    FORMAT,
    READS,
    VERSION,
    apply_record_action,
    load,
    replay,
    save,
    start_from_record,
    to_record,
)
from muggins.dominoes import DominoState
from muggins.dominoes.fast import NativeDominoState
from tests.helpers import domino_state, play

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES_DIR = ROOT / "docs" / "examples"
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.json"))
DOC = ROOT / "docs" / "records.md"


def _schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((resources.files("muggins") / "schemas" / name).read_text(encoding="utf-8"))
    return loaded


SCHEMA = _schema("record.schema.json")  # either version
SCHEMAS = {1: _schema("record.v1.schema.json"), 2: _schema("record.v2.schema.json")}
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
VALIDATORS = {v: jsonschema.Draft202012Validator(s) for v, s in SCHEMAS.items()}
DOMINOES = get_game("dominoes")
DOMINO_STATES = (DominoState, NativeDominoState)  # what spec.new gives: the native state where it is built
pytestmark = pytest.mark.usefixtures("both_engines")  # every record test on each engine behind spec.new
PRESETS = list(DOMINOES.presets)


def schema_errors(rec: Any, version: int | None = None) -> list[str]:
    """What the schema of both versions (or of ``version`` alone) finds wrong with ``rec``."""
    validator = VALIDATOR if version is None else VALIDATORS[version]
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(rec)]


def as_version_1(rec: dict[str, Any]) -> dict[str, Any]:
    """A version 2 record as version 1 wrote it: without the kind and id of each action."""
    old = copy.deepcopy(rec)
    old["version"] = 1
    for a in old["actions"]:
        a.pop("kind")
        a.pop("id")
    return old


def state_summary(state: Any) -> dict[str, Any]:
    """Everything a replay must reproduce: scores, the full event log, every seat's view, the history."""
    seats: list[int | None] = [*range(state.num_players), None]
    return {
        "scores": state.scores(),
        "side_scores": state.side_scores(),
        "over": state.is_over(),
        "winners": sorted(state.winners()),
        "events": [e.to_dict() for e in state.log],
        "views": [state.view(s) for s in seats],
        "history": [(seat, tuple(a)) for seat, a in state.history],
    }


# ------------------------------------------------------------------------------------- the schema ----
def test_schema_is_valid_draft_2020_12_package_data() -> None:
    for schema in (SCHEMA, *SCHEMAS.values()):
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["properties"]["format"] == {"const": FORMAT}
    assert SCHEMA["properties"]["version"]["enum"] == list(READS) == [1, 2]
    assert SCHEMAS[1]["properties"]["version"]["const"] == 1
    assert SCHEMAS[2]["properties"]["version"]["const"] == VERSION == 2


def test_the_schemas_differ_only_in_the_version_and_the_action() -> None:
    """One envelope for both versions: version 2 adds the kind and id of each action."""
    def envelope(schema: dict[str, Any]) -> dict[str, Any]:
        rest = copy.deepcopy(schema)
        for key in ("title", "description"):
            rest.pop(key)
        rest["properties"].pop("version")
        rest["$defs"]["action"]["properties"].pop("kind", None)
        rest["$defs"]["action"]["properties"].pop("id", None)
        rest["$defs"]["action"].pop("required")
        for key in ("actionV1", "actionV2"):
            rest["$defs"].pop(key, None)
        rest["allOf"] = rest["allOf"][:1]
        return rest

    assert envelope(SCHEMAS[1]) == envelope(SCHEMAS[2]) == envelope(SCHEMA)
    assert SCHEMAS[2]["$defs"]["action"]["required"] == ["seat", "move", "kind", "id"]


def test_schema_names_every_domino_preset_and_option() -> None:
    """The schema lists the domino presets and option names; adding one to the engine must add it here
    (and to docs/records.md) too."""
    names = set(options_of(DOMINOES.rules())) - {"preset"}
    for schema in (SCHEMA, *SCHEMAS.values()):
        known = schema["$defs"]["dominoes"]["properties"]
        assert known["preset"]["enum"] == PRESETS
        assert set(known["options"]["propertyNames"]["enum"]) == names


def test_schema_is_strict_about_the_envelope() -> None:
    rec = json.loads((EXAMPLES_DIR / "muggins-hand-written.json").read_text(encoding="utf-8"))
    assert schema_errors(rec) == []
    bad: list[Callable[[dict[str, Any]], Any]] = [
        lambda r: r.update(moves=[]),                          # unknown top-level field
        lambda r: r.pop("chance"),                             # required field
        lambda r: r["players"][0].pop("name"),                 # a player needs a name
        lambda r: r["players"][0].update(rating=1500),         # anything else belongs in meta
        lambda r: r["players"][0].update(kind="robot"),
        lambda r: r["actions"][0].update(note="nice"),         # an action is seat, move, claim (kind, id)
        lambda r: r["actions"][0].update(kind="play"),         # version 1 writes no kind ...
        lambda r: r["actions"][0].update(id=13211),            # ... and no id
        lambda r: r.update(version=3),
        lambda r: r["actions"][0].update(claim=-10),
        lambda r: r["actions"][0].update(seat="0"),
        lambda r: r["actions"][0].update(move=""),
        lambda r: r["result"].update(scores=["40", "0"]),
        lambda r: r.update(options={"preset": "sniff"}),       # the preset is not an option
        lambda r: r.update(options={"targett": 100}),          # not a domino option
        lambda r: r.update(preset="muggings"),
        lambda r: r["chance"][0].pop("kind"),
        lambda r: r["chance"][1].update(hands="5-5 0-0"),      # a known domino kind keeps its shape
        lambda r: r["chance"][0].update(tiles=[12, 10]),
    ]
    for i, mutate in enumerate(bad):
        r = copy.deepcopy(rec)
        mutate(r)
        assert schema_errors(r), f"mutation {i} should be rejected by the schema"


def test_schema_is_permissive_about_chance_fields_and_meta() -> None:
    rec = json.loads((EXAMPLES_DIR / "muggins-hand-written.json").read_text(encoding="utf-8"))
    rec["chance"][1]["shuffler"] = "table 3"
    rec["chance"].append({"kind": "cut", "card": "5H"})
    rec["meta"] = {"event": "club night", "clock": [1, 2], "bots": {"1": {"vigilance": 0.5}}}
    rec.pop("result")
    assert schema_errors(rec) == []


# ------------------------------------------------------------------------------------ the examples ----
def test_the_documented_examples_exist() -> None:
    names = {p.name for p in EXAMPLES}
    assert {"muggins-hand-written.json", "muggins-hand-written-v2.json", "muggins-greedy-2p.json",
            "all-fives-spinner-2p.json", "fives-and-threes-partners-4p.json"} <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_validates_and_replays_to_its_result(path: Path) -> None:
    rec = load(path)
    assert schema_errors(rec) == [] and schema_errors(rec, rec["version"]) == []
    state = replay(rec)
    assert rec["result"] == {"scores": state.scores(), "over": state.is_over(),
                             "winners": sorted(state.winners())}
    # replaying and writing again gives the very same document (a version 1 example: the same document
    # with the kind and id of each action): the notation in the file is canonical
    again = to_record(state, players=rec["players"], meta=rec.get("meta"))
    assert schema_errors(again, 2) == [] and schema_errors(again, 1) != []
    assert (again if rec["version"] == 2 else as_version_1(again)) == rec


@pytest.mark.parametrize("path", [p for p in EXAMPLES if "greedy" in p.stem or "partners" in p.stem
                                  or "spinner" in p.stem])
def test_generated_examples_are_finished_games_written_by_save(path: Path, tmp_path: Path) -> None:
    rec = load(path)
    assert rec["result"]["over"] is True
    assert isinstance(rec["meta"]["seed"], int)
    out = tmp_path / "again.json"
    save(rec, out)
    assert out.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_all_fives_example_shows_spinner_ends() -> None:
    rec = load(EXAMPLES_DIR / "all-fives-spinner-2p.json")
    ends = [a["move"] for a in rec["actions"] if a["move"].endswith(" end")]
    assert "5-1 on 5-5 end" in ends and len(ends) >= 4


def test_partnership_example_is_two_teams_of_two() -> None:
    rec = load(EXAMPLES_DIR / "fives-and-threes-partners-4p.json")
    assert rec["preset"] == "fives-and-threes" and rec["options"] == {"partnerships": True}
    state = replay(rec)
    assert len(rec["players"]) == 4 and state.num_sides == 2
    scores = state.scores()
    assert scores[0] == scores[2] and scores[1] == scores[3] and 61 in scores


def _doc_block(marker: str) -> Any:
    """The JSON code block that follows ``marker`` in docs/records.md."""
    text = DOC.read_text(encoding="utf-8")
    at = text.index(marker)
    m = re.compile(r"```json\n(.*?)```", re.S).search(text, at)
    assert m is not None, f"no JSON block after {marker!r}"
    return json.loads(m.group(1))


def test_worked_example_of_the_documentation_is_the_hand_written_record() -> None:
    rec = _doc_block("<!-- worked example -->")
    assert rec == load(EXAMPLES_DIR / "muggins-hand-written-v2.json")
    assert as_version_1(rec) == load(EXAMPLES_DIR / "muggins-hand-written.json")
    state = replay(rec)
    steals = [e.to_dict() for e in state.log if e.kind == "muggins"]
    assert steals == [{"kind": "muggins", "seat": 0, "on": 1, "outcome": "steal", "points": 10, "named": 10,
                       "missed": 10, "reason": "play"}]
    assert state.scores() == [40, 0]


# ------------------------------------------------------------------------------------- round trips ----
VARIANTS: list[dict[str, Any]] = [
    {},
    {"claim_timing": "lenient", "mug_bonus": True, "false_call_penalty": "deduct"},
    {"muggins": "forfeit", "over_claim": "opponent_scores", "false_call_penalty": "award"},
    {"muggins": "steal_and_deduct"},
    {"spinner": "sniff_option"},
    {"spinner": "sniff_stub"},
    {"spinner": "all_doubles", "spinner_sides_first": False},
    {"first_lead": "lot_lightest", "lot_tie": "high_end", "next_lead": "lowest_score"},
    {"first_lead": "highest_double_forced", "voluntary_draw": True, "boneyard_reserve": 2},
    {"draw": "max_n", "max_draws_per_turn": 1, "entry_threshold": 10},
]


def random_game(preset: str, players: int, seed: int, options: dict[str, Any] | None = None,
                max_steps: int = 400, check_notation: bool = False) -> DominoState:
    """A game played by random choices: right, short, long, missing and void claims, muggins calls naming
    any amount (or none), late claims. Stops after ``max_steps`` actions if not over."""
    rng = random.Random(seed)
    state = DOMINOES.new(DOMINOES.rules(preset, options or {}), players, seed=seed)
    assert isinstance(state, DOMINO_STATES)
    manual = state.rules.claims == "manual"
    for _ in range(max_steps):
        if state.is_over():
            break
        side = [(s, a) for s in sorted(state.to_act()) for a in state.legal_actions(s)
                if a.kind in ("muggins", "claim")]
        if side and rng.random() < 0.3:
            seat, a = rng.choice(side)
            named = rng.choice([None, 0, 5, 10, 15, state.muggable(seat)]) if a.kind == "muggins" else \
                rng.choice([5, 10, 20])
            top = state.max_step_points()  # the engine refuses larger amounts
            state.apply(seat, a.with_claim(None if named is None else min(named, top)))
            continue
        seat = state.turn
        regular = [a for a in state.legal_actions(seat) if a.kind not in ("muggins", "claim")]
        if check_notation:
            texts = [state.format_action(a) for a in regular]
            assert len(set(texts)) == len(texts), f"two moves share a text: {texts}"
            assert [state.parse_action(t, seat) for t in texts] == regular
        a = rng.choice(regular)
        if a.kind == "play" and manual:
            true = state.claim_for(seat, a)
            a = a.with_claim(rng.choice([true, true, true, None, max(0, true - 5),
                                         min(true + 5, state.max_step_points())]))
        state.apply(seat, a)
    return state


def ids_of(state: Any) -> list[int]:
    """The id of each action of ``state``'s history, taken in the position where it was made (by undoing)."""
    probe = state.clone()
    ids = []
    for seat, action in reversed(state.history):
        probe.undo()
        ids.append(probe.action_id(action))
        assert probe.action_from_id(seat, ids[-1]) == action
    return ids[::-1]


def replay_dominoes(rec: Any) -> DominoState:
    state = replay(rec)
    assert isinstance(state, DOMINO_STATES)
    return state


def assert_round_trip(state: DominoState) -> dict[str, Any]:
    rec = to_record(state)
    assert schema_errors(rec) == [] and schema_errors(rec, 2) == []
    assert [(a["kind"], a["id"]) for a in rec["actions"]] == [(a.kind, a_id) for (_, a), a_id in
                                                               zip(state.history, ids_of(state), strict=True)]
    rec = json.loads(json.dumps(rec))  # what a file holds
    assert isinstance(rec, dict)
    again = replay(rec)
    assert state_summary(again) == state_summary(state)
    assert to_record(again) == rec
    return rec


@pytest.mark.parametrize(("preset", "players"), [(p, n) for p in PRESETS for n in (2, 3, 4)
                                                  if n in DOMINOES.players_for(DOMINOES.presets[p])])
def test_random_game_of_every_preset_round_trips(preset: str, players: int) -> None:
    state = random_game(preset, players, seed=players * 1000 + PRESETS.index(preset), check_notation=True)
    rec = assert_round_trip(state)
    assert rec["preset"] == preset and len(rec["players"]) == players


@pytest.mark.parametrize("options", VARIANTS, ids=[",".join(v) or "preset" for v in VARIANTS])
def test_random_games_with_rule_variants_round_trip(options: dict[str, Any]) -> None:
    for i, preset in enumerate(("muggins", "all-fives", "five-up")):
        state = random_game(preset, 2 + i, seed=31 * i + len(options), options=options, check_notation=True)
        rec = assert_round_trip(state)
        assert rec["options"] == {k: v for k, v in options.items()
                                  if options_of(DOMINOES.presets[preset])[k] != v}


def test_random_play_reaches_every_kind_of_move() -> None:
    """The round trips above are not vacuous: the random games use every move, part and call outcome."""
    kinds: set[str] = set()
    parts: set[str | None] = set()
    outcomes: set[str] = set()
    finished = 0
    for options in VARIANTS:
        for i, preset in enumerate(("muggins", "all-fives", "five-up")):
            state = random_game(preset, 2 + i, seed=31 * i + len(options), options=options)
            finished += state.is_over()
            kinds |= {a.kind for _, a in state.history}
            parts |= {a.part for _, a in state.history if a.kind == "play"}
            outcomes |= {e.data["outcome"] for e in state.log if e.kind == "muggins"}
    assert kinds == {"play", "draw", "pass", "muggins", "claim"}
    assert parts == {None, "end", "side", "inline"}
    assert outcomes == {"steal", "forfeit", "steal_and_deduct", "false_call"}
    assert finished >= len(VARIANTS)


def test_partnership_knocking_and_big_sets_round_trip() -> None:
    knock = random_game("muggins", 4, seed=5, options={"partnerships": True, "knocking": True})
    assert any(a.kind == "knock" for _, a in knock.history)
    assert_round_trip(knock)
    assert_round_trip(random_game("muggins", 6, seed=6, options={"tile_set": 9}))
    assert_round_trip(random_game("five-up", 5, seed=7, options={"tile_set": 12}, max_steps=150))


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(PRESETS), players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1),
       stop=st.integers(0, 250), variant=st.sampled_from(VARIANTS))
def test_any_position_round_trips(preset: str, players: int, seed: int, stop: int,
                                  variant: dict[str, Any]) -> None:
    """A record of any position, finished or not, replays to the same state."""
    assume(players in DOMINOES.players_for(DOMINOES.presets[preset]))  # a partnership preset is for four
    assert_round_trip(random_game(preset, players, seed, options=variant, max_steps=stop))


def protocol_game(game: str, preset: str, seed: int, max_steps: int = 300) -> Any:
    """A game of any registered game played at random through the protocol alone, with the muggins
    rule on where the game has one."""
    spec = get_game(game)
    rules = spec.rules(preset)
    if getattr(rules, "claims", "auto") == "auto" and preset != "no-muggins":
        rules = spec.rules(preset, {"claims": "manual"})
    players = getattr(rules, "players", spec.default_players)
    if players not in spec.players_for(rules):
        players = spec.players_for(rules)[0]
    state: Any = spec.new(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(max_steps):
        if state.is_over():
            break
        seat = rng.choice(sorted(state.to_act() if rng.random() < 0.2 else state.waiting_for()))
        actions = state.legal_actions(seat)
        if not actions:
            continue
        a = rng.choice(actions)
        if a.kind == "claim":
            a = a.with_claim(rng.choice([1, 2, 5]))
        elif a.kind == "muggins":
            a = a.with_claim(rng.choice([None, 0, 2]))
        elif state.rules.claims == "manual" and (a.kind in ("play", "count") or state.claim_for(seat, a)):
            true = state.claim_for(seat, a)
            a = a.with_claim(rng.choice([true, true, None, min(true + 1, state.max_step_points())]))
        state.apply(seat, a)
    return state


GAME_PRESETS = [(name, preset) for name, spec in sorted(all_games().items()) for preset in spec.presets]


@pytest.mark.parametrize(("game", "preset"), GAME_PRESETS, ids=[f"{g}:{p}" for g, p in GAME_PRESETS])
def test_every_game_writes_records_the_schema_accepts(game: str, preset: str) -> None:
    """The envelope is common to the family: card games' records validate and round-trip too."""
    state = protocol_game(game, preset, seed=len(preset))
    rec = json.loads(json.dumps(to_record(state)))
    assert schema_errors(rec) == [] and schema_errors(rec, 2) == []
    assert [a["kind"] for a in rec["actions"]] == [a.kind for _, a in state.history]
    again = replay(rec)
    assert [e.to_dict() for e in again.log] == [e.to_dict() for e in state.log]
    assert again.scores() == state.scores() and to_record(again) == rec


def test_a_fresh_game_holds_only_its_first_chance_outcomes() -> None:
    state = DOMINOES.new(DOMINOES.rules("muggins"), 2, seed=9)
    rec = to_record(state)
    assert rec["actions"] == [] and [c["kind"] for c in rec["chance"]][-1] == "deal"
    assert rec["result"] == {"scores": [0, 0], "over": False, "winners": []}
    assert state_summary(start_from_record(rec)) == state_summary(state)


def test_players_and_meta_are_written_as_given() -> None:
    state = random_game("muggins", 2, seed=3, max_steps=20)
    players = [{"name": "Ada's laptop", "kind": "human"}, {"name": "Bot 1", "kind": "bot", "bot": "greedy"}]
    rec = to_record(state, players=players, meta={"seed": 3})
    assert rec["players"] == players and rec["meta"] == {"seed": 3}
    assert schema_errors(rec) == []
    assert "meta" not in to_record(state)


def test_save_and_load(tmp_path: Path) -> None:
    rec = to_record(random_game("sniff", 3, seed=4, max_steps=60))
    path = tmp_path / "game.json"
    save(rec, path)
    assert load(path) == rec
    assert path.read_text(encoding="utf-8").startswith('{\n "format": "muggins-record",')


def test_load_refuses_what_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "muggins-record",\n "version": 1,,}', encoding="utf-8")
    with pytest.raises(RecordError, match=r"not valid JSON: .* at line 2 column"):
        load(path)
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "missing.json")


# ---------------------------------------------------------------------------------- the notation ----
def notation(state: DominoState, seat: int) -> list[str]:
    return [state.format_action(a) for a in state.legal_actions(seat) if a.kind == "play"]


def test_line_notation_names_the_touching_half_first() -> None:
    st_ = domino_state("muggins", hands=[["5-5", "0-0", "6-4"], ["5-0", "6-5", "1-1"]])
    play(st_, "5-5")
    assert notation(st_, 1) == ["5-0 on 5-5", "5-6 on 5-5"]
    play(st_, "5-0 on 5-5", "0-0 on 5-0")
    # 6-5 is read the same written 5-6 or 6-5; it is written with the 5 (the half that touches) first
    assert st_.parse_action("6-5 on 5-5", 1) == st_.parse_action("5-6 on 5-5", 1)
    assert notation(st_, 1) == ["5-6 on 5-5"]


def test_lead_with_two_open_halves() -> None:
    st_ = domino_state("muggins", hands=[["6-4", "0-0"], ["4-1", "6-2"]])
    play(st_, "6-4")
    assert notation(st_, 1) == ["4-1 on 6-4", "6-2 on 6-4"]


def test_single_spinner_sides_then_ends() -> None:
    """D10's opening under All Fives rules: the ends of the 5-5 open once both sides are covered."""
    st_ = domino_state("all-fives", hands=[["5-5", "5-3", "5-4"], ["5-0", "2-2", "5-1"]])
    play(st_, "5-5", "5-0 on 5-5")
    assert notation(st_, 0) == ["5-3 on 5-5", "5-4 on 5-5"]
    play(st_, "5-3 on 5-5")
    assert notation(st_, 1) == ["5-1 on 5-5 end"]
    # when only the ends are free, a reader also takes "on 5-5" to mean an end
    assert st_.parse_action("5-1 on 5-5", 1) == st_.parse_action("5-1 on 5-5 end", 1)
    play(st_, "5-1 on 5-5 end")
    assert notation(st_, 0) == ["5-4 on 5-5 end"]


def test_five_up_names_each_spinner_by_its_tile() -> None:
    """D13: every double is a spinner; a play on an end names which double it is on."""
    st_ = domino_state("five-up", hands=[["6-4", "4-1", "6-6", "3-2", "0-1"],
                                         ["4-4", "4-3", "6-2", "6-0", "1-1"]])
    assert play(st_, "6-4", "4-4 on 6-4", "4-1 on 4-4", "4-3 on 4-4 end", "6-6 on 6-4", "6-2 on 6-6") \
        == [2, 0, 0, 2, 0, 0]
    assert play(st_, "3-2 on 4-3", "6-0 on 6-6 end") == [1, 1]
    assert "1-0 on 4-1" in notation(st_, 0)


def test_uk_sniff_stubs_are_named_side() -> None:
    st_ = domino_state("sniff", hands=[["5-5", "3-1", "6-0"], ["5-3", "5-2", "2-2"]], spinner="sniff_stub")
    play(st_, "5-5")
    assert notation(st_, 1) == ["5-3 on 5-5", "5-3 on 5-5 side", "5-2 on 5-5", "5-2 on 5-5 side"]
    play(st_, "5-3 on 5-5 side")
    assert notation(st_, 0) == []  # a stub can never be extended: the 3-1 does not go on the 5-3


def test_sniff_laid_endwise_is_written_inline() -> None:
    st_ = domino_state("sniff", hands=[["5-3", "3-3", "3-0"], ["5-5", "3-1", "4-0"]], spinner="sniff_option")
    play(st_, "5-3")
    assert notation(st_, 1) == ["5-5 on 5-3", "5-5 on 5-3 inline", "3-1 on 5-3"]
    play(st_, "5-5 on 5-3 inline")
    # the inline sniff shows one 5 at its bare end; its sides open once both its ends are covered
    assert st_.count == 3 + 5
    lead = domino_state("sniff", hands=[["5-5"], ["5-0"]], spinner="sniff_option")
    assert notation(lead, 0) == ["5-5", "5-5 inline"]


def test_moves_without_a_tile() -> None:
    st_ = domino_state("muggins", hands=[["6-6", "5-5"], ["1-0", "2-0"]])
    play(st_, "6-6")
    assert [st_.format_action(a) for a in st_.legal_actions(1)] == ["draw", "muggins"]
    assert st_.parse_action("muggins 10", 1) == Action("muggins", claim=10)
    assert st_.parse_action("claim 5", 0) == Action("claim", claim=5)
    assert st_.format_action(Action("muggins", claim=10)) == "muggins"  # the amount goes in "claim"
    rec = to_record(st_)
    # the 6-6 is tile 27 of the set; its lead is slot 0 of 3, and "claim 0" code 1 of 220
    assert rec["actions"] == [{"seat": 0, "move": "6-6", "claim": 0, "kind": "play", "id": 27 * 3 * 220 + 1}]
    rec["actions"].append({"seat": 1, "move": "draw", "claim": 5})
    with pytest.raises(RecordError, match="action 1: 'draw' by seat 1: only a play can carry a claim"):
        replay(rec)


def test_a_call_with_nothing_missed_is_a_false_call_not_an_error() -> None:
    rec = base_record()
    rec["options"] = {"false_call_penalty": "deduct"}
    rec["actions"].insert(5, {"seat": 0, "move": "muggins"})  # B's 5-6 scored nothing
    state = replay(rec)
    assert state.scores() == [30, 0]
    assert [e.data["outcome"] for e in state.log if e.kind == "muggins"] == ["steal", "false_call"]


# ----------------------------------------------------------------------------- malformed records ----
def base_record() -> dict[str, Any]:
    rec: dict[str, Any] = load(EXAMPLES_DIR / "muggins-hand-written.json")
    return rec


def finished_record() -> dict[str, Any]:
    rec: dict[str, Any] = load(EXAMPLES_DIR / "muggins-greedy-2p.json")
    return rec


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(rec: dict[str, Any]) -> None:
        node = rec
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
    return mutate


def _drop(path: tuple[Any, ...]) -> Callable[[dict[str, Any]], None]:
    def mutate(rec: dict[str, Any]) -> None:
        node = rec
        for k in path[:-1]:
            node = node[k]
        del node[path[-1]]
    return mutate


def _insert_action(i: int, action: Any) -> Callable[[dict[str, Any]], None]:
    return lambda rec: rec["actions"].insert(i, action)


# (id, mutation of the hand-written example, index the error names or None, message, schema rejects too)
MALFORMED: list[tuple[str, Callable[[dict[str, Any]], None], int | None, str, bool]] = [
    # envelope types
    ("format", _set(("format",), "pgn"), None, "not a muggins-record document", True),
    ("version", _set(("version",), 3), None, "unsupported record version 3 (this program reads versions 1, 2)",
     True),
    ("version-0", _set(("version",), 0), None, "unsupported record version 0", True),
    ("version-text", _set(("version",), "1"), None, "unsupported record version '1'", True),
    ("game-missing", _drop(("game",)), None, "names no game", True),
    ("game-type", _set(("game",), ["dominoes"]), None, "names no game", True),
    ("game-unknown", _set(("game",), "chess"), None, "unknown game 'chess'", False),
    ("players-type", _set(("players",), {"0": "A"}), None, "non-empty 'players' list", True),
    ("players-empty", _set(("players",), []), None, "non-empty 'players' list", True),
    ("players-too-many", _set(("players",), [{"name": str(i)} for i in range(7)]), None,
     "for 2-6 players; got 7", True),
    ("chance-type", _set(("chance",), {"kind": "deal"}), None, "'chance' must be a list", True),
    ("chance-kindless", _drop(("chance", 0, "kind")), None, "each with a 'kind'", True),
    ("options-type", _set(("options",), ["target", 100]), None, "'options' must be an object", True),
    ("actions-type", _set(("actions",), {"0": "5-5"}), None, "'actions' must be a list", True),
    # rules
    ("preset-unknown", _set(("preset",), "muggings"), None, "unknown preset 'muggings'", True),
    ("preset-type", _set(("preset",), 7), None, "must be a preset name", True),
    ("option-unknown", _set(("options",), {"targett": 100}), None, "unknown option 'targett'", True),
    ("option-value", _set(("options",), {"target": "high"}), None, "'target' must be a whole number from 1 to 1000",
     False),
    ("option-choice", _set(("options",), {"spinner": "sometimes"}), None, "'spinner' must be one of", False),
    ("option-range", _set(("options",), {"boneyard_reserve": 5}), None,
     "'boneyard_reserve' must be a whole number from 0 to 2", False),
    ("set-too-small", lambda r: r.update(players=[{"name": str(i)} for i in range(5)]), None,
     "a double-6 set is for 2-4 players", False),
    # chance outcomes
    ("chance-none", _set(("chance",), []), None, "no chance outcome 0 ('lot')", False),
    ("chance-order", lambda r: r["chance"].reverse(), None, "chance outcome 0 is 'deal', expected 'lot'", False),
    ("lot-seats", _set(("chance", 0, "seats"), [1, 0]), None, "does not fit seats [0, 1]", False),
    ("lot-same-tile", _set(("chance", 0, "tiles"), ["6-6", "6-6"]), None, "does not fit seats", False),
    ("lot-tie-not-redrawn", _set(("chance", 0, "tiles"), ["6-2", "5-3"]), None,
     "chance outcome 1 is 'deal', expected 'lot'", False),
    ("deal-hand-count", _set(("chance", 1, "hands"), [["5-5"]]), None, "2 hands of 7 tiles", False),
    ("deal-hand-size", lambda r: r["chance"][1]["boneyard"].append(r["chance"][1]["hands"][0].pop()), None,
     "2 hands of 7 tiles", False),
    ("deal-twice", _set(("chance", 1, "boneyard", 0), "5-5"), None, "every tile of the set exactly once", False),
    ("deal-short", lambda r: r["chance"][1]["boneyard"].pop(), None, "every tile of the set exactly once", False),
    ("deal-foreign-tile", _set(("chance", 1, "boneyard", 0), "7-7"), None, "'7-7' is not in a double-6 set",
     False),
    ("deal-junk", _set(("chance", 1, "hands", 0, 0), "five-five"), None, "bad deal outcome", False),
    ("deal-hands-type", _set(("chance", 1, "hands"), None), None, "bad deal outcome", True),
    # actions
    ("action-type", _set(("actions", 1), "5-0 on 5-5"), 1, "each action must be an object", True),
    ("seat-type", _set(("actions", 1, "seat"), "1"), 1, "bad seat '1'", True),
    ("seat-bool", _set(("actions", 1, "seat"), True), 1, "bad seat True", True),
    ("seat-range", _set(("actions", 1, "seat"), 2), 1, "bad seat 2", False),
    ("wrong-seat", _set(("actions", 1, "seat"), 0), 1, "it is seat 1's turn, not seat 0's", False),
    ("move-type", _set(("actions", 1, "move"), 50), 1, "'move' must be a string", True),
    ("move-empty", _set(("actions", 1, "move"), ""), 1, "empty move", True),
    ("move-unreadable", _set(("actions", 3, "move"), "zero-zero on 5-0"), 3, "is not a tile", False),
    ("move-part", _set(("actions", 3, "move"), "0-0 on 5-0 corner"), 3, "'corner' is not a part", False),
    ("illegal-not-held", _set(("actions", 3, "move"), "5-1 on 5-0"), 3, "seat 0 does not hold 5-1", False),
    ("illegal-no-match", _set(("actions", 3, "move"), "6-2 on 5-0"), 3, "does not match the free end", False),
    ("illegal-not-on-table", _set(("actions", 3, "move"), "4-0 on 4-4"), 3, "4-4 is not on the table", False),
    ("illegal-spinner-end", _set(("actions", 4, "move"), "5-6 on 5-5 end"), 4, "is not a spinner", False),
    ("claim-negative", _set(("actions", 0, "claim"), -10), 0, "non-negative integer; got -10", True),
    ("claim-text", _set(("actions", 0, "claim"), "10"), 0, "non-negative integer; got '10'", True),
    ("claim-bool", _set(("actions", 0, "claim"), True), 0, "non-negative integer; got True", True),
    ("claim-fraction", _set(("actions", 0, "claim"), 10.5), 0, "non-negative integer; got 10.5", True),
    ("claim-auto-game", _set(("options",), {"claims": "auto"}), 0, "scored automatically", False),
    ("muggins-no-window", _insert_action(0, {"seat": 1, "move": "muggins"}), 0, "no muggins window is open",
     False),
    ("muggins-own-side", _set(("actions", 2, "seat"), 1), 2, "cannot call muggins on your own side", False),
    ("claim-nothing-to-claim", _insert_action(2, {"seat": 1, "move": "claim", "claim": 10}), 2,
     "nothing for you to claim", False),
]


@pytest.mark.parametrize(("mutate", "index", "message", "schema_rejects"), [m[1:] for m in MALFORMED],
                         ids=[m[0] for m in MALFORMED])
def test_malformed_record_raises_record_error(mutate: Callable[[dict[str, Any]], None], index: int | None,
                                              message: str, schema_rejects: bool) -> None:
    rec = base_record()
    mutate(rec)
    with pytest.raises(RecordError) as info:
        replay(rec)
    assert info.value.index == index
    assert message in str(info.value)
    if index is not None:
        assert str(info.value).startswith(f"action {index}: ")
    if schema_rejects:
        assert schema_errors(rec), "the schema should reject this record too"


@pytest.mark.parametrize("rec", [[], "muggins-record", 7, None], ids=["list", "text", "number", "null"])
def test_a_record_must_be_an_object(rec: Any) -> None:
    with pytest.raises(RecordError, match="a record must be a JSON object"):
        replay(rec)
    assert schema_errors(rec)


def test_illegal_move_names_its_action_index() -> None:
    rec = finished_record()
    k = len(rec["actions"]) // 2
    entry = rec["actions"][k]
    entry["seat"] = 1 - entry["seat"]
    with pytest.raises(RecordError) as info:
        replay(rec)
    assert info.value.index == k
    assert str(info.value).startswith(f"action {k}: {entry['move']!r} by seat {entry['seat']}: ")


def test_no_action_after_the_end() -> None:
    rec = finished_record()
    n = len(rec["actions"])
    rec["actions"].append({"seat": 0, "move": "draw"})
    with pytest.raises(RecordError, match=f"action {n}: 'draw' by seat 0: the game is over"):
        replay(rec)


def test_missing_deal_of_a_later_hand_names_the_action_that_needs_it() -> None:
    rec = finished_record()
    rec["chance"] = rec["chance"][:2]  # the lot and the deal of the first hand only
    with pytest.raises(RecordError, match="no chance outcome 2") as info:
        replay(rec)
    k = info.value.index
    assert k is not None
    actions = finished_record()["actions"]
    # the failing action is the one that ended the first hand: everything before it replays
    assert replay_dominoes({**rec, "actions": actions[:k]}).hand_no == 1
    assert replay_dominoes({**finished_record(), "actions": actions[: k + 1]}).hand_no == 2


def test_replay_ignores_result_and_meta() -> None:
    rec = base_record()
    rec["result"] = {"scores": [0, 999], "over": True, "winners": [1]}
    rec["meta"] = {"anything": ["at", "all"]}
    state = replay(rec)
    assert state.scores() == [40, 0] and not state.is_over()


def test_reader_fills_in_what_a_writer_must_write() -> None:
    """A reader takes a missing format, version, options and actions as the defaults; the schema still
    asks a writer for them."""
    rec = base_record()
    for key in ("format", "version", "options", "actions"):
        del rec[key]
    state = replay_dominoes(rec)
    assert state.history == [] and state.hand_no == 1
    assert schema_errors(rec)


def test_a_played_claim_of_zero_is_not_silence() -> None:
    """``"claim": 0`` announces nothing scored; no "claim" says nothing at all (lenient timing lets the
    player still claim until the next action)."""
    rec = base_record()
    rec["options"] = {"claim_timing": "lenient"}
    rec["actions"] = rec["actions"][:2] + [{"seat": 1, "move": "claim", "claim": 10}]
    state = replay(rec)
    assert state.scores() == [10, 10]
    rec["actions"][1]["claim"] = 0
    with pytest.raises(RecordError, match="action 2: 'claim' by seat 1: there is nothing for you to claim"):
        replay(rec)


# Bad JSON types in the envelope or the chance outcomes are refused as records, not as crashes.
def test_preset_of_the_wrong_type_raises_record_error() -> None:
    rec = base_record()
    rec["preset"] = ["muggins"]
    with pytest.raises(RecordError):
        replay(rec)


def test_deal_tile_of_the_wrong_type_raises_record_error() -> None:
    rec = base_record()
    rec["chance"][1]["hands"][0][0] = 55
    with pytest.raises(RecordError):
        replay(rec)


def test_lot_tile_of_the_wrong_type_raises_record_error() -> None:
    rec = base_record()
    rec["chance"][0]["tiles"] = [12, 1]
    with pytest.raises(RecordError):
        replay(rec)


def test_card_cut_seats_of_the_wrong_type_raises_record_error() -> None:
    rec = to_record(protocol_game("card-muggins", "muggins", seed=1, max_steps=5))
    rec["chance"][0]["seats"] = 2
    assert schema_errors(rec) == []  # the schema leaves a card game's chance fields to the game
    with pytest.raises(RecordError):
        replay(rec)


def test_version_true_is_refused() -> None:
    rec = base_record()
    rec["version"] = True
    assert schema_errors(rec)
    with pytest.raises(RecordError):
        replay(rec)


# ------------------------------------------------------------------------------------ version 2 ----
def v2_record() -> dict[str, Any]:
    rec: dict[str, Any] = load(EXAMPLES_DIR / "muggins-hand-written-v2.json")
    return rec


def applied_before_error(rec: dict[str, Any]) -> tuple[int, RecordError]:
    """How many actions were applied when replay stopped, and its error."""
    state = start_from_record(rec)
    try:
        for i, entry in enumerate(rec["actions"]):
            apply_record_action(state, i, entry)
    except RecordError as e:
        return len(state.history), e
    raise AssertionError("the record replayed")


# (id, mutation of the version 2 example, index the error names, message)
MALFORMED_V2: list[tuple[str, Callable[[dict[str, Any]], None], int, str]] = [
    ("id-wrong", _set(("actions", 3, "id"), 452), 3,
     "'0-0 on 5-0' by seat 0: the record gives the id 452, but the move is id 451 here"),
    ("id-of-another-claim", _set(("actions", 0, "id"), 13210), 0,
     "the record gives the id 13210, but the move is id 13211"),
    ("id-too-large", _set(("actions", 1, "id"), 10 ** 9), 1, "the move is id 10120 here"),
    ("id-negative", _set(("actions", 1, "id"), -1), 1, "'id' must be a non-negative integer; got -1"),
    ("id-bool", _set(("actions", 1, "id"), True), 1, "'id' must be a non-negative integer; got True"),
    ("id-text", _set(("actions", 1, "id"), "10120"), 1, "'id' must be a non-negative integer; got '10120'"),
    ("id-float", _set(("actions", 1, "id"), 10120.0), 1, "'id' must be a non-negative integer; got 10120.0"),
    ("kind-wrong", _set(("actions", 2, "kind"), "claim"), 2,
     "'muggins' by seat 0: the record gives the kind 'claim', but the move is a 'muggins'"),
    ("kind-type", _set(("actions", 2, "kind"), 7), 2, "'kind' must be a string; got 7"),
    ("id-of-an-illegal-move", lambda r: r["actions"][4].update(move="5-6 on 5-0", id=17381), 4,
     "'5-6 on 5-0' by seat 1: 5-0 has no free end"),
]


@pytest.mark.parametrize(("mutate", "index", "message"), [m[1:] for m in MALFORMED_V2],
                         ids=[m[0] for m in MALFORMED_V2])
def test_a_wrong_kind_or_id_stops_replay_at_that_action(mutate: Callable[[dict[str, Any]], None], index: int,
                                                        message: str) -> None:
    rec = v2_record()
    mutate(rec)
    with pytest.raises(RecordError) as info:
        replay(rec)
    assert info.value.index == index and str(info.value).startswith(f"action {index}: ")
    assert message in str(info.value)
    applied, _ = applied_before_error(rec)
    assert applied == index  # nothing of the failing action nor after it was applied


def test_the_schema_of_version_2_wants_kind_and_id_the_reader_does_not() -> None:
    rec = v2_record()
    for key in ("kind", "id"):
        r = copy.deepcopy(rec)
        del r["actions"][1][key]
        assert schema_errors(r) and schema_errors(r, 2)
        assert replay(r).scores() == [40, 0]  # a reader checks what is there
    bad = copy.deepcopy(rec)
    bad["actions"][1]["id"] = -1
    assert schema_errors(bad) and schema_errors(bad, 2)
    assert schema_errors(rec, 1) and schema_errors(as_version_1(rec), 2)


def test_version_2_round_trips_in_every_game() -> None:
    """What to_record writes replays, checking each id, to the same record; the ids are those of the
    actions in the positions they were taken in, and each decodes to its action."""
    for game, preset in GAME_PRESETS:
        state = protocol_game(game, preset, seed=3, max_steps=120)
        rec = json.loads(json.dumps(to_record(state)))
        assert rec["version"] == 2 and schema_errors(rec, 2) == []
        assert [a["id"] for a in rec["actions"]] == ids_of(state)
        assert to_record(replay(rec)) == rec


V1_FIXTURES = sorted((ROOT / "tests" / "fixtures" / "records_v1").glob("*.json"))


@pytest.mark.parametrize("path", V1_FIXTURES, ids=[p.stem for p in V1_FIXTURES])
def test_version_1_records_validate_and_are_rewritten_as_version_2(path: Path) -> None:
    rec = load(path)
    rec.pop("events")  # the fixtures keep the events a replay must give, beside the record
    assert schema_errors(rec, 1) == [] and schema_errors(rec) == []
    again = to_record(replay(rec), players=rec["players"], meta=rec["meta"])
    assert schema_errors(again, 2) == [] and schema_errors(again) == []
    assert as_version_1(again) == rec
