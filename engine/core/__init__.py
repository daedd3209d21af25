"""Shared engine core: seeded RNG, errors, events."""

from __future__ import annotations

from engine.core.errors import EngineError, MalformedAction, RuleViolation, SetupError
from engine.core.events import Event
from engine.core.rng import Rng

__all__ = ["EngineError", "Event", "MalformedAction", "Rng", "RuleViolation", "SetupError"]
