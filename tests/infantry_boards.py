"""Infantry matches set up by hand for the views' tests: both squads deployed on Crossroads, the
riflemen's turn in round 1, with arcs and tokens placed directly (no die rolled)."""

from __future__ import annotations

from skirmbot.rules.dots import Dot, bearing
from skirmbot.rules.infantry.blast import Token
from skirmbot.rules.infantry.setup import deploy, new_state
from skirmbot.rules.infantry.state import Arc, State, Thrown
from tests.infantry_helpers import content

RIFLEMEN = {"Hale": "B1", "Rossi": "D1", "Brandt": "F1", "Okafor": "H1"}
LASERS = {"Ishida": "B12", "Varga": "D12", "Nkemelu": "F12", "Sorensen": "H12"}


def deployed(squads: tuple[str, str] = ("riflemen", "laser-team")) -> State:
    """Both squads deployed on their edges of Crossroads, round 1, the riflemen's turn."""
    state = new_state(content(squads))
    deploy(state, 0, RIFLEMEN)
    deploy(state, 1, LASERS)
    state.round, state.first, state.to_act = 1, 0, 0
    return state


def arc_of(state: State, owner: str, toward: str, order: str = "every", n: int = 0) -> Arc:
    """A 60 degree arc of 2 shots for `owner` facing the dot `toward`, set by hand."""
    trooper = state.trooper(owner)
    assert trooper.dot is not None
    arc = Arc(
        owner, trooper.dot, trooper.level, bearing(trooper.dot, Dot.parse(toward)), 60,
        trooper.active, 2, order, n,
    )  # fmt: skip
    state.arcs.append(arc)
    return arc


def grenade(thrower: str, at: str) -> Thrown:
    """A hand grenade's token of the riflemen's on `at`, needing 5 (Explosives ¶3)."""
    dot = Dot.parse(at)
    return Thrown(0, thrower, "Hand Grenade", Token(dot, 0, dot, 5, (6, 3, 1)))
