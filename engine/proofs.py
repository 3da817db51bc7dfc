"""Table mode's proofs after the fact: what a tile seen later proves about earlier turns.

The table never sees the hands (shared/TABLE.md), so it cannot judge a knock or a lead
when it is made. A tile seen later can still prove either wrong:

- a *false knock* (`FALSE_KNOCK`, must-play rules): a seat knocked while it held a tile
  that fitted an open end. It is proven by the tiles the seat plays after the knock
  (`knocks_disproved`, at each play) or shows at the count (`reneges`): more fitting
  tiles than the seat drew since the knock means one of them was held then;
- a *wrong lead* (`BAD_LEAD`, lead rules such as "the highest double leads"): a seat that
  drew nothing this hand plays (`lead_disproved`) or shows (`wrong_lead_shown`) a tile
  the lead rule puts before the lead, so it held that tile at the lead.

Each proof is an alert; the play or count that proves it stands. Each knock and the lead
are told once: the alerts told are kept in the turn record (`caught`, `wrong_lead`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.events import AlertEvent, Event, Reason
from engine.messages import Case, message
from engine.record import TurnRecord
from engine.rules import Boneyard, LeadRule, NextLeader, NoDouble, Rules
from engine.tiles import Tile


class Table(Protocol):
    """What the proofs read of a game in table mode."""

    rules: Rules
    names: list[str]
    language: str
    hand_no: int


def knocks_disproved(table: Table, t: TurnRecord, seat: int) -> list[Event]:
    """A `FALSE_KNOCK` for each knock of `seat` (must-play rules) that the play just made
    proves false: since the knock the seat has played more tiles that fitted an end open
    then than it drew (`reneges`' reasoning, with the tiles played in place of tiles
    shown). The play stands; each knock is told once."""
    if not table.rules.must_play:
        return []
    out: list[Event] = []
    for k, (who, _) in enumerate(t.knocks):
        if who != seat or k in t.caught:
            continue
        fitted = _fitted_since(t, k)
        drawn_since = t.drawn[seat] - t.knock_drawn[k]
        if len(fitted) > drawn_since:
            t.caught[k] = alert = _false_knock(table, seat, fitted, drawn_since)
            out.append(alert)
    return out


def reneges(table: Table, t: TurnRecord, shown: Sequence[Sequence[Tile] | None]) -> list[Event]:
    """A `FALSE_KNOCK` for each knock (must-play rules) made while a tile its seat now
    shows, or has played since, fitted an open end. A tile drawn after the knock may be
    among those: a knock is proven false when more of them fitted than the seat drew
    since (named, when it drew none; else the fitting tiles, one of which it held). In a
    block game and after a draw-until-playable pass nobody draws. A knock a play already
    proved false (`knocks_disproved`) is not told again."""
    if not table.rules.must_play:
        return []
    out: list[Event] = []
    for k, ((seat, open_pips), drawn_then) in enumerate(zip(t.knocks, t.knock_drawn, strict=True)):
        if k in t.caught:
            continue
        fitting = [x for x in shown[seat] or () if _fits(x, open_pips)]
        fitting += _fitted_since(t, k)
        drawn_since = t.drawn[seat] - drawn_then
        if len(fitting) > drawn_since:
            out.append(_false_knock(table, seat, fitting, drawn_since))
    return out


def _fitted_since(t: TurnRecord, knock: int) -> list[Tile]:
    """The tiles the seat of the `knock`-th knock has played since that fitted an end
    open when it knocked."""
    seat, open_pips = t.knocks[knock]
    return [
        node.tile
        for node in t.layout.nodes[t.knock_plays[knock] :]
        if node.seat == seat and _fits(node.tile, open_pips)
    ]


def _false_knock(table: Table, seat: int, fitting: Sequence[Tile], drawn_since: int) -> AlertEvent:
    """The alert for a knock proven false by `fitting` tiles: the tile, when the seat
    drew none since (it held them all); else the tiles, one of which it held."""
    sure = fitting[0] if not drawn_since else None
    said = (sure,) if sure is not None else tuple(fitting)
    text = message(Reason.FALSE_KNOCK, table.language, seat=table.names[seat], tile=said)
    return AlertEvent(Reason.FALSE_KNOCK, text, seat, sure.text if sure else None)


def _fits(tile: Tile, numbers: frozenset[int]) -> bool:
    """Whether `tile` shows one of `numbers` (it could join an end showing it)."""
    return tile.high in numbers or tile.low in numbers


# --- the lead rule, after the fact ------------------------------------------------------


def _lead_checkable(table: Table, t: TurnRecord) -> bool:
    """Whether a tile seen later can prove this hand's lead wrong: a hand led by the lead
    rule (not any tile), every lead attributed, and draws that are told or impossible
    (so a seat that drew nothing holds what it held at the lead)."""
    rules = table.rules
    if rules.lead is LeadRule.ANY:
        return False
    if table.hand_no != 1 and rules.next_leader is not NextLeader.LEAD_RULE:
        return False  # later hands are led with any tile
    if rules.draws and rules.boneyard is not Boneyard.DRAW_ONE:
        return False  # draw-until-playable: draws need not be told
    return None not in t.layout.seats()


def _leads_before(rules: Rules, tile: Tile, lead: Tile) -> bool:
    """Whether the lead rule puts `tile` before `lead` (its holder should have led)."""
    if rules.lead is LeadRule.SET_DOUBLE:
        return tile.is_double and tile.high == (rules.lead_double or 0) and tile is not lead
    if tile.is_double:
        return not lead.is_double or tile.high > lead.high
    highest_tile = rules.lead is LeadRule.HIGHEST_DOUBLE_ELSE_HIGHEST_TILE or (
        rules.no_double is NoDouble.HIGHEST_TILE
    )
    return highest_tile and not lead.is_double and tile.pips > lead.pips


def lead_disproved(table: Table, t: TurnRecord, seat: int, tile: Tile) -> list[Event]:
    """A `BAD_LEAD` when `seat`, having drawn nothing this hand, plays a tile the lead
    rule puts before the lead: it held it at the lead. Told once a hand."""
    if t.drawn[seat] or not _lead_checkable(table, t):
        return []
    if not _leads_before(table.rules, tile, t.layout.nodes[0].tile):
        return []
    t.wrong_lead = alert = _wrong_lead(table, t, seat, tile)
    return [alert]


def wrong_lead_shown(
    table: Table, t: TurnRecord, shown: Sequence[Sequence[Tile] | None]
) -> list[Event]:
    """A `BAD_LEAD` when a seat that drew nothing this hand shows a tile the lead rule
    puts before the lead (unless a play already proved it)."""
    if t.wrong_lead is not None or not t.layout.nodes or not _lead_checkable(table, t):
        return []
    lead = t.layout.nodes[0].tile
    for seat, tiles in enumerate(shown):
        if tiles is None or t.drawn[seat]:
            continue
        better = [x for x in tiles if _leads_before(table.rules, x, lead)]
        if better:
            best = max(better, key=lambda x: (x.is_double, x.high if x.is_double else x.pips))
            return [_wrong_lead(table, t, seat, best)]
    return []


def _wrong_lead(table: Table, t: TurnRecord, holder: int, better: Tile) -> AlertEvent:
    """The alert for a lead that `holder`'s `better` tile proves wrong, for the leader."""
    lead, leader = t.layout.nodes[0].tile, t.layout.nodes[0].seat
    text = message(
        Case.WRONG_LEAD, table.language, tile=lead, seat=table.names[holder], detail=better
    )
    return AlertEvent(Reason.BAD_LEAD, text, leader, lead.text)


def proven_by_rebuild(
    t: TurnRecord, caught: dict[int, AlertEvent], wrong_lead: AlertEvent | None
) -> list[Event]:
    """The proofs a rebuilt hand (`t`) holds that it did not hold before (`caught`,
    `wrong_lead`): a leader named late attributes the plays that prove them; a corrected
    tile."""
    out: list[Event] = [a for k, a in t.caught.items() if k not in caught]
    if t.wrong_lead is not None and wrong_lead is None:
        out.append(t.wrong_lead)
    return out
