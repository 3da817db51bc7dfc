"""Seating a round: who plays whom, with whom, and who sits out. Pure.

Every choice is a maximum-weight matching (networkx's `max_weight_matching`, with
`maxcardinality=True`) on a complete graph whose edge weights are a constant minus a
penalty, so the matching found is the one with the least total penalty among those that
seat everyone it can:

- **Swiss** (`singles`: players; `pairs`: fixed pairs), entities in standings order.
  Penalty of putting a against b: `REMATCH * times met + GROUP * (wins apart)**2 +
  (places apart)**2`. `REMATCH` is larger than every other penalty of a whole round put
  together, so a rematch happens only when no seating avoids it; `GROUP` keeps players
  of equal wins together before places do (1 v 2, 3 v 4 in round 1's drawn order).
- **Individual**, four to a table, in two matchings. First players into twos: with
  partnerships the twos are partners (penalty `(times partnered)**2`: a seating with
  no repeat costs 0, so partners never repeat while avoidable); without, each two are
  two of the table's opponents (penalty `(times met)**2`). Then twos into
  tables, penalty the sum over the players who become opponents of `(times met)**2`:
  few repeats, spread thin.

Byes go first to those with the fewest byes so far; among them, in Swiss the lowest in
the standings, in individual the first in the round's seeded order. Nodes are added in
a fixed order (the standings, or the round's seeded shuffle), so the same seed and
results give the same seating.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import networkx as nx

Pair = frozenset[str]


def pair(a: str, b: str) -> Pair:
    return frozenset((a, b))


@dataclass
class History:
    """Who sat with whom in earlier rounds, and the byes (counted per entity id)."""

    partners: Counter[Pair] = field(default_factory=Counter)
    opponents: Counter[Pair] = field(default_factory=Counter)
    byes: Counter[str] = field(default_factory=Counter)

    def add_table(self, sides: Sequence[Sequence[str]]) -> None:
        """One table: its sides (a team's players, or one player each without teams)."""
        for n, side in enumerate(sides):
            for i, a in enumerate(side):
                for b in side[i + 1 :]:
                    self.partners[pair(a, b)] += 1
            for other in sides[n + 1 :]:
                for a in side:
                    for b in other:
                        self.opponents[pair(a, b)] += 1


@dataclass(frozen=True)
class Seating:
    """Groups in table order (each a list of entity ids, in seat order) and the byes."""

    groups: list[list[str]]
    byes: list[str]


def _match(nodes: Sequence[str], penalty: dict[tuple[str, str], int]) -> list[tuple[str, str]]:
    """Pairs of `nodes` with the least total penalty (every node matched if even)."""
    if len(nodes) < 2:
        return []
    top = max(penalty.values(), default=0) + 1
    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from(nodes)
    for (a, b), cost in penalty.items():
        graph.add_edge(a, b, weight=top - cost)
    place = {n: i for i, n in enumerate(nodes)}
    found = nx.max_weight_matching(graph, maxcardinality=True)
    out = [(a, b) if place[a] < place[b] else (b, a) for a, b in found]
    return sorted(out, key=lambda ab: place[ab[0]])


def byes(order: Sequence[str], count: int, history: History, lowest_first: bool) -> list[str]:
    """`count` entities to sit out: fewest byes so far, then the end (or start) of `order`."""
    if count <= 0:
        return []
    place = {e: n for n, e in enumerate(order)}
    sign = -1 if lowest_first else 1
    chosen = sorted(order, key=lambda e: (history.byes[e], sign * place[e]))[:count]
    return sorted(chosen, key=lambda e: place[e])


def swiss(
    order: Sequence[str],
    wins: dict[str, int],
    tables: int,
    met: Counter[Pair],
    history: History,
) -> Seating:
    """Two entities a table, in standings `order` (best first)."""
    seated = min(len(order) - len(order) % 2, 2 * tables)
    out = byes(order, len(order) - seated, history, lowest_first=True)
    playing = [e for e in order if e not in out]
    n = len(playing)
    spread = max((wins[e] for e in playing), default=0) - min((wins[e] for e in playing), default=0)
    group = n * n + 1
    rematch = (n // 2 + 1) * (group * spread * spread + n * n) + 1
    place = {e: i for i, e in enumerate(playing)}
    penalty = {}
    for i, a in enumerate(playing):
        for b in playing[i + 1 :]:
            penalty[(a, b)] = (
                rematch * met[pair(a, b)]
                + group * (wins[a] - wins[b]) ** 2
                + (place[a] - place[b]) ** 2
            )
    return Seating([list(ab) for ab in _match(playing, penalty)], out)


def _twos_penalty(players: Sequence[str], repeat: Counter[Pair]) -> dict[tuple[str, str], int]:
    return {
        (a, b): repeat[pair(a, b)] ** 2 for i, a in enumerate(players) for b in players[i + 1 :]
    }


def _tables_penalty(
    twos: Sequence[tuple[str, str]], opponents: Counter[Pair]
) -> dict[tuple[str, str], int]:
    keys = ["+".join(t) for t in twos]
    out = {}
    for i, (a1, a2) in enumerate(twos):
        for j in range(i + 1, len(twos)):
            b1, b2 = twos[j]
            out[(keys[i], keys[j])] = sum(
                opponents[pair(x, y)] ** 2 for x in (a1, a2) for y in (b1, b2)
            )
    return out


def individual(order: Sequence[str], tables: int, history: History, partnered: bool) -> Seating:
    """Four players a table; `order` is the round's seeded shuffle of the players."""
    seated = min(len(order) - len(order) % 4, 4 * tables)
    out = byes(order, len(order) - seated, history, lowest_first=False)
    playing = [p for p in order if p not in out]
    repeats = history.partners if partnered else history.opponents
    twos = _match(playing, _twos_penalty(playing, repeats))
    keys = {"+".join(t): t for t in twos}
    tables_found = _match(list(keys), _tables_penalty(twos, history.opponents))
    groups = []
    for k1, k2 in tables_found:
        (a1, a2), (b1, b2) = keys[k1], keys[k2]
        groups.append([a1, b1, a2, b2])  # partners at seats 0+2 and 1+3
    return Seating(groups, out)


def shuffled(players: Iterable[str], seed: int, round_no: int) -> list[str]:
    """The round's seeded order of the players (sorted first: the input order is not used)."""
    out = sorted(players)
    random.Random(f"{seed}/round/{round_no}").shuffle(out)
    return out
