"""The group rules through the service, offline (issue 30): a 2 v 2 match created, joined, its
Companies chosen within each seat's share of its side's points, deployed with the placement
help, ambitions chosen from /act's words, orders given by /move (a whole Group, or each model's
square), a refused Move in plain words, /act's menu in the rulebook's words, /end, /standing's
interrupt orders, and /match rules."""

from __future__ import annotations

from typing import Any

import pytest
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD

from skirmbot.rules.commands import Move as KernelMove
from skirmbot.rules.companies import orders
from skirmbot.rules.ruleset import ruleset
from skirmbot.service import MatchService, Member, ServiceError, actions
from skirmbot.service.choices import Situation
from skirmbot.service.matches import DEPLOYING, PLAYING, seat_choices
from skirmbot.store import Store
from skirmbot.words import possessive
from tests.companies_play import placements

DAVE = Member(55, "Dave")
SEATED = (ALICE, BOB, EVE, DAVE)  # seats 0 and 2 (Alice, Eve) against 1 and 3 (Bob, Dave)
SQUADS = ("iron-lances", "thornwatch", "ember-circle", "iron-lances")  # 12 points or less each
COMPANIES = ruleset("companies")


def service_on(store: Store) -> MatchService:
    return MatchService(store, seed_source=lambda: 11, clock=lambda: 1_000_000.0)


async def seated(service: MatchService) -> None:
    await service.create(GUILD, CHANNEL, ALICE, rules="companies", players=4, mission="clash")
    for member in SEATED[1:]:
        await service.join(CHANNEL, member)
    for member, squad in zip(SEATED, SQUADS, strict=True):
        await service.choose_squad(CHANNEL, member, squad)


async def deployed(service: MatchService) -> None:
    """Every seat places its Groups by their first models' squares in its own zone."""
    await seated(service)
    for member in SEATED:
        found = await service.placing(CHANNEL, member)
        assert found.side is not None
        await service.deploy(CHANNEL, member, placements(found.state, found.side))


async def situation(service: MatchService, member: Member) -> Situation:
    return await service.situation(CHANNEL, member)


async def act_words(service: MatchService, member: Member) -> dict[str, str]:
    """/act's menu for the member: its words, each with the value /act sends."""
    found = await situation(service, member)
    return {words: value for value, words in found.own_actions(actions.COMMON_KINDS)}


async def choose_glory(service: MatchService) -> None:
    for member in SEATED:
        menu = await act_words(service, member)
        glory = next(w for w in menu if w.startswith("Ambition: Glory"))
        await service.act(CHANNEL, member, actions.decode(menu[glory]))


async def playing(service: MatchService) -> None:
    await deployed(service)
    await choose_glory(service)


async def state_of(service: MatchService) -> Any:
    _, match = await service.view(CHANNEL)
    assert match is not None
    return match.state


async def acting_member(service: MatchService) -> tuple[Member, int]:
    """A player of the side whose turn it is, with their seat."""
    state = await state_of(service)
    seat = COMPANIES.deciding(state)[0].side
    return SEATED[seat], seat


# --- set-up ---------------------------------------------------------------------------------
async def test_a_two_v_two_match_is_seated_by_side_with_each_seats_share_of_points(
    store: Store,
) -> None:
    """Setup 1: "Choose points total for each side" (our ruling: a side's 24 points shared by
    its two players, 12 each): a 24-point Company is refused, four of 12 or less play."""
    service = service_on(store)
    created = await service.create(GUILD, CHANNEL, ALICE, rules="companies", players=4)
    assert "Seats 1 and 3 play together against seats 2 and 4." in created.text
    for member in SEATED[1:]:
        await service.join(CHANNEL, member)
    with pytest.raises(ServiceError, match="cannot play Companies: .*12"):
        await service.choose_squad(CHANNEL, EVE, "hill-wardens")
    fielded = [
        (await service.choose_squad(CHANNEL, member, squad)).text
        for member, squad in zip(SEATED, SQUADS, strict=True)
    ]
    row, _ = await service.view(CHANNEL)
    assert row.status == DEPLOYING
    assert row.setup["squads"] == ["Iron Lances", "Thornwatch", "Ember Circle", "Iron Lances"]
    assert "fields **Iron Lances** (3 Groups, 12 points)" in fielded[0], fielded[0]


async def test_each_player_deploys_in_their_own_zone_with_the_placement_help(store: Store) -> None:
    """Our ruling (Deployment): secret and simultaneous, each seat in its band of its side's
    zone, a Group placed by its first model's square; revealed together, then ambitions."""
    service = service_on(store)
    await seated(service)
    found = await service.placing(CHANNEL, EVE)
    help_text = found.placement_help()
    assert help_text.startswith("Deploy Ember Circle in your zone (")
    assert "Summoners (2 models)" in help_text and "`Spearmen C3`" in help_text
    with pytest.raises(ServiceError, match="must deploy in Ember Circle's zone"):
        await service.deploy(CHANNEL, EVE, {"Summoners": "A1", "Hexers": "A40", "Spearmen": "C1"})
    await deployed_after_seating(service)
    row, _ = await service.view(CHANNEL)
    assert row.status == PLAYING
    state = await state_of(service)
    assert state.attackers is not None and state.round == 0
    assert {d.side for d in COMPANIES.deciding(state)} == {0, 1, 2, 3}


async def deployed_after_seating(service: MatchService) -> None:
    for member in SEATED:
        found = await service.placing(CHANNEL, member)
        assert found.side is not None
        await service.deploy(CHANNEL, member, placements(found.state, found.side))


async def test_ambitions_are_chosen_from_acts_words_then_the_attackers_begin(
    store: Store,
) -> None:
    """Setup 7-8: "Choose ambitions. The active player takes their turn" - /act offers each
    ambition with its VP and condition; once all four are chosen, round 1 begins."""
    service = service_on(store)
    await deployed(service)
    menu = await act_words(service, ALICE)
    assert list(menu) == [
        "Ambition: Glory - 2 VP if a Group of your Company Routs an enemy Group by an Attack",
        "Ambition: Regicide - 3 VP if an enemy Captain's Group is Routed",
        "Ambition: Unbroken - 2 VP if no Group of your Company is Routed",
        "Ambition: Hold the Ground - 2 VP if at the end, a Group of your Company has a model "
        "within 3\" of the table's centre",
    ]
    await choose_glory(service)
    state = await state_of(service)
    assert state.round == 1 and state.active == state.attackers


# --- orders -----------------------------------------------------------------------------------
async def test_a_move_too_far_is_refused_naming_the_squares_the_group_reaches(
    store: Store,
) -> None:
    """Moving: "Move each model in the Group up to their movement distance" - a square beyond
    it is refused in plain words, with the squares the Group can reach; nothing changes."""
    service = service_on(store)
    await playing(service)
    member, seat = await acting_member(service)
    state = await state_of(service)
    group = state.groups_of(seat)[0]
    far = group.models[0].offset(0, 15 if seat % 2 == 0 else -15)
    with pytest.raises(ServiceError) as refused:
        await service.act(CHANNEL, member, KernelMove(0, group.id, str(far)))
    words = str(refused.value)
    first = f"{possessive(group.id)} first model ({group.models[0]})"
    assert words.startswith(f'{far} is 15" from {first}; ')
    assert f"{group.id} can reach: " in words and '"models": C3 D3 E4' in words
    row, _ = await service.view(CHANNEL)
    assert row.record["commands"][-1]["type"] == "ambition"


async def test_move_offers_squares_in_inches_and_moves_the_whole_group(store: Store) -> None:
    """Moving, Cohesion: /move's squares are where the Group's first model can go keeping its
    shape, labelled with the inches walked; the Move is tested (2d6) and recorded as sent."""
    service = service_on(store)
    await playing(service)
    member, seat = await acting_member(service)
    found = await situation(service, member)
    group = next(g for g in found.state.groups_of(seat) if found.squares(g.id, "move", "move"))
    square, label = found.squares(group.id, "move", "move")[-1]
    assert label.startswith(f"{square} (") and label.endswith('")')
    events = (await service.act(CHANNEL, member, KernelMove(0, group.id, square))).text
    assert f"{group.id} tests to Move:" in events
    row, _ = await service.view(CHANNEL)
    assert row.record["commands"][-1] == {
        "type": "move", "side": seat, "unit": group.id, "square": square, "orders": 0
    }  # fmt: skip


async def test_move_with_models_places_each_model_on_its_own_square(store: Store) -> None:
    """Moving: "Move each model in the Group up to their movement distance" - /move's `models`
    sends each model's square in order (the group rules' own Move), recorded with them."""
    service = service_on(store)
    await playing(service)
    member, seat = await acting_member(service)
    state = await state_of(service)
    group = next(g for g in state.groups_of(seat) if orders.move_squares(state, g))
    moved = next(iter(orders.move_squares(state, group).values()))  # squares the rules allow
    text = " ".join(str(s) for s in moved)
    sent = actions.own_command("move", unit=group.id, square=str(moved[0]), models=text)
    reply = await service.act(CHANNEL, member, sent)
    row, _ = await service.view(CHANNEL)
    recorded = row.record["commands"][-1]
    assert (recorded["type"], recorded["models"]) == ("move", text)
    state = await state_of(service)
    passed = f"{group.id} tests to Move: " in reply.text and ": passes." in reply.text
    assert passed and tuple(state.group(group.id).models) == moved  # these dice pass


async def test_a_one_line_order_moves_each_model_to_its_square(store: Store) -> None:
    """/match orders (and the console): "Knights move C3 D3 E4" names every model's square in
    order, sent as the group rules' own Move with its `models`."""
    service = service_on(store)
    await playing(service)
    member, seat = await acting_member(service)
    state = await state_of(service)
    group = next(g for g in state.groups_of(seat) if orders.move_squares(state, g))
    moved = " ".join(str(s) for s in next(iter(orders.move_squares(state, group).values())))
    await service.orders(CHANNEL, member, f"{group.id} move {moved.lower()}")
    row, _ = await service.view(CHANNEL)
    recorded = row.record["commands"][-1]
    assert (recorded["unit"], recorded["square"], recorded["models"]) == (
        group.id, moved.split()[0], moved
    )  # fmt: skip


async def test_act_offers_end_turn_and_end_ends_the_players_part(store: Store) -> None:
    """Turns: "until an activation is failed or they choose to end their turn" - /act offers
    "End turn"; /end (the kernel's EndActivation) ends the part of the teammate too, and the
    turn passes to the other side once both have ended theirs."""
    service = service_on(store)
    await playing(service)
    member, seat = await acting_member(service)
    menu = await act_words(service, member)
    assert "End turn" in menu
    assert not any(w.startswith(("Move", "Shoot", "Attack")) for w in menu)  # /move, /shoot...
    await service.act(CHANNEL, member, actions.decode(menu["End turn"]))
    state = await state_of(service)
    assert state.seats[seat].ended and state.active == seat % 2
    mate = SEATED[seat + 2 if seat < 2 else seat - 2]
    await service.act(CHANNEL, mate, actions.EndActivation(0))
    state = await state_of(service)
    assert state.active == 1 - seat % 2


async def test_standing_interrupt_orders_are_the_group_rules_own(store: Store) -> None:
    """Attacking 1 (our ruling: reaction window): /standing defiant, elusive, prompt set the
    player's interrupt orders, privately; the d20 rules' defend is refused in words."""
    service = service_on(store)
    await playing(service)
    reply = await service.own_standing_orders(CHANNEL, BOB, {"defiant": False, "prompt": True})
    assert reply.private
    row, _ = await service.view(CHANNEL)
    assert row.record["commands"][-1] == {
        "type": "standing_orders", "side": 1, "defiant": False, "elusive": True, "prompt": True
    }  # fmt: skip
    with pytest.raises(ServiceError) as refused:
        await service.own_standing_orders(CHANNEL, BOB, {"defend": 2})
    assert str(refused.value) == (
        "Companies' standing orders take defiant, elusive and prompt, not defend."
    )
    with pytest.raises(ServiceError, match="has no saves to re-roll: its standing orders take "):
        await service.standing_orders(CHANNEL, BOB, 2)


async def test_match_rules_lists_the_rulebooks_orders(store: Store) -> None:
    """/match rules: the orders of the group rules, each with its activation test."""
    service = service_on(store)
    await seated(service)
    text = await service.rules_text(CHANNEL)
    assert text.startswith("**Companies**: the actions a unit can take")
    for title in ("Move", "Shoot", "Attack", "Retreat", "Cast", "Summon", "End turn", "Interrupt"):
        assert f"- **{title}** (" in text


async def test_a_player_previews_a_group_and_asks_its_odds(store: Store) -> None:
    """/match preview and /odds: a Group's Move squares and its pool's odds at each target,
    as the preview works them out (no die rolled), for its own player, privately."""
    service = service_on(store)
    await playing(service)
    member, seat = await acting_member(service)
    state = await state_of(service)
    group = state.groups_of(seat)[0]
    shown = await service.preview(CHANNEL, member, unit=group.id)
    assert shown.private and shown.picture is not None and group.id in shown.text
    found = await situation(service, member)
    odds = found.odds(group.id, None, 0, False)
    assert odds.startswith(
        f"**{possessive(group.id)} targets** (Companies, as the preview works them out"
    )


async def test_match_new_offers_six_players_for_three_against_three(store: Store) -> None:
    """Team play: the group rules seat two sides of 1, 2 or 3 players, so /match new's players
    are now 2, 3, 4 or 6 (3 is the d20 rules'); a 3 v 3 gives each seat 8 of its side's 24."""
    assert seat_choices() == [2, 3, 4, 6]
    service = service_on(store)
    created = await service.create(GUILD, CHANNEL, ALICE, rules="companies", players=6)
    assert "Seats 1, 3 and 5 play together against seats 2, 4 and 6." in created.text
    row, _ = await service.view(CHANNEL)
    assert COMPANIES.points_limit(row.record["content"]["mission"], 6) == 8


async def test_a_three_v_three_match_deploys_and_shows_six_companies(store: Store) -> None:
    """Team play, 3 v 3: six players each field a Company of 8 points or less, the bot deploys
    them, and the status (with its picture) names all six by side."""
    six = (*SEATED, Member(66, "Fay"), Member(77, "Gus"))
    squads = ("lone-lance", "shield-oath", "wild-hunt", "lone-lance", "shield-oath", "wild-hunt")
    service = service_on(store)
    await service.create(GUILD, CHANNEL, ALICE, rules="companies", players=6, mission="clash")
    for member in six[1:]:
        await service.join(CHANNEL, member)
    for member, squad in zip(six, squads, strict=True):
        await service.choose_squad(CHANNEL, member, squad)
    for member in six:
        await service.deploy(CHANNEL, member)
    status = await service.status(CHANNEL)
    assert status.picture is not None
    assert "Side 1: Alice (Lone Lance: " in status.text and ", Fay (Shield Oath: " in status.text
    assert "Side 2: Bob (Shield Oath: " in status.text and ", Gus (Wild Hunt: " in status.text
