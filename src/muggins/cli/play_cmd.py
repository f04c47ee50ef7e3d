"""``muggins play``: one person plays any game and preset against simple opponents, line by line.

The person announces his own points after a move ("5-3 on 5-5 10") in manual claim mode and may call
"muggins" whenever an opponent's points went unclaimed, before the next player acts."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from muggins.cli.common import fail, parse_options
from muggins.core.errors import IllegalAction, MugginsError, RulesError
from muggins.core.protocol import Action, GameState
from muggins.core.records import save, to_record
from muggins.core.rules import get_game

OPTIONAL = ("muggins", "claim")


class SimpleOpponent:
    """Plays the move that scores most now; claims correctly with probability ``attention`` and calls
    muggins on a miss with probability ``vigilance``."""

    def __init__(self, rng: random.Random, attention: float = 0.8, vigilance: float = 0.6) -> None:
        self.rng = rng
        self.attention = attention
        self.vigilance = vigilance

    def move(self, st: GameState, seat: int) -> Action:
        acts = [a for a in st.legal_actions(seat) if a.kind not in OPTIONAL]
        claim_for = getattr(st, "claim_for", None)
        if claim_for is None:
            return self.rng.choice(acts)
        best = max(acts, key=lambda a: (claim_for(seat, a), self.rng.random()))
        if st.rules.claims == "manual":
            pts = claim_for(seat, best)
            if pts and self.rng.random() < self.attention:
                best = best.with_claim(pts)
        return best

    def calls(self, st: GameState, seat: int) -> bool:
        return st.muggable(seat) > 0 and self.rng.random() < self.vigilance


def _describe(st: GameState, seat: int, e: dict[str, Any]) -> str | None:
    who = "You" if e.get("seat") == seat else f"Seat {e.get('seat')}"
    k = e["kind"]
    if k == "play":
        where = f" on {e['on']}" if e.get("on") else ""
        part = f" ({e['part']})" if e.get("part") else ""
        card = e.get("tile") or e.get("card") or ""
        total = f", total {e['total']}" if "total" in e else ""
        return f"{who} played {card}{where}{part}{total}"
    if k == "claim":
        return f"{who} announced {e['points']}"
    if k == "score":
        return f"{who} scored {e['points']:+d} ({e['reason']})"
    if k == "muggins":
        if e["outcome"] == "false_call":
            return f"{who} called Muggins! - a false call"
        return f"{who} called Muggins! on seat {e['on']}: {e['outcome']} {e['points']}"
    if k == "missed":
        return f"{who} let {e['points']} point(s) go unclaimed"
    if k == "draw":
        drawn = e.get("tile") or e.get("card")
        return f"{who} drew {drawn}" if drawn else f"{who} drew"
    if k in ("pass", "knock", "go"):
        return f"{who} {'said go' if k == 'go' else k + 'ed'}"
    if k == "hand_end":
        return f"Hand {e.get('hand', '')} ends ({e.get('reason', '')}); pips {e.get('pips', '')}"
    if k == "hand_start":
        return f"--- Hand {e.get('hand')} --- seat {e.get('leader')} leads"
    if k == "game_end":
        return f"Game over. Winners: {e.get('winners')}  scores {e.get('scores')}"
    if k == "void":
        return f"{who}: {e['points']} point(s) void - {e.get('why', '')}"
    return None


def _show(console: Console, st: GameState, seat: int, hints: bool) -> None:
    v = st.view(seat)
    console.print(f"[bold]Scores[/] {v.get('scores')}  target {v.get('target', '')}", highlight=False)
    if "layout" in v:
        ends = ", ".join(f"{e['value']} ({e['on']} {e['part']})" for e in v["open_ends"]) or "empty"
        console.print(f"[bold]Table[/] {' '.join(x['tile'] for x in v['layout']) or '(empty)'}",
                      highlight=False)
        console.print(f"[bold]Open ends[/] {ends}   boneyard {v['boneyard']}   hands {v['hand_sizes']}",
                      highlight=False)
        if hints and hasattr(st, "count"):
            console.print(f"[dim]count {st.count}[/]")
    else:
        for key in ("total", "pile", "stock", "starter", "phase", "hand_sizes"):
            if key in v:
                console.print(f"[bold]{key}[/] {v[key]}", highlight=False)
    console.print(f"[bold]Your hand[/] {' '.join(v.get('my_hand', []))}", highlight=False)


def play_command(
    game: str = typer.Option("dominoes", "--game", "-g", help="dominoes, card-muggins or cribbage."),
    preset: str = typer.Option(None, "--preset", "-p", help="Preset (see 'muggins rules')."),
    players: int = typer.Option(2, "--players", "-n", help="Number of players (you are seat 0)."),
    seed: int = typer.Option(None, "--seed", help="Seed for the deal (random if omitted)."),
    option: list[str] = typer.Option(None, "--option", "-o", help="Rule override key=value (repeatable)."),
    hints: bool = typer.Option(False, "--hints", help="Show the count of the open ends."),
    save_to: Path = typer.Option(None, "--save", help="Write the game record here when you stop."),
    hands: int = typer.Option(0, "--hands", help="Stop after this many hands (0: play the game out)."),
) -> None:
    """Play in the terminal against simple opponents. Type 'help' at the prompt."""
    console = Console()
    try:
        spec = get_game(game)
        rules = spec.rules(preset, parse_options(option))
        st = spec.new(rules, players, seed=seed if seed is not None else random.randrange(1 << 30))
    except RulesError as e:
        fail(str(e))
    rng = random.Random(seed)
    bots = {s: SimpleOpponent(random.Random(rng.random())) for s in range(1, players)}
    me = 0
    shown = 0
    manual = getattr(st.rules, "claims", "auto") == "manual"
    console.print(f"[bold]{spec.title}[/] - preset {st.rules.preset}, {players} players. You are seat 0."
                  + (" Announce your points after your move (the move, a space, the points); type 'muggins'"
                     " to call an opponent's miss." if manual else ""), highlight=False)

    def flush() -> None:
        nonlocal shown
        for e in st.events_for(me, shown):
            line = _describe(st, me, e)
            if line:
                console.print(line, highlight=False)
        shown = len(st.log)

    def finish() -> None:
        if save_to is not None:
            save(to_record(st, players=[{"name": "You"}] + [{"name": f"Bot {s}", "bot": "simple"}
                                                             for s in bots]), save_to)
            console.print(f"Record saved to {save_to}")

    while not st.is_over():
        flush()
        if hands and getattr(st, "hand_no", 0) > hands:
            break
        waiting = st.waiting_for()
        # opponents may call muggins on the person's misses
        for s, bot in bots.items():
            if s in st.to_act() and Action("muggins") in st.legal_actions(s) and bot.calls(st, s):
                st.apply(s, Action("muggins"))
        if st.is_over():
            break
        waiting = st.waiting_for()
        if me in waiting:
            _show(console, st, me, hints)
            legal = [st.format_action(a) for a in st.legal_actions(me)]
            console.print(f"[dim]legal: {', '.join(legal)}[/]", highlight=False)
            text = _ask(console, "your move> ")
            if text is None or text in ("quit", "q", "exit"):
                finish()
                return
            if not text:
                continue
            if text in ("help", "?"):
                example = legal[0] if legal else "a move"
                console.print(f"Type a move as listed (e.g. {example}), optionally followed by the points you "
                              "announce. 'muggins' calls an opponent's miss; 'quit' stops (and saves with --save).",
                              highlight=False)
                continue
            try:
                st.apply(me, _parse(st, text, me))
            except (MugginsError, ValueError) as e:
                console.print(f"[red]Not allowed:[/] {e}", highlight=False)
            continue
        seat = min(waiting)
        if me in st.to_act() and Action("muggins") in st.legal_actions(me) and st.history \
                and st.history[-1][0] != me:
            flush()
            text = _ask(console, "[Enter] to go on, 'm' to call Muggins!> ")
            if text is None:
                finish()
                return
            if text.lower().startswith("m"):
                try:
                    st.apply(me, _parse(st, "muggins" + text[1:].replace("uggins", ""), me))
                except MugginsError as e:
                    console.print(f"[red]Not allowed:[/] {e}", highlight=False)
                continue
        st.apply(seat, bots[seat].move(st, seat))
    flush()
    finish()


def _ask(console: Console, prompt: str) -> str | None:
    try:
        return console.input(prompt).strip()
    except (EOFError, KeyboardInterrupt):
        console.print()
        return None


def _parse(st: GameState, text: str, seat: int) -> Action:
    try:
        return st.parse_action(text, seat)
    except IllegalAction:
        words = text.split()
        if len(words) > 1 and words[-1].isdigit():
            return st.parse_action(" ".join(words[:-1]), seat).with_claim(int(words[-1]))
        raise
