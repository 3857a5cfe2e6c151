"""`/rolloff` and `/to`: the two table rolls of the Skirm turn, for anyone on the server.

Roll-off (rulebook Glossary, Roll-Off; rulings: Turns): each player rolls 1D6 and the lowest
wins; players who tie re-roll until a winner is found. The rulebook speaks of two players ("if
all players roll the same value, all re-roll"); with more players only those tied for the
winning number re-roll, since the others have already lost. `highest` turns the comparison round
for games (such as Skirm Lite's initiative) where the highest wins. Every round is shown.

Tactical Orders (rulebook Tactical Orders): 3D6 plus one die per point of the leaders' LDx; each
die showing 1-3 is one Tactical Order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from skirmbot.dice.expressions import DiceError, DieSource, SystemDice
from skirmbot.dice.hand import hand_dice

MAX_PLAYERS = 8
MAX_ROUNDS = 50  # ties on a D6 repeat 1 time in 6 or less; 50 rounds never happen by chance
MAX_LEADER_DICE = 10
ORDER_FACES = 3  # a die at or under this is one Tactical Order


@dataclass(frozen=True, slots=True)
class RollOffRound:
    rolls: tuple[tuple[str, int], ...]  # (player, face) in the order they rolled

    def best(self, lowest_wins: bool) -> int:
        faces = [face for _, face in self.rolls]
        return min(faces) if lowest_wins else max(faces)

    def leaders(self, lowest_wins: bool) -> list[str]:
        best = self.best(lowest_wins)
        return [player for player, face in self.rolls if face == best]


@dataclass(frozen=True, slots=True)
class RollOff:
    rounds: tuple[RollOffRound, ...]
    winner: str
    lowest_wins: bool


def roll_off(
    players: Sequence[str], source: DieSource | None = None, lowest_wins: bool = True
) -> RollOff:
    """Roll 1D6 each, re-rolling among the tied leaders until one player stands alone."""
    _check_players(players)
    dice = source or SystemDice()
    rounds: list[RollOffRound] = []
    rolling = list(players)
    while len(rounds) < MAX_ROUNDS:
        this_round = RollOffRound(tuple((player, dice.roll(6)) for player in rolling))
        rounds.append(this_round)
        rolling = this_round.leaders(lowest_wins)
        if len(rolling) == 1:
            return RollOff(tuple(rounds), rolling[0], lowest_wins)
    raise DiceError(f"The roll-off was still tied after {MAX_ROUNDS} rounds; roll again.")


def _check_players(players: Sequence[str]) -> None:
    if len(players) < 2:
        raise DiceError("A roll-off needs at least two players.")
    if len(players) > MAX_PLAYERS:
        raise DiceError(f"A roll-off takes at most {MAX_PLAYERS} players.")
    if len(set(players)) != len(players):
        raise DiceError("Each player may appear only once in a roll-off.")


def format_roll_off(result: RollOff) -> str:
    """Every round on its own line, ties named, then the winner."""
    rule = "lowest wins" if result.lowest_wins else "highest wins"
    lines = [f"**Roll-off** ({rule}, ties re-roll)"]
    for number, this_round in enumerate(result.rounds, start=1):
        rolls = " · ".join(f"{player} {face}" for player, face in this_round.rolls)
        leaders = this_round.leaders(result.lowest_wins)
        tie = ""
        if len(leaders) > 1:
            tie = f" — {_names(leaders)} tie on {this_round.best(result.lowest_wins)} and re-roll"
        lines.append(f"Round {number}: {rolls}{tie}")
    final = result.rounds[-1].best(result.lowest_wins)
    lines.append(f"**{result.winner} wins** with {final}.")
    return "\n".join(lines)


def _names(players: list[str]) -> str:
    return ", ".join(players[:-1]) + " and " + players[-1]


# --- Tactical Orders ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class OrdersRoll:
    leader_dice: int
    faces: tuple[int, ...]

    @property
    def orders(self) -> int:
        return sum(1 for face in self.faces if face <= ORDER_FACES)


def roll_tactical_orders(leader_dice: int, source: DieSource | None = None) -> OrdersRoll:
    """3D6 plus `leader_dice` (the total of the squad's LDx on the map)."""
    if not 0 <= leader_dice <= MAX_LEADER_DICE:
        raise DiceError(f"Leader dice must be from 0 to {MAX_LEADER_DICE} (the total of LDx).")
    dice = source or SystemDice()
    faces = tuple(dice.roll(6) for _ in range(hand_dice().order_dice + leader_dice))
    return OrdersRoll(leader_dice, faces)


def format_orders(roll: OrdersRoll) -> str:
    shown = " ".join(f"{face}{'✓' if face <= ORDER_FACES else '✗'}" for face in roll.faces)
    leaders = f" + {roll.leader_dice} leader {'die' if roll.leader_dice == 1 else 'dice'}"
    noun = "Tactical Order" if roll.orders == 1 else "Tactical Orders"
    return (
        f"**Tactical Orders**: {len(roll.faces)}D6 ({hand_dice().order_dice}{leaders if roll.leader_dice else ''}): "
        f"{shown} = `{roll.orders}` {noun} (each 1-3 is one)."
    )
