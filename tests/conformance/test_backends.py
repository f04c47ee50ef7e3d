"""``spec.new`` gives the backend in force: a game's native state where ``MUGGINS_ENGINE`` allows it and the
native engine plays the case's rules (``GameSpec.engine`` says which), else the pure state."""

from __future__ import annotations

import pytest

from muggins.core.rules import load_object
from tests.conformance.cases import Case, params


@pytest.mark.parametrize("case", params())
def test_spec_new_gives_the_backend_in_force(case: Case, both_engines: str) -> None:
    state = case.new(seed=3)
    engine, why = case.spec.engine(case.rules, case.players)
    if both_engines == "pure" or case.spec.native is None:
        assert engine == "pure" and why and type(state) is case.spec.state_type
        return
    native_type = load_object(case.spec.native)
    if engine == "native":
        assert why is None and type(state) is native_type
    else:
        assert why and type(state) is case.spec.state_type
        assert native_type.unsupported(case.rules, case.players) == why
