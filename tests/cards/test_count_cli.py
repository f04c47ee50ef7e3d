"""``muggins cribbage count``: one hand with its explanation, or one hand per stdin line in bulk."""

from __future__ import annotations

import io
import json
import random

import typer
from typer.testing import CliRunner

from muggins.cards.cribbage.cli import count_lines, cribbage_app
from muggins.cards.cribbage.show import explain_show, score_parts, score_show
from muggins.cards.deck import full_deck, parse_card, parse_cards

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


def test_count_accepts_ten_and_lower_case() -> None:
    code, out, _ = run("10d", "jd", "qd", "5d", "--starter", "kd")
    assert code == 0 and out.splitlines()[0] == "18"  # RULES.md H15


def test_a_three_card_hand_needs_the_five_card_preset() -> None:
    code, out, err = run("2H", "4H", "6H", "--starter", "KH")
    assert code == 2 and out == ""
    assert "a hand has 4 cards; got 3" in err and "--preset five-card" in err
    code, out, _ = run("2H", "4H", "6H", "--starter", "KH", "--preset", "five-card")  # 3-card flush + starter
    assert code == 0 and out.splitlines()[0] == "4"
    code, _, err = run("2H", "4H", "6H", "8H", "--starter", "KH", "-p", "five-card")
    assert code == 2 and "a five-card cribbage hand has 3 cards; got 4" in err
    code, out, _ = run("2H", "4H", "6H", "8H", "--starter", "KH", "-p", "five-card", "--crib")  # crib: 4 cards
    assert code == 0 and out.splitlines()[0] == "5"
    code, _, err = run("2H", "4H", "6H", "8H", "--starter", "KH", "-p", "nine-card")
    assert code == 2 and "unknown preset 'nine-card'" in err


def test_the_starter_is_required_unless_no_starter() -> None:
    code, out, err = run("5H", "5D", "5S", "JC")
    assert code == 2 and out == ""
    assert "the starter is required" in err and "--no-starter" in err
    code, out, _ = run("5H", "5D", "5S", "JC", "--no-starter")
    assert code == 0 and out.splitlines()[0] == "14"
    code, _, err = run("5H", "5D", "5S", "JC", "--no-starter", "--starter", "5C")
    assert code == 2 and "not both" in err


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


def _random_lines(n: int, seed: int, size: int = 4) -> tuple[list[str], list[int]]:
    """Lines in every accepted spelling, with the expected totals."""
    rng = random.Random(seed)
    deck = full_deck()
    lines, totals = [], []
    for i in range(n):
        crib = i % 3 == 0
        cards = rng.sample(deck, (4 if crib else size) + 1)
        words = [c.text.replace("T", "10") if i % 2 else c.text.lower() for c in cards]
        lines.append(" ".join(words[:-1]) + " | " + words[-1] + (" crib" if crib else ""))
        totals.append(score_show(cards[:-1], cards[-1], crib))
    return lines, totals


def test_stdin_prints_one_total_per_line() -> None:
    lines, totals = _random_lines(3000, seed=11)
    code, out, err = run("-", stdin="\n".join(lines) + "\n")
    assert code == 0, err
    assert [int(x) for x in out.split()] == totals


def test_stdin_five_card_hands() -> None:
    lines, totals = _random_lines(300, seed=13, size=3)
    code, out, err = run("-", "--preset", "five-card", stdin="\n".join(lines) + "\n")
    assert code == 0, err
    assert [int(x) for x in out.split()] == totals
    code, out, err = run("-", stdin="\n".join(lines) + "\n")  # 3-card hands are not a six-card show
    assert code == 2 and "line 2: a hand has 4 cards; got 3" in err
    assert [int(x) for x in out.split()] == [t for line, t in zip(lines, totals, strict=True) if "crib" in line]


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


def test_stdin_without_hands_is_an_error() -> None:
    for stdin in ("", "\n\n", "# nothing yet\n   \n"):
        code, out, err = run("-", stdin=stdin)
        assert code == 2 and out == ""
        assert "no hands on standard input" in err


def test_stdin_json_gives_the_hand_and_the_breakdown_per_line() -> None:
    lines, totals = _random_lines(500, seed=12)
    code, out, _ = run("-", "--json", stdin="\n".join(lines))
    assert code == 0
    rows = [json.loads(x) for x in out.splitlines()]
    assert [r["total"] for r in rows] == totals
    for number, (line, row) in enumerate(zip(lines, rows, strict=True), 1):
        head, _, tail = line.partition("|")
        words = tail.split()
        hand, starter, crib = parse_cards(head), parse_card(words[0]), words[-1] == "crib"
        assert row["line"] == number
        assert row["hand"] == [c.text for c in hand] and row["starter"] == starter.text and row["crib"] is crib
        want = score_parts(hand, starter, crib)
        assert (row["total"], row["fifteens"], row["pairs"], row["runs"], row["flush"], row["nobs"]) == want


def test_stdin_json_crib_flag_shows_in_every_row() -> None:
    code, out, _ = run("-", "--json", "--crib", stdin="2H 4H 6H 8H | KS\n")
    assert code == 0
    row = json.loads(out)
    assert row["crib"] is True and row["total"] == 0 and row["hand"] == ["2H", "4H", "6H", "8H"]


def test_stdin_reports_every_bad_line_and_counts_the_rest() -> None:
    stdin = ("5H 5D 5S JC | 5C\n\n4C 5C 6C XC | 5D\n4C 5C 6C JC | 5D\n5H 5D 5S | 5C\n"
             "9H TD JC QS\n9H TD JC QS | AD\n")
    code, out, err = run("-", stdin=stdin)
    assert code == 2
    assert out.split() == ["29", "20", "4"]  # every good line is counted, in order
    reported = [line for line in err.splitlines() if line.startswith("line ")]
    assert [line.split(":")[0] for line in reported] == ["line 3", "line 5", "line 6"]
    assert "'XC'" in reported[0] and "got 3" in reported[1] and "no starter" in reported[2]
    assert "3 lines could not be counted (3 counted)" in err
    code, out, err = run("-", "--json", stdin=stdin)
    assert code == 2
    assert [json.loads(x)["line"] for x in out.splitlines()] == [1, 4, 7]


def test_stdin_line_without_a_starter_needs_no_starter() -> None:
    code, out, err = run("-", stdin="5H 5D 5S JC\n")
    assert code == 2 and out == ""
    assert "line 1: no starter" in err and "--no-starter" in err
    code, out, err = run("-", "--no-starter", "--json",
                          stdin="5H 5D 5S JC\n2H 4H 6H 8H\n2H 4H 6H 8H crib\n")
    assert code == 0, err
    rows = [json.loads(x) for x in out.splitlines()]
    assert [(r["total"], r["starter"], r["crib"]) for r in rows] == \
        [(14, None, False), (4, None, False), (0, None, True)]  # a crib flush needs the starter too
    code, out, err = run("-", "--no-starter", stdin="5H 5D 5S JC | 5C\n")
    assert code == 2 and out == "" and "line 1: with --no-starter" in err


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


def test_dash_takes_no_cards() -> None:
    for args in (("-", "5H"), ("5H", "-"), ("-", "-")):
        code, out, err = run(*args, stdin="5H 5D 5S JC | 5C\n")
        assert code == 2 and out == ""
        assert "'-' reads the hands from standard input and takes no cards" in err
        assert "is not a card" not in err


def test_count_lines_returns_counted_and_bad() -> None:
    out, err = io.StringIO(), io.StringIO()
    assert count_lines(["5H 5D 5S JC | 5C\n", "\n", "AH 2D 3C 4S | 5H\n"], out, err) == (2, 0)
    assert out.getvalue() == "29\n7\n" and err.getvalue() == ""
    out = io.StringIO()
    assert count_lines(["5H 5D 5S JC | 5C\n", "nonsense\n", "AH 2D 3C 4S | 5H\n"], out, err) == (2, 1)
    assert out.getvalue() == "29\n7\n"
    assert err.getvalue().startswith("line 2: ")


def test_help_names_the_forms() -> None:
    result = runner.invoke(app, ["cribbage", "count", "--help"])
    assert result.exit_code == 0
    for flag in ("--starter", "--no-starter", "--crib", "--preset", "--json"):
        assert flag in result.stdout
    assert "<bool>" not in result.stdout
