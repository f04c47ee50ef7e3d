"""The switch between the native and the pure engine behind ``spec.new`` (``muggins.core.engine``): a game
names its native-backed state class in ``GameSpec.native``; ``spec.new`` gives it where it plays the rules,
the pure state elsewhere and always under ``MUGGINS_ENGINE=pure``."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from muggins.core.chance import Chance
from muggins.core.engine import ENGINE_ENV, engine_choice, native_state_type
from tests.toy import SPEC, ToyState


class ScopedToy(ToyState):
    """A toy state class with a scope: it plays only 2 players."""

    @staticmethod
    def unsupported(rules: Any, num_players: int) -> str | None:
        return None if num_players == 2 else f"{num_players} players"


SCOPED = dataclasses.replace(SPEC, native=f"{__name__}:ScopedToy")


def test_native_class_where_in_scope_pure_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENGINE_ENV, raising=False)
    rules = SCOPED.rules()
    assert type(SCOPED.new(rules, 2, seed=1)) is ScopedToy
    assert SCOPED.engine(rules, 2) == ("native", None)
    assert type(SCOPED.new(rules, 3, seed=1)) is ToyState
    assert SCOPED.engine(rules, 3) == ("pure", "3 players")
    assert type(SPEC.new(rules, 2, seed=1)) is ToyState
    assert SPEC.engine(rules, 2) == ("pure", "the game has no native engine")


COUNTED: list[int] = []


class CountingToy(ScopedToy):
    """A toy state class that counts the times its scope is asked: it plays the default target only."""

    @staticmethod
    def unsupported(rules: Any, num_players: int) -> str | None:
        COUNTED.append(num_players)
        return None if rules.target == SPEC.rules().target else "another target"


def test_the_answer_kept_for_one_rules_object_is_not_given_for_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scope's answer is kept per rules object: other rules (new objects, perhaps at the address of one
    freed) are asked again, and the switch is read on every call."""
    monkeypatch.delenv(ENGINE_ENV, raising=False)
    COUNTED.clear()
    path = f"{__name__}:CountingToy"
    rules = SPEC.rules()
    assert native_state_type(path, rules, 2) == (CountingToy, None)
    assert native_state_type(path, rules, 2) == (CountingToy, None) and COUNTED == [2]
    for _ in range(3):
        other = dataclasses.replace(rules, target=rules.target + 1)
        assert native_state_type(path, other, 2) == (None, "another target")
        del other
    assert native_state_type(path, rules, 3) == (CountingToy, None)
    assert COUNTED == [2, 2, 2, 2, 3]
    monkeypatch.setenv(ENGINE_ENV, "pure")
    assert native_state_type(path, rules, 2) == (None, f"{ENGINE_ENV}=pure")


def test_pure_forces_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENGINE_ENV, "pure")
    rules = SCOPED.rules()
    assert type(SCOPED.new(rules, 2, chance=Chance(3))) is ToyState
    assert SCOPED.engine(rules, 2) == ("pure", f"{ENGINE_ENV}=pure")
    assert native_state_type(SCOPED.native, rules, 2) == (None, f"{ENGINE_ENV}=pure")


def test_a_bad_choice_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENGINE_ENV, "fast")
    with pytest.raises(ValueError, match="choose one of native, pure"):
        engine_choice()
    monkeypatch.setenv(ENGINE_ENV, " Native ")
    assert engine_choice() == "native"


@pytest.mark.parametrize("choice", ["native", "pure"])
def test_version_and_bench_name_the_engine_of_each_game(monkeypatch: pytest.MonkeyPatch, choice: str) -> None:
    import json

    from typer.testing import CliRunner

    from muggins.cli.main import app
    from muggins.core.rules import all_games

    monkeypatch.setenv(ENGINE_ENV, choice)
    res = CliRunner().invoke(app, ["--version"])
    assert res.exit_code == 0, res.output
    for spec in all_games().values():
        engine, why = spec.engine()
        assert f"{spec.name} {engine}" + (f" ({why})" if why else "") in res.output
        if choice == "pure":
            assert engine == "pure"
    res = CliRunner().invoke(app, ["bench", "--seconds", "0.05", "--runs", "1", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    spec = all_games()[out["game"]]
    assert (out["state_engine"], out["state_engine_why"]) == spec.engine()


def test_the_switch_is_read_as_set_however_it_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """Set, changed and removed through ``os.environ`` (the store it reads is the mapping's own), or with
    ``os.environ`` replaced by another mapping: every read sees the value of that moment."""
    import os

    monkeypatch.delenv(ENGINE_ENV, raising=False)
    assert engine_choice() == "native"
    os.environ[ENGINE_ENV] = " Pure "
    try:
        assert engine_choice() == "pure"
        os.environ[ENGINE_ENV] = "native"
        assert engine_choice() == "native"
        os.environ[ENGINE_ENV] = "fast"
        with pytest.raises(ValueError, match="choose one of native, pure"):
            engine_choice()
    finally:
        del os.environ[ENGINE_ENV]
    assert engine_choice() == "native"
    monkeypatch.setattr(os, "environ", {ENGINE_ENV: "pure"})
    assert engine_choice() == "pure"
