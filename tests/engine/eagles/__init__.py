"""Tests of the Eagles in the Sky engine and data."""
