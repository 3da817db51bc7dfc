"""One table's view, folded from its MQTT messages: what every open page shows.

Pure: no I/O and no clock of its own (callers pass `now`, seconds since the epoch).
`state` is the truth; events newer than the latest `state` are laid over it until a
`state` that includes them arrives (alerts raised or resolved, the last play, a hand
result, game over). A gap in event `seq` means messages were missed: the caller
re-reads the retained `state` and the view says it is catching up meanwhile.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from display.payloads import Json, int_or_none, is_event, is_state, kind_of
from display.settings import LANGUAGES
from display.tile_set import tile_set

log = logging.getLogger(__name__)

RESULT_PHASES = frozenset(("counting", "hand_over", "over"))


def iso(t: float | None) -> str | None:
    if t is None:
        return None
    stamp = datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds")
    return stamp.replace("+00:00", "Z")


@dataclass
class _Overlay:
    """Events newer than the latest `state`, by alert id: raised and resolved."""

    raised: dict[str, Json] = field(default_factory=dict)
    resolved: dict[str, int] = field(default_factory=dict)

    def prune(self, seq: int) -> None:
        self.raised = {k: a for k, a in self.raised.items() if _seq(a) > seq}
        self.resolved = {k: s for k, s in self.resolved.items() if s > seq}


def _seq(payload: Json) -> int:
    return int_or_none(payload.get("seq")) or 0


class TableView:
    """Everything the display knows about one table."""

    def __init__(self, table: str, language: str | None = None) -> None:
        self.table = table
        self.language = language
        self.broker_connected = False
        self.broker_ever_connected = False
        self.broker_refused: str | None = None
        self.broker_since: float | None = None
        self.status: str | None = None
        self.status_since: float | None = None
        self.state: Json | None = None
        self.state_received: float | None = None
        self.max_seq = 0
        self.resync_to: int | None = None
        self.overlay = _Overlay()
        self.last_play: Json | None = None
        self.last_event: Json | None = None
        self.hand_result: Json | None = None
        self.game_over: dict[str, Json] = {}
        self.camera: Json | None = None  # the camera's state and warnings, when it has one
        self._events: dict[str, Callable[[Json], None]] = {
            "alert": self._alert,
            "play": self._play,
            "undo": self._undo,
            "hand": self._hand,
            "game": self._game,
        }

    # ---- inputs -------------------------------------------------------------------

    def on_broker(self, connected: bool, now: float) -> None:
        if connected != self.broker_connected or self.broker_since is None:
            self.broker_since = now
        self.broker_connected = connected
        self.broker_ever_connected = self.broker_ever_connected or connected
        if connected:
            self.broker_refused = None

    def on_refused(self, reason: str, now: float) -> None:
        """The broker turned the display away (bad user or password, not authorised)."""
        self.on_broker(False, now)
        self.broker_refused = reason

    def on_status(self, text: str, now: float) -> None:
        status = text.strip().lower()
        if status not in ("online", "offline"):
            log.warning("mqtt: status %r is neither online nor offline: ignored", text[:40])
            return
        if status != self.status:
            self.status_since = now
        self.status = status

    def on_state(self, payload: Json, now: float) -> None:
        if not is_state(payload):
            log.warning("mqtt: state payload lacks required fields: ignored")
            return
        same = self.state is not None and all(
            payload.get(k) == self.state.get(k) for k in ("seq", "ts", "game_id")
        )
        if not same:  # a re-read of the same retained state does not make it newer
            self.state_received = now
        self.state = payload
        seq = _seq(payload)
        self.max_seq = max(self.max_seq, seq)
        self.overlay.prune(seq)
        if self.resync_to is not None and seq >= self.resync_to:
            self.resync_to = None
        last = payload.get("last")
        if isinstance(last, dict):
            self._fold(last, from_state=True)

    def on_event(self, kind: str, payload: Json) -> bool:
        """Fold one event in; True when a gap shows `state` must be re-read."""
        if not is_event(kind, payload):
            log.warning("mqtt: %s event lacks required fields: ignored", kind)
            return False
        seq = _seq(payload)
        known = max(self.max_seq, _seq(self.state) if self.state else 0)
        gap = known > 0 and seq > known + 1
        if gap:
            log.info("view: event seq %d after %d: messages missed, re-reading state", seq, known)
            self.resync_to = seq
        self.max_seq = max(self.max_seq, seq)
        self._fold({**payload, "kind": kind}, from_state=False)
        return gap

    def on_result(self, game_id: str, payload: Json) -> None:
        if is_event("game", payload) and payload.get("event") == "over":
            self.game_over[game_id] = payload

    # ---- folding events -----------------------------------------------------------

    def _fold(self, event: Json, from_state: bool) -> None:
        kind = kind_of(event)
        if kind is None or not is_event(kind, event):
            return
        # the latest move told beside the layout; an alert has its own place and must not
        # hide who passed, drew or led
        if kind != "alert" and (self.last_event is None or _seq(event) >= _seq(self.last_event)):
            self.last_event = {**event, "kind": kind}
        newer_than_state = not from_state and (self.state is None or _seq(event) > _seq(self.state))
        handler = self._events.get(kind)
        if handler is not None and (newer_than_state or kind != "alert"):
            handler(event)

    def _alert(self, alert: Json) -> None:
        key = str(alert.get("id"))
        if alert.get("resolved") is True:
            self.overlay.raised.pop(key, None)
            self.overlay.resolved[key] = _seq(alert)
        else:
            self.overlay.raised[key] = alert
            self.overlay.resolved.pop(key, None)

    def _play(self, play: Json) -> None:
        if self.last_play is None or _seq(play) >= _seq(self.last_play):
            self.last_play = play

    def _undo(self, undo: Json) -> None:
        if self.last_play is not None and undo.get("undone") == self.last_play.get("seq"):
            self.last_play = None

    def _hand(self, hand: Json) -> None:
        if hand.get("result") == "redealt":
            return  # abandoned unscored (`redeal`): no result, the same hand dealt again
        if self.hand_result is None or _seq(hand) >= _seq(self.hand_result):
            self.hand_result = hand

    def _game(self, game: Json) -> None:
        game_id = game.get("game_id")
        if game.get("event") == "over" and isinstance(game_id, str):
            self.game_over[game_id] = game
        elif game.get("event") == "started":
            self.last_play = None
            self.hand_result = None

    # ---- output -------------------------------------------------------------------

    def snapshot(self, now: float) -> Json:
        """The JSON pushed to every page."""
        return {
            "table": self.table,
            "language": self._language(),
            "now": iso(now),
            "broker": {
                "connected": self.broker_connected,
                "since": iso(self.broker_since),
                "refused": self.broker_refused,
            },
            "controller": {"status": self.status, "since": iso(self.status_since)},
            "state": self.state,
            "state_received": iso(self.state_received),
            "alerts": self.alerts(),
            "last_play": self._current_play(),
            "last_event": self._current(self.last_event),
            "hand_result": self._hand_result(),
            "game_over": self._game_over(),
            "stale": self.stale_reasons(),
            "camera": self.camera,
            "set": self._set(),
        }

    def _set(self) -> Json | None:
        """The game's domino set (for the tile picker), when the engine knows its rules."""
        state = self.state
        if state is None or not isinstance(state.get("rules"), str):
            return None
        return tile_set(state["rules"], len(state["seats"]))

    def stale_reasons(self) -> list[str]:
        """Why the scores shown may not be the table's scores now (empty: current)."""
        reasons = []
        if self.state is None:
            reasons.append("no_state")
        if self.broker_refused is not None:
            reasons.append("broker_refused")
        elif not self.broker_connected:
            reasons.append("broker_lost" if self.broker_ever_connected else "broker_connecting")
        if self.status == "offline":
            reasons.append("controller_offline")
        elif self.status is None:
            reasons.append("controller_unknown")
        if self.resync_to is not None:
            reasons.append("resync")
        return reasons

    def alerts(self) -> list[Json]:
        """Standing alerts: the state's, less those resolved since, plus those raised since."""
        standing = self.state.get("alerts", []) if self.state else []
        out: dict[str, Json] = {}
        for alert in standing if isinstance(standing, list) else []:
            if not isinstance(alert, dict) or not is_event("alert", alert):
                continue
            if alert.get("resolved") is not True and alert["id"] not in self.overlay.resolved:
                out[str(alert.get("id"))] = alert
        out.update(self.overlay.raised)
        return list(out.values())

    def _language(self) -> str:
        if self.language is not None:
            return self.language
        wanted = self.state.get("language") if self.state else None
        return wanted if wanted in LANGUAGES else "en"

    def _same_game(self, event: Json | None) -> bool:
        if event is None or self.state is None:
            return False
        return bool(event.get("game_id") == self.state.get("game_id"))

    def _current(self, event: Json | None) -> Json | None:
        return event if self._same_game(event) else None

    def _current_play(self) -> Json | None:
        if self.state is None:
            return None
        layout = self.state.get("layout")
        tiles = layout.get("tiles", []) if isinstance(layout, dict) else []
        tiles = tiles if isinstance(tiles, list) else []
        play = self._current(self.last_play)
        if play is not None and play.get("hand") == self.state.get("hand"):
            placed = next(
                (t for t in tiles if isinstance(t, dict) and t.get("tile") == play.get("tile")),
                None,
            )
            if placed is not None:
                if play.get("seat") is None and placed.get("seat") is not None:
                    # a lead named after the fact: the state attributes the play
                    return {**play, "seat": placed["seat"]}
                return play
        return self._layout_play(tiles)

    def _layout_play(self, tiles: list[Any]) -> Json | None:
        """The layout's last tile (tiles are in play order), for a page that never saw its
        play event: opened after it, or after the latest play was taken back. Its points
        are not known; nothing when an undo newer than the state may have taken it."""
        assert self.state is not None
        undo = self._current(self.last_event)
        if undo is not None and undo.get("kind") == "undo" and _seq(undo) > _seq(self.state):
            return None
        last = tiles[-1] if tiles else None
        if not isinstance(last, dict) or not isinstance(last.get("tile"), str):
            return None
        return {
            "tile": last["tile"],
            "seat": last.get("seat"),
            "hand": self.state.get("hand"),
            "from_layout": True,
        }

    def _hand_result(self) -> Json | None:
        if self.state is None or self.state.get("phase") not in RESULT_PHASES:
            return None
        hand = self._current(self.hand_result)
        if hand is not None and hand.get("hand") == self.state.get("hand"):
            return hand
        history = self.state.get("history", [])
        for entry in reversed(history if isinstance(history, list) else []):
            if isinstance(entry, dict) and entry.get("hand") == self.state.get("hand"):
                return {**entry, "from_history": True}
        return None

    def _game_over(self) -> Json | None:
        """The current game's end, once `state` says it is over."""
        if self.state is None or self.state.get("phase") != "over":
            return None
        over = self.game_over.get(str(self.state.get("game_id")))
        if over is None and kind_of(self.state.get("last") or {}) == "game":
            over = self.state["last"]
        return over or {"event": "over", "winner": None, "team": None, "from_state": True}
