"""What a hit does to a trooper in the match (rulebook 002: Resolving Fire ¶6-¶9, and our rulings
in docs/plans/infantry.md §2 on falling prone, death and unconsciousness).

`hurt` is the one place damage lands, whatever caused it (an arc's shot, a melee attack, a
blast): the card takes the damage (`card.apply_damage`), then the consequences follow at once.
Dead or unconscious: it lies prone, its arc and the melee attacks it is part of are dropped, its
activation (and a move in progress) ends. Otherwise, our reading of ¶9: if the AP it has
already spent this turn meet or exceed its new maximum AP, it falls prone and can take no
further actions this activation (the rest of a move is dropped).
"""

from __future__ import annotations

from skirmbot.rules.events import Event
from skirmbot.rules.infantry import card
from skirmbot.rules.infantry.state import State, Trooper


def hurt(
    state: State,
    trooper: Trooper,
    damage: tuple[int, int],
    roll: int,
    *,
    by: Trooper | None,
    weapon: str,
    kind: str,
) -> list[Event]:
    """Apply one hit of (lethal, bludgeoning) `damage` from the initial cell the 2D6 `roll`
    names; the events of the damage and what follows from it."""
    lethal, blunt = damage
    first = card.first_cell(roll)
    trooper.track = card.apply_damage(trooper.track, lethal, blunt, first)
    hp = card.current_hp(trooper.track)
    events = [
        Event(
            "damage",
            f"{trooper.id} takes {_damage_words(lethal, blunt)} from cell {first}: "
            f"{hp} HP, {trooper.armour} armour left.",
            {
                "unit": trooper.id,
                "lethal": lethal,
                "blunt": blunt,
                "first": first,
                "hp": hp,
                "armour": trooper.armour,
                "cells": card.track_text(trooper.track),
            },
        )  # fmt: skip
    ]
    if not trooper.able:
        return events + put_out(state, trooper, by=by, weapon=weapon, kind=kind)
    if trooper.seat == state.to_act and trooper.spent >= trooper.max_ap:
        # Resolving Fire ¶9 as we read it (plan §2): spent >= the new maximum AP. Only the
        # side whose turn it is has spent AP "this turn".
        trooper.prone = True
        events.append(
            Event(
                "prone",
                f"{trooper.id} has spent {trooper.spent} AP of its {trooper.max_ap} now: "
                "it falls prone and can do nothing more this activation.",
                {"unit": trooper.id, "hit": True},
            )
        )
        events += stop(state, trooper, "hit with no AP left")
    return events


def _damage_words(lethal: int, blunt: int) -> str:
    parts = [f"{lethal} lethal"] if lethal else []
    parts += [f"{blunt} bludgeoning"] if blunt else []
    return " and ".join(parts) or "no damage"


def put_out(
    state: State, trooper: Trooper, *, by: Trooper | None, weapon: str, kind: str
) -> list[Event]:
    """A trooper now dead or unconscious (our ruling, plan §2): it lies prone and never acts
    again; its arc and every melee attack it is part of are dropped."""
    trooper.prone = True
    how = "dead" if trooper.dead else "unconscious"
    events = [
        Event(
            "taken_out",
            f"{trooper.id} is {how}.",
            {
                "unit": trooper.id,
                "side": trooper.seat,
                "by": None if by is None else by.id,
                "by_side": None if by is None else by.seat,
                "weapon": weapon,
                "kind": kind,
                "how": how,
                "turn": state.turns,
            },
        )  # fmt: skip
    ]
    if trooper.unconscious:
        events.append(Event("unconscious", f"{trooper.id} is knocked out.", {"unit": trooper.id}))
    events += drop_arc(state, trooper.id, f"{trooper.id} is {how}")
    state.melees = [m for m in state.melees if trooper.id not in (m.attacker, m.target)]
    return events + stop(state, trooper, how)


def drop_arc(state: State, owner: str, why: str) -> list[Event]:
    """Remove `owner`'s arc, if it has one."""
    arc = state.arc_of(owner)
    if arc is None:
        return []
    state.arcs.remove(arc)
    return [
        Event("arc_removed", f"{owner}'s firing arc is gone: {why}.", {"unit": owner, "why": why})
    ]


def stop(state: State, trooper: Trooper, reason: str) -> list[Event]:
    """End the trooper's activation now, if it is the one activating (a move in progress with
    it): it can take no further actions."""
    if state.moving is not None and state.moving.unit == trooper.id:
        state.moving = None
    if state.activating != trooper.id:
        return []
    return end_activation(state, trooper, reason)


def end_activation(state: State, trooper: Trooper, reason: str) -> list[Event]:
    """The trooper's activation is over: it has activated this turn."""
    trooper.activated = True
    state.activating = None
    state.acted += 1
    return [
        Event(
            "activation_ended",
            f"{trooper.id}'s activation ends ({reason}).",
            {"unit": trooper.id, "side": trooper.seat, "reason": reason},
        )
    ]
