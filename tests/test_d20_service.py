"""The d20 rules through the service, where the service once read Skirm's state (issue 29):
`/match preview` and one-line orders (`/match orders`) of a d20 match. Before the seam was
finished both read `state.unit`/`state.units` and the preview's copy read a mission the d20
state does not have."""

from __future__ import annotations

import pytest
from service_setup import ALICE, BOB, CHANNEL, started
from test_seats_play import PLAYERS, bot_on, play_one, seated_and_deployed

from skirmbot.rules.ruleset import ruleset
from skirmbot.rules.squares import Square
from skirmbot.service import MatchService, ServiceError, actions
from skirmbot.store import Store

D20 = ruleset("d20")


async def playing(store: Store) -> MatchService:
    service = bot_on(store)
    await seated_and_deployed(service)
    return service


async def test_a_d20_player_previews_a_model_of_their_own(store: Store) -> None:
    service = await playing(store)
    _, match = await service.view(CHANNEL)
    assert match is not None
    own = D20.view(match.state).pieces_of(0)[0].id
    shown = await service.preview(CHANNEL, ALICE, unit=own)
    assert shown.private and shown.picture is not None
    assert own in shown.text


async def test_a_d20_preview_of_an_unknown_model_lists_the_askers_own(store: Store) -> None:
    service = await playing(store)
    _, match = await service.view(CHANNEL)
    assert match is not None
    own = [piece.id for piece in D20.view(match.state).pieces_of(0)]
    with pytest.raises(ServiceError) as refused:
        await service.preview(CHANNEL, ALICE, unit="Nobody")
    assert str(refused.value) == (
        f"There is no unit called 'Nobody'. Red Lancers' units: {', '.join(own)}."
    )


async def test_one_line_orders_read_a_d20_match(store: Store) -> None:
    """A one-line order names a model and what it does (the seat whose turn it is moves one of
    its models to a square the rules offer); an order for a model that is not there is refused
    in words, and nothing is sent."""
    service = await playing(store)
    _, match = await service.view(CHANNEL)
    assert match is not None
    side = D20.deciding(match.state)[0].side
    member = PLAYERS[side]
    moves = [c for c in D20.legal_commands(match.state, side) if c.type == "move"]
    move = moves[0]
    before = len(match.commands)
    with pytest.raises(ServiceError):
        await service.orders(CHANNEL, member, "Nobody move A1")
    with pytest.raises(ServiceError, match="no 'skill' action in d20 Skirmish"):
        await service.orders(CHANNEL, member, f"{move.unit} skill Heal")
    _, match = await service.view(CHANNEL)
    assert match is not None and len(match.commands) == before
    await service.orders(CHANNEL, member, f"{move.unit} move {move.square}")
    _, match = await service.view(CHANNEL)
    assert match is not None
    assert D20.view(match.state).piece(move.unit).square == Square.parse(move.square)


async def test_bonus_dice_on_a_movement_are_sent_by_move_bonus(store: Store) -> None:
    """ "Bonus dice can be added to other rolls or to movement": /move's `bonus` sends the d20
    rules' own Move with its bonus dice; the record keeps them."""
    service = await playing(store)
    _, match = await service.view(CHANNEL)
    assert match is not None
    side = D20.deciding(match.state)[0].side
    member = PLAYERS[side]
    await service.act(CHANNEL, member, actions.own_command("buy", dice=1))
    _, match = await service.view(CHANNEL)
    assert match is not None
    move = next(c for c in D20.legal_commands(match.state, side) if c.type == "move")
    sent = actions.own_command("move", unit=move.unit, square=move.square, bonus=1)
    await service.act(CHANNEL, member, sent)
    row, _ = await service.view(CHANNEL)
    recorded = row.record["commands"][-1]
    assert (recorded["type"], recorded["unit"], recorded["bonus"]) == ("move", move.unit, 1)


async def test_a_skirm_move_refuses_bonus_dice_in_words(store: Store) -> None:
    service = MatchService(store, seed_source=lambda: 3, clock=lambda: 1_000.0)
    await started(service)
    _, match = await service.view(CHANNEL)
    assert match is not None
    skirm = ruleset("skirm")
    side = skirm.deciding(match.state)[0].side
    unit = skirm.view(match.state).ready(side)[0].id
    sent = actions.own_command("move", unit=unit, square="C3", bonus=1)
    with pytest.raises(ServiceError) as refused:
        await service.act(CHANNEL, (ALICE, BOB)[side], sent)
    assert str(refused.value) == "A move in Skirm takes no bonus: leave it out."


async def test_an_unknown_word_in_orders_lists_the_actions_of_the_matchs_rules(
    store: Store,
) -> None:
    """/match orders in a d20 match: an unknown word lists the d20 rules' actions, not Skirm's
    turrets and leaps; in Skirm it lists Skirm's, as it always did."""
    service = await playing(store)
    _, match = await service.view(CHANNEL)
    assert match is not None
    member = PLAYERS[D20.deciding(match.state)[0].side]
    with pytest.raises(ServiceError) as refused:
        await service.orders(CHANNEL, member, "fly")
    listed = str(refused.value).split("with an action (", 1)[1].split(")", 1)[0].split(", ")
    assert listed[:4] == ["move", "shoot", "melee", "end"]
    assert {"buy", "end_turn", "defend"} <= set(listed)
    assert not {"leap", "turret", "crate", "dash", "reroll"} & set(listed)
    skirm = MatchService(store, seed_source=lambda: 3, clock=lambda: 1_000.0)
    await started(skirm, channel=CHANNEL + 1)
    with pytest.raises(
        ServiceError,
        match=r"'fly' is not an action: a step starts with an "
        r"action \(move, dash, leap, shoot, melee, turret, skill, door, pickup, "
        r"drop, crate, mission, activate, end, delay, reroll, modify, accept\)",
    ):
        await skirm.orders(CHANNEL + 1, ALICE, "fly")


async def test_a_prompted_defender_answers_with_a_one_line_order(store: Store) -> None:
    """Decisions in another's turn (ours): a seat that asked to be prompted may answer in
    /match orders, "defend 0", though it is not its turn; its turn's player is not refused."""
    service = await playing(store)
    for member in PLAYERS:
        await service.act(CHANNEL, member, actions.own_command("standing_orders", prompt=True))
    for _ in range(300):
        _, match = await service.view(CHANNEL)
        assert match is not None
        # a defence waiting (a melee winner's free move in another's turn is a decision too)
        waiting = [
            d
            for d in D20.deciding(match.state)
            if not d.turn
            and any(c.type == "defend" for c in D20.legal_commands(match.state, d.side))
        ]
        if waiting:
            break
        assert await play_one(service)
    else:
        raise AssertionError("no defender was prompted in 300 commands")
    defender = PLAYERS[waiting[0].side]
    await service.orders(CHANNEL, defender, "defend 0")
    row, _ = await service.view(CHANNEL)
    assert row.record["commands"][-1]["type"] == "defend"
    assert row.record["commands"][-1]["side"] == waiting[0].side
