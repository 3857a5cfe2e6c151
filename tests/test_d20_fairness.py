"""The fairness benchmark (benchmarks/fairness.py) for a d20 free-for-all: a share per seat, the
squads taking the seats in turn; rulesets not played by that many are left out."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "fairness.py"


def test_a_free_for_all_of_three_gives_each_seat_and_each_squad_its_wins(
    capsys: pytest.CaptureFixture[str],
) -> None:
    spec = importlib.util.spec_from_file_location("fairness_benchmark", BENCHMARK)
    assert spec is not None and spec.loader is not None
    fairness = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fairness)
    assert fairness.main(["--matches", "3", "--players", "3", "--processes", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    headings = [line for line in lines if "automatic matches" in line]
    assert headings == ["d20 Skirmish: 3 automatic matches, attrition on foundry"]
    first = lines.index(headings[0])
    assert lines[first + 1].split() == [
        "wins",
        "as",
        "side",
        "0",
        "as",
        "side",
        "1",
        "as",
        "side",
        "2",
    ]
    rows = {
        row[0]: row[1:]
        for row in (re.split(r"\s{2,}", line.strip()) for line in lines[first + 2 : first + 9])
    }
    squads = {"Blue Hunters", "Gold Breakers", "Green Wardens"}
    assert set(rows) == squads | {"side 0", "side 1", "side 2", "draws"}
    won = sum(int(rows[name][0]) for name in squads)
    assert won + int(rows["draws"][0]) == 3
    assert sum(int(rows[f"side {n}"][0]) for n in range(3)) == won
    assert all(sum(int(v) for v in rows[name][1:]) == int(rows[name][0]) for name in squads)
    assert lines[-1].startswith("ratio: ")
