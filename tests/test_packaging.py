"""What `pip install .` puts into site-packages: only the `skirmbot` name (issue 20).

The cogs and the SQL migrations keep their top-level folders in the repository, but a top-level
`cogs` or `migrations` package in site-packages would collide with any other project's.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_the_wheel_owns_only_the_skirmbot_name(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(tmp_path), str(REPO)],
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("skirmbot-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {name.split("/")[0] for name in names} == {"skirmbot", wheel.name.split("-py")[0] + ".dist-info"}
    assert "skirmbot/cogs/play.py" in names
    assert "skirmbot/migrations/001_initial.sql" in names
    # The pictures' font, the characters it covers and its licence (issue 28).
    for name in ("SkirmSans.ttf", "coverage.txt", "OFL.txt"):
        assert f"skirmbot/render/fonts/{name}" in names
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)
