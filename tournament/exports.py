"""Exports for the director: CSV of seatings, results and standings, and a PDF of score
sheets for a round, one page per table, with a QR code of the table's display address
(fpdf2 draws the PDF, segno the QR code)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import segno
from fpdf import FPDF

from tournament.ledger import Ledger, Round, TableRound

UNICODE_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
UNICODE_BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
SHEET_HANDS = 16  # rows for hands on a score sheet
BASE = ("wins", "points", "margin")


def _csv(header: list[str], rows: list[list[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def seatings_csv(ledger: Ledger) -> str:
    rows: list[list[object]] = []
    for rnd in ledger.rounds:
        for seated in rnd.tables.values():
            for s in seated.seats:
                team = "" if s.team is None else s.team
                rows.append([rnd.number, seated.table, s.seat, team, s.player, s.name])
        for pid in rnd.byes:
            rows.append([rnd.number, "bye", "", "", pid, ledger.players[pid].name])
    return _csv(["round", "table", "seat", "team", "player", "name"], rows)


def results_csv(ledger: Ledger) -> str:
    rows: list[list[object]] = []
    for rnd in ledger.rounds:
        for seated in rnd.tables.values():
            credits = {c.player: c for c in seated.credits()}
            game = seated.outcome.game_id if seated.outcome else seated.game_id
            for s in seated.seats:
                c = credits.get(s.player)
                rows.append([
                    rnd.number, seated.table, game or "", seated.status.value, s.seat, s.player,
                    s.name, "" if c is None else c.points, "" if c is None else int(c.won),
                    "" if c is None else c.margin,
                    int(s.seat in seated.outcome.confirmed_by) if seated.outcome else "",
                    _notes(ledger, seated.table, game),
                ])  # fmt: skip
    header = ["round", "table", "game_id", "status", "seat", "player", "name", "points", "won",
              "margin", "confirmed", "notes"]  # fmt: skip
    return _csv(header, rows)


def _notes(ledger: Ledger, table: str, game_id: str | None) -> str:
    """The director's notes on a game's result, oldest first, each with its time (UTC)."""
    notes = ledger.notes.get((table, game_id), []) if game_id else []
    return " | ".join(f"{n.at[:16].replace('T', ' ')} {n.text}" for n in notes)


def standings_csv(ledger: Ledger) -> str:
    """The standings, with the tie-breaks that are not columns already, then the draw."""
    ties = [t.value for t in ledger.event.tie_breaks if t.value not in BASE]
    rows: list[list[object]] = []
    for e in ledger.standings():
        r = e.record
        rows.append([e.rank, r.player, r.name, r.games, r.wins, r.points, r.margin,
                     *(e.values.get(t, "") for t in ties), e.values["draw"]])  # fmt: skip
    header = ["rank", "player", "name", "games", "wins", "points", "margin", *ties, "draw"]
    return _csv(header, rows)


class _Sheet(FPDF):
    def __init__(self) -> None:
        super().__init__(orientation="P", unit="mm", format="A4")
        self.set_auto_page_break(auto=False)
        if UNICODE_FONT.exists() and UNICODE_BOLD.exists():
            self.add_font("sheet", "", str(UNICODE_FONT))
            self.add_font("sheet", "B", str(UNICODE_BOLD))
            self.face = "sheet"
        else:
            self.face = "Helvetica"

    def text_safe(self, text: str) -> str:
        if self.face != "Helvetica":
            return text
        return text.encode("latin-1", "replace").decode("latin-1")


def _columns(ledger: Ledger, seated: TableRound) -> list[str]:
    if ledger.event.partnered:
        by_team: dict[int, list[str]] = {}
        for s in seated.seats:
            by_team.setdefault(s.team or 0, []).append(s.name)
        return [" & ".join(names) for _, names in sorted(by_team.items())]
    return [s.name for s in seated.seats]


def _qr_png(url: str) -> io.BytesIO:
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="png", scale=8, border=2)
    out.seek(0)
    return out


def _page(pdf: _Sheet, ledger: Ledger, rnd: Round, seated: TableRound) -> None:
    event = ledger.event
    pdf.add_page()
    pdf.set_font(pdf.face, "B", 20)
    pdf.cell(0, 10, pdf.text_safe(event.name), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(pdf.face, "", 14)
    line = f"Round {rnd.number} of {event.rounds} · table {seated.table} · {event.rules}"
    pdf.cell(140, 8, pdf.text_safe(line), new_x="LMARGIN", new_y="NEXT")
    if rnd.ends_at:
        ends = f"Time: the last hand starts after {rnd.ends_at[11:16]} UTC"
        pdf.cell(140, 8, pdf.text_safe(ends), new_x="LMARGIN", new_y="NEXT")
    url = event.table_url(seated.table)
    pdf.image(_qr_png(url), x=160, y=10, w=38, h=38)
    pdf.set_font(pdf.face, "", 8)
    pdf.set_xy(150, 49)
    pdf.cell(58, 4, pdf.text_safe(url), align="C")
    pdf.set_xy(10, 38)
    pdf.set_font(pdf.face, "", 12)
    for s in seated.seats:
        team = "" if s.team is None else f"  (team {s.team})"
        pdf.cell(0, 7, pdf.text_safe(f"Seat {s.seat}: {s.name} [{s.player}]{team}"),
                 new_x="LMARGIN", new_y="NEXT")  # fmt: skip
    _grid(pdf, _columns(ledger, seated))
    _director_notes(pdf, ledger, seated)


def _director_notes(pdf: _Sheet, ledger: Ledger, seated: TableRound) -> None:
    """The result as counted and the director's notes on it, once the game was played."""
    game = seated.outcome.game_id if seated.outcome else seated.game_id
    notes = ledger.notes.get((seated.table, game), []) if game else []
    if not game or (not notes and seated.outcome is None):
        return
    pdf.ln(12)
    pdf.set_font(pdf.face, "B", 12)
    scores = ""
    if seated.outcome is not None:
        scores = "  scores " + " - ".join(str(v) for _, v in sorted(seated.outcome.scores.items()))
    pdf.cell(0, 7, pdf.text_safe(f"Game {game}: {seated.status.value}{scores}"),
             new_x="LMARGIN", new_y="NEXT")  # fmt: skip
    pdf.set_font(pdf.face, "", 11)
    for i, note in enumerate(notes):
        if pdf.get_y() > 280:  # the page's foot: the rest are in results.csv
            pdf.cell(0, 6, f"... {len(notes) - i} more notes in results.csv")
            break
        when = note.at[:16].replace("T", " ")
        pdf.multi_cell(0, 6, pdf.text_safe(f"Director's note ({when} UTC): {note.text}"),
                       new_x="LMARGIN", new_y="NEXT")  # fmt: skip


def _grid(pdf: _Sheet, columns: list[str]) -> None:
    pdf.set_xy(10, 72)
    width = (190 - 20) / len(columns)
    pdf.set_font(pdf.face, "B", 11)
    pdf.cell(20, 9, "Hand", border=1, align="C")
    for name in columns:
        pdf.cell(width, 9, pdf.text_safe(name[:40]), border=1, align="C")
    pdf.ln()
    pdf.set_font(pdf.face, "", 11)
    for hand in [*(str(n) for n in range(1, SHEET_HANDS + 1)), "Total"]:
        pdf.cell(20, 9, hand, border=1, align="C")
        for _ in columns:
            pdf.cell(width, 9, "", border=1)
        pdf.ln()
    pdf.ln(8)
    pdf.cell(0, 8, "Winner: ______________________   Signatures: ______________________________")


def scoresheets_pdf(ledger: Ledger, number: int) -> bytes:
    """One page per table of round `number`; `KeyError` when the round is not seated."""
    rnd = ledger.round(number)
    if rnd is None:
        raise KeyError(number)
    pdf = _Sheet()
    pdf.set_title(f"{ledger.event.name}: round {number} score sheets")
    for seated in rnd.tables.values():
        _page(pdf, ledger, rnd, seated)
    return bytes(pdf.output())
