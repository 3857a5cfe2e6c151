"""Squad files: names and keys (issue: "Unit names are taken as they come").

Names of squads, units, weapons and skills are trimmed and hold 1 to 32 visible characters on one
line; the names commands take (units, weapons, skills) are not a square's name and hold none of
the separators commands use; unit names are unique in the squad and weapon and skill names in
the unit, whatever their case. Every object of a squad file lists only the keys it may have: an
unknown key is refused, naming the object and suggesting the closest valid key.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from skirmbot import content
from skirmbot.rules.errors import ContentError
from skirmbot.rules.skirm.cards import NAME_LIMIT, card_from_json
from skirmbot.rules.skirm.squads import squad_from_json

ROOMY = 1000  # an EP limit no test squad reaches


def raises(text: str) -> Any:
    """pytest.raises for a ContentError whose message contains `text` word for word."""
    return pytest.raises(ContentError, match=re.escape(text))


def wardens() -> dict[str, Any]:
    """A fresh copy of the shipped Iron Wardens: Halden is unit 1, Corra unit 2."""
    return copy.deepcopy(content.raw("squads", "iron-wardens"))


def unit(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(item for item in data["units"] if item["name"] == name)


RALLY: dict[str, Any] = {"name": "Rally", "act": 1, "effect": "orders", "amount": 1}


# --- unknown keys --------------------------------------------------------------------------


def test_a_misspelt_unit_key_is_reported_with_the_closest_key() -> None:
    data = wardens()
    halden = unit(data, "Halden")
    halden["wepons"] = halden.pop("weapons")
    with raises("Unit 'Halden': unknown key 'wepons' (did you mean 'weapons'?)"):
        squad_from_json(data)


def test_a_misspelt_squad_key_is_reported() -> None:
    data = wardens()
    data["unit"] = data.pop("units")
    with raises("Squad 'Iron Wardens': unknown key 'unit' (did you mean 'units'?)"):
        squad_from_json(data)


def test_a_misspelt_weapon_key_is_reported_with_the_unit_and_weapon() -> None:
    data = wardens()
    rifle = unit(data, "Pell")["weapons"][0]
    rifle["speicals"] = rifle.pop("specials")
    with raises("Unit 'Pell', weapon 'Rifle': unknown key 'speicals' (did you mean 'specials'?)"):
        squad_from_json(data)


def test_a_misspelt_skill_key_is_reported_with_the_unit_and_skill() -> None:
    data = wardens()
    unit(data, "Halden")["skills"] = [{**RALLY, "amout": 1}]
    with raises("Unit 'Halden', skill 'Rally': unknown key 'amout' (did you mean 'amount'?)"):
        squad_from_json(data, ROOMY)


def test_an_unknown_key_with_no_close_match_lists_the_keys() -> None:
    data = wardens()
    unit(data, "Corra")["colour"] = "green"
    with raises("Unit 'Corra': unknown key 'colour'. The keys of a unit are: name, type, ep,"):
        squad_from_json(data)


def test_a_range_key_on_a_weapon_points_to_the_rgx_rule() -> None:
    data = wardens()
    unit(data, "Pell")["weapons"][0]["range"] = 8
    with raises("Unit 'Pell', weapon 'Rifle': unknown key 'range'; a weapon's range is a special"):
        squad_from_json(data)


def test_a_key_differing_only_in_case_is_unknown_too() -> None:
    data = wardens()
    halden = unit(data, "Halden")
    halden["Weapons"] = halden.pop("weapons")
    with raises("Unit 'Halden': unknown key 'Weapons' (did you mean 'weapons'?)"):
        squad_from_json(data)


def test_every_key_the_shipped_files_and_the_campaigns_use_is_known() -> None:
    """Description, xp, spoils_taken, gear and skills stay valid keys."""
    data = wardens()
    pell = unit(data, "Pell")
    pell.update(xp=5, spoils_taken=1)
    pell["weapons"][0]["gear"] = False
    unit(data, "Halden")["skills"] = [{**RALLY, "ep": 0, "once_per_turn": True}]
    squad = squad_from_json(data, ROOMY)
    assert [card.name for card in squad.units][-1] == "Pell"


# --- unit names ------------------------------------------------------------------------------


def test_a_unit_name_of_zero_width_characters_is_refused() -> None:
    data = wardens()
    data["units"][1]["name"] = "\u200b\u200c\u2060\ufeff"
    with raises("Unit 2: the unit name has no visible characters; give it 1 to 32 letters"):
        squad_from_json(data)


def test_a_500_character_unit_name_is_refused() -> None:
    data = wardens()
    data["units"][1]["name"] = "A" * 500
    with raises("Unit 2: the unit name 'AAAA"):
        squad_from_json(data)
    with raises("is 500 characters long; a unit name has 1 to 32 visible characters."):
        squad_from_json(data)


@pytest.mark.parametrize("name", ["C4", "c4", " C 4 ", "L12", "A0", "\uff23\uff14"])
def test_a_unit_name_that_reads_like_a_square_is_refused(name: str) -> None:
    data = wardens()
    data["units"][2]["name"] = name
    with raises(f"Unit 3: the unit name '{name.strip()}' reads like a square of the map"):
        squad_from_json(data)


@pytest.mark.parametrize("name", ["C4 Team", "Unit C4", "CC4", "C444", "4C", "Nine 9"])
def test_names_with_a_square_inside_are_fine(name: str) -> None:
    data = wardens()
    data["units"][2]["name"] = name
    assert squad_from_json(data).units[2].name == name


def test_unit_names_are_trimmed() -> None:
    data = wardens()
    data["units"][0]["name"] = " \u200b Halden\t\n"
    assert squad_from_json(data).units[0].name == "Halden"


def test_a_name_of_32_visible_characters_is_the_longest() -> None:
    data = wardens()
    data["units"][0]["name"] = "H" * NAME_LIMIT
    assert squad_from_json(data).units[0].name == "H" * NAME_LIMIT
    data["units"][0]["name"] = "e\u0301" * NAME_LIMIT  # combining accents do not count
    assert len(squad_from_json(data).units[0].name) == NAME_LIMIT  # composed to NFC
    data["units"][0]["name"] = "H" * (NAME_LIMIT + 1)
    with raises("is 33 characters long; a unit name has 1 to 32 visible characters."):
        squad_from_json(data)


def test_a_zero_width_character_inside_a_name_is_refused() -> None:
    data = wardens()
    data["units"][0]["name"] = "Hal\u200bden"
    with raises("Unit 1: the unit name 'Hal\ufffdden' holds an invisible character (U+200B)"):
        squad_from_json(data)


def test_a_line_break_inside_a_name_is_refused() -> None:
    data = wardens()
    data["units"][0]["name"] = "Hal\nden"
    with raises("Unit 1: the unit name 'Hal\ufffdden' holds a line break or control character"):
        squad_from_json(data)


@pytest.mark.parametrize("name", ["Halden, Jr", "Halden; Jr", "Halden@Home"])
def test_a_unit_name_with_a_command_separator_is_refused(name: str) -> None:
    data = wardens()
    data["units"][0]["name"] = name
    with raises(f"Unit 1: the unit name '{name}' holds one of , ; @"):
        squad_from_json(data)


def test_a_unit_name_that_is_not_a_text_is_refused() -> None:
    data = wardens()
    data["units"][0]["name"] = 7
    with raises("Unit 1: the unit name must be a text, not 7."):
        squad_from_json(data)
    del data["units"][0]["name"]
    with raises("Unit 1: a unit needs a 'name'."):
        squad_from_json(data)


@pytest.mark.parametrize("twin", ["Halden", "HALDEN", " halden ", "\uff28alden"])
def test_unit_names_are_unique_in_the_squad(twin: str) -> None:
    data = wardens()
    data["units"][1]["name"] = twin
    with raises("Squad Iron Wardens: two units are called Halden"):
        squad_from_json(data, ROOMY)


# --- the squad's name, weapon names, skill names, types ----------------------------------------


def test_the_squad_name_is_trimmed_and_checked() -> None:
    data = wardens()
    data["name"] = "  Iron Wardens \u200b"
    assert squad_from_json(data).name == "Iron Wardens"
    data["name"] = "W" * 33
    with raises("The squad file: the squad name 'WWWW"):
        squad_from_json(data)
    data["name"] = "\u200b"
    with raises("The squad file: the squad name has no visible characters"):
        squad_from_json(data)
    data["name"] = "B7"
    with raises("The squad file: the squad name 'B7' reads like a square of the map"):
        squad_from_json(data)


def test_a_weapon_name_follows_the_same_rules() -> None:
    data = wardens()
    weapons = unit(data, "Pell")["weapons"]
    weapons[0]["name"] = "C4"
    with raises("Unit 'Pell', weapon 1: the weapon name 'C4' reads like a square of the map"):
        squad_from_json(data)
    weapons[0]["name"] = "R" * 40
    with raises("Unit 'Pell', weapon 1: the weapon name 'RRRR"):
        squad_from_json(data)
    weapons[0]["name"] = " BAYONET "
    with raises("Unit 'Pell': two weapons are called 'BAYONET' and 'Bayonet'"):
        squad_from_json(data)
    weapons[0]["name"] = "  Rifle  "
    assert squad_from_json(data).units[-1].weapons[0].name == "Rifle"


def test_a_skill_name_follows_the_same_rules() -> None:
    data = wardens()
    halden = unit(data, "Halden")
    halden["skills"] = [{**RALLY, "name": "D9"}]
    with raises("Unit 'Halden', skill 1: the skill name 'D9' reads like a square of the map"):
        squad_from_json(data, ROOMY)
    halden["skills"] = [RALLY, {**RALLY, "name": " rally"}]
    with raises("Unit 'Halden': two skills are called 'Rally' and 'rally'"):
        squad_from_json(data, ROOMY)
    halden["skills"] = [{**RALLY, "name": " Rally \u200b"}]
    assert squad_from_json(data, ROOMY).units[0].skills[0].name == "Rally"


def test_a_unit_type_is_trimmed_and_kept_short() -> None:
    data = wardens()
    unit(data, "Halden")["type"] = "  Warden Captain "
    assert squad_from_json(data).units[0].unit_type == "Warden Captain"
    unit(data, "Halden")["type"] = "T" * 65
    with raises("Unit 'Halden': the type 'TTTT"):
        squad_from_json(data)


def test_card_from_json_alone_checks_keys_and_names() -> None:
    """The campaign code reads single units with card_from_json: the same checks apply."""
    card = copy.deepcopy(unit(wardens(), "Pell"))
    card["hitt"] = 2
    with raises("Unit 'Pell': unknown key 'hitt' (did you mean 'hit'?)"):
        card_from_json(card, "Squad Iron Wardens")
    del card["hitt"]
    card["name"] = "E5"
    with raises("A unit: the unit name 'E5' reads like a square of the map"):
        card_from_json(card, "Squad Iron Wardens")


def test_a_match_saved_before_the_checks_still_replays() -> None:
    """Rulings, Squad files: the checks are for squad files as they come in (uploaded, saved,
    shipped); a squad inside a match record, accepted when the match began, is read as it was
    then, so a match saved before names and keys were checked is never lost."""
    from skirmbot.rules.record import MatchRecord, replay

    old = copy.deepcopy(content.raw("squads", "iron-wardens"))
    old["units"][1]["name"], old["units"][1]["notes"] = "B1", "painted blue"
    with pytest.raises(ContentError):
        squad_from_json(old)  # as a new file: refused
    record = MatchRecord(
        content={
            "map": content.raw("maps", content.DEFAULT_MAP),
            "mission": content.raw("missions", content.DEFAULT_MISSION),
            "squads": [old, content.raw("squads", "ash-runners")],
        },
        dice={"seed": 1},
    )
    match = replay(record)
    assert "B1" in match.state.units
