"""A tournament hall for tests: a central Mosquitto, one Mosquitto per table bridged to it
with config/mosquitto/table-bridge.conf, a `SeatedTable` on each, and the desk as a real
`domino-table tournament --event` process on the central broker."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.mqtt_recorder import Recorder, Seen
from tests.tournament.desk_process import DeskProcess
from tests.tournament.schema import check
from tests.tournament.tables import SeatedTable, publish_once
from tests.tournament.test_bridge import bridge_section, wait_bridged
from tournament import journal
from tournament.event import EventConfig, parse
from tournament.ledger import Ledger

ROUND = "domino/tournament/round"
STANDINGS = "domino/tournament/standings"
CMD = "domino/tournament/cmd"
CMD_REPLY = "domino/tournament/cmd/reply"
PASSWORD = "Director-pw-4471"


def players(count: int) -> list[dict[str, str]]:
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu",
             "Mo", "Ned", "Oli", "Pia", "Quin", "Rui", "Sol", "Tea"]  # fmt: skip
    return [{"id": f"p{n + 1}", "name": names[n % len(names)] + ("" if n < 20 else f" {n}")}
            for n in range(count)]  # fmt: skip


def toml_value(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, bool) else str(value).lower()


def event_toml(body: dict[str, Any]) -> str:
    """A TOML event file from a dict (top-level keys, [[players]] and [[pairs]])."""
    lines = [f"{k} = {toml_value(v)}" for k, v in body.items() if k not in ("players", "pairs")]
    for table in ("players", "pairs"):
        for row in body.get(table, []):
            lines.append(f"\n[[{table}]]")
            lines += [f"{k} = {toml_value(v)}" for k, v in row.items()]
    text = "\n".join(lines) + "\n"
    tomllib.loads(text)  # the helper writes valid TOML
    return text


class Hall:
    """Start with `open()`, stop with `close()` (in a `finally`)."""

    def __init__(
        self,
        tmp: Path,
        event: dict[str, Any],
        desk_args: tuple[str, ...] = (),
        **table_options: Any,
    ) -> None:
        self.tmp = tmp
        self.body = event
        self.event: EventConfig = parse(event, "test")
        self.event_file = tmp / "event.toml"
        self.event_file.write_text(event_toml(event))
        self.password_file = tmp / "director.password"
        self.password_file.write_text(PASSWORD + "\n")
        self.central = Mosquitto(tmp / "central")
        self.brokers: dict[str, Mosquitto] = {}
        self.tables: dict[str, SeatedTable] = {}
        self.table_options = table_options
        self.desk = DeskProcess(
            self.central.host, self.central.port, tmp / "desk", "--event", str(self.event_file),
            "--director-password-file", str(self.password_file), "--resend-interval", "0.5",
            *desk_args,
        )  # fmt: skip
        self.rec: Recorder | None = None

    def open(self, options: dict[str, dict[str, Any]] | None = None) -> None:
        self.central.start()
        table_cmds = [f"domino/{t}/cmd" for t in self.event.tables]
        self.rec = Recorder(self.central.host, self.central.port,
                            [ROUND, STANDINGS, CMD_REPLY, *table_cmds])  # fmt: skip
        for table in self.event.tables:
            broker = Mosquitto(self.tmp / table, extra=bridge_section(table, self.central))
            broker.start()
            self.brokers[table] = broker
        for table, broker in self.brokers.items():
            wait_bridged(self.central, table)
            extra = {**self.table_options, **(options or {}).get(table, {})}
            self.tables[table] = SeatedTable(table, broker.host, broker.port,
                                             seed=len(self.tables) + 1, **extra)  # fmt: skip
        self.desk.start()
        try:
            self.latest(STANDINGS)  # the desk is subscribed: it published after its sync
        except AssertionError as exc:  # say why: the desk's own words
            alive = "running" if self.desk.alive() else "ended"
            raise AssertionError(f"{exc}\nthe desk ({alive}) said:\n{self.desk.output()}") from exc

    def command(self, body: dict[str, Any], timeout: float = 20.0) -> dict[str, Any]:
        """Send a desk command on the central broker; its reply (checked against the spec)."""
        assert self.rec is not None
        cid = body.get("id")
        before = len(_replies(self.rec.on(CMD_REPLY), cid))
        publish_once(self.central.host, self.central.port, CMD, body, retain=False)
        seen = self.rec.wait_for(lambda s: len(_replies(s, cid)) > before, timeout)
        found = _replies(seen, cid)[-1]
        check("reply", found)
        return found

    def latest(self, topic: str, test: Callable[[dict[str, Any]], bool] = bool,
               timeout: float = 30.0) -> dict[str, Any]:  # fmt: skip
        """The newest payload on `topic` that passes `test`, waiting for one."""
        assert self.rec is not None

        def found(seen: list[Seen]) -> dict[str, Any] | None:
            for s in reversed(seen):
                if s.topic == topic and s.payload and test(s.json()):
                    return dict(s.json())
            return None

        seen = self.rec.wait_for(lambda s: found(s) is not None, timeout)
        got = found(seen)
        assert got is not None
        check("round" if topic == ROUND else "standings", got)
        return got

    def every(self, topic: str) -> list[dict[str, Any]]:
        """Every payload seen on `topic`, each checked against the spec."""
        assert self.rec is not None
        out = [dict(s.json()) for s in self.rec.on(topic) if s.payload]
        for payload in out:
            check("round" if topic == ROUND else "standings", payload)
        return out

    def journal_records(self) -> list[journal.Record]:
        return journal.read(self.tmp / "desk" / "journal.sqlite")

    def journal_ledger(self) -> Ledger:
        """The event recomputed from the desk's journal file alone."""
        ledger = Ledger(self.event)
        for record in self.journal_records():
            ledger.apply(record)
        return ledger

    def close(self) -> None:
        if self.desk.proc is not None:
            self.desk.stop()
        for table in self.tables.values():
            table.close()
        if self.rec is not None:
            self.rec.close()
        for broker in self.brokers.values():
            broker.stop()
        self.central.stop()


def _replies(seen: list[Seen], cid: Any) -> list[dict[str, Any]]:
    return [dict(s.json()) for s in seen if s.topic == CMD_REPLY and s.json().get("id") == cid]
