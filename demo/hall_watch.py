"""The tournament demo's view of the central broker: what it prints, and the director's
commands it sends (`demo.hall`).

`HallWatch` subscribes to the desk's `round`, `standings` and command replies and to
every table's `result/<game_id>`; it keeps the latest of each (for the director's loop
to wait on) and prints one line per seating, result and confirmation, and the standings
after each round.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt

from mqttweb.client import new_client

ROUND = "domino/tournament/round"
STANDINGS = "domino/tournament/standings"
CMD = "domino/tournament/cmd"
CMD_REPLY = "domino/tournament/cmd/reply"
DONE = ("reported", "entered", "forfeit")
Json = dict[str, Any]


class HallError(Exception):
    """The demo's event could not go on (the desk did not answer, a round never ended)."""


def describe_result(table: str, result: Json) -> str:
    """`t1, round 2: Ana 10 - Bo 15: Bo won (time)` from a `result/<game_id>` payload."""
    names, scores = result.get("names") or [], result.get("scores") or []
    team_scores = result.get("team_scores") or []
    if team_scores:
        teams = len(team_scores)
        sides = [" & ".join(names[s::teams]) for s in range(teams)]
        shown, winner = team_scores, result.get("team")
    else:
        sides, shown, winner = names, scores, result.get("winner")
    score = " - ".join(f"{side} {points}" for side, points in zip(sides, shown, strict=False))
    who = f"{sides[winner]} won" if isinstance(winner, int) and winner < len(sides) else "a draw"
    return f"{table}, round {result.get('round')}: {score}: {who} ({result.get('reason')})"


def describe_seating(body: Json) -> str:
    tables = []
    for table in body["tables"]:
        seats = table["seats"]
        teams = {s["team"] for s in seats}
        if None in teams:
            tables.append(f"{table['table']} " + " v ".join(s["name"] for s in seats))
        else:
            sides = [" & ".join(s["name"] for s in seats if s["team"] == t) for t in sorted(teams)]
            tables.append(f"{table['table']} " + " v ".join(sides))
    byes = f"; sitting out: {', '.join(body['byes'])}" if body["byes"] else ""
    return f"Round {body['round']} seated: " + "; ".join(tables) + byes


def describe_standings(body: Json) -> list[str]:
    lines = [f"Standings after round {body['round']}:"]
    for e in body["entries"]:
        lines.append(f"  {e['rank']:>2}. {e['name']:<12} {e['wins']} of {e['games']} won, "
                     f"{e['points']} points, margin {e['margin']:+d}")  # fmt: skip
    return lines


class HallWatch:
    """A paho client on the central broker; `echo` prints a line."""

    def __init__(self, host: str, port: int, echo: Callable[[str], None]) -> None:
        self.echo = echo
        self.round: Json | None = None
        self.standings: Json | None = None
        self.replies: dict[str, Json] = {}
        self.results: dict[tuple[str, str], Json] = {}
        self._said: set[str] = set()
        self._cond = threading.Condition()
        self.client = new_client("domino-demo-hall")
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.connected = threading.Event()
        self.client.connect(host, port)
        self.client.loop_start()

    def _on_connect(self, client: mqtt.Client, *args: Any) -> None:
        for topic in (ROUND, STANDINGS, CMD_REPLY, "domino/+/result/+"):
            client.subscribe(topic, qos=1)
        self.connected.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            body = json.loads(msg.payload)
        except ValueError:
            return
        if not isinstance(body, dict):
            return
        with self._cond:
            self._take(msg.topic, body)
            self._cond.notify_all()

    def _take(self, topic: str, body: Json) -> None:
        if topic == ROUND:
            self.round = body
            self._say_once(f"seated-{body.get('round')}", lambda: describe_seating(body))
        elif topic == STANDINGS:
            self.standings = body
        elif topic == CMD_REPLY:
            self.replies[str(body.get("id"))] = body
        elif "/result/" in topic and body.get("tournament") is not None:
            table = topic.split("/")[1]
            self.results[(table, str(body.get("game_id")))] = body
            self._say_once(f"result-{topic}", lambda: describe_result(table, body))
            confirmed = body.get("confirmed_by") or []
            if len(confirmed) == len(body.get("names") or ()):
                names = ", ".join(body["names"][s] for s in confirmed)
                self._say_once(f"confirmed-{topic}", lambda: f"{table}: confirmed by {names}")

    def _say_once(self, key: str, line: Callable[[], str]) -> None:
        if key not in self._said:
            self._said.add(key)
            self.echo(line())

    def wait(self, test: Callable[[], bool], timeout: float, what: str,
             stop: threading.Event) -> None:  # fmt: skip
        """Until `test()` holds (HallError after `timeout` s; returns early when stopped)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not test():
                if stop.is_set():
                    return
                left = deadline - time.monotonic()
                if left <= 0:
                    raise HallError(f"the demo waited {timeout:.0f} s for {what}; giving up")
                self._cond.wait(min(left, 0.5))

    def command(self, body: Json, stop: threading.Event, timeout: float = 30.0) -> Json:
        """Send a command to the desk as its director would; its reply (HallError if refused)."""
        cid = str(body["id"])
        self.client.publish(CMD, json.dumps(body), qos=1)
        self.wait(lambda: cid in self.replies, timeout, f"the desk's reply to {cid}", stop)
        reply = self.replies.get(cid, {})
        if not stop.is_set() and reply.get("ok") is not True:
            raise HallError(f"the desk refused {body['action']}: {reply.get('error')}")
        return reply

    def round_done(self, number: int) -> bool:
        """Every table seated in round `number` has its result."""
        rnd = self.round
        return (
            rnd is not None
            and rnd.get("round") == number
            and all(t["status"] in DONE for t in rnd["tables"])
        )

    def confirmed(self, number: int) -> bool:
        """Every result of round `number` came back confirmed by every seat (the central
        broker had it, so the desk has too before any later command of the director)."""
        rnd = self.round
        if rnd is None or rnd.get("round") != number:
            return False
        for table in rnd["tables"]:
            result = self.results.get((table["table"], str(table["game_id"])))
            if result is None:
                return False
            if len(result.get("confirmed_by") or []) < len(result.get("names") or []):
                return False
        return True

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
