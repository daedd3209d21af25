"""A server's content packs: uploaded, checked, stored, and the systems games run on.

A pack (:mod:`engine.core.packs`: one YAML document with a name, a provenance and a
section per system, in the schemas of the built-in data) is checked before anything is
stored: its document alone (:func:`engine.core.packs.read_pack`: size, YAML bombs,
nesting, entry count, text that could ping or format), then every system it has a
section for is built over the built-in data and the server's other live packs with it
last, as a new game would be (:func:`engine.core.registry.with_content`). A refusal is
a :class:`~bot.errors.Refusal` naming the file, entry and field; nothing is stored and
the server's packs are as they were.

A new game records the server's live packs that have a section for its system (their
row ids, names, versions and digests: its options' ``packs``); every later load builds
its system from those exact rows (:func:`prepare`), which the store keeps after a new
version or a removal, so the game replays as it was played. Systems built over packs are
kept for the process, one per system and set of pack digests (:func:`system_of`).

A campaign does the same with its campaign game (Locked-On's, whose sheets a pack may
add: :func:`engine.core.registry.campaign_with_content`): a new one records the live packs
of its system in its set-up's ``packs`` (:meth:`ContentPacks.for_new_campaign`), is
loaded on the campaign game built over exactly those versions
(:func:`prepare_campaign`, :func:`campaign_system_of`), and its mission games record
the same packs, so they fly the pack's aircraft and replay after it changes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.errors import Refusal
from bot.storage import ContentPackRecord, Storage
from bot.systems import Hosted, hosted
from engine.core import registry
from engine.core.campaign import CampaignSystem
from engine.core.contract import HostedSystem
from engine.core.dataload import DataError
from engine.core.packs import MAX_BYTES, Pack, read_pack

__all__ = [
    "MAX_PACKS",
    "MAX_SHOWN_PROBLEMS",
    "OPTION",
    "ContentPacks",
    "campaign_system_of",
    "own_setup",
    "pack_documents",
    "prepare",
    "prepare_campaign",
    "safe_file_name",
    "system_of",
    "system_of_documents",
]

MAX_PACKS = 10
"""Live packs a server may have at once."""
MAX_SHOWN_PROBLEMS = 12
"""Problems a refusal lists (the rest are counted)."""
OPTION = "packs"
"""The key of a game's options (and of a campaign's set-up) naming the pack versions it
was created with."""
_UNSAFE_FILE = re.compile(r"[^A-Za-z0-9._-]+")

_BUILT: dict[tuple[str, tuple[str, ...]], Hosted] = {}
"""Systems built over packs, by system id and the digests of its packs in order."""
_CAMPAIGNS: dict[tuple[str, tuple[str, ...]], CampaignSystem[Any, Any]] = {}
"""Campaign games built over packs, by system id and the digests of its packs."""


def safe_file_name(name: str) -> str:
    """An uploaded file's or a typed pack's name as messages may show it: letters,
    digits, dots, dashes and underscores only (what could format or ping is a dash),
    at most 64 characters."""
    return _UNSAFE_FILE.sub("-", name)[:64] or "-"


@functools.cache
def _kinds() -> dict[str, tuple[str, ...]]:
    return registry.content_kinds()


def _parse(record: ContentPackRecord) -> Pack:
    """A stored pack version, read again (it passed these checks when it was stored)."""
    return _read(record.file, record.document)


@functools.lru_cache(maxsize=256)
def _read(file: str, document: str) -> Pack:
    """A pack's document read once per process (every new game lists the server's
    packs; reading one is a YAML parse of up to 64 KiB)."""
    return read_pack(file, document.encode("utf-8"), _kinds())


def _problems(error: DataError) -> str:
    """A :class:`DataError`'s lines for a code block: at most
    :data:`MAX_SHOWN_PROBLEMS`, the rest counted; no backtick can close the block."""
    lines = str(error).replace("`", "'").splitlines()
    shown = lines[:MAX_SHOWN_PROBLEMS]
    if len(lines) > len(shown):
        shown.append(f"(+{len(lines) - len(shown)})")
    return "\n".join(shown)


def _build(system_id: str, packs: Sequence[Pack]) -> Hosted:
    """The system over ``packs`` (kept for the process); raises :class:`DataError`."""
    key = (system_id, tuple(p.digest for p in packs))
    found = _BUILT.get(key)
    if found is None:
        built = registry.with_content(system_id, packs)
        if not isinstance(built, HostedSystem):
            raise TypeError(f"system {system_id!r} does not implement HostedSystem")
        found = _BUILT[key] = built
    return found


def _build_campaigns(system_id: str, packs: Sequence[Pack]) -> CampaignSystem[Any, Any] | None:
    """The campaign game over ``packs`` (kept for the process), or None for a system
    whose campaign game is not built over packs; raises :class:`DataError`."""
    key = (system_id, tuple(p.digest for p in packs))
    found = _CAMPAIGNS.get(key)
    if found is None:
        built = registry.campaign_with_content(system_id, packs)
        if built is None:
            return None
        found = _CAMPAIGNS[key] = built
    return found


def _refs(options: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(options.get(OPTION) or ())


def _key(system_id: str, refs: Sequence[Mapping[str, Any]]) -> tuple[str, tuple[str, ...]]:
    return (system_id, tuple(str(r["digest"]) for r in refs))


def _records(chosen: Sequence[tuple[ContentPackRecord, Pack]]) -> list[dict[str, Any]]:
    """What a game's options or a campaign's set-up record of its packs."""
    return [
        {"id": r.id, "name": r.name, "version": r.version, "digest": r.digest} for r, _ in chosen
    ]


def own_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """A campaign's stored set-up without its packs: what its system's ``setup_model``
    validates."""
    return {key: value for key, value in setup.items() if key != OPTION}


def system_of(system_id: str, options: Mapping[str, Any]) -> Hosted:
    """The system a game with these options runs on: the built-in one, or the one
    built over the packs it names (which :func:`prepare` built when it was loaded)."""
    refs = _refs(options)
    if not refs:
        return hosted(system_id)
    found = _BUILT.get(_key(system_id, refs))
    if found is None:
        raise Refusal("refusal.pack.unavailable", why=", ".join(str(r["name"]) for r in refs))
    return found


def campaign_system_of(system_id: str, setup: Mapping[str, Any]) -> CampaignSystem[Any, Any]:
    """The campaign game a campaign with this stored set-up runs on: the built-in one,
    or the one built over the packs it names (which :func:`prepare_campaign` built when
    it was loaded)."""
    refs = _refs(setup)
    if not refs:
        return registry.campaign_system(system_id)
    found = _CAMPAIGNS.get(_key(system_id, refs))
    if found is None:
        raise Refusal("refusal.pack.unavailable", why=", ".join(str(r["name"]) for r in refs))
    return found


async def _stored_packs(storage: Storage, refs: Sequence[Mapping[str, Any]]) -> list[Pack]:
    """The exact pack versions ``refs`` name, read again; refused if one is gone or
    its document changed."""
    rows = await storage.content_packs_by_id([int(r["id"]) for r in refs])
    if [(row.id, row.digest) for row in rows] != [(int(r["id"]), r["digest"]) for r in refs]:
        raise Refusal("refusal.pack.unavailable", why=", ".join(str(r["name"]) for r in refs))
    return [_parse(row) for row in rows]


async def prepare(storage: Storage, system_id: str, options: Mapping[str, Any]) -> None:
    """Build, once per process, the system of a game whose options name packs, from the
    exact pack versions it was created with. Refused if one is gone or changed."""
    refs = _refs(options)
    if not refs or _key(system_id, refs) in _BUILT:
        return
    packs = await _stored_packs(storage, refs)
    try:
        _build(system_id, packs)
    except DataError as exc:
        raise Refusal("refusal.pack.unavailable", why=_problems(exc)) from exc


async def prepare_campaign(storage: Storage, system_id: str, setup: Mapping[str, Any]) -> None:
    """Build, once per process, the campaign game of a campaign whose set-up names
    packs, from the exact pack versions it was created with (and the game system its
    missions run on). Refused if one is gone or changed."""
    refs = _refs(setup)
    if not refs or _key(system_id, refs) in _CAMPAIGNS:
        return
    packs = await _stored_packs(storage, refs)
    try:
        _build(system_id, packs)
        _build_campaigns(system_id, packs)
    except DataError as exc:
        raise Refusal("refusal.pack.unavailable", why=_problems(exc)) from exc


async def pack_documents(storage: Storage, options: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The ``(file name, document)`` of each pack version a game with these options was
    created with, in order (what its exported log carries)."""
    rows = await storage.content_packs_by_id([int(r["id"]) for r in _refs(options)])
    return [(row.file, row.document) for row in rows]


def system_of_documents(system_id: str, documents: Sequence[tuple[str, str]]) -> Hosted:
    """The system over the packs an exported log carries (``python -m bot verify``).
    Raises :class:`DataError`."""
    if not documents:
        return hosted(system_id)
    return _build(system_id, [_read(file, text) for file, text in documents])


class ContentPacks:
    """The content packs of the servers of one bot process (``/config pack``)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    @staticmethod
    def check_size(file: str, size: int) -> None:
        """Refuse an attachment over :data:`engine.core.packs.MAX_BYTES` before it is
        downloaded."""
        if size > MAX_BYTES:
            raise Refusal(
                "refusal.pack.too_big", file=safe_file_name(file), size=size, max=MAX_BYTES
            )

    async def add(
        self, guild_id: int, user_id: int, file: str, data: bytes
    ) -> tuple[ContentPackRecord, Pack]:
        """Check the uploaded ``data`` and store it as the next version of its pack.
        Refused (nothing stored) when it fails a check, when it would make the server's
        packs fail one (the new version is laid last, after every other live pack), or
        when the server has :data:`MAX_PACKS` others."""
        name = safe_file_name(file)
        try:
            pack = read_pack(name, data, _kinds())
        except DataError as exc:
            raise Refusal("refusal.pack.invalid", file=name, problems=_problems(exc)) from exc
        live = await self.storage.content_packs(guild_id)
        others = [r for r in live if r.name != pack.name]
        if len(others) >= MAX_PACKS:
            raise Refusal("refusal.pack.too_many", max=MAX_PACKS)
        # The systems the new version touches, and those its previous version did.
        systems = {
            *pack.systems,
            *(s for r in live if r.name == pack.name for s in _parse(r).systems),
        }
        try:
            self._check([*map(_parse, others), pack], systems)
        except DataError as exc:
            raise Refusal("refusal.pack.invalid", file=name, problems=_problems(exc)) from exc
        record = await self.storage.add_content_pack(
            guild_id,
            name=pack.name,
            file=name,
            digest=pack.digest,
            document=data.decode("utf-8"),
            uploaded_by=user_id,
        )
        return record, pack

    async def live(self, guild_id: int) -> list[tuple[ContentPackRecord, Pack]]:
        """The server's live packs, in the order they are laid over the built-in data."""
        return [(r, _parse(r)) for r in await self.storage.content_packs(guild_id)]

    async def remove(self, guild_id: int, name: str) -> ContentPackRecord:
        """Remove the server's live pack ``name`` (games that used it keep it). Refused
        when the server has none of that name, or when its other packs need it (an
        ``override`` of an entry only it adds)."""
        live = await self.storage.content_packs(guild_id)
        gone = next((r for r in live if r.name == name), None)
        if gone is None:
            raise Refusal("refusal.pack.no_such", name=safe_file_name(name))
        rest = [_parse(r) for r in live if r.id != gone.id]
        try:
            self._check(rest, _parse(gone).systems)
        except DataError as exc:
            raise Refusal("refusal.pack.needed", name=gone.name, problems=_problems(exc)) from exc
        removed = await self.storage.remove_content_pack(guild_id, name)
        if removed is None:  # another process removed it meanwhile
            raise Refusal("refusal.pack.no_such", name=safe_file_name(name))
        return removed

    async def for_new_game(self, guild_id: int, system_id: str) -> list[dict[str, Any]]:
        """What a new game of ``system_id`` records of the server's packs (its options'
        ``packs``): the live ones with a section for the system, in order. The system
        over them is built now, so the game can be loaded."""
        chosen = await self._of_system(guild_id, system_id)
        self._over(system_id, [p for _, p in chosen])
        return _records(chosen)

    async def for_new_campaign(self, guild_id: int, system_id: str) -> list[dict[str, Any]]:
        """What a new campaign of ``system_id`` records of the server's packs (its
        set-up's ``packs``), as :meth:`for_new_game`; none for a system whose campaign
        game is not built over packs. Its campaign game over them is built now."""
        chosen = await self._of_system(guild_id, system_id)
        packs = [p for _, p in chosen]
        if not chosen or self._campaigns_over(system_id, packs) is None:
            return []
        self._over(system_id, packs)  # its mission games' system
        return _records(chosen)

    async def campaigns_for(self, guild_id: int | None, system_id: str) -> CampaignSystem[Any, Any]:
        """The campaign game a new campaign of ``system_id`` on this server would run
        on (outside a server: the built-in one), for ``/campaign new``."""
        chosen = await self._of_system(guild_id, system_id) if guild_id is not None else []
        if not chosen:
            return registry.campaign_system(system_id)
        found = self._campaigns_over(system_id, [p for _, p in chosen])
        return registry.campaign_system(system_id) if found is None else found

    async def system_for(self, guild_id: int | None, system_id: str) -> Hosted:
        """The system a new game of ``system_id`` on this server would run on (outside
        a server: the built-in one), for ``/dogfight aircraft``."""
        if guild_id is None:
            return hosted(system_id)
        chosen = await self._of_system(guild_id, system_id)
        return self._over(system_id, [p for _, p in chosen])

    async def _of_system(
        self, guild_id: int, system_id: str
    ) -> list[tuple[ContentPackRecord, Pack]]:
        return [(r, p) for r, p in await self.live(guild_id) if system_id in p.systems]

    @staticmethod
    def _over(system_id: str, packs: Sequence[Pack]) -> Hosted:
        """The built-in system, or the one over ``packs``; refused if they fail now
        (the code changed under a stored pack)."""
        if not packs:
            return hosted(system_id)
        try:
            return _build(system_id, packs)
        except DataError as exc:
            raise Refusal("refusal.pack.unavailable", why=_problems(exc)) from exc

    @staticmethod
    def _campaigns_over(system_id: str, packs: Sequence[Pack]) -> CampaignSystem[Any, Any] | None:
        """The campaign game over ``packs`` (None if the system's is not built over
        packs); refused if they fail now."""
        try:
            return _build_campaigns(system_id, packs)
        except DataError as exc:
            raise Refusal("refusal.pack.unavailable", why=_problems(exc)) from exc

    @staticmethod
    def _check(packs: Sequence[Pack], systems: Iterable[str]) -> None:
        """Build each of ``systems`` over ``packs`` (those with a section for it), as a
        new game would, and its campaign game as a new campaign would; raises
        :class:`DataError`."""
        campaigns = registry.campaign_system_ids()
        for system_id in systems:
            mine = [p for p in packs if system_id in p.systems]
            _build(system_id, mine)
            if system_id in campaigns:
                _build_campaigns(system_id, mine)
