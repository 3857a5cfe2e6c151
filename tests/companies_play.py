"""Matches of the group rules on shipped content for tests of play (legal commands, the
service): deployed by a simple rule, ambitions chosen, then played by seeded random legal
commands to reach positions no test sets up by hand."""

from __future__ import annotations

import random
from typing import Any

from skirmbot import content
from skirmbot.rules.commands import Command, Deploy
from skirmbot.rules.companies import geometry
from skirmbot.rules.companies.commands import ChooseAmbition
from skirmbot.rules.companies.engine import CompaniesMatch
from skirmbot.rules.companies.legal import legal_commands
from skirmbot.rules.companies.profiles import with_catalogue
from skirmbot.rules.companies.setup import new_state
from skirmbot.rules.companies.state import State
from skirmbot.rules.dice import SeededDice
from skirmbot.rules.squares import Square

SQUADS = {2: ("hill-wardens", "red-hounds"), 4: ("iron-lances", "red-hounds", "thornwatch",
          "ember-circle")}  # fmt: skip


def shipped_content(players: int = 2, mission: str = "clash") -> dict[str, Any]:
    return with_catalogue(
        {
            "map": content.raw("maps", content.DEFAULT_MAP),
            "mission": content.raw("missions", mission, "companies"),
            "squads": [content.raw("squads", name, "companies") for name in SQUADS[players]],
        }
    )


def placements(state: State, seat: int) -> dict[str, str]:
    """Each Group by its first model's square, spread along the seat's zone: the row nearest
    the middle of the table, every 4th column with room for a formation."""
    zone = state.zones[seat]
    rows = sorted({s.y for s in zone}, key=lambda y: abs(y - state.board.height // 2))
    taken: set[Square] = set()
    found: dict[str, str] = {}
    terrain = geometry.Terrain(state.board)
    for group in state.groups_of(seat):
        for square in sorted(zone, key=lambda s: (rows.index(s.y), s.x)):
            if square in taken:
                continue
            formation = geometry.formation_at(
                terrain, square, group.profile.models, zone - taken, taken
            )
            if formation is not None:
                found[group.id] = str(square)
                taken |= {s.offset(dx, dy) for s in formation for dx in (-1, 0, 1)
                          for dy in (-1, 0, 1)}  # fmt: skip
                break
    return found


def deployed(seed: int, players: int = 2) -> CompaniesMatch:
    """Round 1 after every seat deployed and chose Glory."""
    played = CompaniesMatch(new_state(shipped_content(players)), SeededDice(seed))
    for seat in range(players):
        played.apply(Deploy(seat, placements(played.state, seat)))
    for seat in range(players):
        played.apply(ChooseAmbition(seat, "glory"))
    return played


def acting(played: CompaniesMatch) -> list[int]:
    return [s for s in range(len(played.state.seats)) if legal_commands(played.state, s)]


def play_randomly(played: CompaniesMatch, seed: int, steps: int) -> list[Command]:
    """Up to `steps` commands, each a seeded random choice among the legal commands of a seat
    that has some (EndTurn chosen seldom, so the turns are full of orders)."""
    chooser = random.Random(seed)
    sent: list[Command] = []
    for _ in range(steps):
        seats = acting(played)
        if played.state.over or not seats:
            break
        menu = legal_commands(played.state, chooser.choice(seats))
        orders = [c for c in menu if c.type != "end_turn"]
        command = chooser.choice(orders) if orders and chooser.random() < 0.9 else menu[-1]
        played.apply(command)
        sent.append(command)
    return sent
