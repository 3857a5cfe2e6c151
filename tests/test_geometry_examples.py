"""Every worked example of shared/design/geometry-examples.json (notation: geometry-examples.md).

The examples are the project's reading of the rulings on adjacency, step costs, reachable
squares, line of sight, cover, ranged targeting and board validation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from skirmbot.rules.adjacency import adjacent
from skirmbot.rules.board import Board, parse_board
from skirmbot.rules.errors import ContentError
from skirmbot.rules.movement import Mover, reachable, step_cost
from skirmbot.rules.sight import sight
from skirmbot.rules.squares import Square
from skirmbot.rules.targeting import ranged_target_problem

DATA = Path(__file__).parent / "data" / "geometry-examples.json"
ORIGINAL = Path(__file__).resolve().parents[2] / "shared/design/geometry-examples.json"
EXAMPLES: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["examples"]
# Movement budgets (rulings: Movement); SWF adds 1 to each.
BUDGETS = {"move": 3, "dash": 1, "crawl": 1}


@dataclass(frozen=True)
class ExampleUnit:
    square: Square
    squad: str
    flags: frozenset[str]

    def mover(self) -> Mover:
        return Mover(
            self.squad,
            fly="FLY" in self.flags,
            ranger="RGR" in self.flags,
            nimble="NMB" in self.flags,
        )


class Example:
    """One example's board and units, and the answer the project gives to its query."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.board: Board = parse_board(data["board"]["rows"], data["board"]["edges"])
        self.units: dict[str, ExampleUnit] = {}
        for line in data["units"]:
            name, square, squad, *flags = line.split()
            self.units[name] = ExampleUnit(Square.parse(square), squad, frozenset(flags))
        self.occupancy = {unit.square: unit.squad for unit in self.units.values()}

    def square(self, name: str) -> Square:
        """A unit id or a square in A1 notation."""
        return self.units[name].square if name in self.units else Square.parse(name)

    def answer(self, query: dict[str, Any]) -> Any:
        kind = query["kind"]
        if kind == "distance":
            return self.square(query["a"]).distance(self.square(query["b"]))
        if kind == "adjacent":
            return adjacent(self.board, self.square(query["a"]), self.square(query["b"]))
        if kind == "step":
            mover = self.units[query["unit"]].mover()
            frm, to = Square.parse(query["from"]), Square.parse(query["to"])
            return step_cost(self.board, frm, to, mover, self.occupancy)
        if kind in ("los", "cover"):
            seen = sight(
                self.board,
                self.square(query["attacker"]),
                self.square(query["target"]),
                self.occupancy.keys(),
            )
            return seen.visible if kind == "los" else seen.cover
        if kind == "ranged":
            attacker = self.units[query["attacker"]]
            problem = ranged_target_problem(
                self.board,
                attacker.square,
                self.square(query["target"]),
                query["range"],
                self.occupancy,
                attacker.squad,
            )
            return problem is None
        raise AssertionError(f"unknown query kind {kind}")

    def reachable_costs(self, query: dict[str, Any]) -> dict[str, int]:
        unit = self.units[query["unit"]]
        budget = query.get("budget")
        if budget is None:
            budget = BUDGETS[query["action"]] + ("SWF" in unit.flags)
        routes = reachable(self.board, unit.square, budget, unit.mover(), self.occupancy)
        return {str(square): route.cost for square, route in routes.items()}


@pytest.mark.parametrize("data", EXAMPLES, ids=[example["id"] for example in EXAMPLES])
def test_example(data: dict[str, Any]) -> None:
    query, expect = data["query"], data["expect"]
    why = f"{data['title']}: {data['derivation']}"
    if query["kind"] == "valid":
        if expect:
            Example(data)
        else:
            with pytest.raises(ContentError):
                Example(data)
        return
    example = Example(data)
    if query["kind"] == "reachable":
        costs = example.reachable_costs(query)
        if query.get("exact"):
            assert costs == expect, why
        else:
            assert {square: costs.get(square) for square in expect} == expect, why
        return
    assert example.answer(query) == expect, why


def test_examples_are_the_shared_ones() -> None:
    """tests/data holds a copy of the shared examples so the suite runs alone; keep it current."""
    if not ORIGINAL.exists():
        pytest.skip("shared/design is not beside this checkout")
    assert DATA.read_bytes() == ORIGINAL.read_bytes()


def test_example_ids_are_unique() -> None:
    ids = [example["id"] for example in EXAMPLES]
    assert len(ids) == len(set(ids))
