"""Each state field is declared once, in its module's table; the generated hints, _FIELDS, clone() and .pxd
files follow the tables, and clone() copies every field by its policy."""

from __future__ import annotations

import ast
import copy
import importlib
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from muggins.core import fields
from muggins.core.chance import Chance
from muggins.core.claims import Window
from muggins.core.fields import (
    COPY,
    LIST,
    LISTS,
    RESET,
    SHARED,
    TARGETS,
    FieldsError,
    StateField,
    read_table,
    render_module,
)
from muggins.core.protocol import GameState
from muggins.core.rules import get_game

FIX = f"run `{fields.COMMAND}` from the project root (with src on the path) to regenerate"
GAMES = {"dominoes": "dominoes/state.py", "card-muggins": "cards/muggins31/state.py",
         "cribbage": "cards/cribbage/game.py"}
BY_PATH = {t.path: t for t in TARGETS}


def _module(target: fields.Target) -> object:
    return importlib.import_module("muggins." + target.path[:-3].replace("/", "."))


def _merged(target: fields.Target) -> list[StateField]:
    own = getattr(_module(target), target.table)
    if target.base is None:
        return list(own)
    base = BY_PATH[target.base]
    narrowed = {f.name: f for f in own}
    base_rows = getattr(_module(base), base.table)
    return [narrowed.get(b.name, b) for b in base_rows] + [f for f in own if f.name not in
                                                          {b.name for b in base_rows}]


# ----------------------------------------------------------------------------- generated and fresh ----
def test_every_generated_region_and_pxd_is_fresh() -> None:
    stale = [str(p.relative_to(fields.ROOT.parent)) for p in fields.stale()]
    assert not stale, f"out of date with their field tables: {', '.join(stale)}; {FIX}"


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.path)
def test_the_table_read_from_source_is_the_one_python_builds(target: fields.Target) -> None:
    mod = _module(target)
    parsed = read_table((fields.ROOT / target.path).read_text(), target.table)
    assert getattr(mod, target.table) == parsed
    assert getattr(mod, target.names) == tuple(f.name for f in _merged(target))


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.path)
def test_every_pxd_declares_exactly_the_fields_beyond_its_base(target: fields.Target) -> None:
    if target.pxd_doc is None:
        return
    tree = (fields.ROOT / target.path).with_suffix(".pxd").read_text()
    declared = [line.split()[-2:] for line in tree.splitlines() if line.strip().startswith("cdef public")]
    base = {f.name for f in _merged(BY_PATH[target.base])} if target.base else set()
    assert declared == [[f.ctype, f.name] for f in _merged(target) if f.name not in base]


@pytest.mark.parametrize("path", GAMES.values())
def test_every_attribute_a_state_sets_is_declared(path: str) -> None:
    """Attributes set on the state (``self``, a new ``s`` or a clone ``c``) anywhere in its class."""
    target = BY_PATH[path]
    tree = ast.parse((fields.ROOT / path).read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == target.cls)
    assigned = {n.attr for n in ast.walk(cls) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
                and isinstance(n.value, ast.Name) and n.value.id in ("self", "s", "c")}
    declared = {f.name for f in _merged(target)}
    assert assigned - declared == set(), f"add a row to FIELDS in {path} for each, then {FIX}"
    assert len(assigned) > 10  # the walk found the state's own fields


# ------------------------------------------------------------------------------- clone by policy ----
def _play(game: str, seed: int) -> list[GameState]:
    """Positions of a game played at random with manual claims, often under-claimed (muggins windows)."""
    spec = get_game(game)
    rules = spec.rules(None, {"claims": "manual"})
    st = spec.state_type.new(rules, 3 if game != "cribbage" else 2, Chance(seed))  # the fields of state_type
    rng = random.Random(seed)
    positions = []
    for _ in range(80):
        if st.is_over():
            break
        seat = rng.choice(sorted(st.waiting_for()))
        action = rng.choice(st.legal_actions(seat))
        if action.claim and rng.random() < 0.5:
            action = action.with_claim(0)
        st.apply(seat, action)
        positions.append(st.clone())
    return positions


def _same(a: object, b: object) -> bool:
    if isinstance(a, Window) and isinstance(b, Window):
        return a.public() == b.public()
    return a == b


@pytest.mark.parametrize("game", GAMES)
def test_clone_copies_every_field_by_its_policy(game: str) -> None:
    target = BY_PATH[GAMES[game]]
    table = _merged(target)
    policies = {f.copy for f in table}
    assert {SHARED, LIST, COPY} <= policies
    windows = 0
    for st in _play(game, 7):
        c = st.clone()
        windows += getattr(st, "_window", None) is not None
        for f in table:
            mine, theirs = getattr(st, f.name), getattr(c, f.name)
            if f.copy == RESET:
                assert theirs is None, f.name
                continue
            if f.name == "chance":
                assert theirs.outcomes == mine.outcomes and theirs is not mine
                continue
            assert _same(theirs, mine), f.name
            if f.copy == SHARED or mine is None:
                assert theirs is mine or type(mine) in (int, bool), f.name
            elif f.same_as is not None and mine is getattr(st, f.same_as):
                assert theirs is getattr(c, f.same_as), f.name
            else:
                assert theirs is not mine, f.name
                if f.copy == LISTS:
                    assert all(x is not y for x, y in zip(theirs, mine, strict=True)), f.name
        assert type(c) is type(st)
    assert windows, "no muggins window opened: the COPY policy went untested"


@pytest.mark.parametrize("game", GAMES)
def test_undo_brings_back_every_field(game: str) -> None:
    target = BY_PATH[GAMES[game]]
    names = [f.name for f in _merged(target) if f.name not in ("chance", "_legal_cache")]
    st = _play(game, 3)[-1]
    if st.is_over():
        pytest.skip("the game ended")
    before = {n: copy.deepcopy(getattr(st, n)) for n in names}
    before_window = before.pop("_window", None)
    seat = min(st.waiting_for())
    st.apply(seat, st.legal_actions(seat)[0])
    st.undo()
    for n, v in before.items():
        assert getattr(st, n) == v, n
    assert _same(getattr(st, "_window", None), before_window)


# ----------------------------------------------------------------------------------- the generator ----
def test_a_region_mangled_by_a_merge_is_rewritten_whole() -> None:
    target = BY_PATH["dominoes/state.py"]
    fresh = (fields.ROOT / target.path).read_text()
    lines = fresh.splitlines()
    begin = next(i for i, line in enumerate(lines) if line.endswith("do not edit (clone)"))
    mangled = lines[: begin + 1] + ["<<<<<<< ours", "        c.turn = self.turn", "=======",
                                    "        c.gone = self.gone", ">>>>>>> theirs"] + lines[begin + 5:]
    assert render_module(target, "\n".join(mangled) + "\n") == fresh


def test_a_new_row_reaches_every_generated_part() -> None:
    target = BY_PATH["dominoes/state.py"]
    text = (fields.ROOT / target.path).read_text()
    row = '    StateField("_hand_log_start", "long", "int"),\n'
    assert row in text
    text = text.replace(row, row + '    StateField("_marks", "dict", "dict[int, str] | None", COPY, "a note"),\n')
    out = render_module(target, text)
    assert "        _marks: dict[int, str] | None  # a note\n" in out
    assert "        c._marks = self._marks.copy() if self._marks is not None else None\n" in out
    assert '"_hand_log_start", "_marks",' in out.replace("\n   ", "")
    assert "cdef public dict _marks" not in out  # the .pxd is a file of its own


@pytest.mark.parametrize(("row", "message"), [
    ('StateField("x", "long", "int", "deep")', "copy policy 'deep'"),
    ('StateField("x", "int", "int")', "C type 'int'"),
    ('StateField("x", "object", "int", RESET)', "must allow None"),
    ('StateField("x", "list", "list[int]", DICT, same_as="y")', "same_as goes with the LIST policy"),
    ('StateField("x", "long", int)', "only literals"),
    ('StateField("x", "long")', "pytype"),
    ('StateField("x", "long", "int"), StateField("x", "long", "int")', "twice"),
])
def test_a_bad_table_names_its_fault(row: str, message: str) -> None:
    with pytest.raises(FieldsError, match=message):
        read_table(f"FIELDS = (\n    {row},\n)\n", "FIELDS", "m.py")


def test_a_game_may_narrow_a_base_field_only_in_its_hint() -> None:
    target = BY_PATH["cards/cribbage/game.py"]
    text = (fields.ROOT / target.path).read_text()
    row = '    StateField("rules", "object", "CribbageRules"),\n'
    assert row in text
    with pytest.raises(FieldsError, match="base field"):
        render_module(target, text.replace(row, '    StateField("rules", "object", "CribbageRules", COPY),\n'))


def test_a_missing_or_unclosed_region_is_refused() -> None:
    target = BY_PATH["cards/muggins31/state.py"]
    text = (fields.ROOT / target.path).read_text()
    with pytest.raises(FieldsError, match="a region begins inside the region clone"):
        render_module(target, text.replace(fields.end_marker("clone"), "# nothing"))
    with pytest.raises(FieldsError, match="the region names has no end marker"):
        render_module(target, text.replace(fields.end_marker("names"), "# nothing"))
    with pytest.raises(FieldsError, match="no generated region names"):
        render_module(target, text.replace(fields.begin_marker("FIELDS", "names"), "")
                      .replace(fields.end_marker("names"), ""))


def test_the_command_checks_and_regenerates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "muggins"
    for t in TARGETS:
        for p in [fields.ROOT / t.path] + ([(fields.ROOT / t.path).with_suffix(".pxd")] if t.pxd_doc else []):
            dest = root / p.relative_to(fields.ROOT)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(p, dest)
    monkeypatch.setattr(fields, "ROOT", root)
    pxd = root / "dominoes" / "state.pxd"
    src = root / "core" / "protocol.py"
    src.write_text(src.read_text().replace('StateField("_side", "list", "list[int]", SHARED',
                                           'StateField("_side", "tuple", "tuple[int, ...]", SHARED'))
    assert fields.main(["--check"]) == 1
    out = capsys.readouterr().out
    assert "muggins/core/protocol.py: out of date" in out and fields.COMMAND in out
    assert "dominoes/state.pxd" not in out and "cards/cribbage/game.py" not in out
    untouched = pxd.stat().st_mtime_ns
    assert fields.main([]) == 0
    assert "cdef public tuple _side" in (root / "core" / "protocol.pxd").read_text()
    assert "    _side: tuple[int, ...]  # the side of each seat" in src.read_text()
    assert pxd.stat().st_mtime_ns == untouched  # an unchanged file keeps its time stamp (see _accel)
    assert fields.main(["--check"]) == 0


def test_python_dash_m_runs_the_check() -> None:
    out = subprocess.run([sys.executable, "-W", "error", "-m", "muggins.core.fields", "--check"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
