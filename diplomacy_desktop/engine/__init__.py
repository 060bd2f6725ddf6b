"""The rules engine: standard library only (no Qt, no Shapely, no file formats)."""

from __future__ import annotations

from .adjustments import adjudicate_adjustments, civil_disorder_removals
from .board import ARMY, FLEET, Board, BoardError, Space, province_of
from .errors import AmbiguousOrderError, IllegalOrderError, OrderError, UnreadableOrderError
from .formal import Relations, declare
from .movement import adjudicate_movement
from .orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold, SupportMove,
                     UnitOrder, Waive)
from .results import OrderResult, Outcome
from .retreats import adjudicate_retreats
from .rules import CLASSIC, RULES_2023, Edition, RuleSet
from .state import ADJUSTMENT, FALL, MOVEMENT, RETREAT, SPRING, DislodgedUnit, GameState, Phase, Unit
from .turns import PhaseOutcome, adjudicate_phase, settle, update_ownership, winner
from .validation import check_order, is_legal

__all__ = [
    "ADJUSTMENT", "ARMY", "CLASSIC", "FALL", "FLEET", "MOVEMENT", "RETREAT", "RULES_2023", "SPRING",
    "AmbiguousOrderError", "Board", "BoardError", "Build", "Convoy", "Disband", "DislodgedUnit", "Edition",
    "GameState", "Hold", "IllegalOrderError", "Move", "Order", "OrderError", "OrderResult", "Outcome",
    "Phase", "PhaseOutcome", "Relations", "Remove", "Retreat", "RuleSet", "Space", "SupportHold", "SupportMove",
    "Unit", "UnitOrder", "UnreadableOrderError", "Waive", "adjudicate_adjustments", "adjudicate_movement",
    "adjudicate_phase", "adjudicate_retreats", "check_order", "civil_disorder_removals", "declare", "is_legal",
    "province_of", "settle", "update_ownership", "winner",
]
