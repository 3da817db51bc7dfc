"""A kept game in words, hand by hand (the terminal's and the exported page's)."""

from __future__ import annotations

from typing import Any

from service.history.words import hands, line

NAMES = ("Ana", "Ben", "Cy")


def ev(seq: int, kind: str, **fields: Any) -> dict[str, Any]:
    return {"seq": seq, "type": kind, **fields}


def test_plays_before_a_lead_told_later_are_the_leaders_then_each_next_seat() -> None:
    events = [
        ev(1, "game", event="started", rules="walnut", names=list(NAMES)),
        ev(2, "play", hand=1, seat=None, tile="6-6", points=0),
        ev(3, "alert", code="LEAD_UNKNOWN", severity="warning", message="Who led?"),
        ev(4, "play", hand=1, seat=None, tile="6-4", points=10, score=10),
        ev(5, "lead", hand=1, seat=2),
        ev(6, "play", hand=1, seat=1, tile="4-4", points=0),
    ]
    grouped = hands(events)
    assert [h.number for h in grouped] == [0, 1]
    said = [line(e, NAMES) for e in grouped[1].events]
    assert said == [
        "Cy (told at #5) played 6-6",
        "Check: Who led?",
        "Ana (told at #5) played 6-4 +10 (score 10)",  # the next seat clockwise
        "Cy led the hand",
        "Ben played 4-4",
    ]


def test_each_kind_of_event_in_spanish() -> None:
    events = [
        ev(1, "pass", hand=2, seat=0),
        ev(2, "draw", hand=2, seat=1, count=2),
        ev(3, "undo", hand=2, undone=7, points=5, draws=2),
        ev(4, "alert", code="NO_MATCH", severity="illegal", message="6-4 no casa.", resolved=True),
        ev(5, "hand", hand=2, result="domino", winner=1, points=25, scores=[0, 25, 0]),
        ev(
            6, "hand", hand=3, result="blocked", winner=None, team=None, points=0, scores=[0, 25, 0]
        ),
        ev(7, "hand", hand=4, result="redealt", winner=None, points=0, scores=[0, 25, 0]),
        ev(8, "game", event="over", winner=1, scores=[0, 125, 0]),
    ]
    assert [line(e, NAMES, "es") for e in events] == [
        "Ana pasó",
        "Ben robó 2",
        "jugada #7 deshecha, se quitan 5 puntos; 2 fichas robadas vuelven al pozo",
        "resuelto: 6-4 no casa.",
        "Ben dominó: 25 puntos; total 0-25-0",
        "tranque, nadie gana la mano; total 0-25-0",
        "mano anulada y repartida de nuevo, sin puntos; total 0-25-0",
        "Fin de la partida: gana Ben, 0-125-0",
    ]
    assert [h.number for h in hands(events)] == [2, 3, 4]  # the game's end with the last hand
