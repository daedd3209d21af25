"""Tests of the Down in Flames engine and data, by module (more in tests/engine/)."""
