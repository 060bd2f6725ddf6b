"""The standard board and positions on it, shared by the tests (one copy of what 8 modules wrote).

``position("england F nth", "france A par", phase=...)`` builds a position; each unit is
``"<power> <A|F> <location>"``; the supply centres are owned as at the start unless ``owners``
says otherwise.  The board is loaded once (``load_board`` keeps it).
"""

from __future__ import annotations

from diplomacy_desktop.engine.state import MOVEMENT, SPRING, DislodgedUnit, GameState, Phase, Unit
from diplomacy_desktop.io.boardfile import load_board

BOARD = load_board()
#: each home centre and the power that owns it at the start
HOME: dict[str, str] = {c: p for p, cs in BOARD.home_centres.items() for c in cs}
START = GameState.initial(BOARD)
SPRING_1901 = Phase(1901, SPRING, MOVEMENT)


def position(*units: str, phase: Phase | None = None, owners: dict[str, str] | None = None,
             dislodged: tuple[DislodgedUnit, ...] = (), contested: tuple[str, ...] = ()) -> GameState:
    """A position of ``units`` in ``phase`` (Spring 1901 movement unless given)."""
    return GameState.build(BOARD, phase or SPRING_1901, [Unit(*u.split()) for u in units],
                           HOME if owners is None else owners, dislodged, contested)
