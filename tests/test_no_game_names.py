"""No interface names a game: outside the game packages every module (and the page's script) finds what
it needs about a game through the registry, so that adding a game touches none of them.

The check reads the string literals of every module (tokenize: f-string parts too) and of the page's
modules (web/js), and fails on any that holds a registered game's name as a word of its own. A dotted module path
(``muggins.cards.cribbage``) is not a game's name; docstrings and comments are prose, not code, and are
not read. The few help texts that list games as examples are whitelisted below, by file and text."""

from __future__ import annotations

import ast
import contextlib
import io
import re
import tokenize
from pathlib import Path

from muggins.core.rules import all_games

SRC = Path(__file__).resolve().parents[1] / "src" / "muggins"
GAME_PACKAGES = ("dominoes", "cards")  # the games themselves may name themselves
# (file relative to src/muggins, exact text of the string literal): help text that names a game as prose
WHITELIST: set[tuple[str, str]] = {
    ("cli/main.py", "The Muggins family of games: Fives dominoes, card Muggins and Cribbage, "),
}
JS_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')
JS_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def names_pattern() -> re.Pattern[str]:
    names = sorted(all_games(), key=len, reverse=True)
    return re.compile(r"(?<![\w.-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])")


def docstring_lines(tree: ast.AST) -> set[int]:
    """The lines of every module, class and function docstring."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def python_strings(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every string literal of a module that is not a docstring."""
    source = path.read_text(encoding="utf-8")
    skip = docstring_lines(ast.parse(source))
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        kind = tok.type
        if kind == tokenize.STRING or kind == getattr(tokenize, "FSTRING_MIDDLE", -1):
            if tok.start[0] not in skip:
                text = tok.string
                if kind == tokenize.STRING:
                    with contextlib.suppress(ValueError, SyntaxError):  # an f-string before Python 3.12
                        text = str(ast.literal_eval(text))
                out.append((tok.start[0], text))
    return out


def consumer_modules() -> list[Path]:
    return [p for p in sorted(SRC.rglob("*.py")) if p.relative_to(SRC).parts[0] not in GAME_PACKAGES]


def occurrences() -> list[str]:
    pattern = names_pattern()
    found = []
    for path in consumer_modules():
        rel = path.relative_to(SRC).as_posix()
        for line, text in python_strings(path):
            if pattern.search(text) and (rel, text) not in WHITELIST:
                found.append(f"{rel}:{line}: {text!r}")
    for module in sorted((SRC / "web" / "js").glob("*.js")):
        code = JS_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), module.read_text(encoding="utf-8"))
        for m in JS_STRING.finditer(code):
            if pattern.search(m.group(0)):
                found.append(f"web/js/{module.name}:{code.count(chr(10), 0, m.start()) + 1}: {m.group(0)}")
    return found


def test_the_check_finds_a_game_name() -> None:
    """The pattern catches a name in quotes or in a sentence, and lets a module path through."""
    pattern = names_pattern()
    assert pattern.search('if game == "cribbage":') and pattern.search("Game: dominoes, card-muggins")
    assert not pattern.search("muggins.cards.cribbage.show") and not pattern.search("render_dominoes")


def test_no_module_outside_the_game_packages_names_a_game() -> None:
    assert consumer_modules(), "no module found"
    found = occurrences()
    assert not found, "a game named outside its package:\n" + "\n".join(found)


def test_every_whitelisted_text_is_still_there() -> None:
    """A whitelist entry that no longer matches anything is dropped, so the list stays minimal."""
    texts = {(p.relative_to(SRC).as_posix(), t) for p in consumer_modules() for _, t in python_strings(p)}
    assert texts >= WHITELIST, WHITELIST - texts
