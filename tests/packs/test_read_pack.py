"""Content packs in the engine: the document's shape, the hostile inputs it refuses, and
packs laid over the built-in data through the systems' own loaders."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core import registry
from engine.core.dataload import DataError, read_shipped
from engine.core.packs import MAX_BYTES, MAX_DEPTH, MAX_ENTRIES, Pack, read_pack
from engine.dif.loader import load_aircraft

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "example-pack.yaml"

PLANE = """\
    - id: {id}
      {extra}name: {name}
      side: axis
      nation: Japan
      year: 1943
      rulesets: [rotl, zero]
      value: 5
      leader_only_value: 3
      leader:
        undamaged: {{damage_capacity: 3, hand_size: 6, draw: 2, bursts: 1}}
        damaged: {{damage_capacity: 4, hand_size: 5, draw: 1, bursts: 0}}
      wingman:
        undamaged: {{damage_capacity: 3, offensive: 1, defensive: 2}}
        damaged: {{damage_capacity: 4, offensive: 1, defensive: 1}}
"""


def dif_pack(
    *planes: str, name: str = "test-pack", provenance: str = "Authored for a test."
) -> bytes:
    """A pack of DiF aircraft (each made by :func:`plane`)."""
    head = f"pack: {name}\nprovenance: {provenance}\ndif:\n  aircraft:\n"
    return (head + "".join(planes)).encode()


def plane(id: str = "ki-43-kai", name: str = "Ki-43 Kai", *, override: bool = False) -> str:
    return PLANE.format(id=id, name=name, extra="override: true\n      " if override else "")


def read(data: bytes, file: str = "pack.yaml") -> Pack:
    return read_pack(file, data, registry.content_kinds())


def refused(data: bytes, file: str = "pack.yaml") -> str:
    with pytest.raises(DataError) as caught:
        read_and_build(data, file)
    return str(caught.value)


def read_and_build(data: bytes, file: str) -> None:
    pack = read(data, file)
    for system in pack.systems:
        registry.with_content(system, [pack])


def test_the_documented_example_pack_loads_in_every_system_it_names() -> None:
    pack = read(EXAMPLE.read_bytes(), "example-pack.yaml")
    assert pack.name == "what-if-fighters" and pack.systems == ("dif", "lockedon", "eagles")
    dif = registry.with_content("dif", [pack])
    assert "ki-43-kai" in {c.id for c in dif.aircraft_catalogue()}  # type: ignore[attr-defined]
    lockedon = registry.with_content("lockedon", [pack])
    f4 = lockedon.engine.components.aircraft["f-4e"]  # type: ignore[attr-defined]
    assert [m.missile for m in f4.missiles] == ["aim-7e-2", "aim-9x-test"]
    eagles = registry.with_content("eagles", [pack])
    assert eagles.engine.aircraft["se5b"].name == "SE5b"  # type: ignore[attr-defined]


def test_a_pack_adds_after_the_built_in_entries_and_overrides_in_place() -> None:
    shipped = list(load_aircraft())
    pack = read(dif_pack(plane(), plane("a6m2", "A6M2 Zero Kai", override=True)))
    system = registry.with_content("dif", [pack])
    ids = list(system.engine.aircraft)  # type: ignore[attr-defined]
    assert ids == [*shipped, "ki-43-kai"]
    assert system.engine.aircraft["a6m2"].name == "A6M2 Zero Kai"  # type: ignore[attr-defined]
    assert load_aircraft()["a6m2"].name == "A6M2 Zero"  # the built-in data is untouched


def test_later_packs_are_laid_over_earlier_ones() -> None:
    first = read(dif_pack(plane()), "first.yaml")
    again = read(dif_pack(plane(name="Ki-43 Kai II"), name="second"), "second.yaml")
    with pytest.raises(DataError, match=r"second.yaml: dif.aircraft\[0\].id: 'ki-43-kai' is"):
        registry.with_content("dif", [first, again])
    second = read(dif_pack(plane(name="Ki-43 Kai II", override=True), name="second"))
    system = registry.with_content("dif", [first, second])
    assert system.engine.aircraft["ki-43-kai"].name == "Ki-43 Kai II"  # type: ignore[attr-defined]


def test_the_built_in_file_validates_through_the_pack_path() -> None:
    """The built-in data is itself a pack: the shipped aircraft file, as one pack's
    section overriding every entry, gives the same aircraft."""
    shipped = read_shipped("dif", "aircraft.yaml")
    body = "".join(
        line.replace("- id:", "- override: true\n  id:", 1) if line.startswith("- id:") else line
        for line in shipped.splitlines(keepends=True)
        if not line.startswith("#")
    )
    indented = "".join(f"    {line}" if line.strip() else line for line in body.splitlines(True))
    data = f"pack: built-in\nprovenance: data/dif\ndif:\n  aircraft:\n{indented}".encode()
    system = registry.with_content("dif", [read(data)])
    assert dict(system.engine.aircraft) == load_aircraft()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"x" * (MAX_BYTES + 1), f"pack.yaml: (file): {MAX_BYTES + 1} bytes, more than"),
        (b"pack: \xff\xfe", "pack.yaml: (file): not UTF-8 text"),
        (
            b"a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n",
            "anchors and aliases (& and *) are not allowed",
        ),
        (b"pack: p\nprovenance: q\ndif: {aircraft: [*x]}\n", "anchors and aliases"),
        (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), f"nested deeper than {MAX_DEPTH}"),
        (b"- 1\n- 2\n", "(top level): expected a mapping with pack, provenance"),
        (b"pack: p\nprovenance: q\ndif: {aircraft: [1, 2]}\n", "dif.aircraft[0]: expected a"),
        (b"pack: Bad Name\nprovenance: q\ndif: {aircraft: [{}]}\n", "pack: a name of 1 to 32"),
        (b"pack: p\ndif: {aircraft: [{}]}\n", "provenance: a text saying where"),
        (b"pack: p\nprovenance: q\nchess: {pieces: [{}]}\n", "chess: unknown system"),
        (b"pack: p\nprovenance: q\ndif: {decks: [{}]}\n", "dif.decks: unknown section"),
        (b"pack: p\nprovenance: q\ndif: {aircraft: [{}]}\ndif: {}\n", "duplicate key 'dif'"),
        (b"pack: p\nprovenance: q\ndif: {aircraft: [{x: 1}]}\n...\n---\nb: 1\n", "not valid YAML"),
        (b"pack: !!python/object:os.system p\n", "not valid YAML"),
        (b"pack: p\nprovenance: q\nn: " + b"9" * 5000 + b"\n", "not valid YAML"),
    ],
    ids=[
        "oversize",
        "not-utf8",
        "yaml-bomb",
        "alias",
        "deep",
        "not-a-mapping",
        "entry-not-a-mapping",
        "bad-name",
        "no-provenance",
        "unknown-system",
        "unknown-section",
        "duplicate-key",
        "two-documents",
        "python-tag",
        "huge-integer",
    ],
)
def test_hostile_documents_are_refused_naming_the_file(data: bytes, message: str) -> None:
    assert message in refused(data)


def test_too_many_entries_are_refused_before_validation() -> None:
    entries = "".join(f"    - {{id: p{n}}}\n" for n in range(MAX_ENTRIES + 1))
    data = f"pack: p\nprovenance: q\ndif:\n  aircraft:\n{entries}".encode()
    assert f"{MAX_ENTRIES + 1} entries, more than the {MAX_ENTRIES} allowed" in refused(data)


@pytest.mark.parametrize(
    "name",
    [
        "'@everyone'",
        "'<@123456>'",
        "'<#42>'",
        "'**Bold**'",
        "'`code`'",
        "'[click](http://x.example)'",
        "'||spoiler||'",
        "'# heading'",
        "'_italics_'",
        "'a\\tb'",
        '"Ki 43\\u0007"',
    ],
)
def test_names_that_ping_or_format_are_refused_naming_the_entry(name: str) -> None:
    text = refused(dif_pack(plane(name=name)))
    assert "pack.yaml: dif.aircraft[0].name: " in text and "is not allowed" in text


def test_links_are_refused_outside_the_provenance() -> None:
    assert "dif.aircraft[0].name: '://' is not allowed" in refused(
        dif_pack(plane(name="https://x.example"))
    )
    pack = read(dif_pack(plane(), provenance="'From https://example.org/cards'"))
    assert pack.provenance == "From https://example.org/cards"
    assert "provenance: '@' is not allowed" in refused(dif_pack(plane(), provenance="'@here'"))


def test_a_key_that_is_no_plain_word_is_refused_without_repeating_it() -> None:
    data = b"pack: p\nprovenance: q\ndif:\n  aircraft:\n    - {'<@1>': 2}\n"
    text = refused(data)
    assert "dif.aircraft[0].(key): a key is 1 to 40 letters" in text and "<@1>" not in text


def test_over_long_text_is_refused() -> None:
    assert "dif.aircraft[0].name: 101 characters, more than the 100" in refused(
        dif_pack(plane(name="K" * 101))
    )


@pytest.mark.parametrize(
    ("pack", "message"),
    [
        (
            dif_pack(plane("a6m2")),
            "dif.aircraft[0].id: 'a6m2' is already in the built-in data; add 'override: true'",
        ),
        (
            dif_pack(plane(override=True)),
            "dif.aircraft[0].id: 'ki-43-kai' overrides nothing",
        ),
        (dif_pack(plane(), plane()), "dif.aircraft[1].id: duplicate id 'ki-43-kai'"),
        (
            dif_pack(plane().replace("value: 5", "value: many")),
            "pack.yaml: dif.aircraft[0].value: Input should be a valid integer",
        ),
        (
            dif_pack(plane().replace("year: 1943", "year: 1943\n      speed: -1")),
            "dif.aircraft[0].speed:",
        ),
        (
            b"pack: p\nprovenance: q\ndif: {aircraft: [{id: x, override: yes please}]}\n",
            "dif.aircraft[0].override: true or false",
        ),
    ],
    ids=["collides-with-built-in", "overrides-nothing", "duplicate", "wrong-type", "range", "flag"],
)
def test_entries_are_validated_by_the_built_in_schema(pack: bytes, message: str) -> None:
    assert message in refused(pack)


def test_a_cross_check_of_a_system_names_the_pack() -> None:
    data = EXAMPLE.read_bytes().replace(b"missile: aim-9x-test", b"missile: aim-404")
    text = refused(data, "example.yaml")
    assert "example.yaml: lockedon.aircraft: " in text and "unknown missile 'aim-404'" in text
