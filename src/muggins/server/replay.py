"""A game stepped move by move, as one viewer saw it: after its end, a spectator's view of every step
(nothing a spectator did not see then); during the game, a seat's own views of its game so far.

Step ``n`` is the position after the record's action ``n - 1`` (step 0: the deal); its ``number`` is
``n``, the number the log and the analysis give the same action. A move's text is given when the viewer
made it or when the game finished (the record, public then, holds it); the events say what everybody saw.
"""

from __future__ import annotations

from typing import Any

from muggins.core.chance import Chance
from muggins.core.rules import get_game
from muggins.server.handend import hand_closed, public_hand_end
from muggins.tui.table import hand_number

MAX_STEPS = 5000


def replay_steps(table: Any, viewer: int | None) -> dict[str, Any]:
    """Every step of ``table``'s game for ``viewer`` (a seat, or None for a spectator)."""
    spec = get_game(table.game)
    st = spec.new(spec.rules(table.preset, table.options), len(table.seats), chance=Chance(seed=table.seed))
    names = [s.name or f"Seat {i + 1}" for i, s in enumerate(table.seats)]
    public = table.status == "finished"
    steps: list[dict[str, Any]] = [{"number": 0, "seat": None, "move": None, "view": st.view(viewer).to_json(),
                                    "events": st.events_for(viewer, 0), "event_start": 0, "hand_end": None}]
    history = table.state.history[:MAX_STEPS]
    for i, (seat, action) in enumerate(history):
        start, number = len(st.log), hand_number(st)
        before = st.clone()
        text = st.format_action(action)
        st.apply(seat, action)
        ended = hand_closed(st, number, start)
        steps.append({"number": i + 1, "seat": seat, "move": text if public or seat == viewer else None,
                      "view": st.view(viewer).to_json(), "events": st.events_for(viewer, start),
                      "event_start": start,
                      "hand_end": public_hand_end(st, before, seat, action, start, names) if ended else None})
    return {"table": table.summary(), "you": viewer, "renderer": table.renderer, "piece_noun": table.piece_noun,
            "names": names, "steps": steps, "complete": len(history) == len(table.state.history)}
