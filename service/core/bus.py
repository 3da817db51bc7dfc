"""The table's one dispatch: each event goes to the handlers subscribed to its type.

The table core publishes every event it made (the engine's, and its own in
`service.core.table_events`) after the journal has it; the publishers (MQTT, the panel, the
board's LED, the log) subscribe to the types they show at start-up. A handler runs on
the publishing thread (the service's worker, which logs what a handler raises); a
handler that may fail for outside reasons (the board away) catches that itself.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any, TypeVar

E = TypeVar("E")


class Bus:
    """Handlers by event type, called in the order they subscribed."""

    def __init__(self) -> None:
        self._handlers: defaultdict[type[Any], list[Callable[[Any], None]]] = defaultdict(list)

    def subscribe(self, kind: type[E], handler: Callable[[E], None]) -> None:
        """Call `handler(event)` for every published event of exactly type `kind`."""
        self._handlers[kind].append(handler)

    def publish(self, event: object) -> None:
        """Hand `event` to every handler of its type (none: nothing happens)."""
        for handler in self._handlers.get(type(event), ()):
            handler(event)
