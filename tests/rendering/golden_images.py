"""Golden images: a picture compared with the one kept in ``tests/rendering/golden/``.

Regenerate them after an intended change of look, and look at them before
committing::

    TALLYHO_UPDATE_GOLDEN=1 python -m pytest tests/rendering

A picture matches when it has the golden image's size and their mean absolute pixel
difference (``PIL.ImageChops``) is under :data:`GOLDEN_TOLERANCE`: a moved row changes
the size, and each test file checks the words of its pictures as data besides.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

__all__ = ["GOLDEN_DIR", "GOLDEN_TOLERANCE", "UPDATE_GOLDEN", "check_golden", "decode"]

GOLDEN_DIR = Path(__file__).parent / "golden"
UPDATE_GOLDEN = os.environ.get("TALLYHO_UPDATE_GOLDEN") == "1"
GOLDEN_TOLERANCE = 0.5
"""Largest mean absolute pixel difference allowed against a golden image (0-255 scale,
worst of the R, G and B means).

A patch release of Pillow or FreeType nudges anti-aliased glyph edges: even halving
the text anti-aliasing steps (8 to 4, see ``rendering.table.AA_LEVELS``) moves the
mean by only about 0.4. A real change to the picture is well above it: "Advantaged"
instead of "Tailing" on a sky's arrow gives about 1.8, a reversed arrow about 3, and
a moved or added card changes the image size, which must match exactly. A single
changed digit (about 0.03) passes here, so each picture's layout tests compare every
text exactly."""


def decode(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def check_golden(name: str, png: bytes, tmp_path: Path) -> None:
    """``png`` matches golden image ``name`` (with ``TALLYHO_UPDATE_GOLDEN=1``: becomes
    it, and the test is skipped). On a mismatch the picture and the difference are
    written to ``tmp_path`` for a look."""
    golden = GOLDEN_DIR / f"{name}.png"
    if UPDATE_GOLDEN:
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(png)
        pytest.skip(f"wrote {golden}")
    assert golden.exists(), f"no golden image {golden}: run with TALLYHO_UPDATE_GOLDEN=1"
    actual, expected = decode(png), decode(golden.read_bytes())
    assert actual.size == expected.size, f"size {actual.size} != golden {expected.size}"
    diff = ImageChops.difference(actual, expected)
    mean = max(ImageStat.Stat(diff).mean)
    if mean > GOLDEN_TOLERANCE:
        (tmp_path / f"{name}.actual.png").write_bytes(png)
        diff.save(tmp_path / f"{name}.diff.png")
        pytest.fail(
            f"{name}: mean pixel difference {mean:.3f} > {GOLDEN_TOLERANCE}; see {tmp_path}"
        )
