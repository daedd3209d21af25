"""A server's content packs in the store (``bot.packs``): versions kept for replay, one
live version a name, removal that keeps the rows. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.storage import ContentPackRecord, Storage
from tests.storage.backends import Database

GUILD, OTHER = 10, 20


@pytest.fixture
async def store(database: Database) -> AsyncIterator[Storage]:
    s = await database.open()
    try:
        yield s
    finally:
        await s.close()


async def upload(
    store: Storage, name: str, document: str = "pack: x", **kw: Any
) -> ContentPackRecord:
    fields: dict[str, Any] = {
        "name": name,
        "file": f"{name}.yaml",
        "digest": f"digest of {document}",
        "document": document,
        "uploaded_by": 7,
    }
    return await store.add_content_pack(kw.pop("guild", GUILD), **{**fields, **kw})


async def test_an_upload_is_stored_whole_as_version_one(store: Storage) -> None:
    added = await upload(store, "aces", "pack: aces\nprovenance: é\n")
    assert (added.guild_id, added.name, added.version, added.file) == (
        GUILD,
        "aces",
        1,
        "aces.yaml",
    )
    assert added.document == "pack: aces\nprovenance: é\n" and added.uploaded_by == 7
    assert added.removed_at is None and added.created_at.tzinfo is not None
    assert await store.content_packs(GUILD) == [added]
    assert await store.content_packs(OTHER) == []


async def test_a_new_upload_of_a_name_is_its_next_version_and_the_old_one_is_kept(
    store: Storage,
) -> None:
    first = await upload(store, "aces", "one")
    other = await upload(store, "bombers")
    second = await upload(store, "aces", "two")
    assert second.version == 2 and second.id != first.id
    assert [p.id for p in await store.content_packs(GUILD)] == [other.id, second.id]
    old, new = await store.content_packs_by_id([first.id, second.id])
    assert old.document == "one" and old.removed_at is not None
    assert new.document == "two" and new.removed_at is None


async def test_each_server_numbers_its_own_versions(store: Storage) -> None:
    await upload(store, "aces")
    theirs = await upload(store, "aces", guild=OTHER)
    assert theirs.version == 1
    assert [p.guild_id for p in await store.content_packs(OTHER)] == [OTHER]


async def test_removing_a_pack_keeps_its_rows_for_the_games_that_used_it(store: Storage) -> None:
    first = await upload(store, "aces")
    removed = await store.remove_content_pack(GUILD, "aces")
    assert removed is not None and removed.id == first.id and removed.removed_at is not None
    assert await store.content_packs(GUILD) == []
    assert await store.remove_content_pack(GUILD, "aces") is None
    assert await store.remove_content_pack(OTHER, "nothing") is None
    (kept,) = await store.content_packs_by_id([first.id])
    assert kept.document == first.document
    again = await upload(store, "aces")
    assert again.version == 2, "a name's versions go on after a removal"


async def test_packs_by_id_follow_the_order_asked_and_skip_unknown_ids(store: Storage) -> None:
    a = await upload(store, "a")
    b = await upload(store, "b")
    found = await store.content_packs_by_id([b.id, 999_999, a.id])
    assert [p.id for p in found] == [b.id, a.id]
    assert await store.content_packs_by_id([]) == []


async def test_uploads_of_one_name_at_once_give_distinct_versions(database: Database) -> None:
    """Two processes upload the same name at once: each gets its own version, one of
    them live."""
    one, two = await database.open(), await database.open()
    try:
        added = await asyncio.gather(upload(one, "aces", "1"), upload(two, "aces", "2"))
        assert sorted(p.version for p in added) == [1, 2]
        assert len(await one.content_packs(GUILD)) == 1
    finally:
        await one.close()
        await two.close()
