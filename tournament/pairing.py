"""Seating a round: who plays whom, with whom, and who sits out. Pure.

Every choice is a maximum-weight matching (rustworkx's `max_weight_matching`, with
`max_cardinality=True`) on a complete graph whose edge weights are a constant minus a
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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import rustworkx as rx

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


Costs = dict[tuple[int, int], int]  # (i, j), i < j: indices of two nodes; missing: 0
Matcher = Callable[[int, Costs], list[tuple[int, int]]]


def match(count: int, cost: Costs) -> list[tuple[int, int]]:
    """Pairs of the nodes 0..count-1 with the least total cost (every node matched if
    `count` is even), each pair (i, j) with i < j, in order of i.

    A maximum-weight matching of maximum cardinality on the complete graph, weight
    `top - cost`, by rustworkx (Edmonds' blossom algorithm, compiled): a few ms for
    200 players, where networkx's pure-Python one took 0.1 to 0.6 s on the desk's loop
    (`benchmarks/tournament.py` prints both)."""
    if count < 2:
        return []
    top = max(cost.values(), default=0) + 1
    weights = np.full((count, count), float(top))  # exact: whole numbers far below 2**53
    for (i, j), c in cost.items():
        weights[i, j] = weights[j, i] = top - c  # at least 1: 0 is "no edge"
    np.fill_diagonal(weights, 0.0)
    graph = rx.PyGraph.from_adjacency_matrix(weights, null_value=0.0)
    found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    return sorted((min(i, j), max(i, j)) for i, j in found)


def _by_index(nodes: Sequence[str], counts: Counter[Pair]) -> Costs:
    """`counts` (times two entities met, or partnered) for the pairs of `nodes`, by index."""
    place = {n: i for i, n in enumerate(nodes)}
    out: Costs = {}
    for two, times in counts.items():
        a, b = (place.get(e) for e in two)
        if times and a is not None and b is not None:
            out[(a, b) if a < b else (b, a)] = times
    return out


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
    match: Matcher = match,
) -> Seating:
    """Two entities a table, in standings `order` (best first)."""
    seated = min(len(order) - len(order) % 2, 2 * tables)
    out = byes(order, len(order) - seated, history, lowest_first=True)
    playing = [e for e in order if e not in out]
    n = len(playing)
    spread = max((wins[e] for e in playing), default=0) - min((wins[e] for e in playing), default=0)
    group = n * n + 1
    rematch = (n // 2 + 1) * (group * spread * spread + n * n) + 1
    times_met = _by_index(playing, met)
    cost = {
        (i, j): rematch * times_met.get((i, j), 0)
        + group * (wins[playing[i]] - wins[playing[j]]) ** 2
        + (j - i) ** 2
        for i in range(n)
        for j in range(i + 1, n)
    }
    return Seating([[playing[i], playing[j]] for i, j in match(n, cost)], out)


def _tables_cost(twos: Sequence[tuple[str, str]], opponents: Counter[Pair]) -> Costs:
    """Two twos at one table: the sum over the players who become opponents of
    `(times opponents) ** 2`, from the history's pairs (most pairs never met: 0)."""
    players = [p for two in twos for p in two]  # two n holds players 2n and 2n + 1
    out: Costs = {}
    for (i, j), times in _by_index(players, opponents).items():
        ti, tj = i // 2, j // 2  # i < j, so ti <= tj
        if ti != tj:
            out[(ti, tj)] = out.get((ti, tj), 0) + times * times
    return out


def individual(
    order: Sequence[str], tables: int, history: History, partnered: bool, match: Matcher = match
) -> Seating:
    """Four players a table; `order` is the round's seeded shuffle of the players.
    `match`: another matcher of the same costs (benchmarks/tournament.py's networkx)."""
    seated = min(len(order) - len(order) % 4, 4 * tables)
    out = byes(order, len(order) - seated, history, lowest_first=False)
    playing = [p for p in order if p not in out]
    repeats = history.partners if partnered else history.opponents
    twos_cost = {k: t * t for k, t in _by_index(playing, repeats).items()}
    twos = [(playing[i], playing[j]) for i, j in match(len(playing), twos_cost)]
    groups = []
    for ti, tj in match(len(twos), _tables_cost(twos, history.opponents)):
        (a1, a2), (b1, b2) = twos[ti], twos[tj]
        groups.append([a1, b1, a2, b2])  # partners at seats 0+2 and 1+3
    return Seating(groups, out)


def shuffled(players: Iterable[str], seed: int, round_no: int) -> list[str]:
    """The round's seeded order of the players (sorted first: the input order is not used)."""
    out = sorted(players)
    random.Random(f"{seed}/round/{round_no}").shuffle(out)
    return out
