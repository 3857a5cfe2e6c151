"""The service's edges ask the ruleset (issue 29): the automatic players of the demo, console
and league simulation go by `set_up_stage` and `deciding`, content comes one squad per seat,
and a ruleset without a feature refuses it in words."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from skirmbot import content
from skirmbot.demo import AutomaticPlayers, PlayersError, check_players
from skirmbot.rules.commands import Command, Deploy, EndActivation
from skirmbot.rules.errors import RulesError
from skirmbot.rules.ruleset import CAMPAIGNS, SetUpStage, ruleset
from skirmbot.rules.view import Decision
from skirmbot.words import number_choices


@dataclass
class Brawl:
    """A stub ruleset of 3 seats: all place in one secret stage, then seat 2 decides, then
    seats 0 and 1 at once (a reaction), then nobody."""

    placed: set[int] = field(default_factory=set)
    turns: list[tuple[int, ...]] = field(default_factory=lambda: [(2,), (0, 1), ()])

    def set_up_stage(self, state: Any) -> SetUpStage | None:
        if len(self.placed) == 3:
            return None
        return SetUpStage("deploy", (0, 1, 2), "All squads deploy")

    def automatic_placement(self, state: Any, side: int) -> Command:
        self.placed.add(side)
        return Deploy(side, {})

    def deciding(self, state: Any) -> tuple[Decision, ...]:
        return tuple(Decision(side, "act") for side in self.turns[0])

    def automatic_command(self, state: Any, side: int) -> Command:
        self.turns.pop(0)
        return EndActivation(side)


def test_automatic_players_place_once_per_seat_then_answer_whoever_must_decide() -> None:
    stub = Brawl()
    players = AutomaticPlayers(stub)  # type: ignore[arg-type]
    sent = []
    while (command := players.next_command(None)) is not None:
        sent.append((command.type, command.side))
    assert sent == [("deploy", 0), ("deploy", 1), ("deploy", 2), ("end", 2), ("end", 0)]


def test_players_are_checked_against_the_rulesets_seats() -> None:
    assert check_players("skirm", 2).name == "skirm"
    with pytest.raises(PlayersError, match=r"^Skirm Lite is played by 2 players, not 3\.$"):
        check_players("lite", 3)
    assert [number_choices(n) for n in ((2,), (3, 4), (2, 3, 4), (2, 4, 6))] == [
        "2",
        "3 or 4",
        "2 to 4",
        "2, 4 or 6",
    ]


def test_content_gives_one_squad_per_seat() -> None:
    assert content.defaults("skirm") == ("hold-the-line", ("iron-wardens", "ash-runners"))
    mission, squads = content.defaults("skirm", 3)
    assert mission == "hold-the-line" and squads == ("iron-wardens", "ash-runners", "iron-wardens")
    lite_squads = content.names("squads", "lite")
    assert content.defaults("lite", 4)[1] == tuple(
        lite_squads[i % len(lite_squads)] for i in range(4)
    )


def test_a_ruleset_without_campaigns_or_hand_odds_refuses_them_in_words() -> None:
    lite = ruleset("lite")
    assert CAMPAIGNS not in lite.features and CAMPAIGNS in ruleset("skirm").features
    with pytest.raises(RulesError) as error:
        lite.campaign()
    assert str(error.value) == "Campaigns are played with Skirm, not Skirm Lite."
    with pytest.raises(
        RulesError, match=r"^/odds by hand works out the attacks of Skirm, not Skirm Lite\.$"
    ):
        lite.hand_dice()


def test_missions_and_squads_load_through_their_ruleset() -> None:
    """Skirm's EP limit comes from the mission; Lite counts no points (Lite rulebook)."""
    skirm = ruleset("skirm")
    data = content.raw("missions", "hold-the-line")
    assert content.points_limit("hold-the-line") == skirm.load_mission(data).ep_limit
    lite_squad = content.names("squads", "lite")[0]
    assert content.load_squad(lite_squad, ep_limit=1, ruleset="lite").units
