"""The shared protocol: explicit chance (record and replay), game records and their errors, undo,
actions and events, and the muggins settlement functions. Exercised through the domino game."""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from muggins.core import Action, Chance, Event, IllegalAction, RecordError, get_game
from muggins.core.claims import Window, resolve_call, settle_claim
from muggins.core.records import load, replay, save, start_from_record, to_record
from muggins.dominoes import DominoState
from tests.helpers import DOMINO_STATES, play_randomly

SPEC = get_game("dominoes")


def _played(seed: int = 1, preset: str = "muggins", players: int = 2, actions: int = 200,
            **options: Any) -> DominoState:
    st = SPEC.new(SPEC.rules(preset, options) if options else SPEC.rules(preset), players, seed=seed)
    assert isinstance(st, DOMINO_STATES)
    play_randomly(st, random.Random(seed), max_actions=actions)
    return st


# ------------------------------------------------------------------------------------------ chance ----


def _coin(rng: random.Random) -> dict[str, Any]:
    return {"value": rng.randrange(1000)}


def test_chance_records_outcomes_with_their_kind() -> None:
    c = Chance(seed=5)
    a = c.next("coin", _coin)
    b = c.next("die", _coin)
    assert c.outcomes == [a, b]
    assert a["kind"] == "coin" and b["kind"] == "die"
    assert c.position == 2
    again = Chance(seed=5)
    assert [again.next("coin", _coin), again.next("die", _coin)] == [a, b]


def test_chance_replays_without_a_generator() -> None:
    recorded = [{"kind": "coin", "value": 17}, {"kind": "coin", "value": 4}]
    c = Chance(outcomes=recorded)
    assert c.rng is None

    def never(rng: random.Random) -> dict[str, Any]:
        raise AssertionError("a replay must not draw")

    assert c.next("coin", never) == recorded[0]
    assert c.next("coin", never) == recorded[1]
    with pytest.raises(RecordError, match="no chance outcome 2"):
        c.next("coin", never)


def test_chance_kind_mismatch_is_a_record_error() -> None:
    c = Chance(outcomes=[{"kind": "lot", "seats": [0, 1], "tiles": ["6-6", "0-0"]}])
    with pytest.raises(RecordError, match="expected 'deal'"):
        c.next("deal", _coin)


def test_chance_continues_from_the_seed_after_the_record() -> None:
    c = Chance(outcomes=[{"kind": "coin", "value": 1}], seed=9)
    assert c.next("coin", _coin)["value"] == 1
    fresh = c.next("coin", _coin)
    assert fresh == {"kind": "coin", **_coin(random.Random(9))}
    assert len(c.outcomes) == 2


def test_fork_copy_and_rewind() -> None:
    c = Chance(seed=3)
    first = c.next("coin", _coin)
    fork = c.fork()
    copy = c.copy()
    assert fork.next("coin", _coin) == c.next("coin", _coin) == copy.next("coin", _coin)
    assert fork.outcomes[0] == first and len(fork.outcomes) == 2
    own = c.fork(random.Random(42))
    assert own.outcomes == c.outcomes[:c.position] and own.next("coin", _coin) == \
        {"kind": "coin", **_coin(random.Random(42))}
    assert len(c.outcomes) == 2                     # forks and copies never touch the original
    back = c.rewound()
    assert back.position == 0 and back.next("coin", _coin) == first


def test_same_seed_same_game_and_chance_replays_the_game() -> None:
    a, b = _played(seed=21), _played(seed=21)
    assert to_record(a) == to_record(b)
    fresh = SPEC.new(a.rules, a.num_players, chance=Chance(outcomes=a.chance.outcomes[:a.chance.position]))
    for seat, action in a.history:
        fresh.apply(seat, action)
    assert [e.to_dict() for e in fresh.log] == [e.to_dict() for e in a.log]


def test_different_seeds_deal_differently() -> None:
    deals = {json.dumps(SPEC.new(SPEC.rules(), 2, seed=s).chance.outcomes) for s in range(5)}
    assert len(deals) == 5


# ----------------------------------------------------------------------------------------- records ----


def test_record_shape_and_schema() -> None:
    st = _played(seed=2, target=100, claim_timing="lenient")
    rec = to_record(st, meta={"event": "test"})
    assert rec["format"] == "muggins-record" and rec["version"] == 2 and rec["game"] == "dominoes"
    assert rec["preset"] == "muggins"
    assert rec["options"] == {"target": 100, "claim_timing": "lenient"}
    assert len(rec["actions"]) == len(st.history)
    assert all(set(a) <= {"seat", "move", "claim", "kind", "id"} for a in rec["actions"])
    assert rec["result"]["scores"] == st.scores()
    schema = json.loads(resources.files("muggins").joinpath("schemas/record.schema.json").read_text())
    jsonschema.validate(rec, schema)


@pytest.mark.parametrize("preset", ["muggins", "five-up", "sniff", "fives-and-threes", "merry-go-round"])
def test_record_round_trip(preset: str, tmp_path: Path) -> None:
    st = _played(seed=7, preset=preset, players=3)
    rec = to_record(st)
    path = tmp_path / "game.json"
    save(rec, path)
    again = replay(load(path))
    assert to_record(again) == rec
    assert [e.to_dict() for e in again.log] == [e.to_dict() for e in st.log]
    assert again.view(0) == st.view(0)


def _with_action(rec: dict[str, Any], i: int, entry: Any) -> dict[str, Any]:
    bad = json.loads(json.dumps(rec))
    bad["actions"][i] = entry
    return bad


@pytest.mark.parametrize("entry", [
    "5-5",                                     # not an object
    {"move": "draw"},                          # no seat
    {"seat": 9, "move": "draw"},               # no such seat
    {"seat": True, "move": "draw"},            # a bool is not a seat
    {"seat": 0, "move": 55},                   # move not a string
    {"seat": 0, "move": "fly away"},           # unreadable
    {"seat": 0, "move": "6-6 on 0-0"},         # not legal here
    {"seat": 0, "move": "draw", "claim": -1},  # negative claim
    {"seat": 0, "move": "draw", "claim": True},
    {"seat": 0, "move": "draw", "claim": "5"},
])
def test_bad_action_names_its_index(entry: Any) -> None:
    st = _played(seed=4, actions=30)
    rec = to_record(st)
    i = 17
    with pytest.raises(RecordError) as err:
        replay(_with_action(rec, i, entry))
    assert err.value.index == i
    assert str(err.value).startswith(f"action {i}:")


def test_wrong_seat_names_its_index() -> None:
    st = _played(seed=4, actions=30)
    rec = to_record(st)
    i = 10
    entry = dict(rec["actions"][i])
    entry["seat"] = 1 - entry["seat"]
    with pytest.raises(RecordError) as err:
        replay(_with_action(rec, i, entry))
    assert err.value.index == i


def test_record_running_out_of_chance_names_the_action() -> None:
    """A record whose chance list stops early fails at the action that needed the next outcome."""
    st = _played(seed=6, actions=400)
    rec = to_record(st)
    starts = [i for i, e in enumerate(st.log) if e.kind == "hand_start"]
    assert len(starts) >= 2
    deals = [i for i, o in enumerate(rec["chance"]) if o["kind"] == "deal"]
    cut = json.loads(json.dumps(rec))
    cut["chance"] = rec["chance"][:deals[1]]
    with pytest.raises(RecordError) as err:
        replay(cut)
    assert err.value.index is not None
    ok = json.loads(json.dumps(rec))
    ok["actions"] = rec["actions"][:err.value.index]
    replay(ok)                                 # every action before it replays


@pytest.mark.parametrize(("change", "match"), [
    (lambda r: r.update(format="chess-pgn"), "not a muggins-record"),
    (lambda r: r.update(version=3), "version"),
    (lambda r: r.pop("game"), "names no game"),
    (lambda r: r.update(game="tiddlywinks"), "unknown game"),
    (lambda r: r.update(players=[]), "players"),
    (lambda r: r.update(chance="lots"), "chance"),
    (lambda r: r.update(chance=[{"tiles": []}]), "chance"),
    (lambda r: r.update(options=[1]), "options"),
    (lambda r: r.update(options={"no_such_option": 1}), "unknown option"),
    (lambda r: r.update(preset="chinese-checkers"), "unknown preset"),
    (lambda r: r.update(actions="all of them"), "actions"),
])
def test_bad_record_header(change: Any, match: str) -> None:
    rec = to_record(_played(seed=8, actions=10))
    change(rec)
    with pytest.raises(RecordError, match=match):
        replay(rec)


def test_not_an_object() -> None:
    with pytest.raises(RecordError):
        start_from_record([1, 2, 3])


def test_tampered_deal_is_refused() -> None:
    rec = to_record(_played(seed=8, actions=10))
    deal = next(o for o in rec["chance"] if o["kind"] == "deal")
    deal["hands"][1][0] = deal["hands"][0][0]          # one tile dealt twice
    with pytest.raises(RecordError, match="exactly once"):
        replay(rec)
    rec = to_record(_played(seed=8, actions=10))
    lot = next(o for o in rec["chance"] if o["kind"] == "lot")
    lot["tiles"] = ["6-6"]
    with pytest.raises(RecordError, match="lot"):
        replay(rec)


def test_load_errors(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError, match="not valid JSON"):
        load(bad)


# ---------------------------------------------------------------------------------- undo and copies ----


def test_undo() -> None:
    st = _played(seed=12, actions=60)
    history = list(st.history)
    snapshots = []
    replayed = SPEC.new(st.rules, st.num_players, chance=st.chance.rewound())
    for seat, action in history:
        snapshots.append(json.dumps(to_record(replayed)))
        replayed.apply(seat, action)
    st.undo(0)
    assert len(st.history) == len(history)
    st.undo()
    assert json.dumps(to_record(st)) == snapshots[-1]
    st.undo(5)
    assert json.dumps(to_record(st)) == snapshots[-6]
    with pytest.raises(IllegalAction):
        st.undo(len(st.history) + 1)
    with pytest.raises(IllegalAction):
        st.undo(-1)
    st.undo(len(st.history))
    assert st.history == [] and json.dumps(to_record(st)) == snapshots[0]


def test_undo_then_the_same_future() -> None:
    """Undo keeps the recorded chance: replaying the same moves deals the same later hands."""
    st = _played(seed=13, actions=150)
    assert st.hand_no >= 2
    moves = list(st.history)
    rec = to_record(st)
    st.undo(len(moves))
    for seat, action in moves:
        st.apply(seat, action)
    assert to_record(st) == rec


# ------------------------------------------------------------------------------- actions and events ----


def test_action_is_an_immutable_hashable_value() -> None:
    a = Action("play", "x", None, "end")
    assert a.with_claim(5) == Action("play", "x", None, "end", 5) and a.claim is None
    assert len({a, Action("play", "x", None, "end")}) == 1
    with pytest.raises(AttributeError):
        a.kind = "draw"  # type: ignore[misc]


def test_event_redacts_secrets_for_other_viewers() -> None:
    e = Event("draw", 1, {"tile": "6-6", "ends": [3]}, ("tile",))
    assert e.to_dict() == {"kind": "draw", "seat": 1, "tile": "6-6", "ends": [3]}
    assert e.to_dict(1)["tile"] == "6-6"
    assert "tile" not in e.to_dict(0) and "tile" not in e.to_dict(None)
    assert e.to_dict(0)["ends"] == [3]
    assert Event("score", 0, {"points": 5}).points == 5 and e.points == 0
    assert e == Event("draw", 1, {"tile": "6-6", "ends": [3]}) and e != Event("draw", 0, {"tile": "6-6"})


def test_events_for_a_seat_hide_other_hands() -> None:
    st = _played(seed=14, actions=40)
    for seat in (0, 1, None):
        for d in st.events_for(seat):
            if d["kind"] in ("dealt", "draw") and d.get("seat") != seat:
                assert "tiles" not in d and "tile" not in d


# ------------------------------------------------------------------------------------ claims core ----


@pytest.mark.parametrize(("true", "claim", "result"), [
    (15, None, (0, 15, False)), (15, 15, (15, 0, False)), (15, 10, (10, 5, False)),
    (15, 20, (0, 15, True)), (0, 5, (0, 0, True)), (0, None, (0, 0, False)),
])
def test_settle_claim(true: int, claim: int | None, result: tuple[int, int, bool]) -> None:
    assert settle_claim(true, claim) == result


def test_resolve_call() -> None:
    w = Window(0, 0, 15, None, "play", False)
    assert resolve_call(w, None, "steal", "none", 10, 20).caller_gain == 15
    assert resolve_call(w, 5, "steal", "none", 10, 20).caller_gain == 5
    assert resolve_call(w, 50, "steal", "none", 10, 20).caller_gain == 15
    assert resolve_call(w, None, "forfeit", "none", 10, 20).caller_gain == 0
    r = resolve_call(w, None, "steal_and_deduct", "none", 10, 20)
    assert (r.caller_gain, r.scorer_loss) == (15, 15)
    empty = Window(0, 0, 0, 10, "play", False)
    assert resolve_call(empty, None, "steal", "deduct", 10, 20).caller_penalty == 10
    assert resolve_call(empty, 7, "steal", "award", 10, 20).scorer_award == 7
    assert resolve_call(empty, None, "steal", "none", 10, 20).outcome == "false_call"
    # a false call under award: what was named, at most the called step's most (the cap)
    assert resolve_call(empty, 100, "steal", "award", 10, 20).scorer_award == 20
    assert resolve_call(empty, None, "steal", "award", 10, 20).scorer_award == 10
    assert resolve_call(empty, None, "steal", "award", 10, 4).scorer_award == 4
    assert resolve_call(empty, 100, "steal", "deduct", 10, 4).caller_penalty == 10  # a deduction is not capped
