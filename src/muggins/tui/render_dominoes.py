"""Draw a domino layout with its true geometry on a character canvas.

Each line of play runs from its parent tile; a line turns at the edge of the screen (east lines turn
down and come back west, west lines turn up and come back east), doubles lie across the line, and a
spinner's extra arms (and every branch of Five Up) leave it at right angles. An arm never turns at a
double: the double lies across the arm and the arm goes on straight past it. Doubles are drawn with a
double frame (``╔╗``, ``║``; ``=`` in ASCII) so that a crosswise double never looks like a tile standing
upright in a vertical line. A tile that cannot be placed without overlapping another is listed below the
drawing rather than drawn wrongly."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from muggins.core.errors import MugginsError
from muggins.core.protocol import Action, GameState
from muggins.tui.renderer import TerminalRenderer
from muggins.tui.text import WIDTH, HandEnd, hand_event, wrap_words

E, W, N, S = (1, 0), (-1, 0), (0, -1), (0, 1)
ARM_LENGTH = 1  # tiles an arm runs straight up or down before turning like a line


@dataclass(frozen=True)
class Glyphs:
    """The characters of a tile: Unicode box drawing, or plain ASCII when the terminal needs it. A double
    lying across the line has its own frame (``double``), so it never looks like an upright tile."""

    left: str
    mid: str
    right: str
    top: tuple[str, str]
    divider: tuple[str, str, str]
    bottom: tuple[str, str]
    double: Glyphs | None = None


UNICODE = Glyphs("[", "│", "]", ("┌", "┐"), ("├", "─", "┤"), ("└", "┘"),
                 Glyphs("[", "║", "]", ("╔", "╗"), ("╠", "═", "╣"), ("╚", "╝")))
ASCII = Glyphs("[", "|", "]", (".", "."), ("|", "-", "|"), ("'", "'"),
               Glyphs("[", "=", "]", (".", "."), ("|", "=", "|"), ("'", "'")))


def _halves(text: str) -> tuple[str, str]:
    a, _, b = text.partition("-")
    return a, b


def _key(text: str) -> tuple[int, int]:
    a, b = _halves(text)
    x, y = int(a), int(b)
    return (x, y) if x >= y else (y, x)


@dataclass
class Canvas:
    """Cells by (x, y); y may be negative (lines above the first tile)."""

    width: int
    cells: dict[tuple[int, int], str] = field(default_factory=dict)

    def free(self, x0: int, y0: int, w: int, h: int, margin: int = 0) -> bool:
        if x0 < 0 or x0 + w > self.width:
            return False
        return all((x, y) not in self.cells
                   for x in range(x0 - margin, x0 + w + margin) for y in range(y0, y0 + h))

    def put(self, x0: int, y0: int, rows: list[str]) -> None:
        for dy, row in enumerate(rows):
            for dx, ch in enumerate(row):
                self.cells[(x0 + dx, y0 + dy)] = ch

    def lines(self) -> list[str]:
        if not self.cells:
            return []
        ys = [y for _, y in self.cells]
        xs = [x for x, _ in self.cells]
        x0 = min(xs)
        out = []
        for y in range(min(ys), max(ys) + 1):
            row = "".join(self.cells.get((x, y), " ") for x in range(x0, max(xs) + 1))
            out.append(row.rstrip())
        return out


def horizontal(a: str, b: str, g: Glyphs) -> str:
    """A tile lying along a row: ``[a│b]``."""
    return f"{g.left}{a}{g.mid}{b}{g.right}"


def vertical(a: str, b: str, g: Glyphs) -> list[str]:
    """A tile standing in a column, ``a`` on top: three rows."""
    w = max(len(a), len(b))
    return [f"{g.top[0]}{a:^{w}}{g.top[1]}", f"{g.divider[0]}{g.divider[1] * w}{g.divider[2]}",
            f"{g.bottom[0]}{b:^{w}}{g.bottom[1]}"]


@dataclass
class Placed:
    """Where a tile went: its box and the direction its line runs."""

    x: int
    y: int
    w: int
    h: int
    d: tuple[int, int]
    across: bool


class LayoutDrawer:
    """Places the tiles of ``view["layout"]`` one line at a time, depth first from the set tile."""

    def __init__(self, layout: list[dict[str, Any]], width: int, glyphs: Glyphs) -> None:
        self.layout = layout
        self.g = glyphs
        self.canvas = Canvas(width)
        self.children: dict[tuple[int, int], list[dict[str, Any]]] = {}
        for e in layout:
            if e.get("on"):
                self.children.setdefault(_key(e["on"]), []).append(e)
        self.unplaced: list[str] = []
        self.placed: dict[tuple[int, int], Placed] = {}

    # -- footprints ------------------------------------------------------------------------------
    def _shape(self, e: dict[str, Any], d: tuple[int, int]) -> tuple[list[str], bool]:
        a, b = _halves(e["tile"])
        across = bool(e.get("double")) and not e.get("inline")
        g = (self.g.double or self.g) if e.get("double") else self.g
        if d in (E, W):
            if across:
                return vertical(a, b, g), True
            return [horizontal(a, b, g) if d == E else horizontal(b, a, g)], False
        if across:
            return [horizontal(a, b, g)], True
        return (vertical(a, b, g) if d == S else vertical(b, a, g)), False

    def _box(self, rows: list[str], ax: int, ay: int, d: tuple[int, int]) -> tuple[int, int]:
        """Top-left corner of a tile whose touching edge sits at anchor (ax, ay) running ``d``."""
        w, h = len(rows[0]), len(rows)
        if d == E:
            return ax, ay - h // 2
        if d == W:
            return ax - w + 1, ay - h // 2
        if d == S:
            return ax - w // 2, ay
        return ax - w // 2, ay - h + 1

    def _try(self, e: dict[str, Any], ax: int, ay: int, d: tuple[int, int]) -> Placed | None:
        rows, across = self._shape(e, d)
        x, y = self._box(rows, ax, ay, d)
        w, h = len(rows[0]), len(rows)
        if d in (N, S):  # a standing tile at the edge slides inward rather than off the screen
            x = min(max(x, 0), self.canvas.width - w)
        if not self.canvas.free(x, y, w, h):
            return None
        self.canvas.put(x, y, rows)
        p = Placed(x, y, w, h, d, across)
        self.placed[_key(e["tile"])] = p
        return p

    @staticmethod
    def _exit(p: Placed, d: tuple[int, int]) -> tuple[int, int]:
        """The anchor just beyond ``p`` in direction ``d``: centred on its box, except that a line
        turning off a tile lying along it leaves from the far half (the corner of the line)."""
        cx, cy = p.x + p.w // 2, p.y + p.h // 2
        if not p.across and p.d in (E, W) and d in (N, S):
            cx = p.x + p.w - 2 if p.d == E else p.x + 1
        if not p.across and p.d in (N, S) and d in (E, W):
            cy = p.y + p.h - 1 if p.d == S else p.y
        if d == E:
            return p.x + p.w, cy
        if d == W:
            return p.x - 1, cy
        if d == S:
            return cx, p.y + p.h
        return cx, p.y - 1

    # -- lines -----------------------------------------------------------------------------------
    def draw(self) -> list[str]:
        roots = [e for e in self.layout if not e.get("on")]
        if not roots:
            return []
        root = roots[0]
        rows, _ = self._shape(root, E)
        w = len(rows[0])
        west, east = self._run_width(root, 0), self._run_width(root, 1)
        x = self.canvas.width // 2 - w // 2
        if west + w + east <= self.canvas.width:  # both lines fit straight: set the tile where they do
            x = west + (self.canvas.width - west - w - east) // 2
        p = self._try(root, x, 0, E)
        if p is None:  # pragma: no cover - an empty canvas always has room
            return []
        for c in self._kids(root):
            d = {0: W, 1: E, 2: N, 3: S}.get(c.get("slot", 1), E)
            self._line(c, p, d, S if d == E else N if d == W else d)
        return self.canvas.lines()

    def _run_width(self, root: dict[str, Any], slot: int) -> int:
        """Columns taken by the line leaving ``root`` on side ``slot`` (0 west, 1 east) if it ran straight."""
        width = 0
        cur = next((c for c in self._kids(root) if c.get("slot", 1) == slot), None)
        while cur is not None:
            width += len(self._shape(cur, E if slot else W)[0][0])
            cur = next((c for c in self._kids(cur) if c.get("slot", 0) < 2), None)
        return width

    def _kids(self, e: dict[str, Any]) -> list[dict[str, Any]]:
        return sorted(self.children.get(_key(e["tile"]), []), key=lambda c: c.get("slot", 0))

    def _line(self, e: dict[str, Any], parent: Placed, d: tuple[int, int], vstep: tuple[int, int]) -> None:
        """Lay ``e`` and the rest of its line, starting to run ``d``; at an edge a horizontal line
        steps ``vstep`` (down or up) with one standing tile and comes back the other way; an arm
        leaving a spinner runs ``ARM_LENGTH`` tiles straight, then across like a line. The branches
        met on the way are laid after the line, so that a branch never blocks the line's own path."""
        later: list[tuple[dict[str, Any], Placed, tuple[int, int], tuple[int, int]]] = []
        self._run(e, parent, d, vstep, later)
        for args in later:
            self._line(*args)

    def _run(self, e: dict[str, Any], parent: Placed, d: tuple[int, int], vstep: tuple[int, int],
             later: list[tuple[dict[str, Any], Placed, tuple[int, int], tuple[int, int]]]) -> None:
        arm = d in (N, S)
        steps = 0
        cur, prev = e, parent
        while True:
            p = self._try(cur, *self._exit(prev, d), d)
            if p is None and d in (E, W):
                p = self._try(cur, *self._exit(prev, vstep), vstep)
                if p is not None:
                    d = W if d == E else E
            elif p is None:
                p, dd = self._fit(cur, prev, (E, W) if prev.x < self.canvas.width // 2 else (W, E))
                if p is not None:
                    d, arm = dd, False
            if p is None:  # boxed in along the line: any free side of the parent still shows the join
                p, dd = self._fit(cur, prev, (S, N, E, W))
                if p is not None:
                    d, arm = dd, False
                    if dd in (E, W):
                        vstep = S
            if p is None:
                self._give_up(cur)
                return
            steps += 1
            kids = self._kids(cur)
            nxt = [c for c in kids if c.get("slot", 0) < 2]
            if arm and steps >= ARM_LENGTH and not cur.get("double") and not (nxt and nxt[0].get("double")):
                # a double on the arm lies across it, and the arm goes on straight past it: a line turning
                # at a double would look as if the double lay along the line
                arm = False
                d = E if p.x + p.w // 2 < self.canvas.width // 2 else W
            for c in kids:
                if c.get("slot", 0) >= 2:
                    if p.d in (E, W):
                        bd = N if c["slot"] == 2 else S
                    else:
                        bd = W if c["slot"] == 2 else E
                    later.append((c, p, bd, bd if bd in (N, S) else vstep))
            if not nxt:
                return
            for extra in nxt[1:]:
                later.append((extra, p, d, vstep))
            cur, prev = nxt[0], p

    def _fit(self, e: dict[str, Any], parent: Placed,
             dirs: tuple[tuple[int, int], ...]) -> tuple[Placed | None, tuple[int, int]]:
        """Lay ``e`` off ``parent`` in the first of ``dirs`` with room: where it went, and which way."""
        for dd in dirs:
            p = self._try(e, *self._exit(parent, dd), dd)
            if p is not None:
                return p, dd
        return None, dirs[-1]

    def _give_up(self, e: dict[str, Any]) -> None:
        stack = [e]
        while stack:
            c = stack.pop()
            self.unplaced.append(f"{c['tile']} on {c['on']}")
            stack.extend(self.children.get(_key(c["tile"]), []))


def _also(unplaced: list[str], width: int) -> list[str]:
    """The tiles with no room in the drawing, as lines of at most ``width``."""
    lines = []
    text = "also: " + ", ".join(unplaced) if unplaced else ""
    while text:
        lines.append(text[:width])
        text = text[width:]
    return lines


def draw_layout(layout: list[dict[str, Any]], width: int = 76, ascii_only: bool = False,
                max_rows: int | None = None, focus: list[str] | None = None) -> list[str]:
    """The layout as text lines no wider than ``width``; tiles that would overlap are listed after.

    With ``max_rows`` the lines are never more: the list of tiles with no room shrinks to one line, then
    the drawing shows only the rows around the last tile played and the tiles of ``focus`` (those with a
    free end), with one line saying how many rows are not shown."""
    d = LayoutDrawer(layout, width, ASCII if ascii_only else UNICODE)
    lines = d.draw()
    also = _also(d.unplaced, width)
    if max_rows is None or len(lines) + len(also) <= max_rows:
        return lines + also
    if also:
        text = f"also {len(d.unplaced)} tile(s): " + ", ".join(d.unplaced)
        also = [text if len(text) <= width else text[: width - 3] + "..."]
    room = max(1, max_rows - len(also))
    if len(lines) <= room:
        return lines + also
    keep = max(1, room - 1)
    top = min(y for _, y in d.canvas.cells)
    boxes = [(p.y - top, p.y - top + p.h, 1) for k, p in d.placed.items()
             if focus and any(_key(t) == k for t in focus)]
    last = layout[-1]["tile"] if layout else None
    if last is not None and _key(last) in d.placed:
        p = d.placed[_key(last)]
        boxes.append((p.y - top, p.y - top + p.h, len(layout)))  # the last play weighs most

    def score(start: int) -> int:
        return sum(w for y0, y1, w in boxes if start <= y0 and y1 <= start + keep)

    start = max(range(len(lines) - keep + 1), key=lambda i: (score(i), -abs(i + keep // 2 - (-top))))
    hidden = len(lines) - keep
    note = f"({start} row(s) above, {hidden - start} below not shown: 'layout' shows it all)"
    return lines[start:start + keep] + [note[:width]] + also


# ------------------------------------------------------------------------------ the table panel ----
def open_ends_text(v: dict[str, Any]) -> str:
    """The value of every free place of the layout, a place on a double written as the double
    (``5-5 3 1``): the count is theirs to add up unless hints are on."""
    values = []
    for e in v.get("open_ends", []):
        on = str(e.get("on") or "")
        a, _, b = on.partition("-")
        values.append(f"{e['value']}-{e['value']}" if a and a == b else str(e["value"]))
    return " ".join(values) or "-"


def domino_lines(v: dict[str, Any], width: int, ascii_only: bool, count: int | None,
                 max_rows: int | None = None) -> list[str]:
    """The drawing, then the hand number, the boneyard and the values of the open ends; the count of the
    ends only when given (``--hints``, or a game that scores by itself): in a manual claim game counting
    is the player's job. With ``max_rows`` the drawing is cut to fit (see :func:`draw_layout`)."""
    extra = f"Hand {v['hand']}   Boneyard: {v['boneyard']}   Open ends: {open_ends_text(v)}"
    if count is not None:
        extra += f"   Count: {count}"
    info = wrap_words(extra.split(" "), width)
    room = None if max_rows is None else max(1, max_rows - len(info))
    focus = [str(e["on"]) for e in v.get("open_ends", []) if e.get("on")]
    lines = draw_layout(v["layout"], width, ascii_only, room, focus) or ["(no tile set yet)"]
    return lines + info


def tile_words(pieces: list[str], ascii_only: bool) -> list[str]:
    """Tiles drawn like the table's (``[5│3]``)."""
    g = ASCII if ascii_only else UNICODE
    return [horizontal(t.partition("-")[0], t.partition("-")[2], g) for t in pieces]


# ---------------------------------------------------------------------------- end of a hand ----
def final_layout(st: GameState, before: GameState, seat: int, action: Action) -> list[dict[str, Any]]:
    """The domino layout as the hand's last action left it. The state has already dealt the next hand,
    so the last play is made again on a copy of the position before it, with one more tile in the
    player's hand so that the hand does not end there; a hand blocked by a pass ended on the layout
    before it."""
    if st.is_over():
        return list(st.view(None)["layout"])
    layout: list[dict[str, Any]] = before.view(None)["layout"]
    if action.kind != "play":
        return layout
    to_pure = getattr(before, "to_pure", None)  # a native state: the spare tile goes into a pure copy's hand
    copy = to_pure().clone() if callable(to_pure) else before.clone()
    hands = getattr(copy, "hands", None)
    if not isinstance(hands, list) or not 0 <= seat < len(hands):
        return layout
    held = hands[seat]
    spare = next((t for h in hands for t in h if t not in held), None)
    if spare is None:
        spare = next(iter(getattr(copy, "boneyard", []) or []), None)
    if spare is None:
        return layout
    held.append(spare)
    try:
        copy.apply(seat, action.with_claim(None))
    except MugginsError:
        return layout
    return list(copy.view(None)["layout"])


def domino_end_lines(st: GameState, start: int, names: list[str], ascii_only: bool) -> list[str]:
    """What every seat still held, with its pips."""
    end = hand_event(st, start, "hand_end") or {}
    hands, pips = end.get("hands") or [], end.get("pips") or []
    lines: list[str] = []
    for s, held in enumerate(hands):
        words = tile_words(list(held), ascii_only)
        p = pips[s] if s < len(pips) else 0
        lines += wrap_words([*words, f"({p} pips)"] if held else ["out"], WIDTH - 4, f"{names[s]}:", "  ")
    return lines


class DominoRenderer(TerminalRenderer):
    """Dominoes at the terminal: the layout drawn with its geometry, tiles drawn like the table's."""

    hint_words = "the count of the ends, the bot's move"
    has_drawing = True
    shows_other_events = False

    def piece_words(self, pieces: list[str], ascii_only: bool) -> list[str]:
        return tile_words(pieces, ascii_only)

    def body(self, st: GameState, v: dict[str, Any], names: list[str], width: int, rows: int,
             ascii_only: bool, hints: bool) -> list[str]:
        shown = hints or v.get("claims") == "auto"
        count = getattr(st, "count", None) if shown else None
        return domino_lines(v, width, ascii_only, count if isinstance(count, int) else None, rows)

    def drawing(self, layout: list[dict[str, Any]], width: int, ascii_only: bool,
                rows: int | None = None) -> list[str]:
        return draw_layout(layout, width, ascii_only, rows)

    def hand_end(self, st: GameState, before: GameState, seat: int, action: Action, start: int,
                 number: int, names: list[str], ascii_only: bool) -> HandEnd:
        return HandEnd(number, "Hand", domino_end_lines(st, start, names, ascii_only), start,
                       final_layout(st, before, seat, action))
