"""The screenshots of docs/players.md are taken by a script anyone can run:
``python docs/tools/screenshots.py OUTDIR`` writes the board at its four sizes, each PNG
exactly its window's size. It needs the web extra, Playwright for Python and the system's
Chromium (``CHROMIUM`` names another), and is skipped with the reason where one is missing.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import rummikub
from tests.tools import CHROMIUM

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "docs" / "tools" / "screenshots.py"
SIZES = ((360, 740), (390, 844), (768, 1024), (1280, 900))
ENTRY_SIZE = (360, 740)


#: Each picture and its size: the board at its four sizes, and the phone setting a position up.
NAMES = [(f"board-{w}x{h}.png", (w, h)) for w, h in SIZES] + [
    (f"board-entry-{ENTRY_SIZE[0]}x{ENTRY_SIZE[1]}.png", ENTRY_SIZE)
]


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", f"{path} is no PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_script_takes_the_four_screenshots(tmp_path: Path) -> None:
    for module, why in (
        ("playwright", "Playwright for Python is not installed (pip install playwright)"),
        ("starlette", "the web extra (starlette) is not installed"),
        ("uvicorn", "the web extra (uvicorn) is not installed"),
    ):
        if importlib.util.find_spec(module) is None:
            pytest.skip(why)
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set CHROMIUM)")
    package_root = str(Path(rummikub.__file__).resolve().parent.parent)
    path = os.environ.get("PYTHONPATH")
    env = {**os.environ, "PYTHONPATH": package_root + (os.pathsep + path if path else "")}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "shots")],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for name, (width, height) in NAMES:
        shot = tmp_path / "shots" / name
        assert shot.is_file(), f"{shot.name} was not written"
        assert png_size(shot) == (width, height), shot.name
        assert shot.stat().st_size > 10_000, f"{shot.name} looks empty"


def test_the_docs_show_the_screenshots_the_script_takes() -> None:
    players = (REPO / "docs" / "players.md").read_text(encoding="utf-8")
    for name, (width, height) in NAMES:
        assert f"]({name})" in players, f"docs/players.md does not show {name}"
        assert png_size(REPO / "docs" / name) == (width, height), name
