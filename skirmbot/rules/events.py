"""Events: what happened, in English for the log and as data for the picture and the medals.

Every event has a `kind`, a sentence a player can read, and JSON-ready `data` whose keys are
listed per kind below (renderers and campaign medals read them, never the text). The kinds are
shared by every ruleset: a ruleset that emits a kind gives it at least these keys, so the
pictures need no ruleset of their own; kinds only one ruleset has are marked with it.

    turn_started        turn
    initiative          rolls: [[face0, face1], ...], side
    orders_rolled       side, faces, orders
    activation_started  unit, side
    moved               unit, path: [squares], cost, action ("move"/"dash"; the group rules:
                        "move"/"retreat"/"charge"), paths: [[squares], ...] (a Group: every
                        model's path, the first model's first; the picture draws each)
    cost_paid           unit, action, act, orders
    door                unit, edge: "A1|B1", open: bool
    picked_up/dropped   unit, item, square
    crate_opened        unit, item, option, square
    roll                unit, purpose, faces, skill
    reroll / modify     die (1-based), old, new
    attack              attacker, target, weapon, kind ("ranged"/"melee"), from, to, strikes, damage, cover, support, item?
    saves               unit (or item), faces, first_faces (before standing-order re-rolls), needed, saved, rerolled, lost (Skirm: HIT lost)
    hit_lost            unit, lost, hit (HIT left) (Skirm Lite: after the saves, and Tough)
    downed              unit, by (Skirm Lite: at 0 HIT, until revived or the turn ends)
    revived             unit (the reviver), target, roll, hit (Skirm Lite)
    healed              unit, by, hit (HIT regained)
    taken_out           unit, side, by (unit id or null), by_side, weapon, kind ("event": environment), item?, overkill, turn
    explosion           item, square, kind ("barrel"/"turret")
    blast               unit, from, square (a Blast weapon lands; each caught target is then rolled for)
    parry / stunned     unit (and die, old, new for a parry)
    item_destroyed      item, kind, square
    activation_ended    unit, side, reason
    delayed             side
    scored              side, points, reason (the scoring kind, or "secondary" with card, name)
    secondary_drawn     side, turn (the card itself stays hidden: rulings, Missions)
    mission_event       side, roll, name, text, effect, value
    event_effect        effect, and what it changed (orders, side, units, damage)
    mission_action      unit, side, action, effect, square, objective? / item?
    turn_ended          turn
    match_ended         winner (side or null), reason, mp: [mp0, mp1] (the group rules: vp)

The group rules (companies, rulebook 003) add these; a Group's id is its `unit`, a seat its
`side` (except `routed`'s `by`, and `match_ended`'s winner: a side of seats):
    activation_test     unit, side, order, faces: [a, b], needed, passed (2d6 >= needed)
    pool                unit (who rolls), target, purpose ("shoot"/"attack"/"defend"), dice
                        (how many d6), faces, needed, hits, rerolled (the faces of the hit
                        dice re-rolled for Cover; [] none), r_lost (R the target loses)
    r_lost              unit, lost, r (R left), by (group id or null)
    resilience          unit, faces: [a, b], modifiers: [[text, value], ...], total, needed,
                        outcome ("passed"/"rallied"/"retreat"/"routed")
    shaken / rallied    unit
    retreat_blocked     unit, faces: [face], needed (R now), lost (R lost: the face if lower, else 0)
    routed              unit, side, by (seat or null), reason
    interrupt           unit, trait ("defiant"/"elusive"), faces, needed, passed
    roll_off            rolls, attackers;  captain_trait side (seat), trait, roll
    ambition_chosen     side, ambition;  turn_started turn, side;  turn_ended turn, side
    deployed            (no data: every Company is deployed, revealed together)
    reckless            unit, side (it must attempt to Attack before anything else)
    interrupt_asked     unit (the attacked Group), side, attacker, trait (its player answers)
    hexed               unit (the caster), target (the Cast order)
    summoned            unit (the new Group), side, by (the summoner), squares: [squares]
    standing_orders     side (what they are stays secret: the text says only whose)
    conceded            side (the seat whose Company leaves the table)
    activation_ended    also with unit null and reason "turn": a seat ended its part of the turn
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, **self.data}
