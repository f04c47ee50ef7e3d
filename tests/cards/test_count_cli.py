"""``muggins cribbage count``: one hand with its explanation, or one hand per stdin line in bulk."""

from __future__ import annotations

import io
import json
import random

import typer
from typer.testing import CliRunner

from muggins.cards.cribbage.show import explain_show, score_parts, score_show
from muggins.cards.deck import full_deck, parse_card, parse_cards
from muggins.cli.cribbage import count_lines, cribbage_app
from muggins.core.errors import MugginsError

app = typer.Typer()
app.add_typer(cribbage_app, name="cribbage")  # as the main command line registers it
runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["cribbage", "count", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


# ---------------------------------------------------------------------------------------------------------
# One hand


def test_count_prints_total_items_and_spoken_count() -> None:
    code, out, _ = run("5H", "5D", "5S", "JC", "--starter", "5C")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "29"
    assert any(line.split() == ["12", "double", "pair", "royal", "5C", "5D", "5H", "5S"] for line in lines)
    assert any(line.split() == ["1", "his", "nobs", "JC"] for line in lines)
    assert lines[-1] == explain_show(parse_cards("5H 5D 5S JC"), parse_card("5C")).text
    assert lines[-1].endswith("one for his nobs is twenty-nine")


def test_count_json_has_the_breakdown() -> None:
    code, out, _ = run("4C", "5C", "6C", "JC", "-s", "5D", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["total"], data["fifteens"], data["pairs"], data["runs"], data["flush"], data["nobs"]) == \
        (20, 8, 2, 6, 4, 0)
    assert sum(points for _, points in data["items"]) == 20
    assert data["hand"] == ["4C", "5C", "6C", "JC"] and data["starter"] == "5D" and data["crib"] is False
    assert data["text"].endswith("a flush of four is twenty")


def test_count_crib_flag_applies_the_crib_flush_rule() -> None:
    assert run("2H", "4H", "6H", "8H", "--starter", "KS")[1].splitlines()[0] == "4"
    assert run("2H", "4H", "6H", "8H", "--starter", "KS", "--crib")[1].splitlines()[0] == "0"
    assert run("2H", "4H", "6H", "8H", "--starter", "KH", "--crib")[1].splitlines()[0] == "5"


def test_count_accepts_ten_lower_case_and_three_card_hands() -> None:
    code, out, _ = run("10d", "jd", "qd", "5d", "--starter", "kd")
    assert code == 0 and out.splitlines()[0] == "18"  # RULES.md H15
    code, out, _ = run("2H", "4H", "6H", "--starter", "KH")  # five-card cribbage: 3-card flush + starter
    assert code == 0 and out.splitlines()[0] == "4"


def test_count_without_starter_counts_the_cards_alone() -> None:
    code, out, _ = run("5H", "5D", "5S", "JC")
    assert code == 0 and out.splitlines()[0] == "14"


def test_bad_card_is_an_error_with_exit_code_2() -> None:
    code, out, err = run("5H", "5D", "5S", "XC", "--starter", "5C")
    assert code == 2
    assert "'XC': unknown rank 'X'" in err
    assert out == ""
    code, _, err = run("5H", "5D", "5S", "JZ", "--starter", "5C")
    assert code == 2 and "unknown suit 'Z'" in err
    code, _, err = run("5H", "5D", "5S", "JC", "--starter", "15C")
    assert code == 2 and "'15C'" in err


def test_bad_hands_are_errors_with_exit_code_2() -> None:
    code, _, err = run("5H", "5D", "5S", "5H", "--starter", "5C")
    assert code == 2 and "duplicate card 5H" in err
    code, _, err = run("5H", "5D", "5S", "JC", "5C")
    assert code == 2 and "--starter" in err
    code, _, err = run("5H", "5D", "--starter", "5C")
    assert code == 2 and "got 2" in err
    code, _, err = run("5H", "5D", "5S", "--starter", "5C", "--crib")
    assert code == 2 and "a crib has 4 cards" in err


# ---------------------------------------------------------------------------------------------------------
# Many hands from stdin


def _random_lines(n: int, seed: int) -> tuple[list[str], list[int]]:
    """Lines in every accepted spelling, with the expected totals."""
    rng = random.Random(seed)
    deck = full_deck()
    lines, totals = [], []
    for i in range(n):
        size = 3 if i % 5 == 4 else 4
        cards = rng.sample(deck, size + 1)
        crib = size == 4 and i % 3 == 0
        words = [c.text.replace("T", "10") if i % 2 else c.text.lower() for c in cards]
        lines.append(" ".join(words[:size]) + " | " + words[size] + (" crib" if crib else ""))
        totals.append(score_show(cards[:size], cards[size], crib))
    return lines, totals


def test_stdin_prints_one_total_per_line() -> None:
    lines, totals = _random_lines(3000, seed=11)
    code, out, err = run("-", stdin="\n".join(lines) + "\n")
    assert code == 0, err
    assert [int(x) for x in out.split()] == totals


def test_stdin_rules_examples_and_crib_word() -> None:
    stdin = "5H 5D 5S JC | 5C\n2H 4H 6H 8H | KS\n2H 4H 6H 8H | KS crib\n2h 4h 6h 8h|kh CRIB\n"
    code, out, _ = run("-", stdin=stdin)
    assert code == 0
    assert out.split() == ["29", "4", "0", "5"]


def test_stdin_crib_flag_applies_to_every_line() -> None:
    code, out, _ = run("-", "--crib", stdin="2H 4H 6H 8H | KS\n2H 4H 6H 8H | KH\n")
    assert code == 0 and out.split() == ["0", "5"]


def test_stdin_skips_blank_lines_and_comments() -> None:
    code, out, _ = run("-", stdin="# hands\n\n5H 5D 5S JC | 5C\n   \n9H TD JC QS | AD\n")
    assert code == 0 and out.split() == ["29", "4"]


def test_stdin_json_gives_the_breakdown_per_line() -> None:
    lines, totals = _random_lines(500, seed=12)
    code, out, _ = run("-", "--json", stdin="\n".join(lines))
    assert code == 0
    rows = [json.loads(x) for x in out.splitlines()]
    assert [r["total"] for r in rows] == totals
    for line, row in zip(lines, rows, strict=True):
        head, _, tail = line.partition("|")
        words = tail.split()
        want = score_parts(parse_cards(head), parse_card(words[0]), words[-1] == "crib")
        assert (row["total"], row["fifteens"], row["pairs"], row["runs"], row["flush"], row["nobs"]) == want


def test_stdin_bad_line_reports_its_number_and_exits_2() -> None:
    stdin = "5H 5D 5S JC | 5C\n\n4C 5C 6C JC | 5D\n4C 5C 6C XC | 5D\n9H TD JC QS | AD\n"
    code, out, err = run("-", stdin=stdin)
    assert code == 2
    assert "line 4:" in err and "'XC'" in err
    assert out.split() == ["29", "20"]  # results before the bad line are written


def test_stdin_malformed_lines() -> None:
    code, _, err = run("-", stdin="5H 5D 5S JC | 5C 6C\n")
    assert code == 2 and "line 1:" in err and "exactly one starter card" in err
    code, _, err = run("-", stdin="5H 5D 5S JC | 5C\n5H 5D 5S 5H | 5C\n")
    assert code == 2 and "line 2: duplicate card 5H" in err
    code, _, err = run("-", stdin="5H 5D 5S JC 2C | 5C\n")
    assert code == 2 and "line 1:" in err and "got 5" in err


def test_stdin_refuses_a_starter_option() -> None:
    code, _, err = run("-", "--starter", "5C", stdin="5H 5D 5S JC | 5C\n")
    assert code == 2 and "not --starter" in err


def test_count_lines_returns_the_number_counted() -> None:
    out = io.StringIO()
    assert count_lines(["5H 5D 5S JC | 5C\n", "\n", "AH 2D 3C 4S | 5H\n"], out) == 2
    assert out.getvalue() == "29\n7\n"
    try:
        count_lines(["5H 5D 5S JC | 5C\n", "nonsense\n"], io.StringIO())
    except MugginsError as e:
        assert str(e).startswith("line 2: ")
    else:
        raise AssertionError("a bad line must raise")


def test_help_names_the_forms() -> None:
    result = runner.invoke(app, ["cribbage", "count", "--help"])
    assert result.exit_code == 0
    assert "--starter" in result.stdout and "--crib" in result.stdout and "--json" in result.stdout
