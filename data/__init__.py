"""Game component data (YAML), shipped as package data. See each system's SOURCES.md."""

from __future__ import annotations

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent

__all__ = ["DATA_DIR"]
