"""The typed protocol: closed sets of action and event kinds, typed views, and their JSON Schemas.

Random whole games of every preset, in both claim modes and for every number of players, must produce only
declared event kinds whose data fits the declaration and the checked-in schema, as every viewer sees it;
their views must fit their game's schema; and together with a few scripted positions they must reach every
declared kind (a kind nothing can produce does not belong to the vocabulary).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from muggins.cards.cribbage.game import stacked
from muggins.core import GameState, all_games, get_game
from muggins.core.errors import MugginsError
from muggins.core.events import EVENTS, ActionKind, EventError, EventKind, check_event
from muggins.core.protocol import Event
from muggins.core.schemas import event_table, generated, view_type, write_schemas
from muggins.core.views import View

MAX_STEPS = 1500
VIEW_EVERY = 15  # views are checked against the schema every this many steps, and at the end


def schema(name: str) -> dict[str, Any]:
    return json.loads((resources.files("muggins") / "schemas" / name).read_text(encoding="utf-8"))


@cache
def validator(name: str) -> jsonschema.protocols.Validator:
    s = schema(name)
    cls = jsonschema.validators.validator_for(s)
    cls.check_schema(s)
    return cls(s)


@cache
def event_validator(kind: str) -> jsonschema.protocols.Validator:
    """The event schema as it applies to one kind: its common part and the one ``if``/``then`` branch
    the kind selects (every other branch holds vacuously), so validating is not 31 times slower."""
    s = schema("events.schema.json")
    (branch,) = [b["then"] for b in s["allOf"] if b["if"]["properties"]["kind"]["const"] == kind]
    common = {k: v for k, v in s.items() if k not in ("allOf", "$schema", "title", "description")}
    return validator("events.schema.json").evolve(schema={"$schema": s["$schema"], "allOf": [common, branch]})


def random_move(st: GameState, rng: random.Random) -> tuple[int, Any]:
    """A legal move of a seat that may act, with a claim that is sometimes wrong, sometimes missing, and
    muggins calls and late claims naming random amounts: every path of the muggins rule gets walked."""
    waiting = sorted(st.waiting_for()) or sorted(st.to_act())
    seat = rng.choice(sorted(st.to_act()) if rng.random() < 0.3 else waiting)
    actions = st.legal_actions(seat) or st.legal_actions(seat := rng.choice(waiting))
    a = rng.choice(actions)
    if getattr(st.rules, "claims", "auto") == "manual":
        if a.kind in (ActionKind.MUGGINS, ActionKind.CLAIM):
            a = a.with_claim(rng.choice([None, 0, 1, 2, 5, 10]))
        elif (true := st.claim_for(seat, a)) > 0:
            a = a.with_claim(rng.choice([true, true, true, None, 0, true + 1, true - 1]))
    return seat, a


@dataclasses.dataclass
class Played:
    kinds: set[str] = dataclasses.field(default_factory=set)
    legal_kinds: set[str] = dataclasses.field(default_factory=set)
    games: int = 0
    views: int = 0
    events: int = 0
    samples: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)  # one event of each kind


def play_and_check(st: GameState, seed: int, played: Played) -> None:
    """Play ``st`` to its end at random, checking every view now and then and every event at the end."""
    rng = random.Random(seed)
    game = type(st).game
    views = validator(f"view.{game}.schema.json")
    viewers: list[int | None] = [None, *range(st.num_players)]
    for step in range(MAX_STEPS):
        if st.is_over():
            break
        for s in st.to_act():
            played.legal_kinds.update(a.kind for a in st.legal_actions(s))
        if step % VIEW_EVERY == 0:
            check_views(st, viewers, views, played)
        seat, a = random_move(st, rng)
        with contextlib.suppress(MugginsError):  # a random claim or call may be refused
            st.apply(seat, a)
    check_views(st, viewers, views, played)
    for viewer in ["all", *viewers]:
        for e in st.log:
            check_event(e, viewer)
    distinct = {json.dumps(d, sort_keys=True): d for seat in viewers for d in st.events_for(seat)}
    for d in distinct.values():  # a public event reads the same for every viewer: validated once
        event_validator(d["kind"]).validate(d)
        played.samples.setdefault(d["kind"], d)
    played.kinds.update(e.kind for e in st.log)
    played.events += len(st.log)
    played.games += 1


def check_views(st: GameState, viewers: list[int | None], views: Any, played: Played) -> None:
    for seat in viewers:
        v = st.view(seat)
        assert isinstance(v, view_type(type(st)))
        data = v.to_json()
        views.validate(data)
        assert v == data and dict(v) == data and json.loads(json.dumps(data)) == v
        assert ("my_hand" in v) == (seat is not None)
        played.views += 1


def sweep(all_counts: bool, seeds: int) -> Played:
    """Every preset of every game in both claim modes: for every number of players it allows
    (``all_counts``), or for one of them in turn."""
    played = Played()
    for spec in all_games().values():
        for i, preset in enumerate(spec.presets):
            for j, claims in enumerate(("auto", "manual")):
                rules = spec.rules(preset, {"claims": claims})
                counts = spec.players_for(rules)
                for players in counts if all_counts else [counts[(i + j) % len(counts)]]:
                    for seed in range(seeds):
                        play_and_check(spec.new(rules, players, seed=seed), seed, played)
    return played


@cache
def random_games() -> Played:
    return sweep(all_counts=False, seeds=1)


# --- schemas -----------------------------------------------------------------------------------------
def test_checked_in_schemas_equal_the_generated_ones(tmp_path: Any) -> None:
    """Regenerate with ``python -m muggins.core.schemas`` after changing a declaration."""
    for name, expected in generated().items():
        assert schema(name) == expected, f"schemas/{name} is out of date: run python -m muggins.core.schemas"
    written = write_schemas(tmp_path)
    assert sorted(p.name for p in written) == sorted(generated())
    for p in written:
        assert p.read_text(encoding="utf-8") == (resources.files("muggins") / "schemas" / p.name).read_text(
            encoding="utf-8")


def test_the_protocol_doc_holds_the_current_event_table() -> None:
    doc = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
    assert event_table() in doc.read_text(encoding="utf-8"), "docs/protocol.md: paste schemas.event_table()"


def test_every_game_has_a_view_schema() -> None:
    for name, spec in all_games().items():
        assert issubclass(view_type(spec.state_type), View)
        validator(f"view.{name}.schema.json")


# --- random whole games --------------------------------------------------------------------------------
def test_random_games_of_every_preset_fit_the_declarations_and_the_schemas() -> None:
    played = random_games()
    assert played.games == 2 * sum(len(s.presets) for s in all_games().values())
    assert played.views > played.games and played.events > 10 * played.games
    full = validator("events.schema.json")  # the whole schema too, not only its branch of each kind
    for d in played.samples.values():
        full.validate(d)
        with pytest.raises(jsonschema.ValidationError):
            full.validate({**d, "unknown_field": 1})


@pytest.mark.slow
def test_random_games_for_every_player_count_fit_the_declarations_and_the_schemas() -> None:
    played = sweep(all_counts=True, seeds=2)
    assert played.kinds | {e.kind for st in scripted() for e in st.log} == set(EventKind)


def test_action_kind_covers_every_legal_action_kind() -> None:
    """The random games and the scripted positions (a knock; a late claim of his heels) between them
    offer every declared action kind, and nothing else."""
    legal = random_games().legal_kinds | {a.kind for st in scripted() for s in st.to_act()
                                          for a in st.legal_actions(s)}
    assert legal <= set(ActionKind), f"undeclared action kinds: {legal - set(ActionKind)}"
    assert legal == set(ActionKind), f"declared but never legal: {set(ActionKind) - legal}"


# --- kinds that random play of the presets does not reach ----------------------------------------------
def first_game_with(kind: EventKind, game: str, preset: str, players: int, **options: Any) -> GameState:
    """The first seeded random game with ``options`` whose log holds a ``kind`` event."""
    spec = get_game(game)
    rules = spec.rules(preset, options)
    for seed in range(60):
        st = spec.new(rules, players, seed=seed)
        rng = random.Random(seed)
        for _ in range(MAX_STEPS):
            if st.is_over() or any(e.kind == kind for e in st.log):
                break
            with contextlib.suppress(MugginsError):
                st.apply(*random_move(st, rng))
        if any(e.kind == kind for e in st.log):
            return st
    raise AssertionError(f"no {kind} event in 60 games of {preset} with {options}")


@cache
def knock_game() -> GameState:
    """A partnership game with the knocking option, stopped at a position where a seat may knock."""
    spec = get_game("dominoes")
    rules = spec.rules("muggins", {"knocking": True, "partnerships": True})
    for seed in range(60):
        st = spec.new(rules, 4, seed=seed)
        rng = random.Random(seed)
        for _ in range(MAX_STEPS):
            if st.is_over():
                break
            if any(a.kind == ActionKind.KNOCK for a in st.legal_actions(st.turn)):
                return st
            with contextlib.suppress(MugginsError):
                st.apply(*random_move(st, rng))
    raise AssertionError("no position to knock in 60 games")


@cache
def scripted() -> list[GameState]:
    knocked = knock_game().clone()
    knocked.apply(knocked.turn, next(a for a in knocked.legal_actions(knocked.turn) if a.kind == "knock"))
    rules = get_game("cribbage").rules("cribbage-muggins", {"mug_his_heels": True})
    heels = stacked(rules, [["AS", "2S", "3S", "4S", "5S", "6S"], ["AH", "2H", "3H", "4H", "5H", "6H"]], "JD")
    for seat in (0, 1):
        heels.apply(seat, heels.legal_actions(seat)[0])
    return [
        knocked, heels, knock_game(),
        first_game_with(EventKind.TIE_BREAK, "dominoes", "all-fives", 2, win_check="end_of_hand", target=20,
                        claims="auto"),
        first_game_with(EventKind.TIE_BREAK, "card-muggins", "muggins", 2, win_check="end_of_round", claims="auto"),
    ]


def test_scripted_positions_reach_the_kinds_random_play_may_miss() -> None:
    states = scripted()
    assert states[0].log[-1].kind == EventKind.KNOCK
    assert EventKind.HIS_HEELS in {e.kind for e in states[1].log}
    for st in states:
        for e in st.log:
            for viewer in ("all", None, *range(st.num_players)):
                check_event(e, viewer)
                if viewer != "all":
                    event_validator(e.kind).validate(e.to_dict(viewer))


def test_the_kinds_in_play_are_exactly_the_declared_set() -> None:
    seen = random_games().kinds | {e.kind for st in scripted() for e in st.log}
    assert seen <= set(EventKind), f"undeclared event kinds: {seen - set(EventKind)}"
    assert seen == set(EventKind), f"declared but never produced: {set(EventKind) - seen}"
    assert set(EVENTS) == set(EventKind)


# --- check_event refuses what does not fit ----------------------------------------------------------
@pytest.mark.parametrize(("event", "why"), [
    (Event("shuffle", None, {}), "not an event kind"),
    (Event("score", 0, {"side": 0, "points": 5}), "does not fit"),                      # a field missing
    (Event("score", 0, {"side": 0, "points": 5, "reason": "play", "x": 1}), "does not fit"),  # one too many
    (Event("score", 0, {"side": 0, "points": True, "reason": "play"}), "does not fit"),  # a bool is no int
    (Event("play", 0, {"card": "5H", "total": "12"}), "does not fit"),
    (Event("lot", 1, {"seats": [0, 1], "tiles": ["6-6", "5-5"]}), "names the seat"),     # a lot has no seat
    (Event("claim", None, {"points": 3}), "names the seat"),
    (Event("dealt", 0, {"cards": ["5H"], "count": 1}), "hides"),                         # secret not marked
    (Event("play", 0, {"card": "5H", "total": 5}, ("card",)), "hides"),                  # a public card hidden
    (Event("muggins", 1, {"on": 0, "outcome": "stolen", "points": 2, "named": None, "missed": 2}), "does not fit"),
])
def test_check_event_refuses_an_event_that_does_not_fit(event: Event, why: str) -> None:
    with pytest.raises(EventError, match=why):
        check_event(event)


def test_check_event_accepts_a_redacted_secret_but_requires_it_unredacted() -> None:
    e = Event("dealt", 1, {"tiles": ["6-6", "6-5"], "count": 2}, ("tiles",))
    check_event(e)
    check_event(e, 0)  # seat 0 sees the count only
    assert e.to_dict(0) == {"kind": "dealt", "seat": 1, "count": 2}
    with pytest.raises(EventError):
        check_event(Event("dealt", 1, {"count": 2}, ()))


def test_kinds_compare_equal_to_the_strings_games_write() -> None:
    assert EventKind.SCORE == "score" and str(EventKind.OVER_CLAIM) == "over_claim"
    assert {"score": 1}[EventKind.SCORE] == 1 and EventKind("score") is EventKind.SCORE
    assert Event(EventKind.SCORE, 0, {"side": 0, "points": 1, "reason": "play"}).points == 1
    assert json.dumps({"kind": EventKind.PLAY}) == '{"kind": "play"}'
    assert all(k.__doc__ for k in EventKind) and all(k.__doc__ for k in ActionKind)


# --- the view objects --------------------------------------------------------------------------------
def test_a_view_is_a_frozen_read_only_mapping_over_its_json_form() -> None:
    st = get_game("dominoes").new(get_game("dominoes").rules("all-fives", {"claims": "auto"}), 2, seed=3)
    mine, spectator = st.view(0), st.view(None)
    data = mine.to_json()
    assert mine["my_hand"] == data["my_hand"] and mine.get("nothing", 7) == 7 and len(mine) == len(data)
    assert list(mine) == list(data) and dict(mine) == data and mine == data and data == mine
    assert "count" in mine and "count" in data  # automatic claims show the count
    assert "my_hand" not in spectator and "legal" not in spectator.to_json()
    with pytest.raises(KeyError):
        spectator["my_hand"]
    assert spectator != mine and spectator == st.view(None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        mine.hand = 9  # type: ignore[misc]
    with pytest.raises(TypeError):
        hash(mine)
    manual = get_game("dominoes").new(get_game("dominoes").rules("muggins"), 2, seed=3).view(0)
    assert "count" not in manual and manual.count is None  # with the muggins rule the count is the player's job
