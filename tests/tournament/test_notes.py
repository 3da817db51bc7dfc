"""The director's notes on a game's result ("checked, stands", "score corrected to ..."):
a `note` command becomes a `note` record in the journal, kept by the ledger, listed with
the event's games on the director's page, and in the exports: results.csv and the
round's score sheets (PDF). No broker: the commands, the ledger, the views and the
exports, as the runner calls them."""

from __future__ import annotations

import csv
import io
import re
import zlib
from datetime import UTC, datetime

import pytest

from tests.tournament.test_confirmations import EVENT, Desk
from tournament import commands, exports
from tournament.errors import CommandError
from tournament.journal import Kind
from tournament.ledger import Ledger
from tournament.views import director_view

NOW = datetime(2026, 11, 22, 11, 5, 30, 250000, tzinfo=UTC)


def note(desk: Desk, game_id: str, text: str, table: str = "t1") -> dict[str, object]:
    body = {"id": f"n-{len(desk.records)}", "action": "note", "table": table,
            "game_id": game_id, "text": text}  # fmt: skip
    detail, items = commands.decide(desk.ledger, commands.parse(body), NOW)
    desk.apply(items)
    return detail


def pdf_text(pdf: bytes) -> str:
    """The text drawn in a PDF of the Helvetica fallback: its streams, inflated."""
    out = []
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.DOTALL):
        try:
            out.append(zlib.decompress(stream).decode("latin-1"))
        except zlib.error:
            out.append(stream.decode("latin-1"))
    return "\n".join(out)


def test_a_note_on_a_game_of_the_event_is_journaled_and_kept() -> None:
    desk = Desk()
    desk.result()
    assert note(desk, "g1", "checked, stands") == {"round": 1}
    assert note(desk, "g1", "score corrected to 40-100 by a void and a result") == {"round": 1}
    kinds = [r.kind for r in desk.records]
    assert kinds[-2:] == [Kind.NOTE, Kind.NOTE]
    assert desk.records[-2].data == {
        "round": 1, "table": "t1", "game_id": "g1", "text": "checked, stands",
        "at": "2026-11-22T11:05:30.250Z",
    }  # fmt: skip
    texts = [n.text for n in desk.ledger.notes[("t1", "g1")]]
    assert texts == ["checked, stands", "score corrected to 40-100 by a void and a result"]
    again = Ledger(EVENT)  # the journal's records alone give the same notes
    for record in desk.records:
        again.apply(record)
    assert again.notes == desk.ledger.notes
    assert again.standings() == desk.ledger.standings()  # a note changes no score


def test_a_note_on_a_game_the_event_does_not_know_is_refused() -> None:
    desk = Desk()
    desk.result()
    with pytest.raises(CommandError, match="no game 'practice-1' at table t1 in this event"):
        note(desk, "practice-1", "checked")
    with pytest.raises(CommandError, match="note: text"):
        commands.parse({"id": "x", "action": "note", "table": "t1", "game_id": "g1", "text": ""})
    with pytest.raises(CommandError, match="note: text"):
        commands.parse({"id": "x", "action": "note", "table": "t1", "game_id": "g1",
                        "text": "x" * 501})  # fmt: skip


def test_the_directors_page_lists_each_game_with_its_notes_and_links() -> None:
    desk = Desk()
    desk.result()
    note(desk, "g1", "checked, stands")
    (game,) = director_view(desk.ledger, desk.records[-3:])["games"]
    assert game["round"] == 1 and game["table"] == "t1" and game["game_id"] == "g1"
    assert game["status"] == "reported" and game["scores"] == {"0": 40, "1": 105}
    assert [n["text"] for n in game["notes"]] == ["checked, stands"]
    assert game["screen"] == "http://t1.local:8080/"  # the table's display (its History page)


def test_the_notes_go_into_the_exports(monkeypatch: pytest.MonkeyPatch) -> None:
    desk = Desk()
    desk.result()
    note(desk, "g1", "checked, stands")
    note(desk, "g1", "score corrected to 40-100")
    rows = list(csv.DictReader(io.StringIO(exports.results_csv(desk.ledger))))
    said = "2026-11-22 11:05 checked, stands | 2026-11-22 11:05 score corrected to 40-100"
    assert len(rows) == 2 and all(r["notes"] == said and r["game_id"] == "g1" for r in rows)
    monkeypatch.setattr(exports, "UNICODE_FONT", exports.UNICODE_FONT.with_name("absent.ttf"))
    text = pdf_text(exports.scoresheets_pdf(desk.ledger, 1))
    assert "Director's note \\(2026-11-22 11:05 UTC\\): checked, stands" in text
    assert "score corrected to 40-100" in text and "Game g1: reported" in text
