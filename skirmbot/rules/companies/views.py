"""What the group rules show of a match: the view (a piece per Group, a side per seat, teams),
a Group's card, who must decide now, status lines, buttons and the outcome."""

from __future__ import annotations

from collections.abc import Callable

from skirmbot.rules.commands import Command
from skirmbot.rules.companies import scoring
from skirmbot.rules.companies.captains import activation_minimum, mi_of, mo_of, t_of
from skirmbot.rules.companies.commands import EndTurn, Interrupt
from skirmbot.rules.companies.orders import acting_seats, in_melee, may_activate, reckless_of
from skirmbot.rules.companies.profiles import DEFIANT, ORDERS
from skirmbot.rules.companies.scenarios import OBJECTIVES
from skirmbot.rules.companies.setup import side_names as companies
from skirmbot.rules.companies.standings import placings, side_word, winner
from skirmbot.rules.companies.state import SIDES, Group, State, side_of_seat
from skirmbot.rules.errors import RulesError
from skirmbot.rules.ruleset import Outcome
from skirmbot.rules.view import (
    ACTIVATED,
    MISSED,
    OUT,
    OVER,
    PLAYING,
    READY,
    SETUP,
    CardView,
    Decision,
    MarkerView,
    MatchView,
    PieceView,
    SideView,
    activation_key,
)
from skirmbot.words import plural, possessive

# What the automatic player sends for a seat now: a missed deadline of a seat whose Reckless
# Group must still attempt its Attack sends its choice (no other command is legal for it).
Automatic = Callable[[State, int], Command]

SHAKEN_MARK, BLOODIED_MARK = "SHK", "BLD"
CAPTAIN_CODE = "CPT"  # the card's pill for the Captain trait
# Why the match ended (`State.reason`, as scoring sets it), in words after the winner.
REASON_WORDS = {
    "rounds": "after the last round",
    "routed": "a side has no Group left on the table",
    "conceded": "every player of a side conceded",
}


# --- phase, seats ---------------------------------------------------------------------------
def revealed(state: State) -> bool:
    """Deployment is secret until every Company has deployed; the roll-off comes with its
    reveal (our ruling, Deployment), so a side is known as attackers once it is shown."""
    return state.attackers is not None


def phase(state: State) -> str:
    return OVER if state.over else PLAYING if revealed(state) else SETUP


def seats_to_act(state: State) -> tuple[int, ...]:
    """The seats of the side whose turn it is that may still give an order (none while an
    Attack waits for its defender's answer)."""
    if state.over or state.round == 0:
        return ()
    return tuple(acting_seats(state))


def teams(state: State) -> tuple[tuple[int, ...], ...]:
    """The seats grouped into sides when a side has several (team play); () for one against
    one, where every seat is a side of its own."""
    if len(state.seats) <= SIDES:
        return ()
    return tuple(tuple(state.seats_of(side)) for side in range(SIDES))


def scores(state: State) -> tuple[int, ...]:
    """Each SIDE's VP now, with the ambitions met so far (final once the match is over)."""
    return scoring.scores(state)


def standing(state: State, seat: int) -> str:
    """A seat's header line: "Attackers · 3 VP · 4 Groups, 1 Routed" (its side's VP; "3 VP as a
    side" in team play)."""
    side = side_of_seat(seat)
    words = side_word(state, side)
    if state.seats[seat].out:
        return f"{words} · conceded"
    groups = state.groups_of(seat)
    routed = sum(1 for group in groups if group.routed)
    left = plural(len(groups) - routed, "Group")
    lost = f", {routed} Routed" if routed else ""
    # In team play the VP are the side's, not each player's: said so, or two rows of "3 VP"
    # read as 6.
    together = " as a side" if len(state.seats_of(side)) > 1 else ""
    return f"{words} · {scores(state)[side]} VP{together} · {left}{lost}"


# --- the view -------------------------------------------------------------------------------
def view(state: State, ruleset: str) -> MatchView:
    secret = not revealed(state)
    vp = scores(state)
    sides = tuple(
        SideView(n, seat.name, standing(state, n), vp[side_of_seat(n)], seat.out)
        for n, seat in enumerate(state.seats)
    )
    acting = seats_to_act(state)
    # An objective held shows its side's colour: the side's first seat's (seat n is on side n % 2).
    # Shown only when the scenario scores objectives: elsewhere the map's markers mean nothing.
    scored = any(s.kind == OBJECTIVES for s in state.scenario.scoring)
    markers = tuple(
        MarkerView(
            "objective", square, f"Objective {n}", side=scoring.holder(state, square), number=n
        )
        for n, square in enumerate(state.objectives if scored else (), start=1)
    )
    return MatchView(
        ruleset=ruleset, phase=phase(state), turn=state.round, turns=state.scenario.rounds,
        title=state.scenario.name, board=state.board, map_name=state.map_name, sides=sides,
        pieces=tuple(_piece(state, group, secret) for group in state.groups.values()),
        markers=markers, to_act=acting[0] if acting else None,
        activating=state.pending.attacker if state.pending is not None else None,
        turn_word="Round", notes=notes(state), battle_map=state.battle_map,
        outcome=headline(state), out_word="Routed", activations=state.orders,
        # "the entire Group counts as having Routed and is removed from play" (Retreating);
        # Shaken is the rulebook's knocked-back state: a Group hit loses R (hits=True).
        casualty_word="Routed", down_word="Shaken", hits=True, teams=teams(state), acting=acting,
    )  # fmt: skip


def _piece(state: State, group: Group, secret: bool) -> PieceView:
    status = OUT if group.routed else ACTIVATED if _spent(state, group) else READY
    marks = () if group.routed else _marks(group)
    return PieceView(
        id=group.id, side=group.seat, kind=group.profile.name,
        squares=() if secret or group.routed else tuple(group.models), status=status,
        hit=group.r, max_hit=group.profile.r, marks=marks, leader=group.captain,
        name=group.name if group.name != group.id else "", group=True,
    )  # fmt: skip


def _spent(state: State, group: Group) -> bool:
    """Done for its side's turn in progress (a flag left from its side's last turn does not
    dim it during the other side's)."""
    return group.side == state.active and group.activated


def _marks(group: Group) -> tuple[str, ...]:
    return tuple(
        mark for mark, on in ((SHAKEN_MARK, group.shaken), (BLOODIED_MARK, group.bloodied)) if on
    )


def notes(state: State) -> tuple[str, ...]:
    """More header text: which side attacks, who still chooses an ambition, who must still
    attack Recklessly, the Attack waiting for its defender's answer."""
    found: list[str] = []
    if state.attackers is not None:
        found.append(f"{side_word(state, state.attackers)}: {companies(state, state.attackers)}")
    choosing = _choosing(state) if revealed(state) and state.round == 0 else []
    if choosing:
        found.append(f"Choosing ambitions: {', '.join(state.seats[n].name for n in choosing)}")
    if state.reckless:
        reckless = ", ".join(state.group(name).id for name in state.reckless)
        found.append(f"Reckless: {reckless} must attack")
    if state.pending is not None:
        target = state.group(state.pending.target)
        trait = state.catalogue.traits[state.pending.trait].name
        found.append(f"{state.pending.attacker} attacks {target.id}: {trait} test or not?")
    return tuple(found)


# --- the card -------------------------------------------------------------------------------
def card(state: State, unit: str) -> CardView:
    group = state.groups.get(unit.lower())
    if group is None:
        raise RulesError(f"There is no Group called '{unit}' in this match.")
    profile, seat = group.profile, state.seats[group.seat]
    mi = mi_of(state, group)
    shooting = "-" if mi is None else f'{mi}+ {profile.range}"'
    melee = f"{_hits_on(profile.me_attack)}/{_hits_on(profile.me_defend)}"
    stats = (
        ("MO", f'{mo_of(state, group)}"'), ("MI", shooting), ("ME", melee),
        ("T", str(t_of(state, group))), ("R", f"{group.r}/{profile.r}"),
    )  # fmt: skip
    traits = [state.catalogue.traits[key] for key in profile.traits]
    rules = [(trait.name, trait.name[:3].upper()) for trait in traits]
    captain = seat.captain_trait if group.captain else None
    if captain is not None:
        rules.append((f"Captain: {captain.name}", CAPTAIN_CODE))
    return CardView(
        name=group.id, kind=profile.name, side=group.seat, squad=seat.name, stats=stats,
        rules=tuple(rule for rule, _ in rules), codes=tuple(code for _, code in rules),
        status=status_words(state, group), points=0 if group.summoned else profile.points,
        notes=_card_notes(state, group), leader=group.captain, costs=_activation_lines(state, group),
        status_kind=OUT if group.routed else ACTIVATED if _spent(state, group) else READY,
    )  # fmt: skip


def _hits_on(face: int | None) -> str:
    return "-" if face is None else f"{face}+"


def _activation_lines(state: State, group: Group) -> tuple[tuple[str, str], ...]:
    """Each order it can be given with the 2d6 its activation test needs ("Move", "2d6 ≥ 5")."""
    return tuple(
        (order.title(), f"2d6 ≥ {activation_minimum(state, group, order)}")
        for order in ORDERS
        if group.profile.can(order)
    )


def _card_notes(state: State, group: Group) -> tuple[str, ...]:
    found = [
        f"{trait.name}: {trait.text}"
        for trait in (state.catalogue.traits[key] for key in group.profile.traits)
    ]
    captain = state.seats[group.seat].captain_trait if group.captain else None
    if captain is not None:
        idle = " (no effect while Shaken)" if group.shaken else ""
        found.append(f"Captain, {captain.name}{idle}: {captain.text}")
    if group.summoned:
        found.append("Summoned: fielded for no points.")
    return tuple(found)


def status_words(state: State, group: Group) -> str:
    """ "Routed", or what holds now: "Shaken, Bloodied, in melee with Knights"."""
    if group.routed:
        return "Routed"
    found = [word for word, on in (("Shaken", group.shaken), ("Bloodied", group.bloodied)) if on]
    foes = [g.id for g in in_melee(state, group)]
    if foes:
        found.append(f"in melee with {', '.join(foes)}")
    if _spent(state, group):
        found.append("activated")
    words = ", ".join(found) or "Ready"
    return words[0].upper() + words[1:]


# --- who decides ----------------------------------------------------------------------------
def deciding(state: State, automatic: Automatic) -> tuple[Decision, ...]:
    """The seats that must decide now: after the reveal every seat still to choose its
    ambition; during an Attack waiting for the defender's answer, that defender alone (a
    reaction in another side's turn: its standing order answers when time runs out); else
    each seat of the side whose turn it is that may still act (time out: its part of the turn
    ends, or its Reckless Group attacks as the automatic player chooses)."""
    if state.over or not revealed(state):
        return ()
    if state.round == 0:
        return tuple(_ambition(state, seat, automatic) for seat in _choosing(state))
    if state.pending is not None:
        return (_defender(state),)
    return tuple(_turn(state, seat, automatic) for seat in seats_to_act(state))


def _choosing(state: State) -> list[int]:
    return [n for n, seat in enumerate(state.seats) if not seat.out and seat.ambition is None]


def _ambition(state: State, seat: int, automatic: Automatic) -> Decision:
    """Our ruling (Ambitions): a set-up decision each seat makes in its own time, as a turn
    (turn=True); a missed deadline chooses as the automatic player would (the ambition its
    Company can best meet)."""
    names = ", ".join(ambition.name for ambition in state.catalogue.ambitions.values())
    why = f"choose {possessive(state.seats[seat].name)} ambition ({names})"
    command = automatic(state, seat)
    missed = "the automatic player chooses the ambition"
    return Decision(seat, why, (command,), turn=True, key=f"r0:ambition:s{seat}", missed=missed)


def _defender(state: State) -> Decision:
    assert state.pending is not None
    target = state.group(state.pending.target)
    seat = state.seats[target.seat]
    trait = state.pending.trait
    use = seat.defiant if trait == DEFIANT else seat.elusive
    name = state.catalogue.traits[trait].name
    why = f"{state.pending.attacker} attacks {target.id}: test {name}, or stand"
    key = f"t{state.turns}:a{state.acted}:interrupt:s{target.seat}"
    return Decision(target.seat, why, (Interrupt(target.seat, use),), turn=False, key=key)


def _turn(state: State, seat: int, automatic: Automatic) -> Decision:
    reckless = reckless_of(state, seat)
    # A seat's own orders count, so a teammate's orders leave its time running.
    done = sum(1 for group in state.groups_of(seat) if group.activated)
    key = activation_key(state.turns, done, seat)
    if reckless:
        names = ", ".join(group.id for group in reckless)
        why = f"{names} {'is' if len(reckless) == 1 else 'are'} Reckless: attack an enemy Group"
        missed = "the automatic player makes the Reckless Group's Attack"
        return Decision(seat, why, (automatic(state, seat),), key=key, missed=missed)
    groups = [g.id for g in state.groups_of(seat) if may_activate(state, g) is None]
    why = f"your side's turn: give an order ({', '.join(groups)} ready), or end your part"
    missed = "their part of the turn ends"
    return Decision(seat, why, (EndTurn(seat, reason=MISSED),), key=key, missed=missed)


# --- status, buttons, outcome ----------------------------------------------------------------
def status_line(state: State, seat: int) -> str:
    return f"{state.seats[seat].name}: {standing(state, seat)}"


def buttons(state: State) -> tuple[str, ...]:
    """ "end" while a seat of the side whose turn it is may end its part, and no Attack waits
    for its defender's answer."""
    if state.pending is not None or not seats_to_act(state):
        return ()
    return ("end",)


def headline(state: State) -> str:
    """Who won, in a few words ("" while the match goes on)."""
    if not state.over:
        return ""
    side = winner(state)
    if side is None:
        return "Draw"
    names = companies(state, side)
    verb = "win" if len(state.seats_of(side)) > 1 else "wins"
    return f"{names} ({side_word(state, side).lower()}) {verb}"


def outcome(state: State) -> Outcome | None:
    """Placings and VP per side, and in words who won, why, and both sides' Companies and VP:
    "Hill Wardens (attackers) wins (after the last round): Attackers (Hill Wardens) 5 VP,
    Defenders (Red Band) 3 VP"."""
    if not state.over:
        return None
    vp = scores(state)
    why = REASON_WORDS.get(state.reason, state.reason)
    sides = ", ".join(
        f"{side_word(state, side)} ({companies(state, side)}) {vp[side]} VP"
        for side in range(SIDES)
    )
    return Outcome(placings(state), vp, f"{headline(state)} ({why}): {sides}")
