"""A kept game told in words, hand by hand: for the terminal and the exported page.

`hands(events)` groups a game's events (as the record keeps them, each with its `type`)
by hand, in seq order: an event without a `hand` (an alert, the game's end) goes with
the hand in play when it came, the game's start before the first hand. `line(event,
names, language)` says one event in a line, in the game's language (English or
Spanish): who played what and what it scored, a knock, a draw, who led, what an undo
took back, an alert as the table said it, a hand's result, the game's end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

__all__ = ["Hand", "hands", "line", "local_time", "seat_name", "words"]

_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "game_started": "Game started: {rules}, {players}",
        "game_over": "Game over: {who} wins, {scores}",
        "game_over_nobody": "Game over: {scores}",
        "hand": "Hand {n}",
        "before": "Before the first hand",
        "play": "{who} played {tile}",
        "points": "+{n} (score {score})",
        "pass": "{who} passed",
        "draw": "{who} drew {n}",
        "lead": "{who} led the hand",
        "undo": "play #{seq} taken back",
        "undo_points": "play #{seq} taken back, {n} points removed",
        "undo_draws": "; {n} drawn tiles back to the boneyard",
        "alert": "{severity}: {message}",
        "resolved": "cleared: {message}",
        "hand_domino": "{who} went out: {n} points; scores {scores}",
        "hand_blocked": "blocked, {who} wins the hand: {n} points; scores {scores}",
        "hand_blocked_nobody": "blocked, nobody wins the hand; scores {scores}",
        "hand_redealt": "hand abandoned and dealt again, unscored; scores {scores}",
        "nobody": "?",
        "named_at": "(told at #{seq})",
        "seat": "Seat {n}",
        "illegal": "Illegal",
        "warning": "Check",
        "fault": "Fault",
        "frame": "frame",
        "in_play": "in play",
    },
    "es": {
        "game_started": "Empieza la partida: {rules}, {players}",
        "game_over": "Fin de la partida: gana {who}, {scores}",
        "game_over_nobody": "Fin de la partida: {scores}",
        "hand": "Mano {n}",
        "before": "Antes de la primera mano",
        "play": "{who} jugó {tile}",
        "points": "+{n} (total {score})",
        "pass": "{who} pasó",
        "draw": "{who} robó {n}",
        "lead": "{who} salió",
        "undo": "jugada #{seq} deshecha",
        "undo_points": "jugada #{seq} deshecha, se quitan {n} puntos",
        "undo_draws": "; {n} fichas robadas vuelven al pozo",
        "alert": "{severity}: {message}",
        "resolved": "resuelto: {message}",
        "hand_domino": "{who} dominó: {n} puntos; total {scores}",
        "hand_blocked": "tranque, gana la mano {who}: {n} puntos; total {scores}",
        "hand_blocked_nobody": "tranque, nadie gana la mano; total {scores}",
        "hand_redealt": "mano anulada y repartida de nuevo, sin puntos; total {scores}",
        "nobody": "?",
        "named_at": "(dicho en #{seq})",
        "seat": "Asiento {n}",
        "illegal": "Ilegal",
        "warning": "Atención",
        "fault": "Avería",
        "frame": "imagen",
        "in_play": "en juego",
    },
}


def words(language: str) -> dict[str, str]:
    """The words of `language` (English for one not known)."""
    return _WORDS.get(language, _WORDS["en"])


@dataclass
class Hand:
    """One hand's events (`number` 0: before the first hand)."""

    number: int
    events: list[dict[str, Any]] = field(default_factory=list)


def hands(events: Iterable[dict[str, Any]]) -> list[Hand]:
    """The events grouped by hand, in seq order. A play whose seat the table learnt
    later (a lead it could not see) carries `led_by` (the `lead` event naming the
    leader) and `turn` (0: the lead itself, 1: the next seat's play...)."""
    out: list[Hand] = []
    current = 0
    for event in sorted(events, key=lambda e: int(e["seq"])):
        number = event.get("hand")
        if isinstance(number, int) and event.get("type") != "game":
            current = number
        if not out or out[-1].number != current:
            out.append(Hand(current))
        if event.get("type") == "lead":  # the plays before it: the leader's, then in turn
            hand = out[-1].events
            unnamed = [
                i for i, e in enumerate(hand) if e.get("type") == "play" and e.get("seat") is None
            ]
            for k, i in enumerate(unnamed):
                hand[i] = {**hand[i], "led_by": event, "turn": k}
        out[-1].events.append(event)
    return out


def seat_name(seat: Any, names: Sequence[str], language: str = "en") -> str:
    w = words(language)
    if not isinstance(seat, int):
        return w["nobody"]
    return names[seat] if 0 <= seat < len(names) else w["seat"].format(n=seat + 1)


def _scores(scores: Any) -> str:
    return "-".join(str(s) for s in scores) if isinstance(scores, list) else ""


def line(event: dict[str, Any], names: Sequence[str], language: str = "en") -> str:
    """One event in words. A play the table could not attribute when it was made (a
    lead it could not see) is named by the `lead` event that came after it: the leader's
    play, then each next seat clockwise (`hands` marks them)."""
    w = words(language)
    kind = event.get("type")
    who = seat_name(event.get("seat"), names, language)
    if kind == "play":
        lead = event.get("led_by")
        if (
            event.get("seat") is None
            and isinstance(lead, dict)
            and isinstance(lead.get("seat"), int)
        ):
            seat = (lead["seat"] + int(event.get("turn", 0))) % max(1, len(names))
            who = seat_name(seat, names, language)
            who += " " + w["named_at"].format(seq=lead.get("seq"))
        text = w["play"].format(who=who, tile=event.get("tile"))
        if event.get("points"):
            text += " " + w["points"].format(n=event["points"], score=event.get("score"))
        return text
    if kind in ("pass", "lead"):
        return w[kind].format(who=who)
    if kind == "draw":
        return w["draw"].format(who=who, n=event.get("count", 1))
    if kind == "undo":
        key = "undo_points" if event.get("points") else "undo"
        text = w[key].format(seq=event.get("undone"), n=event.get("points"))
        if event.get("draws"):
            text += w["undo_draws"].format(n=event["draws"])
        return text
    if kind == "alert":
        severity = w.get(str(event.get("severity")), str(event.get("severity")))
        key = "resolved" if event.get("resolved") else "alert"
        return w[key].format(severity=severity, message=event.get("message", event.get("code")))
    if kind == "hand":
        return _hand(event, names, language)
    if kind == "game":
        return _game(event, names, language)
    return f"{kind}: {event}"


def _hand(event: dict[str, Any], names: Sequence[str], language: str) -> str:
    w = words(language)
    result = event.get("result")
    scores = _scores(event.get("scores"))
    winner = event.get("winner")
    if result == "redealt":
        return w["hand_redealt"].format(scores=scores)
    if result == "blocked" and winner is None:
        return w["hand_blocked_nobody"].format(scores=scores)
    key = "hand_domino" if result == "domino" else "hand_blocked"
    return w[key].format(
        who=seat_name(winner, names, language), n=event.get("points"), scores=scores
    )


def _game(event: dict[str, Any], names: Sequence[str], language: str) -> str:
    w = words(language)
    if event.get("event") == "started":
        return w["game_started"].format(rules=event.get("rules"), players=", ".join(names))
    scores = _scores(event.get("scores"))
    if event.get("winner") is None:
        return w["game_over_nobody"].format(scores=scores)
    return w["game_over"].format(who=seat_name(event["winner"], names, language), scores=scores)


def local_time(ts: str | None, with_date: bool = False) -> str:
    """A `ts` in the local time zone: `HH:MM:SS` (or with the date)."""
    if not ts:
        return ""
    try:
        when = datetime.fromisoformat(ts.replace("Z", "+00:00")).astimezone()
    except ValueError:
        return ts
    return when.strftime("%Y-%m-%d %H:%M" if with_date else "%H:%M:%S")
