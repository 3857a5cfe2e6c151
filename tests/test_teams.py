"""Team play through the service (issue 30), with a test double of a team ruleset
(tests/team_ruleset.py: the d20 rules as two sides of two): seating, squads and points per
seat, status by side, results per side for every seat, a concession, the shipped defaults."""

from __future__ import annotations

import pytest
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD
from team_ruleset import NAME, SIDE_POINTS, Teams, registered

from skirmbot import content
from skirmbot.rules.ruleset import ruleset
from skirmbot.service import MatchService, Member, ServiceError
from skirmbot.service.matches import DEPLOYING, PLAYING
from skirmbot.store import Store

DAVE = Member(55, "Dave")
SEATED = (ALICE, BOB, EVE, DAVE)  # seats 0 and 2 (Alice, Eve) against 1 and 3 (Bob, Dave)
SQUADS = ("blue-hunters", "gold-breakers", "red-lancers", "blue-hunters")


@pytest.fixture
def teams(monkeypatch: pytest.MonkeyPatch) -> Teams:
    return registered(monkeypatch)


def service_on(store: Store) -> MatchService:
    return MatchService(store, seed_source=lambda: 7, clock=lambda: 1_000_000.0)


async def seated(service: MatchService) -> None:
    await service.create(GUILD, CHANNEL, ALICE, rules=NAME, players=4)
    for member in SEATED[1:]:
        await service.join(CHANNEL, member)
    for member, squad in zip(SEATED, SQUADS, strict=True):
        await service.choose_squad(CHANNEL, member, squad)


async def playing(service: MatchService) -> None:
    await seated(service)
    for member in SEATED:
        await service.deploy(CHANNEL, member)
    row, _ = await service.view(CHANNEL)
    assert row.status == PLAYING
