"""What the infantry rules show of a match: the view (a piece per trooper on a board of dots, the
firing arcs, the explosive tokens and dropped weapons), a trooper's card with every field of the
rulebook's sample card, who must decide now (an arc's owner while a move waits for its answer),
status lines, buttons and the outcome. Rulebook 002, "Unit Card"; plan section 3 for the arc's
owner deciding during the enemy's move.
"""

from __future__ import annotations

from collections.abc import Callable

from skirmbot.rules.commands import Command, EndActivation
from skirmbot.rules.dots import Dot
from skirmbot.rules.infantry import scoring
from skirmbot.rules.infantry.arms import GRENADE, Explosive, Weapon
from skirmbot.rules.infantry.card import (
    AP_ROW,
    CELLS,
    MAX_ARMOUR,
    MOD_ROW,
    Mark,
    current_hp,
    damage_modifier,
    index_of,
)
from skirmbot.rules.infantry.combat import BAYONET, FISTS, KNIFE, has_bayonet
from skirmbot.rules.infantry.engine import default_answer
from skirmbot.rules.infantry.maps import Ground
from skirmbot.rules.infantry.preview import shot_words
from skirmbot.rules.infantry.state import SIDES, Arc, Moving, State, Trooper
from skirmbot.rules.ruleset import Outcome
from skirmbot.rules.view import (
    ACTIVATED,
    DOTS,
    MISSED,
    OUT,
    OVER,
    PLAYING,
    READY,
    SETUP,
    ArcView,
    CardView,
    Decision,
    DotBoardView,
    EdgeView,
    MarkerView,
    MatchView,
    PieceView,
    SideView,
    TrackView,
    WeaponView,
    activation_key,
)
from skirmbot.words import plural, possessive

# What the automatic player sends for a seat now. `deciding` takes it as the group rules' does,
# but a missed deadline here never asks it: it ends an activation, or answers by an arc's order.
Automatic = Callable[[State, int], Command]

SATCHEL = "Satchel Charge"
# Our ruling (plan section 2, Leadership): every leader's leadership is 1; nothing reads it.
LEADERSHIP = 1
# The armour cells as the card draws them (Unit Card ¶6): left, destroyed by lethal damage, and
# marked off before the game (the card has 6; a type uses 2, 4 or 6).
ARMOUR_LEFT, ARMOUR_LOST, ARMOUR_UNUSED = "", "full", "unused"
# The HP row's marks as the card draws them: clean, half crossed (\), fully crossed (X).
CELL_MARKS = {Mark.CLEAN: "", Mark.HALF: "half", Mark.FULL: "full"}
# A piece's marks: it has an arc standing; the level it stands on above the ground ("L1").
ARC_MARK, LEVEL_MARK = "ARC", "L"
OUT_WORD = "Out of action"  # dead or unconscious: never acts again in the match (our ruling)


# --- phase, pieces ---------------------------------------------------------------------------
def revealed(state: State) -> bool:
    """Deployment is secret until both squads have deployed (the kernel's set-up stage)."""
    return all(state.deployed)


def phase(state: State) -> str:
    return OVER if state.over else PLAYING if revealed(state) else SETUP


def piece_status(state: State, trooper: Trooper) -> str:
    if not trooper.able:
        return OUT
    return ACTIVATED if _spent(state, trooper) else READY


def _spent(state: State, trooper: Trooper) -> bool:
    """Done for its side's turn in progress (the other side's old flags do not dim it)."""
    return trooper.seat == state.to_act and trooper.activated


def _marks(state: State, trooper: Trooper) -> tuple[str, ...]:
    found = []
    if state.arc_of(trooper.id) is not None:
        found.append(ARC_MARK)
    if trooper.level:
        found.append(f"{LEVEL_MARK}{trooper.level}")
    return tuple(found)


def _piece(state: State, trooper: Trooper, secret: bool) -> PieceView:
    kit = trooper.recruit.kit
    shown = trooper.dot is not None and not secret
    return PieceView(
        id=trooper.id, side=trooper.seat, kind=trooper.recruit.rank,
        squares=(trooper.dot,) if shown and trooper.dot is not None else (),
        status=piece_status(state, trooper), hit=current_hp(trooper.track), max_hit=CELLS,
        marks=_marks(state, trooper) if trooper.able else (), leader=trooper.recruit.leader,
        name=trooper.recruit.name if trooper.recruit.name != trooper.id else "",
        level=trooper.level, prone=trooper.prone or not trooper.able,
        armour=trooper.armour if kit.armour is not None else None,
        max_armour=kit.armour_cells if kit.armour is not None else None,
    )  # fmt: skip


# A dot's ground as the view names it (rules.view.GROUND_KINDS); open ground is not listed.
_GROUND_WORDS = {Ground.IMPASSABLE: "impassable", Ground.STAIRS: "stairs", Ground.LADDER: "ladder"}


def board_view(state: State) -> DotBoardView:
    """The map as pictures draw it: what each dot is, the levels, the sides' features."""
    board = state.board
    ground = tuple(
        (str(dot), _GROUND_WORDS[kind])
        for dot, kind in sorted(board.grounds.items())
        if kind in _GROUND_WORDS
    )
    levels = tuple((str(dot), level) for dot, level in sorted(board.levels.items()))
    edges = tuple(
        EdgeView(str(side[0]), str(side[1]), feature.value, level)
        for (side, level), feature in sorted(board.features.items())
    )
    return DotBoardView(board.width, board.height, ground, levels, edges)


def arc_view(state: State, arc: Arc) -> ArcView:
    owner = state.trooper(arc.owner)
    return ArcView(
        arc.owner, owner.seat, str(arc.vertex), arc.level, arc.facing, arc.width, arc.shots_left
    )


def markers(state: State) -> tuple[MarkerView, ...]:
    """Explosive tokens waiting for their side's turn to end, then dropped weapons."""
    tokens = tuple(
        MarkerView(
            "satchel" if thrown.weapon == SATCHEL else "grenade",
            thrown.token.target,
            f"{_token_word(thrown.weapon)} on {_at(thrown.token.target, thrown.token.level)}: "
            "resolves at the end of the turn",
            side=thrown.seat,
        )
        for thrown in state.tokens
    )
    items = tuple(
        MarkerView("item", item.dot, f"{item.name} on {_at(item.dot, item.level)}")
        for item in state.items
    )
    return tokens + items


def _token_word(weapon: str) -> str:
    return "satchel charge" if weapon == SATCHEL else "grenade"


def _at(dot: Dot, level: int) -> str:
    return f"{dot} level {level}" if level else str(dot)


def view(state: State, ruleset: str) -> MatchView:
    secret = not revealed(state)
    pv = scores(state)
    sides = tuple(
        SideView(n, seat.name, standing(state, n), pv[n], seat.out)
        for n, seat in enumerate(state.seats)
    )
    playing = not state.over and revealed(state)
    return MatchView(
        ruleset=ruleset, phase=phase(state), turn=state.round, turns=state.scenario.rounds,
        title=state.scenario.name, board=board_view(state), map_name=state.map_name,
        sides=sides, pieces=tuple(_piece(state, t, secret) for t in state.troopers),
        markers=() if secret else markers(state),
        to_act=state.to_act if playing else None,
        activating=state.activating if playing else None, turn_word="Round",
        notes=notes(state), outcome=headline(state), out_word=OUT_WORD,
        activations=state.acted, casualty_word=OUT_WORD.lower(), down_word="Prone",
        hits=True, grid=DOTS, arcs=() if secret else tuple(arc_view(state, a) for a in state.arcs),
    )  # fmt: skip


def notes(state: State) -> tuple[str, ...]:
    """More header text: a move waiting for an arc's owner, tokens waiting, melee waiting."""
    found: list[str] = []
    if state.moving is not None and state.moving.chances:
        found.append(chance_words(state, state.moving))
    if state.tokens:
        found.append(f"{plural(len(state.tokens), 'explosive')} waiting for the turn's end")
    for melee in state.melees:
        found.append(f"{melee.attacker} attacks {melee.target} in melee when it activates")
    return tuple(found)


# --- the card --------------------------------------------------------------------------------
def card(state: State, unit: str) -> CardView:
    """Every field of the rulebook's sample card (Unit Card ¶1-7): name, rank, squad position
    number, skill, the squad's leader and leadership, the HP row with its crossed (X) and
    half-crossed (\\) cells, the AP and modifier rows, the armour cells (unused ones marked off),
    the weapons with damage, shots and ranges, the grenades; and where it is: level, prone, the
    active weapon."""
    trooper = state.trooper(unit)  # IllegalCommand (a RulesError) naming them all if none
    recruit = trooper.recruit
    seat = state.seats[trooper.seat]
    track = trooper.track
    stats: tuple[tuple[str, str], ...] = (
        ("No.", str(recruit.number)), ("HP", f"{current_hp(track)}/{CELLS}"),
        ("AP", f"{trooper.left}/{trooper.max_ap}"), ("MOD", f"+{damage_modifier(track)}"),
        ("ARM", f"{trooper.armour}/{recruit.kit.armour_cells}"), ("LVL", str(trooper.level)),
    )  # fmt: skip
    # One HP box: the stat above; `hit` stays None so no second (HIT) box is drawn, and the
    # cells themselves are the HP track.
    return CardView(
        name=trooper.id, kind=recruit.rank, side=trooper.seat, squad=seat.squad, stats=stats,
        weapons=weapons(state, trooper),
        rules=("Leader",) if recruit.leader else (), codes=("LDR",) if recruit.leader else (),
        status=status_words(state, trooper), points=recruit.pv, notes=card_notes(state, trooper),
        leader=recruit.leader, tracks=card_tracks(trooper),
        status_kind=piece_status(state, trooper),
    )  # fmt: skip


def hp_labels() -> tuple[str, ...]:
    """The HP cells' labels, 10 to 1 from left to right (Unit Card ¶3)."""
    return tuple(str(hp) for hp in range(CELLS, 0, -1))


def hp_marks(trooper: Trooper) -> tuple[str, ...]:
    """Each HP cell as crossed, cell 10 first: "full" lethal (X), "half" bludgeoning (\\)."""
    return tuple(CELL_MARKS[mark] for mark in trooper.track.cells)


def ap_values(armour_cost: int) -> tuple[str, ...]:
    """The AP row under each HP cell, less the armour's cost in every column (Body Armor ¶2)."""
    return tuple(str(max(0, AP_ROW[hp] - armour_cost)) for hp in range(CELLS, 0, -1))


def modifier_values() -> tuple[str, ...]:
    """The modifier row under each HP cell (Unit Card ¶5)."""
    return tuple(f"+{MOD_ROW[hp]}" for hp in range(CELLS, 0, -1))


def armour_cells(left: int, cells: int) -> tuple[str, ...]:
    """The card's six armour cells: those left, those destroyed, the unused marked off."""
    lost = cells - left
    return (ARMOUR_LEFT,) * left + (ARMOUR_LOST,) * lost + (ARMOUR_UNUSED,) * (MAX_ARMOUR - cells)


def hp_column(trooper: Trooper) -> int | None:
    """The column of the current HP, whose AP and modifier apply (Unit Card ¶4-5); None dead."""
    hp = current_hp(trooper.track)
    return index_of(hp) if hp else None


def card_tracks(trooper: Trooper) -> tuple[TrackView, TrackView]:
    """The sample card's HP section (cells 10 to 1, the AP and modifier rows in the same
    columns) and its armour cells, as the card picture draws them and `/card` reads them."""
    kit = trooper.recruit.kit
    hp = TrackView(
        title="HP",
        labels=hp_labels(),
        marks=hp_marks(trooper),
        rows=(("AP", ap_values(kit.armour_cost)), ("Modifier", modifier_values())),
        column=hp_column(trooper),
    )
    armour = TrackView(
        title="Armour",
        labels=tuple(str(cell) for cell in range(1, MAX_ARMOUR + 1)),
        marks=armour_cells(trooper.armour, kit.armour_cells),
        note=kit.armour.name if kit.armour is not None else "none",
    )
    return (hp, armour)


def weapons(state: State, trooper: Trooper) -> tuple[WeaponView, ...]:
    """What it carries now (Take and Drop change it), then the grenades, fists and knife."""
    found: list[WeaponView] = []
    for name in (trooper.primary, trooper.secondary):
        if name is None:
            continue
        if name in state.arms.explosives:
            found.append(_explosive_view(state.arms.explosive(name), 1))
        else:
            found.append(_weapon_view(state.arms.weapon(name)))
    found.append(_explosive_view(state.arms.explosive(GRENADE), trooper.grenades))
    for name in state.arms.always_melee:
        found.append(_weapon_view(state.arms.weapon(name)))
    return tuple(found)


def damage_text(weapon: Weapon) -> str:
    """As the tables write it: "4X", "5\\", "1X, 4\\", fists "(max AP/2)\\"."""
    if weapon.blunt_is_half_ap:
        return "(max AP/2)\\"
    parts = ([f"{weapon.lethal}X"] if weapon.lethal else []) + (
        [f"{weapon.blunt}\\"] if weapon.blunt else []
    )
    return ", ".join(parts)


def _weapon_view(weapon: Weapon) -> WeaponView:
    stats: tuple[tuple[str, str], ...]
    if weapon.long is None:
        stats = (("DMG", damage_text(weapon)), ("AP", str(weapon.ap)), ("RG", str(weapon.short)))
        return WeaponView(weapon.name, True, stats)
    stats = (
        ("DMG", damage_text(weapon)), ("SH", f"x{weapon.shots}"),
        ("SR", str(weapon.short)), ("LR", str(weapon.long)),
    )  # fmt: skip
    rules = ("Bayonet",) if has_bayonet(weapon.name) else ()
    return WeaponView(weapon.name, False, stats, rules, codes=("BAY",) if rules else ())


def _explosive_view(explosive: Explosive, left: int) -> WeaponView:
    damage = "/".join(f"{value}X" for value in explosive.blast)
    stats = (
        ("DMG", damage), ("AP", explosive.ap_text), ("AMMO", f"{left}/{explosive.ammo}"),
        ("RG", "AP" if explosive.ap_per_dot == 1 else f"AP/{explosive.ap_per_dot}"),
    )  # fmt: skip
    return WeaponView(explosive.name, False, stats, spent=left == 0)


def card_notes(state: State, trooper: Trooper) -> tuple[str, ...]:
    recruit = trooper.recruit
    leader = next((t for t in state.troopers_of(trooper.seat) if t.recruit.leader), None)
    found = [
        f"Rank {recruit.rank}, squad position {recruit.number}, skill {recruit.skill}",
        f"Squad leader: {leader.id if leader else 'none'} (leadership {LEADERSHIP})",
        f"Active weapon: {trooper.active}",
        f"Level {trooper.level}{', prone' if trooper.prone else ', standing'}",
        f"Hand grenades: {trooper.grenades}",
    ]
    if has_bayonet(trooper.active):
        found.append(f"{BAYONET} on the {trooper.active} (melee as the {KNIFE})")
    equipment = (*state.arms.always_equipment, *recruit.kit.equipment)
    found.append(f"Equipment: {', '.join(equipment) if equipment else 'none'}")
    found.append(f"Always carried: {FISTS}, {KNIFE}")
    arc = state.arc_of(trooper.id)
    if arc is not None:
        found.append(arc_words(arc))
    return tuple(found)


def arc_words(arc: Arc) -> str:
    order = f"first {arc.n}" if arc.order == "first" else arc.order
    return (
        f"Firing arc: {arc.width}° from {arc.vertex} facing {arc.facing:.0f}°, "
        f"{plural(arc.shots_left, 'shot')} left ({arc.weapon}, order {order})"
    )


def status_words(state: State, trooper: Trooper) -> str:
    """ "Dead", "Unconscious", or what holds now: "Prone, activating, 3 AP left"."""
    if trooper.dead:
        return "Dead"
    if trooper.unconscious:
        return "Unconscious"
    found = ["prone" if trooper.prone else "standing"]
    if state.activating == trooper.id:
        found.append(f"activating, {trooper.left} AP left")
    elif _spent(state, trooper):
        found.append("activated")
    words = ", ".join(found)
    return words[0].upper() + words[1:]


# --- who decides -----------------------------------------------------------------------------
def deciding(state: State, automatic: Automatic) -> tuple[Decision, ...]:
    """The seats that must decide now: while a move waits for an arc's owner (plan section 3),
    that owner alone, a reaction in the other side's turn whose deadline fires or holds as the
    arc's order says; else the seat whose turn it is (a missed deadline ends the activation in
    progress where it stands, or the next ready trooper's)."""
    if state.over or not revealed(state) or state.to_act is None:
        return ()
    if state.moving is not None and state.moving.chances:
        return (arc_decision(state, state.moving),)
    seat = state.to_act
    key = activation_key(state.round, state.acted, seat)
    return (
        Decision(
            seat, _turn_words(state, seat), _timeout(state, seat), key=key, missed=_missed(state)
        ),
    )


def arc_decision(state: State, moving: Moving) -> Decision:
    """The arc owner's reaction: a missed deadline sends what the arc's own order answers
    (`engine.default_answer`), so a prompt left to time out plays as no prompt at all."""
    answer = default_answer(state)
    assert answer is not None, "a move waits for an arc's owner"
    owner = state.trooper(answer.owner)
    arc = state.arc_of(owner.id)
    order = arc.order if arc is not None else "gone"
    mover = state.trooper(moving.unit)
    key = f"t{state.turns}:a{state.acted}:arc:{owner.id}:{mover.dot}:{len(moving.steps)}"
    missed = f"the arc's order ({order}) {'fires' if answer.fire else 'holds'}"
    return Decision(
        owner.seat, chance_words(state, moving), (answer,), turn=False, key=key, missed=missed
    )


def chance_words(state: State, moving: Moving) -> str:
    """ "Rossi's arc: Kade enters F6 (2 dots, short range, needs 8+): fire or hold"."""
    owner = state.trooper(moving.chances[0])
    mover = state.trooper(moving.unit)
    arc = state.arc_of(owner.id)
    verb = "enters" if moving.action == "move" else "is in"
    where = _at(mover.dot, mover.level) if mover.dot is not None else "the map"
    shot = shot_words(state, arc, mover) if arc is not None else ""
    detail = f" ({shot})" if shot else ""
    return f"{possessive(owner.id)} arc: {mover.id} {verb} {where}{detail}: fire or hold"


def _turn_words(state: State, seat: int) -> str:
    if state.activating is not None:
        trooper = state.trooper(state.activating)
        return f"{trooper.id} is activating ({trooper.left} AP left): act, or /end it"
    ready = ready_troopers(state, seat)
    names = ", ".join(t.id for t in ready)
    return f"activate a trooper ({len(ready)} ready: {names}), or /end the turn"


def ready_troopers(state: State, seat: int) -> list[Trooper]:
    return [t for t in state.troopers_of(seat) if t.able and t.on_map and not t.activated]


def _timeout(state: State, seat: int) -> tuple[Command, ...]:
    """A missed deadline ends the activation in progress where it stands; with none in
    progress, the first ready trooper's (it activates and ends at once, as in Skirm), so each
    trooper of a silent player costs one deadline, not the whole turn."""
    if state.activating is not None:
        return (EndActivation(seat, state.activating, reason=MISSED),)
    ready = ready_troopers(state, seat)
    return (EndActivation(seat, ready[0].id if ready else None, reason=MISSED),)


def _missed(state: State) -> str:
    if state.activating is not None:
        return "the activation ends where it stands"
    return "the next ready trooper's activation ends where it stands"


# --- status, scores, buttons, outcome --------------------------------------------------------
def scores(state: State) -> tuple[int, ...]:
    return scoring.scores(state)


def standing(state: State, seat: int) -> str:
    """A seat's header line: "216 PV · 3 able, 1 out · 2 arcs · 1 grenade waiting"."""
    if state.seats[seat].out:
        return "conceded"
    troopers = state.troopers_of(seat)
    out = sum(1 for t in troopers if not t.able)
    parts = [f"{scores(state)[seat]} PV", f"{len(troopers) - out} able, {out} out"]
    owned = {t.id for t in troopers}
    standing_arcs = sum(1 for arc in state.arcs if arc.owner in owned)
    if standing_arcs:
        parts.append(plural(standing_arcs, "arc"))
    waiting = sum(1 for thrown in state.tokens if thrown.seat == seat)
    if waiting:
        parts.append(f"{plural(waiting, 'explosive')} waiting")
    return " · ".join(parts)


def status_line(state: State, seat: int) -> str:
    """ "Riflemen: AP 5/7 · 216 PV · 3 able, 1 out · 2 arcs · 1 explosive waiting" (the AP of
    its trooper activating now, if any)."""
    ap = ""
    if state.activating is not None:
        trooper = state.trooper(state.activating)
        if trooper.seat == seat:
            ap = f"AP {trooper.left}/{trooper.max_ap} · "
    return f"{state.seats[seat].name}: {ap}{standing(state, seat)}"


def buttons(state: State) -> tuple[str, ...]:
    """ "end" and "preview" while a trooper activates; while a move waits for an arc's owner,
    that owner's answers instead ("fire:Rossi", "hold:Rossi"): the owner who asked to be
    prompted answers with a click on the message that tells them of the chance."""
    if state.over:
        return ()
    if state.moving is not None and state.moving.chances:
        owner = state.moving.chances[0]
        return (f"fire:{owner}", f"hold:{owner}")
    if state.activating is None:
        return ()
    return ("end", "preview")


def headline(state: State) -> str:
    """Who won, in a few words ("" while the match goes on)."""
    if not state.over:
        return ""
    if state.winner is None:
        return "Draw"
    return f"{state.seats[state.winner].name} wins"


def outcome(state: State) -> Outcome | None:
    """Placings and PV per seat, and why the match ended, once it is over."""
    if not state.over:
        return None
    decided = scoring.outcome(state)
    why = decided[1] if decided is not None else state.result
    winner = state.winner
    placings = tuple(1 if winner is None or seat == winner else 2 for seat in range(SIDES))
    return Outcome(placings, scores(state), f"{why} {pv_words(state)}")


def pv_words(state: State) -> str:
    """Each side's score, for the result: "Riflemen 0 PV · Laser Team 412 PV." (the PV of the
    enemy troopers it put out, plan section 2, Victory)."""
    each = (
        f"{seat.name} {score} PV" for seat, score in zip(state.seats, scores(state), strict=True)
    )
    return " · ".join(each) + "."
