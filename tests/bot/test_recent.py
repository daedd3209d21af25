"""bot.recent.Recent: a bounded memory, least recently used forgotten first."""

from __future__ import annotations

import pytest

from bot.recent import Recent


def test_the_least_recently_used_entry_is_forgotten_first() -> None:
    memory: Recent[int, str] = Recent(2)
    memory.put(1, "one")
    memory.put(2, "two")
    assert memory.get(1) == "one"  # now the most recent
    memory.put(3, "three")
    assert 2 not in memory and 1 in memory and 3 in memory
    assert len(memory) == 2
    memory.put(1, "uno")  # a new value is used too
    memory.put(4, "four")
    assert memory.get(1) == "uno" and memory.get(3) is None


def test_pop_forgets_and_returns_a_falsy_value_too() -> None:
    memory: Recent[int, str] = Recent(4)
    memory.put(7, "")
    assert memory.get(7) == ""
    assert memory.pop(7) == ""
    assert memory.pop(7) is None and 7 not in memory
    memory.put(8, "eight")
    memory.clear()
    assert len(memory) == 0 and memory.get(8) is None


def test_a_memory_holds_one_entry_at_least() -> None:
    with pytest.raises(ValueError):
        Recent(0)
