"""Team play through the service (issue 30), with a test double of a team ruleset
(tests/team_ruleset.py: the d20 rules as two sides of two): seating, squads and points per
seat, status by side, results per side for every seat, a concession, the shipped defaults."""

from __future__ import annotations

import pytest
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD
from team_ruleset import NAME, SIDE_POINTS, Teams, registered

from skirmbot import content
from skirmbot.cli import main
from skirmbot.demo import play_demo
from skirmbot.rules.d20.commands import EndTurn
from skirmbot.rules.ruleset import ruleset
from skirmbot.service import MatchService, Member, ServiceError
from skirmbot.service.matches import DEPLOYING, PLAYING
from skirmbot.service.orderline import line_choices
from skirmbot.service.replies import person
from skirmbot.store import Store
from skirmbot.timers.clock import TimeControls

DAVE = Member(55, "Dave")
SEATED = (ALICE, BOB, EVE, DAVE)  # seats 0 and 2 (Alice, Eve) against 1 and 3 (Bob, Dave)
SQUADS = ("blue-hunters", "gold-breakers", "red-lancers", "blue-hunters")


@pytest.fixture
def teams(monkeypatch: pytest.MonkeyPatch) -> Teams:
    return registered(monkeypatch)


def service_on(store: Store) -> MatchService:
    return MatchService(store, seed_source=lambda: 7, clock=lambda: 1_000_000.0)


async def seated(service: MatchService, controls: TimeControls | None = None) -> None:
    await service.create(GUILD, CHANNEL, ALICE, rules=NAME, players=4, controls=controls)
    for member in SEATED[1:]:
        await service.join(CHANNEL, member)
    for member, squad in zip(SEATED, SQUADS, strict=True):
        await service.choose_squad(CHANNEL, member, squad)


async def playing(service: MatchService, controls: TimeControls | None = None) -> None:
    """Four seated and deployed: side 1 (Alice and Eve) acts first (the dice's initiative)."""
    await seated(service, controls)
    for member in SEATED:
        await service.deploy(CHANNEL, member)
    row, _ = await service.view(CHANNEL)
    assert row.status == PLAYING


# --- seating -------------------------------------------------------------------------------
async def test_a_team_match_says_who_plays_with_whom_and_which_side_each_joins(
    store: Store, teams: Teams
) -> None:
    """Issue 30: "/match new ... players:4" names the teams; "/match join" the side joined."""
    service = service_on(store)
    created = await service.create(GUILD, CHANNEL, ALICE, rules=NAME, players=4)
    assert "Seats 1 and 3 play together against seats 2 and 4." in created.text
    bob = await service.join(CHANNEL, BOB)
    assert bob.text.startswith("Bob joins as squad 2, on side 2. ")
    eve = await service.join(CHANNEL, EVE)
    assert eve.text.startswith("Eve joins as squad 3, on side 1 with Alice. ")
    dave = await service.join(CHANNEL, DAVE)
    assert dave.text.startswith("Dave joins as squad 4, on side 2 with Bob. ")


async def test_a_one_against_one_match_says_nothing_of_teams(store: Store) -> None:
    """Skirm stays 1 v 1: its seats are (2,), and its words are as before."""
    service = service_on(store)
    created = await service.create(GUILD, CHANNEL, ALICE)
    assert "play together" not in created.text and "against seats" not in created.text
    assert (await service.join(CHANNEL, BOB)).text.startswith("Bob joins as squad 2. ")


# --- squads and points per seat -----------------------------------------------------------
async def test_each_seat_fields_its_own_squad_within_its_share_of_the_sides_points(
    store: Store, teams: Teams
) -> None:
    """Points per seat: `points_limit(mission, players)` is what ONE seat's squad may cost;
    the double's side of two shares 160 points, 80 each: Green Wardens (86) is refused."""
    service = service_on(store)
    await service.create(GUILD, CHANNEL, ALICE, rules=NAME, players=4)
    for member in SEATED[1:]:
        await service.join(CHANNEL, member)
    with pytest.raises(ServiceError, match="cannot play d20 Teams: .*80"):
        await service.choose_squad(CHANNEL, EVE, "green-wardens")
    for member, squad in zip(SEATED, SQUADS, strict=True):
        await service.choose_squad(CHANNEL, member, squad)
    row, _ = await service.view(CHANNEL)
    assert row.status == DEPLOYING
    assert row.setup["squads"] == ["Blue Hunters", "Gold Breakers", "Red Lancers", "Blue Hunters"]
    assert teams.points_limit(row.record["content"]["mission"], 4) == SIDE_POINTS // 2
    status = (await service.status(CHANNEL)).text
    assert "Squad 3 (side 1): Eve, Red Lancers" in status
    assert "Squad 4 (side 2): Dave, Blue Hunters" in status


def test_the_defaults_are_shipped_squads_that_fit_each_seats_points(teams: Teams) -> None:
    """`content.defaults(ruleset, players)`: for each seat, squads that pass `check_squad`
    within that seat's limit, in turn (Green Wardens, 86 points, fits no seat of 80)."""
    mission, squads = content.defaults(NAME, 4)
    assert mission == "attrition"
    assert squads == ("blue-hunters", "gold-breakers", "red-lancers", "blue-hunters")
    assert content.points_limit(mission, NAME, 4) == 80
    # every seat a side of its own: the whole limit, every shipped squad in turn (as before)
    assert content.defaults("d20", 3)[1] == ("blue-hunters", "gold-breakers", "green-wardens")
    assert content.defaults("skirm", 2) == ("hold-the-line", ("iron-wardens", "ash-runners"))


def test_every_ruleset_says_how_many_players_its_demo_seats(teams: Teams) -> None:
    """`Ruleset.demo_players`: `skirmbot demo --ruleset X` seats that many unless told."""
    from skirmbot.demo import seated

    assert {name: ruleset(name).demo_players for name in ("skirm", "lite", "d20")} == {
        "skirm": 2,
        "lite": 2,
        "d20": 2,
    }
    assert seated(NAME, None) == 4 and seated(NAME, 2) == 2 and seated("skirm", None) == 2


# --- playing as a side --------------------------------------------------------------------
async def test_the_status_lists_each_side_with_its_players_and_whose_turn_it_is(
    store: Store, teams: Teams
) -> None:
    """A status by side: "Side 1: Alice (...), Eve (...) · Side 2: Bob (...), Dave (...)";
    next, every seat of the side whose turn it is."""
    service = service_on(store)
    await playing(service)
    text = (await service.status(CHANNEL)).text
    assert "Side 1: Alice (Blue Hunters: AP " in text and ", Eve (Red Lancers: AP " in text
    assert " · Side 2: Bob (Gold Breakers: AP " in text and ", Dave (Blue Hunters: AP " in text
    next_line = text.splitlines()[-1]
    assert next_line.startswith("Next: Alice (Grawl, ") and ", Eve (Vask, " in next_line


async def test_both_seats_of_the_side_are_pinged_when_its_turn_begins(
    store: Store, teams: Teams
) -> None:
    """Several seats acting at once: each of them is pinged with their own units."""
    service = service_on(store)
    await seated(service)
    for member in SEATED[:-1]:
        await service.deploy(CHANNEL, member)
    revealed = await service.deploy(CHANNEL, DAVE)
    assert revealed.ping == ALICE.id and revealed.pings == [EVE.id]
    assert f"{person(ALICE.id)} (Grawl, " in revealed.text
    assert f"{person(EVE.id)} (Vask, " in revealed.text
    assert "your side's turn, activate your units. Time runs out" in revealed.text


async def test_every_seat_of_the_side_to_act_may_give_orders_and_no_other(
    store: Store, teams: Teams
) -> None:
    """Orders and their autocomplete go by `view.seats_acting()`: both seats of the side whose
    turn it is (Eve's too, though Alice is `to_act`), never a seat of the other side."""
    service = service_on(store)
    await playing(service)
    with pytest.raises(ServiceError, match="not your turn"):
        await service.orders(CHANNEL, BOB, "end_turn")
    assert line_choices(await service.situation(CHANNEL, BOB), "") == []
    assert line_choices(await service.situation(CHANNEL, EVE), "") != []
    part = await service.act(CHANNEL, ALICE, EndTurn(0))
    assert "Blue Hunters ends its part of the turn." in part.text
    _, match = await service.view(CHANNEL)
    assert match is not None and [d.side for d in teams.deciding(match.state)] == [2]


# --- conceding and the result -------------------------------------------------------------
async def test_a_player_who_concedes_leaves_and_the_teammate_plays_on_until_the_side_is_gone(
    store: Store, teams: Teams
) -> None:
    """Concede in a team match: the Company leaves the table and the teammates play on; when
    the last of a side concedes, the other side wins. The result names all four players with
    their side's placing, and the stored result keeps each seat's."""
    service = service_on(store)
    await playing(service)
    assert await service.conceding_means(CHANNEL, EVE) == (
        "Your squad leaves the table and Alice plays on"
    )
    left = await service.concede(CHANNEL, EVE)
    assert left.text.startswith("Eve concedes: Red Lancers leaves the table; Alice plays on.")
    assert not left.match_over
    status = (await service.status(CHANNEL)).text
    assert "Eve (Red Lancers, out)" in status
    assert status.splitlines()[-1].startswith("Next: Alice (")  # Eve is out: never next
    assert await service.conceding_means(CHANNEL, ALICE) == (
        "You are the last of your side: the other side wins"
    )
    last = await service.concede(CHANNEL, ALICE)
    assert last.text.startswith("Alice concedes, the last of their side: Blue Hunters leaves")
    assert last.match_over
    assert "Side 2 wins: side 1 conceded" in last.text
    assert (
        " · ".join(
            f"{person(member.id)} ({squad})"
            for member, squad in (
                (ALICE, "Blue Hunters, 2nd"),
                (EVE, "Red Lancers, 2nd"),
                (BOB, "Gold Breakers, 1st"),
                (DAVE, "Blue Hunters, 1st"),
            )
        )
        in last.text
    )
    [(_, result)] = await store.match_results(GUILD, NAME)
    assert result.winner == 1
    assert [(s.seat, s.side, s.user_id, s.placing) for s in result.seats] == [
        (0, 0, ALICE.id, 2),
        (1, 1, BOB.id, 1),
        (2, 0, EVE.id, 2),
        (3, 1, DAVE.id, 1),
    ]
    after = (await service.status(CHANNEL)).text
    assert "Alice (Blue Hunters, 2nd) · Eve (Red Lancers, 2nd) · Bob (Gold Breakers, 1st)" in after


def test_the_demo_seats_as_many_as_the_ruleset_says_and_places_each_side(teams: Teams) -> None:
    """`skirmbot demo --ruleset X` seats `demo_players` (4 here) unless told; the automatic
    players play every seat of both sides to the end, placed side by side."""
    match, record = play_demo(3, NAME)
    assert len(record.players) == 4
    outcome = teams.outcome(match.state)
    assert outcome is not None and len(outcome.placings) == 2


def test_the_demo_refuses_a_number_of_players_the_ruleset_does_not_seat(
    teams: Teams, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--ruleset", NAME, "--players", "2"]) == 2
    assert capsys.readouterr().err == "skirmbot: d20 Teams is played by 4 players, not 2.\n"


async def test_a_practice_team_match_seats_the_automatic_player_beside_and_against_you(
    store: Store, teams: Teams
) -> None:
    """Practice: the automatic player takes every other seat, each with a shipped squad that
    fits a seat's points, and plays its part of a side's turn, the teammate's too, leaving
    the player's own part to them."""
    service = service_on(store)
    await service.create(GUILD, CHANNEL, ALICE, rules=NAME, players=4, practice=True)
    await service.choose_squad(CHANNEL, ALICE, "blue-hunters")
    row, _ = await service.view(CHANNEL)
    assert row.setup["squads"][1:] == ["gold-breakers", "red-lancers", "blue-hunters"]
    await service.deploy(CHANNEL, ALICE)
    _, match = await service.view(CHANNEL)
    assert match is not None
    assert [decision.side for decision in teams.deciding(match.state)] == [0]
