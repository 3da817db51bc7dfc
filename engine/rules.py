"""House rules as data.

A ruleset is a TOML file of options (see docs/design/rules.md for every key). Code implements
options, never leaflet names: the shipped rulesets in `engine/rulesets/` are points in
this option space, and a house can add its own file without code.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeVar

from engine.tiles import DominoSet, TileError


class RulesError(ValueError):
    """A ruleset file that cannot be used; the message names the file and the key."""


class Boneyard(Enum):
    NONE = "none"  # block game: who cannot play passes
    DRAW_ONE = "draw-one"  # draw one tile; play it if possible, else pass
    DRAW_UNTIL_PLAYABLE = "draw-until-playable"


class LeadRule(Enum):
    ANY = "any"  # any tile, by the designated leader
    HIGHEST_DOUBLE = "highest-double"  # the holder of the highest double leads it
    HIGHEST_DOUBLE_ELSE_HIGHEST_TILE = "highest-double-else-highest-tile"
    SET_DOUBLE = "set-double"  # a given double must lead (e.g. 6-6)


class NoDouble(Enum):
    """What happens when a double must lead and no hand holds one."""

    DRAW_MORE = "draw-more"  # everybody draws one more tile, again until someone can lead
    RESHUFFLE = "reshuffle"
    HIGHEST_TILE = "highest-tile"


class FirstLeader(Enum):
    """Who leads the first hand when the lead rule does not decide it."""

    DRAW_HIGHEST = "draw-highest"  # each draws a tile; most pips leads (doubles break ties)
    SEAT_ZERO = "seat-zero"


class NextLeader(Enum):
    ROTATE = "rotate"  # the seat left (clockwise) of the previous leader
    WINNER = "winner"  # the winner of the previous hand
    LEAD_RULE = "lead-rule"  # the lead rule again (e.g. highest double)


class SpinnerRule(Enum):
    NONE = "none"
    LEAD_DOUBLE = "lead-double"
    FIRST_DOUBLE = "first-double"
    EVERY_DOUBLE = "every-double"


class ArmsOpen(Enum):
    AT_ONCE = "at-once"
    AFTER_SIDES = "after-sides"  # only once both sides are covered


class SpinnerCounts(Enum):
    """How long a spinner's own pips count toward the ends total."""

    ONE_EDGE = "one-edge"  # all its pips while played off at most one edge
    UNTIL_SIDES = "until-sides"  # all its pips until both sides are covered
    ARMS_KEEP = "arms-keep"  # as until-sides, then each open arm counts its number


class PlayScoring(Enum):
    NONE = "none"
    FIVES = "fives"  # ends total a multiple of 5 scores that total
    FIVES_DIVIDED = "fives-divided"  # ... divided by 5
    FIVES_AND_THREES = "fives-and-threes"  # 1 per 5 and per 3 in the total (15 = 8)


class BlockedWinner(Enum):
    LIGHTEST = "lightest"  # the lightest hand (its team in partnership games)
    LIGHTEST_TEAM = "lightest-team"  # the team with the fewest pips together
    NOBODY = "nobody"


class HandPoints(Enum):
    """What the winner of a hand scores."""

    OPPONENTS = "opponents"  # pips in the opponents' hands
    OTHERS = "others"  # pips in every other hand, the partner's included
    ALL = "all"  # every pip left in all hands
    OPPONENTS_MINUS_OWN = "opponents-minus-own"  # opponents' pips minus the winner's own
    ONE = "one"  # one point (a round won)
    NONE = "none"


class Rounding(Enum):
    NONE = "none"
    NEAREST_5 = "nearest-5"
    UP_5 = "up-5"
    DOWN_5 = "down-5"


class Ties(Enum):
    NOBODY = "nobody"  # a tie for lightest scores nothing
    LIGHTEST_TILE = "lightest-tile"  # the hand holding the lightest single tile wins
    SPLIT = "split"  # tied winners share the points (rounded down)


class TargetCheck(Enum):
    AT_ONCE = "at-once"  # the game ends the moment a score reaches the target
    END_OF_HAND = "end-of-hand"  # at the end of the hand; most points wins


class Partnerships(Enum):
    NEVER = "never"
    FOUR_PLAYERS = "four-players"  # 4 players play 0+2 against 1+3 unless told otherwise
    ALWAYS = "always"  # (requires 4 players)


_E = TypeVar("_E", bound=Enum)


def _ranges(value: object, where: str) -> dict[int, Any]:
    """Expand `{"2" = 7, "3-4" = 5}` (or a single value for all counts) by player count."""
    if not isinstance(value, Mapping):
        return dict.fromkeys(range(2, 11), value)
    out: dict[int, Any] = {}
    for key, v in value.items():
        lo_s, _, hi_s = str(key).partition("-")
        try:
            lo, hi = int(lo_s), int(hi_s or lo_s)
        except ValueError:
            raise RulesError(
                f"{where}: {key!r} is not a player count: write 2, or a range like 3-4"
            ) from None
        if not 2 <= lo <= hi <= 10:
            raise RulesError(f"{where}: {key!r} is outside 2 to 10 players")
        for n in range(lo, hi + 1):
            out[n] = v
    return out


@dataclass(frozen=True)
class Rules:
    """Every option of one ruleset (a house's rules). Built from TOML by `Rules.parse`."""

    name: str
    title: str = ""
    source: str = ""
    players: tuple[int, int] = (2, 4)
    sets: Mapping[int, DominoSet] = field(default_factory=dict)
    hand_sizes: Mapping[int, int] = field(default_factory=dict)
    boneyard: Boneyard = Boneyard.DRAW_UNTIL_PLAYABLE
    boneyard_keep: int = 0  # tiles that are never drawn
    draw_while_playable: bool = False
    must_play: bool = True
    lead: LeadRule = LeadRule.ANY
    lead_double: int | None = None  # with lead = set-double: the double's number
    no_double: NoDouble = NoDouble.RESHUFFLE
    first_leader: FirstLeader = FirstLeader.DRAW_HIGHEST
    next_leader: NextLeader = NextLeader.ROTATE
    spinner: SpinnerRule = SpinnerRule.NONE
    arms: ArmsOpen = ArmsOpen.AT_ONCE
    spinner_counts: SpinnerCounts = SpinnerCounts.ONE_EDGE
    double_counts_both: bool = True
    play_scoring: PlayScoring = PlayScoring.NONE
    domino_points: HandPoints = HandPoints.OPPONENTS
    blocked_winner: BlockedWinner = BlockedWinner.LIGHTEST
    blocked_points: HandPoints = HandPoints.OPPONENTS_MINUS_OWN
    rounding: Rounding = Rounding.NONE
    divide_by: int = 1
    ties: Ties = Ties.NOBODY
    partnerships: Partnerships = Partnerships.NEVER
    both_partners_out: bool = False
    target: int | None = 100
    best_of: int | None = None
    target_check: TargetCheck = TargetCheck.END_OF_HAND
    exact_target: bool = False
    announce_stitched: bool = False
    decisions: Mapping[str, str] = field(default_factory=dict)

    # --- derived ---------------------------------------------------------------

    def domino_set(self, players: int) -> DominoSet:
        self.check_players(players)
        return self.sets[players]

    def hand_size(self, players: int) -> int:
        self.check_players(players)
        return self.hand_sizes[players]

    def check_players(self, players: int) -> None:
        lo, hi = self.players
        if not lo <= players <= hi:
            raise RulesError(f"{self.name} is for {lo} to {hi} players, not {players}")

    def teams_for(self, players: int) -> tuple[tuple[int, ...], ...]:
        """The default partnerships for this many players (empty: everyone alone)."""
        if players == 4 and self.partnerships is not Partnerships.NEVER:
            return ((0, 2), (1, 3))
        return ()

    @property
    def win_target(self) -> int | None:
        """Points (or rounds won, with best_of) that end the game."""
        if self.best_of is not None:
            return self.best_of // 2 + 1
        return self.target

    @property
    def draws(self) -> bool:
        return self.boneyard is not Boneyard.NONE

    # --- parsing -----------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, *, source: str = "<ruleset>", name: str | None = None) -> Rules:
        """Build from TOML text; errors name `source`, the key and what is allowed."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise RulesError(f"{source}: not valid TOML: {exc}") from None
        return cls.from_mapping(data, source=source, name=name)

    @classmethod
    def from_mapping(
        cls, data: Mapping[str, Any], *, source: str = "<ruleset>", name: str | None = None
    ) -> Rules:
        return _Parser(data, source).build(name)


class _Parser:
    """Reads each known key once; keys nobody read are errors (typos caught early)."""

    def __init__(self, data: Mapping[str, Any], source: str) -> None:
        self.data = data
        self.source = source
        self.read: set[str] = set()

    def fail(self, key: str, message: str) -> RulesError:
        return RulesError(f"{self.source}: {key}: {message}")

    def raw(self, key: str, default: object = None) -> Any:
        section, _, leaf = key.rpartition(".")
        node: Any = self.data
        for part in section.split(".") if section else ():
            node = node.get(part, {}) if isinstance(node, Mapping) else {}
            if not isinstance(node, Mapping):
                raise self.fail(section, "must be a table of options")
        self.read.add(key)
        return node.get(leaf, default) if isinstance(node, Mapping) else default

    def enum(self, key: str, kind: type[_E], default: _E) -> _E:
        value = self.raw(key, default.value)
        try:
            return kind(value)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in kind)
            raise self.fail(key, f"{value!r} is not allowed; use one of {allowed}") from None

    def boolean(self, key: str, default: bool) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, f"{value!r} is not allowed; use true or false")
        return value

    def integer(self, key: str, default: int | None, lo: int, hi: int) -> int | None:
        value = self.raw(key, default)
        if value is None or value is False:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(key, f"{value!r} is not allowed; use a whole number {lo} to {hi}")
        return value

    def text(self, key: str, default: str) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str):
            raise self.fail(key, f"{value!r} is not allowed; use a string")
        return value

    def build(self, name: str | None) -> Rules:
        rules_name = name or self.text("name", "")
        if not rules_name:
            raise self.fail("name", "a ruleset needs a name")
        players = self.raw("players", [2, 4])
        if (
            not isinstance(players, list)
            or len(players) != 2
            or not all(isinstance(p, int) and 2 <= p <= 10 for p in players)
            or players[0] > players[1]
        ):
            raise self.fail("players", f"{players!r} is not allowed; use [min, max] within 2-10")
        lo, hi = players[0], players[1]
        sets = self._sets(lo, hi)
        hand_sizes = self._hand_sizes(lo, hi, sets)
        decisions = self.raw("decisions", {})
        if not isinstance(decisions, Mapping) or not all(
            isinstance(v, str) for v in decisions.values()
        ):
            raise self.fail("decisions", "must be a table of strings")
        self._mark_decisions(decisions)
        rules = Rules(
            name=rules_name,
            title=self.text("title", ""),
            source=self.text("source", ""),
            players=(lo, hi),
            sets=sets,
            hand_sizes=hand_sizes,
            boneyard=self.enum("draw.boneyard", Boneyard, Boneyard.DRAW_UNTIL_PLAYABLE),
            boneyard_keep=self.integer("draw.keep", 0, 0, 20) or 0,
            draw_while_playable=self.boolean("draw.while_playable", False),
            must_play=self.boolean("play.must_play", True),
            lead=self.enum("lead.rule", LeadRule, LeadRule.ANY),
            lead_double=self.integer("lead.double", None, 0, 12),
            no_double=self.enum("lead.no_double", NoDouble, NoDouble.RESHUFFLE),
            first_leader=self.enum("lead.first", FirstLeader, FirstLeader.DRAW_HIGHEST),
            next_leader=self.enum("lead.next", NextLeader, NextLeader.ROTATE),
            spinner=self.enum("spinner.kind", SpinnerRule, SpinnerRule.NONE),
            arms=self.enum("spinner.arms", ArmsOpen, ArmsOpen.AT_ONCE),
            spinner_counts=self.enum("spinner.counts", SpinnerCounts, SpinnerCounts.ONE_EDGE),
            double_counts_both=self.boolean("play.double_counts_both", True),
            play_scoring=self.enum("play.scoring", PlayScoring, PlayScoring.NONE),
            domino_points=self.enum("hand.domino_points", HandPoints, HandPoints.OPPONENTS),
            blocked_winner=self.enum("hand.blocked_winner", BlockedWinner, BlockedWinner.LIGHTEST),
            blocked_points=self.enum(
                "hand.blocked_points", HandPoints, HandPoints.OPPONENTS_MINUS_OWN
            ),
            rounding=self.enum("hand.rounding", Rounding, Rounding.NONE),
            divide_by=self.integer("hand.divide_by", 1, 1, 100) or 1,
            ties=self.enum("hand.ties", Ties, Ties.NOBODY),
            partnerships=self.enum("teams.partnerships", Partnerships, Partnerships.NEVER),
            both_partners_out=self.boolean("teams.both_out", False),
            target=self.integer("match.target", 100, 1, 100_000),
            best_of=self.integer("match.best_of", None, 1, 99),
            target_check=self.enum("match.check", TargetCheck, TargetCheck.END_OF_HAND),
            exact_target=self.boolean("match.exact", False),
            announce_stitched=self.boolean("play.announce_stitched", False),
            decisions=dict(decisions),
        )
        self._check_unknown(self.data, "")
        self._check_consistent(rules)
        return rules

    def _mark_decisions(self, decisions: Mapping[str, Any]) -> None:
        for key in decisions:
            self.read.add(f"decisions.{key}")

    def _sets(self, lo: int, hi: int) -> dict[int, DominoSet]:
        by = _ranges(self.raw("deal.set", "double-six"), f"{self.source}: deal.set")
        out: dict[int, DominoSet] = {}
        for n in range(lo, hi + 1):
            if n not in by:
                raise self.fail("deal.set", f"says nothing for {n} players")
            try:
                out[n] = DominoSet.named(by[n])
            except TileError as exc:
                raise self.fail("deal.set", str(exc)) from None
        return out

    def _hand_sizes(self, lo: int, hi: int, sets: Mapping[int, DominoSet]) -> dict[int, int]:
        by = _ranges(self.raw("deal.hand"), f"{self.source}: deal.hand")
        out: dict[int, int] = {}
        for n in range(lo, hi + 1):
            size = by.get(n)
            if not isinstance(size, int) or isinstance(size, bool) or size < 1:
                raise self.fail("deal.hand", f"needs a hand size (a whole number) for {n} players")
            if size * n > sets[n].size:
                raise self.fail(
                    "deal.hand",
                    f"{n} hands of {size} need {size * n} tiles; {sets[n]} has {sets[n].size}",
                )
            out[n] = size
        return out

    def _check_unknown(self, node: Mapping[str, Any], prefix: str) -> None:
        for key, value in node.items():
            dotted = f"{prefix}{key}"
            if dotted in self.read:
                continue
            if isinstance(value, Mapping) and any(r.startswith(dotted + ".") for r in self.read):
                self._check_unknown(value, dotted + ".")
                continue
            raise self.fail(
                dotted, "unknown option (see docs/design/rules.md for the allowed keys)"
            )

    def _check_consistent(self, rules: Rules) -> None:
        if rules.lead is LeadRule.SET_DOUBLE and rules.lead_double is None:
            raise self.fail("lead.double", "lead.rule = 'set-double' needs the double, e.g. 6")
        if rules.partnerships is Partnerships.ALWAYS and rules.players != (4, 4):
            raise self.fail("teams.partnerships", "'always' needs players = [4, 4]")
        if rules.target is None and rules.best_of is None:
            raise self.fail("match.target", "a game needs a target or match.best_of")
