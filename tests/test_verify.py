"""Dice anyone can verify (issue 21, rulings: Fair play, "Verifiable dice").

A new match commits to a secret seed (SHA-256 posted at the start), each player adds a salt,
the dice come from the seed and both salts, and the record of the match, once it is over,
reveals the seed, lists every die and the result. `skirmbot verify` checks it and names what
was changed: a die, the seed, a salt, the result.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from service_setup import ALICE, BOB, CHANNEL, EVE, GUILD, MOD, end_activations

from skirmbot.cli import main
from skirmbot.rules.dice import (
    KeyedDice,
    SaltedDice,
    check_salt,
    commitment_of,
    new_dice,
    new_salt,
    seal_of,
)
from skirmbot.rules.errors import RulesError
from skirmbot.rules.record import (
    RECORD_VERSION,
    MatchRecord,
    dice_of,
    faces_rolled,
    replay,
)
from skirmbot.rules.verify import verify
from skirmbot.service import MatchService, ServiceError
from skirmbot.service.pages import Pages
from skirmbot.store import Store

KEY = "ab" * 32
SALTS = ["alice-salt", "bob.salt_2"]


# --- the dice ------------------------------------------------------------------------------
def test_salted_dice_come_from_the_seed_and_both_salts() -> None:
    """Fair play, verifiable dice: the same seed and salts give the same faces; another salt,
    or the seed alone, other faces (neither the bot nor a player chooses them alone)."""

    def faces(dice: Any) -> list[int]:
        return [dice.roll() for _ in range(40)]

    same = faces(SaltedDice(KEY, SALTS))
    assert same == faces(SaltedDice(KEY, SALTS))
    assert same != faces(SaltedDice(KEY, [SALTS[0], "bob.salt_3"]))
    assert same != faces(SaltedDice(KEY, [SALTS[1], SALTS[0]])), "the salts' order counts"
    assert same != faces(KeyedDice(KEY)), "the seed alone does not give the dice"
    assert SaltedDice(KEY, SALTS).to_json() == {"key": KEY}, "the salts live beside the dice"


def test_no_die_is_rolled_before_both_salts_are_fixed() -> None:
    """Fair play, verifiable dice: a die asked for while the second salt is missing is refused."""
    with pytest.raises(RulesError, match="both players' salts"):
        SaltedDice(KEY, [SALTS[0], None]).roll()


def test_the_commitment_is_sha256_of_the_seeds_bytes() -> None:
    assert commitment_of(KEY) == hashlib.sha256(bytes.fromhex(KEY)).hexdigest()
    assert seal_of(commitment_of(KEY), 0, "x") != seal_of(commitment_of(KEY), 1, "x")


@pytest.mark.parametrize("salt", ["dragon-42", "a", "A.b_c-9", "x" * 32, "  padded  "])
def test_a_salt_is_short_plain_text(salt: str) -> None:
    assert check_salt(salt) == salt.strip()


@pytest.mark.parametrize("salt", ["", "   ", "x" * 33, "two words", "naïve", "a\nb", "<@1>"])
def test_a_salt_with_other_characters_or_too_long_is_refused(salt: str) -> None:
    with pytest.raises(RulesError, match="A salt is 1 to 32 characters"):
        check_salt(salt)


def test_the_bot_makes_a_fresh_salt_that_passes_its_own_check() -> None:
    made = {new_salt() for _ in range(20)}
    assert len(made) == 20 and all(check_salt(salt) == salt for salt in made)


# --- a whole match through the service --------------------------------------------------------
async def played(store: Store) -> tuple[MatchService, dict[str, Any]]:
    """Alice (salt given) v Bob (salt given), keyed dice as the bot runs, every activation
    ended where it stands until the match is over; its exported record."""
    service = MatchService(store, clock=lambda: 1_000_000.0)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB, salt=SALTS[0])
    await service.join(CHANNEL, BOB, salt=SALTS[1])
    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-runners")
    await service.deploy(CHANNEL, ALICE)
    await service.deploy(CHANNEL, BOB)
    ended = await end_activations(service)
    assert ended is not None and ended.match_over
    _, data = await service.export(CHANNEL, BOB)
    return service, json.loads(data)


def write(tmp_path: Path, record: dict[str, Any], name: str = "record.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def run_verify(path: Path, capsys: pytest.CaptureFixture[str], *more: str) -> tuple[int, str, str]:
    code = main(["verify", str(path), *more])
    out, err = capsys.readouterr()
    return code, out, err


async def test_a_finished_matchs_record_verifies(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The exported record reveals the seed, lists every die and the result; verify checks
    each and exits 0, saying what it checked."""
    _, record = await played(store)
    assert record["version"] == 3 and set(record["dice"]) == {"key"}
    assert record["commitment"] == commitment_of(record["dice"]["key"])
    assert record["salts"] == SALTS
    parsed = MatchRecord.from_json(record)
    assert record["rolls"] == faces_rolled(parsed) and len(record["rolls"]) > 20
    assert record["result"] == replay(parsed).state.result.to_json()  # type: ignore[union-attr]

    code, out, err = run_verify(write(tmp_path, record), capsys)
    assert (code, err) == (0, ""), err
    assert record["commitment"] in out and "alice-salt" in out and "bob.salt_2" in out
    assert f"All {len(record['rolls'])} rolls" in out and "ends as recorded" in out
    code, out, _ = run_verify(
        write(tmp_path, record), capsys, "--commitment", record["commitment"].upper()
    )
    assert code == 0 and "the one you give" in out


async def test_a_changed_die_seed_salt_or_result_is_named(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 21: changing one die, the seed or a salt in an exported record makes verify fail
    (exit 1) with a message that says what changed."""
    _, record = await played(store)

    die = copy.deepcopy(record)
    position = 17
    was = die["rolls"][position]
    die["rolls"][position] = was % 6 + 1
    code, _, err = run_verify(write(tmp_path, die), capsys)
    assert code == 1
    assert (
        f"Roll {position + 1} is recorded as {was % 6 + 1}, but the seed and salts give {was}"
        in err
    )
    assert err.count("Roll ") == 1, "only the changed die is named"

    seed = copy.deepcopy(record)
    seed["dice"]["key"] = "cd" * 32
    code, _, err = run_verify(write(tmp_path, seed), capsys)
    assert code == 1
    assert "The revealed seed does not hash to the commitment posted at the start" in err
    assert "The salt of" not in err and "Roll " not in err, "only the seed is named"

    salt = copy.deepcopy(record)
    salt["salts"][1] = "bob.salt_3"
    code, _, err = run_verify(write(tmp_path, salt), capsys)
    assert code == 1
    assert "The salt of Bob (recorded as 'bob.salt_3') does not match its seal" in err
    assert "Alice" not in err and "seed does not hash" not in err and "Roll " not in err

    result = copy.deepcopy(record)
    result["result"]["winner"] = 1 - (result["result"]["winner"] or 0)
    code, _, err = run_verify(write(tmp_path, result), capsys)
    assert code == 1 and "The recorded result (" in err and "is not the replay's" in err

    dropped = copy.deepcopy(record)
    del dropped["result"]
    code, _, err = run_verify(write(tmp_path, dropped), capsys)
    assert code == 1 and "(no result: the match was called off) is not the replay's" in err

    posted = copy.deepcopy(record)
    code, _, err = run_verify(write(tmp_path, posted), capsys, "--commitment", "00" * 32)
    assert code == 1 and "is not the one you give" in err

    fewer = copy.deepcopy(record)
    fewer["rolls"].pop()
    code, _, err = run_verify(write(tmp_path, fewer), capsys)
    assert code == 1 and f"lists {len(fewer['rolls'])} rolls, but its commands roll" in err


async def test_records_verify_cannot_check_say_why(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record from before verifiable dice or with a fixed seed, or one exported before the
    end, does not verify (1) and says why; a file that is not a record is a usage error (2)."""
    service = MatchService(store, clock=lambda: 1_000_000.0)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    await service.join(CHANNEL, BOB)
    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-runners")
    await service.deploy(CHANNEL, ALICE)
    await service.deploy(CHANNEL, BOB)
    _, so_far = await service.export(CHANNEL, ALICE)
    code, _, err = run_verify(write(tmp_path, json.loads(so_far)), capsys)
    assert code == 1 and "match still in play" in err

    main(["demo", "--seed", "3", "--out", str(tmp_path / "demo")])
    capsys.readouterr()
    code, _, err = run_verify(tmp_path / "demo" / "match.json", capsys)
    assert code == 1 and "no commitment" in err

    (tmp_path / "broken.json").write_text("{ not json", encoding="utf-8")
    code, _, err = run_verify(tmp_path / "broken.json", capsys)
    assert code == 2 and "not valid JSON" in err
    code, _, err = run_verify(tmp_path / "missing.json", capsys)
    assert code == 2 and "no such file" in err


# --- what the players see ---------------------------------------------------------------------
async def test_the_commitment_is_posted_at_the_start_the_salts_at_join_the_seed_at_the_end(
    store: Store,
) -> None:
    """Fair play, verifiable dice: the opening message carries the commitment and the
    creator's salt; joining shows the second salt; the seed stays out of everything said and
    exported until the end, and the end says how to verify."""
    service = MatchService(store, clock=lambda: 1_000_000.0)
    opened = await service.create(GUILD, CHANNEL, ALICE, opponent=BOB, salt="dragon-42")
    row = await store.active_match(CHANNEL)
    assert row is not None
    key = row.record["dice"]["key"]
    assert f"SHA-256 {commitment_of(key)}" in opened.text and "dragon-42" in opened.text
    assert key not in opened.text
    assert row.record["salts"] == ["dragon-42", None]

    joined = await service.join(CHANNEL, BOB)
    row = await store.active_match(CHANNEL)
    assert row is not None
    bob_salt = row.record["salts"][1]
    assert check_salt(bob_salt) == bob_salt, "the bot made Bob a salt"
    assert f"Bob's salt is {bob_salt}" in joined.text and "dragon-42" in joined.text

    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-runners")
    await service.deploy(CHANNEL, ALICE)
    await service.deploy(CHANNEL, BOB)
    _, so_far = await service.export(CHANNEL, ALICE)
    partial = json.loads(so_far)
    assert key not in so_far.decode() and "script" in partial["dice"]
    assert partial["commitment"] == commitment_of(key) and partial["salts"][0] == "dragon-42"
    assert "rolls" not in partial and "result" not in partial

    ended = await service.concede(CHANNEL, BOB)
    said = " ".join(message.text for message in ended.all())
    assert "skirmbot verify" in said and commitment_of(key) in said
    _, whole = await service.export(CHANNEL, EVE)
    assert json.loads(whole)["dice"] == {"key": key}


async def test_a_bad_salt_is_refused_and_changes_nothing(store: Store) -> None:
    service = MatchService(store)
    with pytest.raises(ServiceError, match="A salt is 1 to 32 characters"):
        await service.create(GUILD, CHANNEL, ALICE, salt="not a salt!")
    assert await store.active_match(CHANNEL) is None
    await service.create(GUILD, CHANNEL, ALICE)
    with pytest.raises(ServiceError, match="A salt is 1 to 32 characters"):
        await service.join(CHANNEL, BOB, salt="x" * 40)
    row = await store.active_match(CHANNEL)
    assert row is not None and row.players[1] is None and row.record["salts"][1] is None


async def test_the_automatic_player_gets_a_salt_from_the_bot(store: Store) -> None:
    service = MatchService(store)
    opened = await service.create(GUILD, CHANNEL, ALICE, practice=True)
    row = await store.active_match(CHANNEL)
    assert row is not None and None not in row.record["salts"]
    assert f"Automatic player's salt is {row.record['salts'][1]}" in opened.text


async def test_the_match_page_gives_the_verifiable_record_only_at_the_end(store: Store) -> None:
    """The web page's record: no seed while the match is played; the whole record, with
    its rolls and result, once it is over."""
    service = MatchService(store, clock=lambda: 1_000_000.0)
    pages = Pages(store, service)
    await pages.set_published(GUILD, True)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    await service.join(CHANNEL, BOB)
    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-runners")
    await service.deploy(CHANNEL, ALICE)
    await service.deploy(CHANNEL, BOB)
    row = await store.active_match(CHANNEL)
    assert row is not None
    key = row.record["dice"]["key"]
    during = await pages.record_json(GUILD, row.id)
    assert during is not None and key not in during[1].decode()
    await service.concede(CHANNEL, ALICE)
    after = await pages.record_json(GUILD, row.id)
    assert after is not None
    record = MatchRecord.loads(after[1].decode())
    assert record.dice == {"key": key} and verify(record).ok, verify(record).problems


# --- old records ------------------------------------------------------------------------------
def test_old_records_and_seeded_matches_keep_their_dice_and_version() -> None:
    """Records without a commitment roll from their dice alone, as before, and are written
    as version 2; a record with one is version 3."""
    content: dict[str, Any] = {}
    keyed = MatchRecord(content=content, dice={"key": KEY})
    assert keyed.to_json()["version"] == RECORD_VERSION == 2 and "commitment" not in keyed.to_json()
    assert [dice_of(keyed).roll() for _ in range(9)] == [KeyedDice(KEY).roll() for _ in range(9)]
    assert MatchRecord.from_json(keyed.to_json()).salts is None
    salted = MatchRecord(
        content=content, dice=new_dice(), commitment="00", salts=["a", "b"], seals=["x", "y"]
    )
    assert salted.to_json()["version"] == 3
    assert MatchRecord.from_json(salted.to_json()).salts == ["a", "b"]
    with pytest.raises(RulesError, match="verifiable dice need"):
        MatchRecord.from_json({**salted.to_json(), "salts": "ab"})


# --- the console ------------------------------------------------------------------------------
async def test_the_console_shows_the_commitment_then_the_seed_and_its_record_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`skirmbot console` without --seed plays with verifiable dice: the commitment when the
    match is made, the seed when it is over, and the record it writes verifies."""
    from skirmbot.console import run_console

    lines = iter(["auto", "auto", "end Halden", "concede"])
    said: list[str] = []

    def ask(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    assert await run_console(False, tmp_path, ask=ask, say=said.append) == 0
    text = "\n".join(said)
    path = tmp_path / "skirm-match-1.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    key, commitment = record["dice"]["key"], record["commitment"]
    assert text.index(f"SHA-256 {commitment}") < text.index("Player 2's salt is")
    assert text.index(f"secret until now: {key}") > text.index("The match is over")
    assert text.count(key) == 1, "the seed shows only at the end"
    assert f"skirmbot verify {path}" in text
    code, out, err = run_verify(path, capsys)
    assert (code, err) == (0, "") and "verifies" in out


async def test_an_aborted_match_verifies_with_no_result(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A match a moderator aborted mid-play has no result; its record still verifies: its
    seed, salts and every die rolled until then."""
    service = MatchService(store, clock=lambda: 1_000_000.0)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB)
    await service.join(CHANNEL, BOB)
    await service.choose_squad(CHANNEL, ALICE, "iron-wardens")
    await service.choose_squad(CHANNEL, BOB, "ash-runners")
    await service.deploy(CHANNEL, ALICE)
    await service.deploy(CHANNEL, BOB)
    await end_activations(service, until_turn=2)
    await service.abort(CHANNEL, MOD)
    _, data = await service.export(CHANNEL, EVE)
    record = json.loads(data)
    assert record["rolls"] and "result" not in record
    code, out, err = run_verify(write(tmp_path, record), capsys)
    assert (code, err) == (0, "")
    assert "ends as recorded: no result: the match was called off" in out


async def test_a_skirm_lite_match_verifies_too(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The dice are the kernel's: a Skirm Lite match commits, salts and verifies the same way."""
    service = MatchService(store, clock=lambda: 1_000_000.0)
    await service.create(GUILD, CHANNEL, ALICE, opponent=BOB, rules="lite", salt="lite-1")
    await service.join(CHANNEL, BOB, salt="lite-2")
    await service.choose_squad(CHANNEL, ALICE, "ash-stalkers")
    await service.choose_squad(CHANNEL, BOB, "vigil-wardens")
    await service.deploy(CHANNEL, ALICE)
    await service.deploy(CHANNEL, BOB)
    await service.concede(CHANNEL, ALICE)
    _, data = await service.export(CHANNEL, EVE)
    record = json.loads(data)
    assert record["ruleset"] == "lite" and record["salts"] == ["lite-1", "lite-2"]
    code, out, err = run_verify(write(tmp_path, record), capsys)
    assert (code, err) == (0, "") and "Bob wins" in out
    record["rolls"][0] = record["rolls"][0] % 2 + 1
    code, _, err = run_verify(write(tmp_path, record), capsys)
    assert code == 1 and "Roll 1 is recorded as" in err
