"""Captain traits (rulebook Setup 4: "Roll for Captain's trait"; the traits are our content,
docs/rulings.md, the group rules: Captain traits) and the numbers they change.

A trait acts on the Captain's Group only, and never while it is Shaken (rulebook Shaken Groups:
"If the Captain's Group is Shaken, none of their special rules affect play"). Everything that
reads a Group's MO, T, MI or activation minimum asks here, so a trait is applied in one place.
"""

from __future__ import annotations

from skirmbot.rules.companies.geometry import CAPTAIN_REACH
from skirmbot.rules.companies.profiles import ATTACK
from skirmbot.rules.companies.state import Group, State

# The Captain traits, faces 1-6 of the set-up roll in this order (content and code agree).
BOLD, STEADY, COMMANDING, MARKSMAN, HARDY, SWIFT = (
    "bold",
    "steady",
    "commanding",
    "marksman",
    "hardy",
    "swift",
)
CAPTAIN_TRAITS = (BOLD, STEADY, COMMANDING, MARKSMAN, HARDY, SWIFT)
COMMANDING_REACH = 18  # inches: commanding's Captain reaches this far instead of 12"
SWIFT_MO = 2  # inches added to the Captain's Group's MO
LOWEST_HIT = 2  # marksman never makes a die hit on a 1


def captain_trait(state: State, group: Group) -> str | None:
    """The Captain trait acting on this Group now: its Company's, if it is the Captain's Group
    and not Shaken."""
    if not group.captain or group.shaken:
        return None
    trait = state.seats[group.seat].captain_trait
    return trait.key if trait is not None else None


def mo_of(state: State, group: Group) -> int:
    """Its Move in inches (swift: +2")."""
    bonus = SWIFT_MO if captain_trait(state, group) == SWIFT else 0
    return group.profile.mo + bonus


def t_of(state: State, group: Group) -> int:
    """The hits that take 1 R from it (hardy: T + 1)."""
    bonus = 1 if captain_trait(state, group) == HARDY else 0
    return group.profile.t + bonus


def mi_of(state: State, group: Group) -> int | None:
    """The face its Shooting dice hit on (marksman: 1 less, never below 2); None: cannot Shoot."""
    mi = group.profile.mi
    if mi is None or captain_trait(state, group) != MARKSMAN:
        return mi
    return max(LOWEST_HIT, mi - 1)


def activation_minimum(state: State, group: Group, order: str) -> int:
    """The 2d6 result its activation test for `order` needs (bold: +1 to the roll for Attack
    orders, read as a minimum 1 lower). The order must be one its profile can be given."""
    minimum = group.profile.activation[order]
    if order == ATTACK and captain_trait(state, group) == BOLD:
        return minimum - 1
    return minimum


def resilience_bonus(state: State, group: Group) -> int:
    """What its own Captain trait adds to its Resilience tests (steady: +1)."""
    return 1 if captain_trait(state, group) == STEADY else 0


def captain_reach(state: State, captain: Group) -> int:
    """How far the Captain's Group's +1 to Resilience tests reaches (commanding: 18")."""
    return COMMANDING_REACH if captain_trait(state, captain) == COMMANDING else CAPTAIN_REACH
