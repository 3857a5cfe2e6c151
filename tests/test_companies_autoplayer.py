"""The automatic player of the group rules, one choice at a time, on tables built by hand: what
it sends for a seat (skirmbot.rules.companies.autoplayer). It never rolls a die of its own."""

from __future__ import annotations

from companies_auto import match_content
from companies_builders import profile, put, table

from skirmbot.rules.commands import Melee, Shoot
from skirmbot.rules.companies import autoplayer, geometry, orders
from skirmbot.rules.companies.commands import Cast, ChooseAmbition, EndTurn, Interrupt, Move
from skirmbot.rules.companies.commands import Retreat as RetreatOrder
from skirmbot.rules.companies.profiles import ATTACK, CAST, MOVE, RETREAT, SHOOT
from skirmbot.rules.companies.ruleset import RULESET
from skirmbot.rules.companies.scenarios import OBJECTIVES
from skirmbot.rules.companies.state import PendingAttack
from skirmbot.rules.dice import SeededDice
from skirmbot.rules.squares import Square

ARCHERS = profile("archers", mi=4, range_=18, activation={MOVE: 5, SHOOT: 6, ATTACK: 8})
FIGHTERS = {MOVE: 5, ATTACK: 6, RETREAT: 6}


def test_it_shoots_the_target_that_loses_most_r() -> None:
    """Shooting: every T hits take 1 R, so the same hits cost a T 1 Group more than a T 4 one."""
    state = table()
    put(state, 0, "Archers", "C3 D3 E3", ARCHERS)
    put(state, 1, "Tough", "C12 D12 E12", profile("tough", t=4))
    put(state, 1, "Soft", "K12 L12 M12", profile("soft", t=1))
    assert autoplayer.choose(state, 0) == Shoot(0, "Archers", "Soft")


def test_it_attacks_when_its_pool_beats_the_defenders() -> None:
    """Attacking 2: both roll 12d6; ME 3 against a defender hitting on 6 is worth the charge."""
    state = table()
    put(state, 0, "Knights", "C3 D3 E3", profile("knights", me_attack=3, t=3))
    put(state, 1, "Levy", "C8 D8 E8", profile("levy", me_defend=6, t=2))
    assert autoplayer.choose(state, 0) == Melee(0, "Knights", "Levy")


def test_it_does_not_attack_a_group_whose_pool_beats_its_own() -> None:
    state = table()
    put(state, 0, "Levy", "C3 D3 E3", profile("levy", me_attack=6, t=1))
    put(state, 1, "Knights", "C8 D8 E8", profile("knights", me_defend=2, t=4))
    command = autoplayer.choose(state, 0)
    assert not isinstance(command, Melee)


def test_it_retreats_from_a_losing_melee() -> None:
    """Retreating: "A Group may activate to Retreat from melee"; worth it when it is losing."""
    state = table()
    put(state, 0, "Levy", "K10 L10 M10", profile("levy", me_attack=6, t=1, activation=FIGHTERS))
    put(state, 1, "Knights", "K11 L11 M11", profile("knights", me_defend=2, t=4))
    assert autoplayer.choose(state, 0) == RetreatOrder(0, "Levy")


def test_it_does_not_retreat_off_the_table_nor_into_a_blocked_retreat() -> None:
    """Retreating: a model off the table Routs the Group; so it stands and ends its part."""
    state = table()
    put(state, 0, "Levy", "K1 L1 M1", profile("levy", me_attack=6, t=1, activation=FIGHTERS))
    put(state, 1, "Knights", "K2 L2 M2", profile("knights", me_defend=2, t=4))
    assert autoplayer.choose(state, 0) == EndTurn(0)


def test_a_reckless_group_attacks_the_enemy_it_hurts_most() -> None:
    """Turns 2: a Reckless Group must attempt to Attack "an enemy Group of your choice"."""
    state = table()
    put(state, 0, "Berserkers", "K5 L5 M5", profile("berserkers", me_attack=3))
    put(state, 1, "Tough", "C9 D9 E9", profile("tough", me_defend=3, t=4))
    put(state, 1, "Soft", "K9 L9 M9", profile("soft", me_defend=6, t=1))
    state.reckless = ["Berserkers"]
    assert autoplayer.choose(state, 0) == Melee(0, "Berserkers", "Soft")


def test_the_answer_to_an_attack_is_the_standing_order() -> None:
    """Attacking 1: the defender "may test"; the automatic player answers as the seat's
    standing orders say."""
    state = table()
    put(state, 0, "Knights", "K5 L5 M5")
    put(state, 1, "Spearmen", "K7 L7 M7", profile("spearmen", traits=("defiant",)))
    state.pending = PendingAttack("Knights", "Spearmen", "defiant")
    state.seats[1].defiant = False
    assert autoplayer.choose(state, 1) == Interrupt(1, False)
    state.seats[1].defiant = True
    assert autoplayer.choose(state, 1) == Interrupt(1, True)


def test_it_casts_a_hex_at_an_enemy_in_reach() -> None:
    """Our content (Cast): an enemy Group within 12" it can see loses 1 R."""
    state = table()
    hexers = profile("hexers", me_attack=None, activation={MOVE: 5, CAST: 7}, traits=("cast",))
    put(state, 0, "Hexers", "K3 L3", hexers)
    put(state, 1, "Levy", "K12 L12 M12")
    assert autoplayer.choose(state, 0) == Cast(0, "Hexers", "Levy")


def test_it_moves_toward_the_nearest_enemy_keeping_cohesion_and_3_inches_away() -> None:
    """Moving: the whole MO nearer, every model within 3" of another and 3" from enemies."""
    state = table()
    group = put(state, 0, "Knights", "C3 D3 E3", profile("knights", mo=6))
    enemy = put(state, 1, "Levy", "C20 D20 E20")
    command = autoplayer.choose(state, 0)
    assert isinstance(command, Move)
    found = orders.move_squares(state, group)
    models = found[Square.parse(command.square)]
    assert geometry.cohesive(models) and geometry.clear_of(models, enemy.models)
    before = geometry.group_distance(group.models, enemy.models)
    assert geometry.group_distance(models, enemy.models) == before - 6


def test_it_ends_its_part_when_no_group_may_activate() -> None:
    state = table()
    put(state, 0, "Knights", "C3 D3 E3").activated = True
    put(state, 1, "Levy", "C20 D20 E20")
    assert autoplayer.choose(state, 0) == EndTurn(0)


def test_the_surer_order_goes_first_when_a_failure_would_cost_the_others() -> None:
    """Activation: "If the Group failed their activation test, end your side's turn": a Move
    on 5+ goes before a Shoot on 10+ while other Groups still wait."""
    state = table()
    unsure = profile("unsure", mi=4, range_=18, activation={MOVE: 5, SHOOT: 10})
    put(state, 0, "Unsure", "C3 D3 E3", unsure)
    put(state, 0, "Knights", "K3 L3 M3", profile("knights"))
    put(state, 0, "Knights2", "S3 T3 U3", profile("knights"))
    put(state, 1, "Levy", "C18 D18 E18")
    command = autoplayer.choose(state, 0)
    assert isinstance(command, Move) and command.unit.startswith("Knights")


def test_a_lone_group_chooses_unbroken() -> None:
    """Setup 7: the ambition it can best meet; one Group is easily kept from Routing."""
    state = table()
    put(state, 0, "Knights", "C3 D3 E3")
    put(state, 1, "Levy", "C20 D20 E20")
    state.round = 0
    assert autoplayer.choose(state, 0) == ChooseAmbition(0, "unbroken")


def test_deployment_puts_shooters_behind_the_fighters_in_the_seats_zone() -> None:
    """Deployment (our ruling): each seat in its own zone; the automatic player stands its
    fighters forward and its shooters behind, and the engine accepts it."""
    match = RULESET.new_match(match_content(4, "clash"), SeededDice(1))
    for seat in range(4):
        command = autoplayer.deployment(match.state, seat)
        match.apply(command)
        state = match.state
        mine = [g for g in state.groups_of(seat) if not g.summoned]
        assert all(s in state.zones[seat] for g in mine for s in g.models)
        assert all(geometry.cohesive(g.models) for g in mine)
        forward = state.board.height - 1 if seat % 2 == 0 else 0  # toward the enemy's edge
        shooters = [_depth(g.models, forward) for g in mine if g.profile.mi is not None]
        fighters = [_depth(g.models, forward) for g in mine if not autoplayer.behind(g)]
        if shooters and fighters:
            assert min(shooters) > max(fighters)


def _depth(models: list[Square], forward: int) -> int:
    """How far from the row toward the enemy its nearest model stands."""
    return min(abs(forward - square.y) for square in models)


def test_a_reckless_groups_missed_deadline_sends_the_automatic_attack() -> None:
    """Turns 2: a Reckless Group must attempt its Attack, so when its player misses the
    deadline the automatic player's Attack is sent (the only legal order), not EndTurn."""
    state = table()
    put(state, 0, "Berserkers", "K5 L5 M5", profile("berserkers", me_attack=3))
    put(state, 1, "Soft", "K9 L9 M9", profile("soft", me_defend=6, t=1))
    state.reckless = ["Berserkers"]
    (decision,) = RULESET.deciding(state)
    assert decision.side == 0 and decision.on_timeout == (Melee(0, "Berserkers", "Soft"),)
    assert decision.on_timeout[0] in RULESET.legal_commands(state, 0)


def test_a_group_heads_for_an_objective_and_stays_on_one_it_holds() -> None:
    """Our content (hold-the-field): an objective scores for the side alone within 3" of it at
    each round's end, so the automatic player goes for the nearer objective and holds it."""
    state = table(objectives=("K12",), scoring=((OBJECTIVES, 1),))
    runner = put(state, 0, "Runners", "C3 D3 E3", profile("runners", mo=6))
    put(state, 1, "Levy", "C24 D24 E24")
    command = autoplayer.choose(state, 0)
    assert isinstance(command, Move)
    models = orders.move_squares(state, runner)[Square.parse(command.square)]
    target = [Square.parse("K12")]
    assert geometry.group_distance(models, target) < geometry.group_distance(runner.models, target)
    runner.models = [Square.parse(s) for s in ("J12", "K12", "L12")]
    assert autoplayer.choose(state, 0) == EndTurn(0)


def test_before_deployment_is_revealed_it_deploys_then_chooses_an_ambition() -> None:
    """Setup: deployment first, then (Setup 7) an ambition, each legal when it is sent."""
    match = RULESET.new_match(match_content(2, "clash"), SeededDice(2))
    for seat in range(2):
        command = autoplayer.choose(match.state, seat)
        assert command == autoplayer.deployment(match.state, seat)
        match.apply(command)
    for seat in range(2):
        command = autoplayer.choose(match.state, seat)
        assert isinstance(command, ChooseAmbition)
        assert command in RULESET.legal_commands(match.state, seat)
        match.apply(command)
    assert match.state.round == 1
