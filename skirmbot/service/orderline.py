"""Orders written as text: one action ("move Halden C4"), or a whole activation in one line
("Halden move C5; shoot Kor with Oathkeeper; end").

One parser for every front end: `/match orders line:` and the console read what a player typed
here, into the actions of `skirmbot.service.actions`, with errors in plain words. Names are
matched against the live match (a `Situation`), so a unit, target, weapon or skill may be typed
in any case and with spaces, unquoted: "shoot iron warden 2 with heavy bolter".

`play_line` plays a line: each step is sent as its own command (`MatchService.act`), exactly as
if the player had sent them one by one, so the record is the same; it stops at the first step
the rules refuse, or after the first step that leaves the match waiting for a decision (a roll
to accept or re-roll) or after which others may have moved (the turn passed on), and says
which. What was done stays done.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from skirmbot.rules.commands import Command
from skirmbot.rules.errors import RulesError
from skirmbot.rules.ruleset import Ruleset
from skirmbot.service import actions
from skirmbot.service.choices import Situation
from skirmbot.service.errors import NotAllowed, ServiceError
from skirmbot.service.replies import Reply, clip
from skirmbot.service.work import Member, NeedsConfirmation
from skirmbot.words import name_key, shown


class Plays(Protocol):
    """What playing a line needs of the match service (skirmbot.service.matches)."""

    async def situation(self, channel_id: int, member: Member | None = None) -> Situation: ...

    async def act(self, channel_id: int, member: Member, command: Command) -> Reply: ...


# The game's words, and how each is written with its unit named first (the console's form; in
# a line, the unit may come first or be left out: "Halden move C4", "move C4").
USAGE = {
    "move": "move UNIT SQUARE [TO]",
    "dash": "dash UNIT SQUARE [TO]",
    "leap": "leap UNIT SQUARE",
    "shoot": "shoot UNIT TARGET [WEAPON]",
    "melee": "melee UNIT TARGET [WEAPON]",
    "turret": "turret UNIT TARGET",
    "skill": "skill UNIT SKILL [TARGET]",
    "door": "door UNIT [TOWARD]",
    "pickup": "pickup UNIT",
    "drop": "drop UNIT",
    "crate": "crate UNIT OPTION",
    "mission": "mission UNIT ACTION",
    "activate": "activate UNIT",
    "end": "end [UNIT]",
    "delay": "delay",
    "reroll": "reroll DIE",
    "modify": "modify DIE +1|-1",
    "accept": "accept",
}
# How a ruleset's own actions whose fields are typed (`typed_kinds`) are written: the help of
# a match whose rules have them lists them (the infantry rules' firing arc and throw).
OWN_USAGE = {
    "arc": "arc UNIT WIDTH [toward] SQUARE [ORDER] [N]",
    "throw": "throw UNIT SQUARE [level LEVEL]",
}
EXAMPLE = "Halden move C5; shoot Kor with Oathkeeper; end"
UNITLESS = {"delay", "reroll", "modify", "accept"}  # decisions and turn words: no unit
_SQUARE = re.compile(r"^[A-Za-z]{1,2}\d{1,2}$")
_WORD = re.compile(r'"([^"]*)"|(\S+)')
_STEPS = re.compile(r"[;\n]+")
_WHOLE = re.compile(r"[\w']+")  # the words of an offered action's text, without "°" or ","
_OFFER = re.compile(r"[0-9]{1,9}")  # Tactical Orders offered: a plain number, no "²"
_OFFERED = re.compile(r"\s+[0-9]+\s+to\s*$", re.I)  # "dash C5 1 TO": the TO offered, written last
# Words a player may put between the parts of an order, as they would say it.
_FILLERS = {"move": {"to"}, "dash": {"to"}, "leap": {"to"}, "door": {"toward", "to"}}
_AT = {"at", "on"}
_WITH = "with"


class UnknownWord(ServiceError):
    """A step that names no action the parser knows; `word` is the first word typed."""

    def __init__(self, word: str, verbs: Sequence[str] = tuple(USAGE)) -> None:
        super().__init__(
            f"'{shown(word)}' is not an action: a step starts with an action ({', '.join(verbs)}) "
            f"or with one of your units and an action, like '{EXAMPLE}'."
        )
        self.word = word


# --- reading words -----------------------------------------------------------------------------
def split_steps(line: str) -> list[str]:
    """The steps of a line, separated by ";" or new lines; empty ones left out."""
    return [step.strip() for step in _STEPS.split(line) if step.strip()]


def words_of(text: str) -> list[str]:
    """The words of a step; "Remus 1" in double quotes is one word (an apostrophe is just a
    letter, as in names). ServiceError when a double quote is not closed."""
    if text.count('"') % 2:
        raise ServiceError(
            'No closing quotation: quote a name with spaces at both ends: "Remus 1".'
        )
    return [found[1] if found[1] is not None else found[2] for found in _WORD.finditer(text)]


def plain_word(word: str) -> str:
    """A word as squad names are read (rules/skirm/cards.py): compatibility forms (full-width
    "Ｃ４") are the plain ones, and an invisible character (a zero-width space pasted along)
    is none."""
    normal = unicodedata.normalize("NFKC", word)
    return "".join(char for char in normal if unicodedata.category(char) != "Cf")


def _fold(text: str) -> str:
    """A name as read: words apart by one space, without case or compatibility forms."""
    return name_key(" ".join(text.split()))


def take_name(words: Sequence[str], names: Iterable[str]) -> tuple[str, list[str]] | None:
    """The name the first words spell (the longest that fits, in any case), and the words
    after it; None if they spell none of `names`."""
    known = {_fold(name): name for name in names}
    for count in range(len(words), 0, -1):
        found = known.get(_fold(" ".join(words[:count])))
        if found is not None:
            return found, list(words[count:])
    return None


def _number(text: str, word: str) -> int:
    try:
        return int(text)
    except ValueError:
        hint = ' Quote names with spaces: move "Remus 1" C4.' if word in ("move", "dash") else ""
        raise ServiceError(
            f"'{shown(text)}' is not a whole number. Usage: {USAGE[word]}.{hint}"
        ) from None


def _usage(word: str) -> ServiceError:
    return ServiceError(f"Usage: {USAGE[word]}")


# --- one step ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Reading:
    """What a step is being read against: the live match, the asker's units, and the unit a
    step that names none acts with."""

    situation: Situation
    carried: str | None

    @property
    def own_units(self) -> list[str]:
        side = self.situation.side
        pieces = self.situation.rules.view(self.situation.state).pieces
        return [piece.id for piece in pieces if side is None or piece.side == side]

    @property
    def all_units(self) -> list[str]:
        return [piece.id for piece in self.situation.rules.view(self.situation.state).pieces]

    def own_kinds(self) -> dict[str, str]:
        """The ruleset's own actions (Skirm Lite's Revive, Sentry): the word -> their kind."""
        return {
            word: rule.name
            for rule in self.situation.rules.action_rules()
            if rule.name not in actions.COMMON_KINDS
            and rule.name in self.situation.rules.command_types
            for word in (rule.name, rule.title.split()[0].casefold())
        }

    def own(self, kind: str, **named: object) -> actions.Command:
        """A ruleset's own action typed in a step (Skirm's "leap"), as the match's ruleset plays
        it; one the ruleset does not have goes as typed, for the service to refuse as the
        rules do."""
        command = actions.own_command(kind, **named)
        rules = self.situation.rules
        if kind not in rules.command_types:
            return command
        return actions.ruleset_command(command, 0, rules)

    def verbs(self) -> list[str]:
        """The actions a step may start with in this match's rules (an unknown word lists
        them): the common words the ruleset plays, then its own."""
        played = self.situation.rules.command_types
        common = [verb for verb in USAGE if verb in played]
        return common + sorted({kind for kind in self.own_kinds().values()} - set(common))

    def verb(self, word: str) -> str | None:
        folded = word.casefold()
        if folded in USAGE:
            return folded
        return self.own_kinds().get(folded)


def read_command(
    situation: Situation, text: str, carried: str | None = None, *, ahead: bool = False
) -> actions.Command | None:
    """The action one step of text names, read against the live match: "Halden move C5",
    "move Halden C5", or "move C5" with the unit `carried` (else the one activating).
    ServiceError (UnknownWord for an unknown action) says what is wrong and what would be right.

    `ahead`: the step is read before the steps in front of it are played (a line is read whole
    before anything is done); a ruleset's own action is then only checked by name, since which
    of them are legal depends on what the steps before do (None is returned for it)."""
    return read_words(situation, words_of(text), carried, ahead=ahead)


def read_words(
    situation: Situation, words: Sequence[str], carried: str | None = None, *, ahead: bool = False
) -> actions.Command | None:
    """`read_command` of a step already split in words (a quoted name is one word)."""
    reading = _Reading(situation, carried if carried is not None else _activating(situation))
    words, orders = _spent([plain for word in words if (plain := plain_word(word))])
    if not words:
        raise ServiceError(f"Write an action, like '{EXAMPLE}'.")
    unit, rest = _unit_first(reading, words)
    if not rest:  # only a unit named: it activates
        return actions.Activate(0, unit) if unit else None
    verb = reading.verb(rest[0])
    if verb is None:
        raise UnknownWord(rest[0], reading.verbs())
    args = rest[1:]
    if verb not in USAGE:
        return None if ahead else _spending(_own_action(reading, verb, unit, args), orders)
    if unit is None and verb not in UNITLESS:
        named = take_name(args, reading.own_units)
        if named is not None:
            unit, args = named
    return _spending(_build(reading, verb, unit, args), orders)


def _spent(words: list[str]) -> tuple[list[str], int]:
    """The Tactical Orders a step offers, written last: "shoot Kor 1 TO"."""
    if len(words) > 2 and words[-1].casefold() == "to" and _OFFER.fullmatch(words[-2]):
        return words[:-2], int(words[-2])
    return words, 0


def _spending(command: actions.Command, orders: int) -> actions.Command:
    if not orders:
        return command
    if isinstance(command, actions.OwnCommand):  # not the ruleset's: the service refuses it
        return replace(command, named={**command.named, "orders": orders})
    if not hasattr(command, "orders"):
        raise ServiceError(f"{command.type} spends no Tactical Orders: leave out '{orders} TO'.")
    return replace(command, orders=orders)  # type: ignore[call-arg]


def _weapon_names(situation: Situation, unit: str) -> list[str]:
    """The weapons on the unit's card (none for a name that is no unit: the rules say why)."""
    try:
        card = situation.rules.card(situation.state, unit)
    except RulesError:
        return []
    return [weapon.name for weapon in card.weapons]


def _activating(situation: Situation) -> str | None:
    return situation.rules.view(situation.state).activating


def _unit_first(reading: _Reading, words: list[str]) -> tuple[str | None, list[str]]:
    """ "Halden move C5": the unit named before the action, and the words from the action on."""
    named = take_name(words, reading.own_units)
    if named is None and reading.verb(words[0]) is None:
        theirs = take_name(words, reading.all_units)  # "Kor move C4", Kor being the enemy's
        if theirs is not None and (not theirs[1] or reading.verb(theirs[1][0]) is not None):
            mine = ", ".join(reading.own_units)
            raise ServiceError(f"{theirs[0]} is not one of your units; yours are {mine}.")
    if named is None or (not named[1] and reading.verb(words[0]) is not None):
        return None, words  # "drop" is the action even with a unit called Drop
    if named[1] and reading.verb(named[1][0]) is None:
        raise UnknownWord(named[1][0], reading.verbs())
    return named


def _build(reading: _Reading, verb: str, unit: str | None, args: list[str]) -> actions.Command:
    """The common actions, their words after the action (and its unit, if named there)."""
    if verb in UNITLESS:
        return _decision(reading, verb, args)
    if verb in ("move", "dash", "leap"):
        return _movement(reading, verb, unit, args)
    if unit is None and verb == "end":
        if args:
            return actions.EndActivation(0, " ".join(args))  # not one of theirs: the rules say
        return actions.EndActivation(0, None)
    if unit is None and args and verb in ("activate", "pickup", "drop", "end"):
        unit, args = " ".join(args), []  # not one of theirs: the rules say so
    if unit is None and verb == "activate":
        raise _usage(verb)
    acting = unit or reading.carried
    if acting is None:
        raise ServiceError(
            f"Name the unit: '{USAGE[verb]}', or start the line with it, like '{EXAMPLE}'."
        )
    return _unit_action(reading, verb, acting, args)


def _decision(reading: _Reading, verb: str, args: list[str]) -> actions.Command:
    if verb == "reroll":
        if len(args) != 1:
            raise _usage(verb)
        return actions.Reroll(0, _number(args[0], verb))
    if verb == "modify":
        if len(args) != 2:
            raise _usage(verb)
        return actions.Modify(0, _number(args[0], verb), _number(args[1], verb))
    if args:
        raise _usage(verb)
    return reading.own("delay") if verb == "delay" else actions.Accept(0)


def _movement(reading: _Reading, verb: str, unit: str | None, args: list[str]) -> actions.Command:
    """[UNIT] [to] SQUARE [TO]: the square is the last word, or the one before the TO spent.
    A ruleset whose Move places each model (the group rules' `models`) reads [UNIT] SQUARE
    SQUARE ...: every model's square in order."""
    placed = _model_squares(reading, verb, args)
    if placed:
        return _placed_move(reading, unit, args[: -len(placed)], placed)
    orders = 0
    if args and _SQUARE.match(args[-1]):
        square, before = args[-1], args[:-1]
    elif len(args) >= 2 and _SQUARE.match(args[-2]) and verb != "leap":
        square, before, orders = args[-2], args[:-2], _number(args[-1], verb)
    else:
        raise _usage(verb)
    if before and before[-1].casefold() in _FILLERS[verb]:
        before = before[:-1]
    if before:
        if unit is not None:
            raise ServiceError(f"'{shown(' '.join(before))}' is not a square. Usage: {USAGE[verb]}")
        unit = " ".join(before)  # not one of theirs: the rules name the units there are
    acting = unit or reading.carried
    if acting is None:
        raise ServiceError(
            f"Name the unit that moves: '{USAGE[verb]}', or start the line with it, like "
            f"'{EXAMPLE}'."
        )
    square = square.upper()
    if verb == "leap":
        return reading.own("leap", unit=acting, square=square)
    kind = actions.Move if verb == "move" else actions.Dash
    return kind(0, acting, square, orders)


def _model_squares(reading: _Reading, verb: str, args: list[str]) -> list[str]:
    """The squares ending a Move's words, when there are two or more and the ruleset's own
    Move takes each model's square (`models`); else none."""
    if verb != "move" or "models" not in actions.fields_of(reading.situation.rules, "move"):
        return []
    count = 0
    while count < len(args) and _SQUARE.match(args[-1 - count]):
        count += 1
    return [square.upper() for square in args[len(args) - count :]] if count > 1 else []


def _placed_move(
    reading: _Reading, unit: str | None, before: list[str], squares: list[str]
) -> actions.Command:
    if before and before[-1].casefold() in _FILLERS["move"]:
        before = before[:-1]
    if before:
        if unit is not None:
            raise ServiceError(
                f"'{shown(' '.join(before))}' is not a square. Usage: {USAGE['move']}"
            )
        unit = " ".join(before)  # not one of theirs: the rules name the units there are
    acting = unit or reading.carried
    if acting is None:
        raise ServiceError("Name the Group that moves: move UNIT SQUARE SQUARE ...")
    return reading.own("move", unit=acting, square=squares[0], models=" ".join(squares))


def _unit_action(reading: _Reading, verb: str, unit: str, args: list[str]) -> actions.Command:
    found = reading.situation.unit(unit)  # its id, None for no such unit
    if verb in ("shoot", "melee"):
        target, weapon = _target_and_weapon(reading, unit, args, verb)
        kind = actions.Shoot if verb == "shoot" else actions.Melee
        return kind(0, unit, target, weapon)
    if verb == "turret":
        target, _ = _target(reading, _without(args, _AT), verb)
        return reading.own("turret", unit=unit, target=target)
    if verb == "skill":
        skills = [name for name, _ in reading.situation.skills(found)] if found else []
        named = take_name(args, skills)
        if named is None and not args:
            raise _usage(verb)
        skill, rest = named if named is not None else (args[0], args[1:])
        rest = _without(rest, _AT)
        aim = take_name(rest, reading.all_units)
        aimed = aim[0] if aim is not None and not aim[1] else (" ".join(rest) or None)
        return reading.own("skill", unit=unit, skill=skill, target=aimed)
    if verb == "door":
        toward = _without(args, _FILLERS["door"])
        if len(toward) > 1:
            raise _usage(verb)
        return actions.Door(0, unit, toward[0].upper() if toward else None)
    if verb in ("crate", "mission"):
        if not args:
            raise _usage(verb)
        if verb == "crate":
            return reading.own("crate", unit=unit, option=" ".join(args).lower())
        offered = [name for name, _ in reading.situation.mission_actions(found)] if found else []
        named = take_name(args, offered)
        return reading.own("mission", unit=unit, action=named[0] if named else " ".join(args))
    if args:
        left = shown(" ".join(args))
        raise ServiceError(
            f"{verb} takes nothing after its unit, not '{left}'. Usage: {USAGE[verb]}"
        )
    simple: dict[str, Callable[[], actions.Command]] = {
        "activate": lambda: actions.Activate(0, unit),
        "pickup": lambda: actions.PickUp(0, unit),
        "drop": lambda: actions.Drop(0, unit),
        "end": lambda: actions.EndActivation(0, unit),
    }
    return simple[verb]()


def _without(words: list[str], fillers: set[str]) -> list[str]:
    """The words without a filler in front ("at Kor", "toward C5")."""
    return words[1:] if words and words[0].casefold() in fillers else words


def _target(reading: _Reading, args: list[str], verb: str) -> tuple[str, list[str]]:
    """A unit named by the first words (any case, spaces and all), else the first word as
    typed (a square, `barrel@E5`); and the words after it."""
    if not args:
        raise _usage(verb)
    named = take_name(args, reading.all_units)
    return named if named is not None else (args[0], args[1:])


def _target_and_weapon(
    reading: _Reading, unit: str, args: list[str], verb: str
) -> tuple[str, str | None]:
    """TARGET [with] [WEAPON]: "Kor with Oathkeeper", or "Kor Oathkeeper" as the console reads."""
    args = _without(args, _AT)
    folded = [word.casefold() for word in args]
    if _WITH in folded:
        at = folded.index(_WITH)
        target_words, weapon_words = args[:at], args[at + 1 :]
        if not weapon_words:
            raise ServiceError(f"Name the weapon after 'with'. Usage: {USAGE[verb]}")
        target, left = _target(reading, target_words, verb)
        if left:
            target = " ".join(target_words)  # not a unit: the rules say what can be attacked
    else:
        target, weapon_words = _target(reading, args, verb)
    if not weapon_words:
        return target, None
    weapons = _weapon_names(reading.situation, unit)
    named = take_name(weapon_words, weapons)
    return target, named[0] if named is not None and not named[1] else " ".join(weapon_words)


def _own_action(reading: _Reading, kind: str, unit: str | None, args: list[str]) -> actions.Command:
    """One of the ruleset's own actions (Skirm Lite's "revive Kor"): the legal one of the unit
    whose words (`Situation.own_actions`: "Revive: Mara, Kor (2 TO)") hold every word typed."""
    situation = reading.situation
    # An action no unit takes (the d20 rules' Defend, End turn) is the seat's, whoever activates.
    acting = (
        (unit or reading.carried) if "unit" in actions.fields_of(situation.rules, kind) else None
    )
    offered = [
        (value, words)
        for value, words in situation.own_actions(actions.COMMON_KINDS, acting)
        if actions.kind_of(actions.decode(value, situation.rules)) == kind
    ]
    wanted = [word.casefold() for word in args]
    typed = kind in typed_kinds(situation.rules)
    fitting = [value for value, words in offered if _fits(wanted, words, whole=typed)]
    if fitting:
        return actions.decode(fitting[0], situation.rules)
    if typed:
        return _typed_action(reading, kind, unit, args)
    title = next(r.title for r in situation.rules.action_rules() if r.name == kind)
    who = acting or "your units"
    if not offered:
        raise ServiceError(f"{title} is not open to {who} now; /match rules says when it is.")
    listed = "; ".join(words for _, words in offered)
    raise ServiceError(f"No {title} of {who} fits '{shown(' '.join(args))}'. Open now: {listed}.")


def _fits(wanted: list[str], words: str, *, whole: bool) -> bool:
    """Whether an offered action's words hold every word typed: as a part ("rev" fits Revive),
    or, for an action whose fields are typed (`whole`), as a whole word, so that a typed dot
    is never taken for a longer one ("A1" is not the A11 offered)."""
    text = words.casefold()
    if not whole:
        return all(word in text for word in wanted)
    found = set(_WHOLE.findall(text))
    return all(word in found for word in wanted)


def typed_kinds(rules: Ruleset) -> frozenset[str]:
    """The ruleset's own actions whose fields a player may type as they like, not only pick
    from what `legal_commands` lists (the infantry rules' firing arc faces any dot)."""
    return rules.typed_kinds


def _typed_action(
    reading: _Reading, kind: str, unit: str | None, args: list[str]
) -> actions.Command:
    """A ruleset's own action read from the words as typed ("arc Hale 60 F7 first 2"): the
    unit first (if not named before the action), then the command's other fields in order; a
    word naming a field ("toward J6", "level 1") is left out, and a number is made one where
    the field holds numbers. The rules then accept it or refuse it in their words."""
    rules = reading.situation.rules
    names = [name for name in actions.fields_of(rules, kind) if name != "unit"]
    if unit is None:
        # One of theirs goes as typed too: the rules say whose it is.
        named = take_name(args, reading.own_units) or take_name(args, reading.all_units)
        if named is not None:
            unit, args = named
    acting = unit or reading.carried
    if acting is None:
        raise ServiceError(f"Name the unit: {kind} UNIT {' '.join(n.upper() for n in names)}.")
    values = [word for word in args if word.casefold() not in names]
    if len(values) > len(names):
        extra = shown(" ".join(values[len(names) :]))
        raise ServiceError(
            f"A {kind} takes {', '.join(names)}, in that order; '{extra}' is more than that."
        )
    numbers = actions.number_fields(rules, kind)
    given = {
        name: _typed_value(value, name in numbers)
        for name, value in zip(names, values, strict=False)
    }
    return reading.own(kind, unit=acting, **given)


def _typed_value(word: str, number: bool) -> object:
    """A typed word as its field takes it: a whole number where the field holds one (else the
    word, for the rules to refuse), a dot or a square in capitals, else as typed."""
    if number and re.fullmatch(r"[+-]?\d{1,9}", word):
        return int(word)
    return word.upper() if _SQUARE.match(word) else word


def unit_of(command: actions.Command | None) -> str | None:
    """The unit a command acts with (None for a decision, a delay, an end without a name)."""
    unit = getattr(command, "unit", None)
    return unit if isinstance(unit, str) and unit else None


# --- a whole line ------------------------------------------------------------------------------
@dataclass
class _Done:
    number: int
    text: str
    reply: Reply


async def play_line(service: Plays, channel_id: int, member: Member, line: str) -> Reply:
    """Play a line of steps as the asker's commands, one by one (see the module's text). A
    line refused at its first step, or not readable, changes nothing: ServiceError
    (NeedsConfirmation when that first step would spend Tactical Orders, so it can be offered
    as usual). Otherwise the reply is what the steps did (the map, who acts next...) and, as a
    last private message, where it stopped and why."""
    steps = split_steps(line)
    if not steps:
        raise ServiceError(f"Write the steps of your activation, like '{EXAMPLE}'.")
    situation = await service.situation(channel_id, member)
    _check_turn(situation)
    _read_ahead(situation, steps)
    done: list[_Done] = []
    carried: str | None = None
    stop = ""
    passed = ""  # why no step but an "end" goes on: the turn passed, or others played since
    reached = 0  # the last step done
    for number, text in enumerate(steps, start=1):
        try:
            situation = await service.situation(channel_id, member)
            command = read_command(situation, text, carried)
            if command is None:
                raise ServiceError(f"Write an action, like '{EXAMPLE}'.")
            if _ended_already(situation, command, carried, done):
                reached = number
                continue
            if passed:
                stop = passed
                break
            before = _moment(situation)
            reply = await service.act(channel_id, member, command)
        except NeedsConfirmation as error:
            if not done:
                raise NeedsConfirmation(_step(number, text, str(error)), error.retry) from error
            offered = shown(offering(text, getattr(error.retry, "orders", 1)))
            stop = passed or _step(number, text, f"{error} Offer them in the step: '{offered}'.")
            break
        except ServiceError as error:
            if not done:
                refusal = NotAllowed if isinstance(error, NotAllowed) else ServiceError
                raise refusal(_step(number, text, str(error))) from error
            stop = passed or _step(number, text, str(error))
            break
        done.append(_Done(number, text, reply))
        reached = number
        carried = unit_of(command) or carried
        if number == len(steps):
            break
        if any(message.match_over for message in reply.all()):  # the automatic player's too
            stop = f"The match is over after step {number}; the steps after it are not played."
            break
        after = f"Stopped after step {number} ('{shown(text)}')"
        try:
            now = await service.situation(channel_id, member)
        except ServiceError as error:  # the match went away between two steps
            stop = f"{after}: {error}"
            break
        waiting = _waiting(now)
        if waiting:
            stop = f"{after}: {waiting}."
            break
        moved_on = _moved_on(before, now)
        passed = f"{after}: {moved_on}; the steps after it are not played." if moved_on else ""
    return _told(done, stop, reached, len(steps))


def offering(step: str, orders: int) -> str:
    """The step as typed, offering `orders` Tactical Orders instead of any it offered:
    ("dash C5 1 TO", 2) -> "dash C5 2 TO"."""
    return f"{_OFFERED.sub('', step.rstrip())} {orders} TO"


def _moment(situation: Situation) -> tuple[int, int]:
    """Where the match stands: its turn, and how many activations have ended in it (numbers,
    not the live state, which the next command changes in place)."""
    view = situation.rules.view(situation.state)
    return view.turn, view.activations


def _moved_on(before: tuple[int, int], now: Situation) -> str:
    """Why a line that was written at `before` goes no further than the step just played
    ("" when it may): the turn passed to the opponent, a new turn began, or the automatic
    player played an activation in the meantime (rulings: One-line orders)."""
    if not _deciding(now):
        return "it is your opponent's turn now"
    turn, activations = _moment(now)
    if turn != before[0]:
        return f"turn {turn} has begun; look at the map before going on"
    if activations > before[1] + 1:
        return "your opponent has played since; look at the map before going on"
    return ""


def _ended_already(
    situation: Situation, command: actions.Command, carried: str | None, done: list[_Done]
) -> bool:
    """An "end" for the activation the step before ended by itself (no ACT left, Skirm Lite's
    one action): what the player asked is so already, and nothing is sent (rulings: One-line
    orders)."""
    if not isinstance(command, actions.EndActivation) or not done:
        return False
    if _activating(situation) is not None or command.unit not in (None, carried):
        return False
    return done[-1].reply.picture is not None  # the map goes out when an activation ends


def _check_turn(situation: Situation) -> None:
    """Only the player to act sends a line (nothing is done otherwise)."""
    if situation.side is None:
        seats = len(situation.rules.view(situation.state).sides)
        who = "the two players" if seats == 2 else "the players"
        raise NotAllowed(f"Only {who} of this match can give it orders.")
    if not _deciding(situation):
        raise NotAllowed("It is not your turn: send your orders when it is.")


def _deciding(situation: Situation) -> bool:
    """Whether the asker's ruleset asks them to decide now: in their turn, or in another's (a
    d20 defender prompted for its bonus dice answers with "defend 2")."""
    found = situation.rules.deciding(situation.state)
    return any(decision.side == situation.side for decision in found)


def _read_ahead(situation: Situation, steps: list[str]) -> None:
    """Read every step before any is played: a step that cannot be read refuses the line
    whole, and nothing is done."""
    carried: str | None = None
    for number, text in enumerate(steps, start=1):
        try:
            command = read_command(situation, text, carried, ahead=True)
        except ServiceError as error:
            raise ServiceError(_step(number, text, f"{error} Nothing was done.")) from error
        carried = unit_of(command) or carried


def _step(number: int, text: str, why: str) -> str:
    return f"Step {number} ('{shown(text)}'): {why}"


def _waiting(situation: Situation) -> str:
    """What the match waits for after a step, in words ("" if nothing): a roll waiting for
    its player's decision (Reply.choices then offers Accept and the Re-roll buttons)."""
    rolling = situation.rules.view(situation.state).rolling
    if rolling is None:
        return ""
    side = situation.side
    legal = situation.rules.legal_commands(situation.state, side) if side is not None else []
    decisions = {command.type for command in legal}
    ways = ["accept it"]
    if "reroll" in decisions:
        ways.append("re-roll a die (reroll DIE)")
    if "modify" in decisions:
        ways.append("change one by 1 (modify DIE +1|-1)")
    return f"{rolling}'s roll waits for your decision: {' or '.join(ways)}"


def _so_far(done: int, total: int) -> str:
    """Which steps of a stopped line were done: "Steps 1 to 2 are done; steps 3 to 4 are
    not."."""
    kept = "Step 1 is done" if done == 1 else f"Steps 1 to {done} are done"
    left = f"step {total} is not" if done + 1 == total else f"steps {done + 1} to {total} are not"
    return f"{kept}; {left}."


def _told(done: list[_Done], stop: str, reached: int, total: int) -> Reply:
    """The steps' replies as the channel reads them: the texts of the steps joined into one
    message until an activation ends (its map and the ping of who acts next go with it), then
    what came after (the automatic player's turns); last, privately, where the line stopped."""
    messages: list[Reply] = []
    texts: list[str] = []
    for index, step in enumerate(done):
        reply = step.reply
        texts.append(reply.text)
        ends = reply.picture is not None or reply.ping is not None or reply.match_over
        if ends or reply.followups or index == len(done) - 1:
            messages.append(
                replace(reply, text=clip("\n".join(t for t in texts if t)), followups=[])
            )
            messages += reply.followups
            texts = []
    if stop:
        messages.append(Reply(f"{stop} {_so_far(reached, total)}", private=True))
    first, *rest = messages
    first.followups = rest
    return first


# --- what a line can go on with (autocomplete) -------------------------------------------------
# The word a player types for each kind of legal command.
_VERB_OF = {
    "move": "move", "dash": "dash", "leap": "leap", "shoot": "shoot", "melee": "melee",
    "turret": "turret", "skill": "skill", "door": "door", "pickup": "pickup", "drop": "drop",
    "crate": "crate", "mission": "mission", "end": "end",
}  # fmt: skip


def line_choices(situation: Situation, current: str) -> list[str]:
    """The ways the line typed so far can go on, as whole lines: the last step's unit and
    what it may do now ("Halden move", "Halden shoot"), or, with a roll waiting, its
    decisions. Only the asker's, at their turn (their side's, in team play); nothing when the
    last step has its action."""
    side, state = situation.side, situation.state
    if side is None or side not in situation.rules.view(state).seats_acting():
        return []
    done, _, last = current.rpartition(";")
    before = f"{done}; " if done else ""
    legal = situation.rules.legal_commands(state, side)
    own = {kind for kind in _Reading(situation, None).own_kinds().values()}
    offered: list[str] = []
    for command in legal:
        words = _offered_words(command, own)
        if words and words not in offered:
            offered.append(words)
    typed = _fold(last)
    return [f"{before}{words}" for words in offered if _fold(words).startswith(typed)]


def _offered_words(command: actions.Command, own: set[str]) -> str:
    """How a legal command begins as typed: "Halden move", "reroll 2", "delay" ("" for a
    kind no step writes)."""
    if isinstance(command, actions.Reroll):
        return f"reroll {command.die}"
    if isinstance(command, actions.Modify):
        return f"modify {command.die} {command.delta:+d}"
    verb = _VERB_OF.get(command.type) or (command.type if command.type in own else None)
    unit = unit_of(command)
    if verb is None:
        return command.type if unit is None and command.type in USAGE else ""
    return f"{unit} {verb}" if unit else verb
