"""Hostile commands by the thousand, at the intake (no MQTT): each gets exactly one reply.

Every payload either is refused at once (one `ok: false` reply, nothing handed on) or is
handed on as one typed command (and its answer is the one reply). Nothing raises, every
reply is a valid spec payload that can be sent as UTF-8, and what is handed on holds only
text that can be stored and published: no lone surrogate, no control character, a ruleset
named exactly.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mqttweb.envelope import encode
from service.core.commands import Action, Command, parse_command
from service.mqtt.intake import CommandIntake
from service.store.journal import Journal
from tests.fixtures.spec import validate

NASTY_TEXT = [
    "x\udfff", "\ud800", "\udfff", "walnut\n", " walnut", "walnut ", "a\x00b", "", " ",
    "walnut", "6-4", "4-6", "9-9", "Ana", "\u202eAna", "é", "x" * 129, "\n",
]  # fmt: skip
FIELDS = ["seat", "count", "tile", "as", "tiles", "pips", "name", "rules", "seats", "teams",
          "target", "language"]  # fmt: skip

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.sampled_from(NASTY_TEXT),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)
ids = st.one_of(st.sampled_from(NASTY_TEXT), st.text(min_size=1, max_size=8), values)
actions = st.one_of(st.sampled_from([a.value for a in Action]), values)
commands = st.fixed_dictionaries(
    {"id": ids, "action": actions},
    optional=dict.fromkeys(FIELDS, values) | {"extra": values},
)


def as_bytes(body: object) -> bytes:
    return json.dumps(body).encode()  # escapes lone surrogates: valid JSON, hostile text


payloads = st.one_of(
    commands.map(as_bytes),
    values.map(as_bytes),
    st.binary(max_size=64),
)


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Journal]:
    with Journal(tmp_path_factory.mktemp("fuzz"), "t") as opened:
        yield opened


def texts(command: Command) -> list[str]:
    """The command's texts but its id (an id is echoed, never shown: any Unicode will do)."""
    out: list[str] = []
    for f in fields(command):
        value = getattr(command, f.name) if f.name != "id" else ()
        items = value if isinstance(value, tuple) else (value,)
        out += [v for v in items if isinstance(v, str)]
    return out


def storable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return not any(unicodedata.category(c) == "Cc" for c in text)


def check_reply(reply: dict[str, Any]) -> None:
    validate("reply", reply)
    encode(reply)  # publishable as UTF-8


@pytest.mark.slow
@settings(
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(raw=payloads)
def test_every_command_gets_exactly_one_reply(journal: Journal, raw: bytes) -> None:
    handed: list[Command] = []
    intake = CommandIntake("t", journal, handed.append)
    replies = intake.receive(raw)
    if handed:
        assert replies == [] and len(handed) == 1
        command = handed[0]
        command.id.encode("utf-8")  # storable and publishable
        assert all(storable(t) for t in texts(command)), command
        if command.action is Action.NEW_GAME:
            rules = getattr(command, "rules")  # noqa: B009 - any command, typed by its action
            assert rules == rules.strip() and rules, command
        assert parse_command(raw) == command  # the same payload, the same command
        replies = intake.answer(command.id, False, "refused for the test")
    assert len(replies) == 1, (raw, replies)
    if not handed:
        assert replies[0]["ok"] is False and replies[0]["error"], replies
    check_reply(replies[0])


def test_a_lone_surrogate_id_is_answered_without_an_id(tmp_path: Path) -> None:
    with Journal(tmp_path, "t") as journal:
        intake = CommandIntake("t", journal, lambda c: None)
        (reply,) = intake.receive(b'{"id": "x\\udfff", "action": "undo"}')
        assert reply["id"] == "" and reply["ok"] is False and "Unicode" in reply["error"]


@pytest.mark.parametrize(
    ("body", "needs"),
    [
        ({"id": "r", "action": "rename", "seat": 0, "name": None}, '"name"'),
        ({"id": "c", "action": "correct", "tile": None, "as": "6-4"}, '"tile"'),
        ({"id": "l", "action": "lead", "seat": None}, '"seat"'),
        ({"id": "n", "action": "new_game", "rules": "walnut", "seats": None}, '"seats"'),
    ],
)
def test_a_required_field_set_to_null_is_missing(tmp_path: Path, body: object, needs: str) -> None:
    with Journal(tmp_path, "t") as journal:
        handed: list[Command] = []
        (reply,) = CommandIntake("t", journal, handed.append).receive(as_bytes(body))
        assert not handed and reply["ok"] is False and needs in reply["error"], reply


@pytest.mark.parametrize("rules", ["walnut\n", " walnut", "walnut ", "wal\x00nut"])
def test_a_ruleset_must_be_named_exactly(tmp_path: Path, rules: str) -> None:
    with Journal(tmp_path, "t") as journal:
        handed: list[Command] = []
        body = {"id": "g", "action": "new_game", "rules": rules, "seats": 2}
        (reply,) = CommandIntake("t", journal, handed.append).receive(as_bytes(body))
        assert not handed and reply["ok"] is False and '"rules"' in reply["error"], reply
