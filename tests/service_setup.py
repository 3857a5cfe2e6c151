"""What the service tests share: the players, the channel, and a match started between them."""

from __future__ import annotations

from skirmbot.rules import commands
from skirmbot.service import MatchService, Member, Reply

ALICE, BOB, EVE = Member(11, "Alice"), Member(22, "Bob"), Member(33, "Eve")
MOD = Member(44, "Mo", moderator=True)  # moderates the server, plays in no match
CHANNEL, GUILD = 500, 900


async def started(
    service: MatchService,
    alice_squad: str = "iron-wardens",
    bob_squad: str = "ash-runners",
    channel: int = CHANNEL,
) -> None:
    """Alice (first squad) and Bob (second) in `channel`, both deployed by the bot."""
    await service.create(GUILD, channel, ALICE, opponent=BOB)
    await service.join(channel, BOB)
    await service.choose_squad(channel, ALICE, alice_squad)
    await service.choose_squad(channel, BOB, bob_squad)
    await service.deploy(channel, ALICE)
    await service.deploy(channel, BOB)


async def end_activations(service: MatchService, until_turn: int | None = None) -> Reply | None:
    """Every unit ends its activation where it stands, until `until_turn` begins (None: until
    the match is over); the reply that ended the match, if it did."""
    while True:
        _, match = await service.view(CHANNEL)
        assert match is not None
        if until_turn is not None and match.state.turn >= until_turn:
            return None
        reply = await end_one(service)
        if reply.match_over:
            return reply


async def end_one(service: MatchService) -> Reply:
    """The squad whose turn it is ends its next unit's activation where it stands."""
    row, match = await service.view(CHANNEL)
    assert match is not None and match.state.to_act is not None
    side = match.state.to_act
    member = ALICE if row.players[side] == ALICE.id else BOB
    unit = match.state.ready_units(side)[0].id
    return await service.act(CHANNEL, member, commands.EndActivation(side, unit))
