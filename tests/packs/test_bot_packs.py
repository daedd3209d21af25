"""``bot.packs`` without Discord: a game names the exact pack versions it was created
with, and is refused (not loaded on other data) when one of them cannot be had."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import packs
from bot.errors import Refusal
from bot.storage import SQLiteStorage

EXAMPLE = (Path(__file__).resolve().parents[2] / "docs" / "example-pack.yaml").read_bytes()
GUILD = 5


@pytest.fixture
async def storage() -> AsyncIterator[SQLiteStorage]:
    store = await SQLiteStorage.open(":memory:")
    yield store
    await store.close()


async def test_a_game_names_its_pack_versions_and_loads_on_exactly_them(
    storage: SQLiteStorage,
) -> None:
    content = packs.ContentPacks(storage)
    record, pack = await content.add(GUILD, 1, "example-pack.yaml", EXAMPLE)
    refs = await content.for_new_game(GUILD, "dif")
    assert refs == [{"id": record.id, "name": pack.name, "version": 1, "digest": pack.digest}]
    assert await content.for_new_game(GUILD, "dif") == refs
    assert await content.for_new_game(GUILD + 1, "dif") == [], "another server's game"
    options = {packs.OPTION: refs}
    packs._BUILT.clear()
    with pytest.raises(Refusal) as not_built:
        packs.system_of("dif", options)
    assert not_built.value.key == "refusal.pack.unavailable"
    await packs.prepare(storage, "dif", options)
    assert "ki-43-kai" in {c.id for c in packs.system_of("dif", options).aircraft_catalogue()}
    assert packs.system_of("dif", {}) is not packs.system_of("dif", options)


@pytest.mark.parametrize(
    "change", [{"id": 999}, {"digest": "0" * 64}], ids=["row-gone", "other-digest"]
)
async def test_a_game_whose_pack_version_cannot_be_had_is_refused(
    storage: SQLiteStorage, change: dict[str, object]
) -> None:
    content = packs.ContentPacks(storage)
    await content.add(GUILD, 1, "example-pack.yaml", EXAMPLE)
    (ref,) = await content.for_new_game(GUILD, "dif")
    packs._BUILT.clear()
    with pytest.raises(Refusal) as refused:
        await packs.prepare(storage, "dif", {packs.OPTION: [{**ref, **change}]})
    assert refused.value.key == "refusal.pack.unavailable"


def test_file_names_are_shown_harmless() -> None:
    assert packs.safe_file_name("my **pack** <@1>.yaml") == "my-pack-1-.yaml"
    assert packs.safe_file_name("") == "-"
    assert len(packs.safe_file_name("a" * 200)) == 64


async def test_a_pack_whose_aircraft_another_packs_scenario_flies_is_not_removed(
    storage: SQLiteStorage,
) -> None:
    """The example pack's SE5b flies in a second pack's scenario: removing the example
    is refused, naming that scenario, and both packs stay."""
    content = packs.ContentPacks(storage)
    await content.add(GUILD, 1, "example-pack.yaml", EXAMPLE)
    scenario = EXAMPLE.split(b"  scenarios:\n", 1)[1].replace(b"number: 9", b"number: 10")
    house = b"pack: house\nprovenance: x\neagles:\n  scenarios:\n" + scenario
    await content.add(GUILD, 1, "house.yaml", house)
    kept = await storage.content_packs(GUILD)
    with pytest.raises(Refusal) as refused:
        await content.remove(GUILD, "what-if-fighters")
    assert refused.value.key == "refusal.pack.needed"
    problems = str(refused.value.fields["problems"])
    assert (
        "house.yaml: eagles.scenarios[0].allied.aircraft[0].aircraft: unknown aircraft 'se5b'"
        in problems
    )
    assert await storage.content_packs(GUILD) == kept
