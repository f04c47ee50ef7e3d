"""Count to 21 (``tests.toy``, registered only while these tests run) through every engine-wide consumer that
the interface tests do not cover: bots of every level, a tournament, records written and replayed, integer
actions at every position, the event vocabulary and the generated JSON Schemas. None of them names the
game: it reaches them through the registry and the protocol alone."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]
import pytest

from muggins.bots import bot_names, make_bot
from muggins.core.errors import ClaimError, IllegalAction, NotYourTurn, RecordError, RulesError, UnknownAction
from muggins.core.events import EventKind, check_event
from muggins.core.protocol import Action, GameState
from muggins.core.records import load, replay, save, to_record
from muggins.core.rules import GameSpec, all_games, with_options
from muggins.core.schemas import SCHEMA_DIR, event_schema, generated, view_schema, view_type
from muggins.sim.driver import play_game
from muggins.sim.tournament import Config, run_tournament
from tests.toy import NAME, ToyState, toy_registered
from tests.toy.views import ToyView

# (preset, players): both claim modes, both player counts
SETUPS = [("toy", 2), ("toy", 3), ("toy-auto", 2), ("toy-auto", 3)]
TOP = 4  # the most one play scores: 20 / 5
# every event kind count to 21 logs, and none other: the closed vocabulary has a shape for each
KINDS = {EventKind.ROUND_START, EventKind.PLAY, EventKind.CLAIM, EventKind.OVER_CLAIM, EventKind.SCORE,
         EventKind.MISSED, EventKind.MUGGINS, EventKind.ROUND_END, EventKind.GAME_END}


@pytest.fixture(scope="module", autouse=True)
def toy() -> Iterator[GameSpec]:
    with toy_registered() as spec:
        yield spec
    assert NAME not in all_games()


def careless_move(state: GameState, rng: random.Random) -> tuple[int, Action]:
    """A seat that may act and one of its moves, as a careless player makes it: a true, low, high or no
    announcement, a muggins call now and then (named or not), a late claim of any amount."""
    seat = rng.choice(sorted(state.to_act()))
    action = rng.choice(state.legal_actions(seat))
    true = state.claim_for(seat, action)
    if action.kind == "claim":
        return seat, action.with_claim(rng.randint(0, TOP))
    if action.kind == "muggins":
        return seat, action.with_claim(rng.choice([None, rng.randint(0, TOP)]))
    if state.rules.claims == "manual" and true:
        return seat, action.with_claim(rng.choice([true, true, None, rng.randint(0, TOP)]))
    return seat, action


def game(spec: GameSpec, preset: str, players: int, seed: int) -> GameState:
    """A whole game played by careless players."""
    state = spec.new(spec.rules(preset), players, seed=seed)
    rng = random.Random(seed)
    for _ in range(2000):
        if state.is_over():
            return state
        state.apply(*careless_move(state, rng))
    raise AssertionError("no end after 2000 actions")


def check_outcome(state: GameState) -> None:
    """The game ended at the target and the scores are the sums of the score events."""
    assert state.is_over() and state.winners()
    sums = [0] * state.num_sides
    for e in state.log:
        if e.kind == EventKind.SCORE:
            sums[e.data["side"]] += e.data["points"]
    assert sums == state.side_scores()
    assert all(state.side_scores()[w] >= state.rules.target for w in state.winners())


# --------------------------------------------------------------------------------------- bots ----
@pytest.mark.parametrize("bot", bot_names())
def test_every_bot_plays_a_whole_game(toy: GameSpec, bot: str) -> None:
    name = bot.replace("search", "search:iterations=40") if bot in ("search", "omniscient") else bot
    if bot == "learned":  # its weights are for the games it was trained on: it refuses the others by name
        with pytest.raises(RulesError, match=f"bot 'learned' has no weights for {NAME} "):
            play_game(toy, toy.rules("toy"), 2, [make_bot(name, 1), make_bot("greedy", 2)], seed=4)
        return
    seen: list[GameState] = []
    result = play_game(toy, toy.rules("toy"), 2, [make_bot(name, 1), make_bot("greedy", 2)], seed=4,
                       on_state=seen.append)
    assert result.finished and result.game == NAME and result.winners
    assert max(result.side_scores) >= 10 and result.actions >= 5
    assert seen and all(isinstance(s, ToyState) for s in seen)
    check_outcome(seen[-1])


def test_a_tournament(toy: GameSpec) -> None:
    cfg = Config(game=NAME, preset="toy", players=3, bots=("random", "greedy", "casual"), games=2, seed=7)
    summary, results = run_tournament(cfg)
    assert len(results) == 6 and all(r.finished and r.game == NAME for r in results)
    assert summary["game"] == NAME and {b["bot"] for b in summary["bots"]} == set(cfg.bots)
    assert sum(p["games"] for p in summary["pairs"]) == 6
    assert all(b["games"] == 4 for b in summary["bots"])


# ------------------------------------------------------------------------------------ records ----
@pytest.mark.parametrize(("preset", "players"), SETUPS)
def test_a_record_is_written_and_replayed(toy: GameSpec, tmp_path: Path, preset: str, players: int) -> None:
    state = game(toy, preset, players, seed=11)
    rec = to_record(state)
    assert rec["version"] == 2 and rec["game"] == NAME and rec["result"]["over"]
    schema = json.loads((SCHEMA_DIR / "record.v2.schema.json").read_text())
    jsonschema.Draft202012Validator(schema).validate(rec)
    path = tmp_path / "game.json"
    save(rec, path)
    again = replay(load(path))
    assert again.history == state.history and again.scores() == state.scores()
    assert again.events_for("all") == state.events_for("all")
    assert [a["id"] for a in rec["actions"]] == [state.action_id(a) for _, a in state.history]
    bad = json.loads(json.dumps(rec))
    bad["actions"][0]["move"] = "add 4"
    with pytest.raises(RecordError, match="cannot read"):
        replay(bad)


def test_undo_and_clone_give_the_same_game(toy: GameSpec) -> None:
    state = game(toy, "toy", 2, seed=12)
    n = len(state.history)
    back = state.clone()
    back.undo(n // 2)
    assert len(back.history) == n - n // 2 and not back.is_over()
    for seat, action in state.history[n - n // 2:]:
        back.apply(seat, action)
    assert back.events_for("all") == state.events_for("all") and back.scores() == state.scores()


# ----------------------------------------------------------------------------- integer actions ----
def every_variant(state: GameState, seat: int, action: Action) -> list[Action]:
    """``action`` with every claim it may carry (a late claim always names one)."""
    if action.kind == "claim":
        return [action.with_claim(c) for c in range(TOP + 1)]
    if action.kind == "muggins" or (state.rules.claims == "manual" and action.kind == "play"):
        return [action, *(action.with_claim(c) for c in range(TOP + 1))]
    return [action]


@pytest.mark.parametrize(("preset", "players"), SETUPS)
def test_action_ids_round_trip_at_every_position(toy: GameSpec, preset: str, players: int) -> None:
    manual = preset == "toy"
    size = 3 * (TOP + 2) + (TOP + 2) + (TOP + 1) if manual else 3  # docs/actions.md: add 1-3, muggins, claim
    for seed in (1, 2, 3):
        state = toy.new(toy.rules(preset), players, seed=seed)
        rng = random.Random(seed)
        positions = 0
        while not state.is_over():
            assert state.num_distinct_actions() == size
            for seat in range(players):
                ids = set()
                for action in state.legal_actions(seat):
                    for a in every_variant(state, seat, action):
                        i = state.action_id(a)
                        assert 0 <= i < size and state.action_from_id(seat, i) == a
                        ids.add(i)
                mask = state.legal_action_mask(seat)
                assert {i for i in range(size) if mask[i]} == ids
                for i in sorted(set(range(size)) - ids)[:3]:  # an id that is no legal move changes nothing
                    before = state.events_for("all")
                    with pytest.raises(IllegalAction):
                        state.action_from_id(seat, i)
                    assert state.events_for("all") == before
            state.apply(*careless_move(state, rng))
            positions += 1
        assert positions >= 10
    with pytest.raises(UnknownAction):
        state.action_from_id(0, size)
    with pytest.raises(UnknownAction):
        state.action_id(Action("play", 4))


def test_bad_moves_are_refused_and_change_nothing(toy: GameSpec) -> None:
    state = toy.new(toy.rules("toy"), 2, seed=3)
    other = 1 - state.turn
    before = state.events_for("all")
    for seat, action, error in [(other, Action("play", 1), NotYourTurn),
                                (state.turn, Action("play", 4), IllegalAction),
                                (state.turn, Action("go"), IllegalAction),
                                (state.turn, Action("play", 1).with_claim(TOP + 1), ClaimError),
                                (other, Action("muggins"), ClaimError),
                                (state.turn, Action("claim", claim=1), ClaimError)]:
        with pytest.raises(error):
            state.apply(seat, action)
        assert state.events_for("all") == before and state.history == []
    with pytest.raises(UnknownAction):
        state.parse_action("add 5")
    auto = toy.new(toy.rules("toy-auto"), 2, seed=3)
    with pytest.raises(ClaimError, match="automatically"):
        auto.apply(auto.turn, Action("play", 1).with_claim(0))


# ------------------------------------------------------------------------- events, views, schemas ----
@pytest.mark.parametrize(("preset", "players"), SETUPS)
def test_events_and_views_fit_their_declarations(toy: GameSpec, preset: str, players: int) -> None:
    assert view_type(ToyState) is ToyView
    schemas = generated()  # the registry's games, the toy among them, generated in memory
    views = jsonschema.Draft202012Validator(schemas[f"view.{NAME}.schema.json"])
    assert schemas[f"view.{NAME}.schema.json"] == view_schema(ToyView, NAME)
    events = jsonschema.Draft202012Validator(event_schema())
    kinds: set[str] = set()
    for seed in range(4):
        state = toy.new(toy.rules(preset), players, seed=seed)
        rng = random.Random(seed)
        while True:
            for viewer in ("all", None, *range(players)):
                for e in state.log:
                    check_event(e, viewer)
                if viewer != "all":
                    view = state.view(viewer)
                    assert isinstance(view, ToyView) and json.loads(json.dumps(view.to_json())) == view
                    views.validate(view.to_json())
            if state.is_over():
                break
            state.apply(*careless_move(state, rng))
        for e in state.events_for(0):
            events.validate(e)
        kinds.update(e.kind for e in state.log)
        check_outcome(state)
    assert kinds <= KINDS
    assert {EventKind.PLAY, EventKind.SCORE, EventKind.ROUND_END, EventKind.GAME_END} <= kinds
    if preset == "toy":
        assert {EventKind.CLAIM, EventKind.MUGGINS, EventKind.MISSED} <= kinds


def test_a_sampled_world_is_the_seat_own_and_playable(toy: GameSpec) -> None:
    state = toy.new(toy.rules("toy"), 3, seed=8)
    rng = random.Random(8)
    for _ in range(25):
        state.apply(*careless_move(state, rng))
    for seat in range(3):
        sample = state.sample_hidden(seat, random.Random(seat))
        assert sample.view(seat) == state.view(seat) and sample.events_for(seat) == state.events_for(seat)
        assert sample.chance.position == state.chance.position and sample.chance.rng is not state.chance.rng
        sample.apply(*careless_move(sample, random.Random(seat)))
        assert len(sample.history) == len(state.history) + 1 and len(state.history) == 25


def test_rules_options_reach_the_game(toy: GameSpec) -> None:
    rules = with_options(toy.rules("toy"), {"target": 3})
    state = toy.new(rules, 2, seed=5)
    rng = random.Random(5)
    while not state.is_over():
        state.apply(*careless_move(state, rng))
    check_outcome(state)
    assert max(state.side_scores()) < 3 + TOP


def test_muggins_games_loads_a_game_by_module_and_refuses_one_that_is_not_there() -> None:
    """MUGGINS_GAMES names more game modules for the command line: the toy game is listed by ``rules``; a
    module that cannot be imported is a one-line error (exit 2), not a traceback."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    path = os.pathsep.join([str(root / "src"), str(root)])
    run = [sys.executable, "-m", "muggins", "rules"]
    ok = subprocess.run(run, capture_output=True, text=True, timeout=60,
                        env={**os.environ, "MUGGINS_GAMES": "tests.toy", "PYTHONPATH": path})
    assert ok.returncode == 0 and "count-to-21" in ok.stdout
    bad = subprocess.run(run, capture_output=True, text=True, timeout=60,
                         env={**os.environ, "MUGGINS_GAMES": "no.such.module", "PYTHONPATH": path})
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.strip() == "Error: MUGGINS_GAMES names 'no.such.module', which cannot be imported: " \
                                 "No module named 'no'"
