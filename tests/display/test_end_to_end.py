"""The display against the real controller: `domino-table run` as a process on the board
emulator (a pty), a real Mosquitto, the display server and a real Chromium.

A full-information game (`Mode.FULL`, seeded) decides every move; its tiles are laid on
the emulated board where a player would (the `Placer`), passes, the lead and the counts
are told by command, some of them from the page's own buttons. The page must follow.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from display.tally import tally
from engine import Game, Mode, Tile, rulesets
from engine.game import Move, Phase
from engine.geometry import Placer
from engine.surface import SeenTile
from firmware_bridge.emulator import BoardEmulator
from tests.display.conftest import DisplayServer, screenshot
from tests.fixtures.board_table import at
from tests.fixtures.browser import screen
from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.service_process import Service, send
from tests.fixtures.tiers import needs

RULES = "straight-block"
SEATS = 2
SEEDS = range(200)


@dataclass
class Hand:
    """One hand of a seeded full-information game, laid on the board move by move."""

    board: BoardEmulator | None  # None: played here only
    seed: int
    rules: str = RULES
    seats: int = SEATS
    # walnut's lead (the highest double, else more drawn unseen): the table cannot know
    # the tiles left, so it is told who went out
    tiles_known: bool = True
    target: int | None = None  # None: the ruleset's
    game: Game = field(init=False)
    placer: Placer = field(default_factory=lambda: Placer(900, 600))
    coords: list[SeenTile] = field(default_factory=list)
    rng: random.Random = field(init=False)
    counted: bool = False  # the table scores the hand once the counts are given

    def __post_init__(self) -> None:
        self.game = Game(
            rulesets.load(self.rules),
            self.seats,
            mode=Mode.FULL,
            seed=self.seed,
            target=self.target,
        )
        self.game.start()
        self.rng = random.Random(self.seed)

    def table_phase(self) -> str:
        """The phase the table is in: it counts before it scores (this copy scores at once)."""
        if self.game.phase in (Phase.HAND_OVER, Phase.OVER) and not self.counted:
            return "counting"
        return self.game.phase.value

    def table_scores(self) -> tuple[int, ...]:
        """The scores the table shows: while it counts, without the hand's points."""
        scores = list(self.game.scores())
        if self.table_phase() == "counting":
            record = self.game.history[-1]
            if record.winner is not None:
                scores[record.winner] -= record.points
        return tuple(scores)

    @classmethod
    def find(cls, what: str, want: Callable[[Hand, Counter[str]], bool], **kw: Any) -> int:
        """A seed whose hand is as wanted (chosen by playing it here, so it holds whatever
        the engine deals)."""
        for seed in SEEDS:
            hand = cls(None, seed, **kw)
            kinds: Counter[str] = Counter()
            while hand.playing:
                kind, move = hand.decide()
                kinds[kind] += 1
                if move is not None:
                    hand.lay(move)
                elif kind == "draw":
                    assert hand.game.draw().ok
                else:
                    hand.pass_turn()
            if want(hand, kinds):
                return seed
        raise AssertionError(f"no seed in {SEEDS} has a hand that {what}")

    @classmethod
    def going_out(cls) -> int:
        """A seed whose hand has a pass and ends with a seat going out for 5 points or more."""
        return cls.find(
            "goes out after a pass",
            lambda hand, kinds: (
                hand.game.out_seat is not None
                and kinds["pass"] > 0
                and hand.game.history[-1].points >= 5
            ),
        )

    @property
    def playing(self) -> bool:
        return self.game.phase in (Phase.LEAD, Phase.PLAY)

    def next_move(self) -> Move | None:
        """The turn seat's move (None: it must pass)."""
        moves = self.game.legal_moves()
        return self.rng.choice(moves) if moves else None

    def decide(self) -> tuple[str, Move | None]:
        """What the turn seat does: "play" (with its move), "draw" or "pass"."""
        move = self.next_move()
        if move is not None:
            return "play", move
        return ("draw" if self.game.can_draw() else "pass"), None

    def lay(self, move: Move) -> None:
        seen = self.placer.place(self.game.layout, self.coords, move.tile, move.end)
        self.game.push(move)
        self.coords.append(seen)
        if self.board is not None:
            self.board.place(at(seen))

    def pass_turn(self) -> None:
        self.game.push_pass()

    def wrong_tile(self) -> SeenTile:
        """A tile not in play, laid at an open end whose number it does not have."""
        layout = self.game.layout
        end = layout.ends[0]
        open_pips = {e.pip for e in layout.ends}
        played = {n.tile for n in layout.nodes}
        bad = next(
            t
            for t in self.game.set.tiles()
            if not t.is_double and t not in played and not (open_pips & {t.high, t.low})
        )
        fits = Tile(end.pip, (end.pip + 1) % 7)
        spot = self.placer.place(layout, self.coords, fits, end)
        return SeenTile(bad.high, bad.low, spot.xa, spot.ya, spot.xb, spot.yb)

    def pips(self) -> list[int]:
        assert self.game.hands is not None
        return [sum(t.pips for t in h) for h in self.game.hands]


@pytest.fixture
def board(tmp_path: Path) -> Iterator[BoardEmulator]:
    with BoardEmulator(link=tmp_path / "board") as emulator:
        yield emulator


@pytest.fixture
@needs("process")
def start_service(
    broker: Mosquitto, board: BoardEmulator, tmp_path: Path
) -> Iterator[Callable[[str, int], Service]]:
    """`domino-table run` on the emulated board, for the rules and seats the test says."""
    with contextlib.ExitStack() as stack:

        def start(rules: str, seats: int) -> Service:
            s = Service(broker, tmp_path / "state", "--serial", str(tmp_path / "board"),
                        "--rules", rules, "--seats", str(seats))  # fmt: skip
            return stack.enter_context(s)

        yield start


@pytest.fixture
def service(start_service: Callable[[str, int], Service]) -> Service:
    return start_service(RULES, SEATS)


@pytest.fixture
def display(start_display: Callable[..., DisplayServer]) -> Callable[[], DisplayServer]:
    """Display servers for table t1 (the service's), started when the test says so."""
    return partial(start_display, table="t1", reply_timeout_s=5.0)


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    with screen(browser, 390, 844, scale=2) as context:
        yield context


def tiles_drawn(page: Page) -> list[str]:
    tiles = page.locator("svg.layout .tile")
    return sorted(tiles.evaluate_all("ts => ts.map(t => t.dataset.tile)"))


def expect_table(page: Page, hand: Hand) -> None:
    """The page shows the game as the full-information copy has it now."""
    game = hand.game
    expect(page.locator("body")).to_have_class(f"live phase-{hand.table_phase()} ")
    layout = page.locator("svg.layout")
    expect(layout.locator(".tile")).to_have_count(len(game.layout.nodes))
    assert tiles_drawn(page) == sorted(n.tile.text for n in game.layout.nodes)
    cards = page.locator("#scores .card")
    expect(cards.locator(".score")).to_have_text([str(s) for s in hand.table_scores()])
    assert game.hands is not None
    if hand.tiles_known:
        expect(cards.locator(".tiles-left")).to_have_text([str(len(h)) for h in game.hands])
    else:
        expect(cards.locator(".tiles-left")).to_have_count(0)
    if game.phase is Phase.PLAY and game.turn is not None:
        turn = page.locator(".card.turn")
        expect(turn).to_have_count(1)
        expect(turn).to_have_attribute("data-seat", str(game.turn))
        expect(turn.locator(".turn-flag")).to_have_text("TURN")
        expect(page.locator("#phase")).to_have_text(f"Player {game.turn + 1} to play")
        expect(page.locator(".banner")).to_have_count(0)
    else:
        expect(page.locator(".card.turn")).to_have_count(0)


def toast_covers(page: Page) -> list[str]:
    """What the visible toast lies over, among the score cards, buttons and info chips."""
    covered: list[str] = page.evaluate(
        """() => {
            const t = document.getElementById("toast").getBoundingClientRect();
            const over = (r) =>
              r.left < t.right && t.left < r.right && r.top < t.bottom && t.top < r.bottom;
            const parts = "#scores .card, #actions button, #board-info .chip";
            return [...document.querySelectorAll(parts)]
              .filter((el) => over(el.getBoundingClientRect()))
              .map((el) => el.dataset.action || el.dataset.seat || el.textContent);
        }"""
    )
    return covered


def open_at_lead(page: Page, display: Callable[[], DisplayServer]) -> DisplayServer:
    """A new display server, its page open on `page`, live and waiting for the lead."""
    server = display()
    page.goto(server.url)
    expect(page.locator("body")).to_have_class("live phase-lead ", timeout=20_000)
    return server


def lead(page: Page, hand: Hand) -> None:
    """Lays the lead; the table asks who led and the page's own button answers."""
    move = hand.next_move()
    assert move is not None and hand.game.leader is not None
    leader = hand.game.leader
    hand.lay(move)
    alert = page.locator('.alert[data-code="LEAD_UNKNOWN"]')
    expect(alert).to_be_visible()
    # the controller names the lead tile: the title says which tile to check
    expect(alert.locator(".alert-title")).to_have_text(f"Check · {move.tile.text}")
    points = sum(hand.game.scores())  # what the lead scored (walnut's 5-5 makes 10)
    plus = f" +{points}" if points else ""
    expect(page.locator("#last-play")).to_have_text(f"{move.tile.text} led: who led it?{plus}")
    screenshot(page, "e2e-800x480-who-led")
    alert.locator(f'button[data-seat="{leader}"]').click()
    expect(page.locator("#toast-text")).to_have_text("Led: done")
    assert toast_covers(page) == []
    expect(page.locator("#last-play")).to_have_text(
        f"Player {leader + 1} played {move.tile.text}{plus}"
    )
    expect(alert).to_have_count(0)
    expect_table(page, hand)


def step(page: Page, hand: Hand, pass_from_page: bool = False) -> str:
    """One move of the hand on the table; returns "play", "draw" or "pass"."""
    game = hand.game
    kind, move = hand.decide()
    seat = game.turn
    assert seat is not None
    if move is not None:
        before = game.scores()
        hand.lay(move)
        if game.out_seat is not None and not hand.tiles_known:
            expect(page.locator("svg.layout .tile")).to_have_count(len(game.layout.nodes))
            send_cmd(f"out-{next(_ids)}", {"action": "out", "seat": seat})
        expect_table(page, hand)
        points = game.scores()[seat] - before[seat]
        chip = f"Player {seat + 1} played {move.tile.text}" + (f" +{points}" if points else "")
        if hand.table_phase() == "play":
            expect(page.locator("#last-play")).to_have_text(chip)
            expect(page.locator("svg.layout .tile.last-play")).to_have_attribute(
                "data-tile", move.tile.text
            )
        return kind
    if kind == "draw":
        assert game.draw().ok
        send_cmd(f"draw-{next(_ids)}", {"action": "draw", "seat": seat, "count": 1})
        expect(page.locator("#last-event")).to_have_text(f"Player {seat + 1} drew 1")
    else:
        hand.pass_turn()
        if pass_from_page:
            page.locator("#actions [data-action=pass]").click()
            expect(page.locator("#toast-text")).to_have_text("Pass: done")
            assert toast_covers(page) == []
        else:
            send_cmd(f"pass-{next(_ids)}", {"action": "pass", "seat": seat})
        expect(page.locator("#last-event")).to_have_text(f"Player {seat + 1} passed")
    expect_table(page, hand)
    return kind


_broker: list[Mosquitto] = []
_ids = itertools.count(1)


def send_cmd(cmd_id: str, body: dict[str, object]) -> None:
    send(_broker[0], {"id": cmd_id, **body})


@pytest.fixture(autouse=True)
def _remember_broker(broker: Mosquitto) -> Iterator[None]:
    _broker[:] = [broker]
    yield
    _broker.clear()


def test_a_whole_hand_on_the_board_shows_on_the_page(
    service: Service,
    board: BoardEmulator,
    display: Callable[[], DisplayServer],
    page: Page,
    phone: BrowserContext,
) -> None:
    open_at_lead(page, display)
    expect(page.locator("#scores .card .name")).to_have_text(["Player 1", "Player 2"])
    hand = Hand(board, Hand.going_out())
    lead(page, hand)
    for _ in range(4):
        step(page, hand)
    # a block game has no boneyard: nothing to draw, so no Draw button
    expect(page.locator("#actions [data-action=pass]")).to_be_visible()
    expect(page.locator("#actions [data-action=draw]")).to_have_count(0)
    screenshot(page, "e2e-800x480-play")

    # an illegal tile: told in words, with an icon, until it is taken away
    wrong = hand.wrong_tile()
    board.place(at(wrong))
    alert = page.locator('.alert[data-code="NO_MATCH"]')
    expect(alert).to_be_visible(timeout=15_000)
    tile = Tile(wrong.a, wrong.b).text
    turn = hand.game.turn
    assert turn is not None
    expect(alert.locator(".alert-title")).to_have_text(f"Illegal play · Player {turn + 1} · {tile}")
    expect(alert.locator(".alert-message")).not_to_be_empty()
    expect(alert.locator(".alert-help")).to_have_text(
        "The tile's number does not match the end it touches."
    )
    expect(alert.locator("svg.icon-illegal")).to_have_count(1)
    assert tiles_drawn(page) == sorted(n.tile.text for n in hand.game.layout.nodes)
    # ... and drawn where it lies, outlined, apart from the layout's tiles
    wrong_drawn = page.locator("svg.layout .illegal-tile")
    expect(wrong_drawn).to_have_count(1)
    expect(wrong_drawn).to_have_attribute("data-tile", tile)
    expect(wrong_drawn).to_have_attribute("data-code", "NO_MATCH")
    screenshot(page, "e2e-800x480-illegal")

    # a page opened now, on a display started now: everything from retained messages
    late_server = display()
    late = phone.new_page()
    late.goto(late_server.url)
    expect(late.locator('.alert[data-code="NO_MATCH"]')).to_be_visible()
    expect_table(late, hand)
    # state.last is the alert now: the last play is told from the layout's order
    index = len(hand.game.layout.nodes) - 1
    newest, by = hand.game.layout.nodes[index].tile.text, hand.game.seat_of_play(index)
    assert by is not None
    expect(late.locator("svg.layout .tile.last-play")).to_have_attribute("data-tile", newest)
    expect(late.locator("#last-play")).to_have_text(f"Player {by + 1} played {newest}")
    screenshot(late, "e2e-390x844-illegal")

    expect(late.locator("svg.layout .illegal-tile")).to_have_attribute("data-tile", tile)
    board.lift(Tile(wrong.a, wrong.b))
    expect(alert).to_have_count(0, timeout=15_000)
    expect(late.locator(".alert")).to_have_count(0)
    expect(page.locator("svg.layout .illegal-tile")).to_have_count(0)
    screenshot(late, "e2e-390x844-play")

    passed_from_page = False
    while hand.playing:
        what = step(page, hand, pass_from_page=not passed_from_page)
        passed_from_page = passed_from_page or what == "pass"
    assert passed_from_page, "the seed must have a pass"
    game = hand.game
    assert game.out_seat is not None
    winner = game.out_seat
    # the table saw the last tile go: counting; the other seat's pips by command
    expect(page.locator("body")).to_have_class("live phase-counting ")
    expect(page.locator(".card.turn")).to_have_count(0)
    pips = hand.pips()
    hand.counted = True
    for seat in range(SEATS):
        if seat != winner:
            send_cmd(f"count-{seat}", {"action": "count", "seat": seat, "pips": pips[seat]})
    expect(page.locator("body")).to_have_class("live phase-hand_over ")
    points = game.history[-1].points
    panel = page.locator(".hand-panel")
    expect(panel.locator(".panel-title")).to_have_text(f"Player {winner + 1} went out")
    expect(panel.locator(".panel-points")).to_have_text(f"{points} points")
    expect(panel.locator("tr[data-seat] td:nth-child(2)")).to_have_text([str(p) for p in pips])
    expect(page.locator("#scores .card .score")).to_have_text([str(s) for s in game.scores()])
    # the houses: 20 is the X and an O top-left
    # the houses tally of the winner's score, stroke by stroke
    houses = page.locator(f'.card[data-seat="{winner}"] svg.tally')
    drawn = tally(game.scores()[winner])
    expect(houses.locator(".tally-long")).to_have_count(sum(h.long_strokes for h in drawn.houses))
    expect(houses.locator(".tally-o")).to_have_count(sum(h.circles for h in drawn.houses))
    expect(houses.locator(".tally-short")).to_have_count(sum(h.short_strokes for h in drawn.houses))
    expect(houses.locator(".tally-dot")).to_have_count(drawn.dots)
    expect(page.locator("#actions [data-action=next_hand]")).to_be_visible()
    screenshot(page, "e2e-800x480-hand-over")
    expect(late.locator(".hand-panel .panel-title")).to_have_text(f"Player {winner + 1} went out")
    screenshot(late, "e2e-390x844-hand-over")

    page.locator("#actions [data-action=scores]").click()
    rows = page.locator("#sheet tr[data-hand]")
    expect(rows).to_have_count(1)
    expect(rows.nth(0).locator("td")).to_have_text(
        ["1", "domino", f"Player {winner + 1}", str(points), *map(str, game.scores())]
    )
    screenshot(page, "e2e-800x480-scoresheet")
    page.locator("#sheet button").click()

    # Next hand from the phone: the controller deals hand 2, every page follows
    late.locator("#actions [data-action=next_hand]").click()
    expect(late.locator("#toast-text")).to_have_text("Next hand: done")
    assert toast_covers(late) == []
    screenshot(late, "e2e-390x844-next-hand")
    expect(page.locator("body")).to_have_class("live phase-lead ")
    expect(page.locator(".hand-panel")).to_have_count(0)
    expect(page.locator("#scores .card .score")).to_have_text([str(s) for s in game.scores()])


def test_broker_restart_and_controller_stop_are_shown_and_recovered(
    broker: Mosquitto,
    service: Service,
    board: BoardEmulator,
    display: Callable[[], DisplayServer],
    page: Page,
    phone: BrowserContext,
) -> None:
    server = open_at_lead(page, display)
    small = phone.new_page()
    small.goto(server.url)
    hand = Hand(board, Hand.going_out())
    move = hand.next_move()
    assert move is not None and hand.game.leader is not None
    hand.lay(move)
    expect(page.locator('.alert[data-code="LEAD_UNKNOWN"]')).to_be_visible()
    send_cmd("lead", {"action": "lead", "seat": hand.game.leader})
    expect_table(page, hand)
    step(page, hand)
    step(page, hand)

    # the broker goes away: the scores shown are the last known, not the table's now
    broker.stop()
    expect(page.locator(".banner-broker_lost")).to_contain_text("lost the table's broker")
    expect(page.locator("#link")).to_have_text("Offline")
    expect(page.locator(".card .last-known")).to_have_count(SEATS)
    screenshot(page, "e2e-800x480-broker-lost")
    broker.start()
    expect(page.locator(".banner")).to_have_count(0, timeout=15_000)
    expect(page.locator(".card .last-known")).to_have_count(0)
    expect_table(page, hand)
    step(page, hand)

    # the controller stops cleanly (SIGTERM): it says offline on its way out
    assert service.stop() == 0
    expect(page.locator(".banner-controller_offline")).to_contain_text("Table controller offline")
    expect(page.locator("#link")).to_have_text("Offline")
    expect(page.locator(".card .last-known")).to_have_count(SEATS)
    expect(page.locator("body")).to_have_class(f"stale phase-{hand.table_phase()} ")
    screenshot(page, "e2e-800x480-controller-offline")
    expect(small.locator(".card .last-known")).to_have_count(SEATS)
    screenshot(small, "e2e-390x844-controller-offline")
    service.start()
    expect(page.locator(".banner")).to_have_count(0, timeout=20_000)
    expect_table(page, hand)
    expect_table(small, hand)

    # a wrong knock from the page, taken back with Undo's two taps
    turn = hand.game.turn
    assert turn is not None
    page.locator("#actions [data-action=pass]").click()
    expect(page.locator("#toast-text")).to_have_text("Pass: done")
    expect(page.locator(".card.turn")).to_have_attribute("data-seat", str((turn + 1) % SEATS))
    undo = page.locator("#actions [data-action=undo]")
    undo.click()
    expect(undo).to_have_text("Tap again to undo")
    undo.click()
    expect(page.locator("#toast-text")).to_have_text("Undo: done")
    told = page.locator("#last-event")
    expect(told).to_have_text("Last move taken back")
    expect_table(page, hand)
    # an illegal tile meanwhile does not hide what was last told
    wrong = hand.wrong_tile()
    board.place(at(wrong))
    expect(page.locator('.alert[data-code="NO_MATCH"]')).to_be_visible(timeout=15_000)
    expect(told).to_have_text("Last move taken back")
    board.lift(Tile(wrong.a, wrong.b))
    expect(page.locator(".alert")).to_have_count(0, timeout=15_000)
    expect(told).to_have_text("Last move taken back")
    # the restarted controller still follows the board
    step(page, hand)
    step(page, hand)


def count_hand(page: Page, hand: Hand) -> None:
    """The hand is over on the table: each seat that may hold tiles is counted by command."""
    expect(page.locator("body")).to_have_class("live phase-counting ")
    expect(page.locator(".card.turn")).to_have_count(0)
    pips = hand.pips()
    hand.counted = True
    for seat in range(hand.seats):
        if seat != hand.game.out_seat:
            send_cmd(f"count-{next(_ids)}", {"action": "count", "seat": seat, "pips": pips[seat]})
    expect(page.locator("body")).to_have_class(f"live phase-{hand.table_phase()} ")
    if hand.table_phase() == "hand_over":
        expect(page.locator(".hand-panel tr[data-seat] td:nth-child(2)")).to_have_text(
            [str(p) for p in pips]
        )
    expect_scores(page, hand)


def expect_scores(page: Page, hand: Hand) -> None:
    """Every card's score and its houses tally, stroke by stroke."""
    scores = hand.table_scores()
    expect(page.locator("#scores .card .score")).to_have_text([str(x) for x in scores])
    for seat, score in enumerate(scores):
        houses = page.locator(f'.card[data-seat="{seat}"] svg.tally')
        drawn = tally(score)
        expect(houses.locator(".tally-long")).to_have_count(
            sum(h.long_strokes for h in drawn.houses)
        )
        expect(houses.locator(".tally-o")).to_have_count(sum(h.circles for h in drawn.houses))
        expect(houses.locator(".tally-short")).to_have_count(
            sum(h.short_strokes for h in drawn.houses)
        )
        expect(houses.locator(".tally-dot")).to_have_count(drawn.dots)


def test_a_walnut_hand_for_four_scores_play_by_play(
    start_service: Callable[[str, int], Service],
    board: BoardEmulator,
    display: Callable[[], DisplayServer],
    page: Page,
) -> None:
    seed = Hand.find(
        "draws and goes out",
        lambda hand, kinds: hand.game.out_seat is not None and kinds["draw"] == 1,
        rules="walnut",
        seats=4,
    )
    start_service("walnut", 4)
    open_at_lead(page, display)
    expect(page.locator("#scores .card .name")).to_have_text([f"Player {n}" for n in range(1, 5)])
    hand = Hand(board, seed, rules="walnut", seats=4, tiles_known=False)
    lead(page, hand)
    kinds: Counter[str] = Counter()
    while hand.playing:
        kinds[step(page, hand)] += 1
        if kinds["play"] == 6:
            expect_scores(page, hand)
            screenshot(page, "e2e-800x480-walnut-play")
    assert kinds["draw"] == 1
    count_hand(page, hand)
    game = hand.game
    assert game.out_seat is not None
    panel = page.locator(".hand-panel")
    expect(panel.locator(".panel-title")).to_have_text(f"Player {game.out_seat + 1} went out")
    expect(panel.locator(".panel-points")).to_have_text(f"{game.history[-1].points} points")
    screenshot(page, "e2e-800x480-walnut-hand-over")


def test_a_blocked_hand_is_counted_and_scored(
    service: Service,
    board: BoardEmulator,
    display: Callable[[], DisplayServer],
    page: Page,
) -> None:
    seed = Hand.find(
        "is blocked with a winner in ten moves or fewer",
        lambda hand, kinds: (
            hand.game.result is not None
            and hand.game.result.value == "blocked"
            and hand.game.history[-1].winner is not None
            and sum(kinds.values()) <= 10
        ),
    )
    open_at_lead(page, display)
    hand = Hand(board, seed)
    lead(page, hand)
    while hand.playing:
        step(page, hand)
    count_hand(page, hand)
    winner = hand.game.history[-1].winner
    assert winner is not None
    panel = page.locator(".hand-panel")
    expect(panel.locator(".panel-title")).to_have_text(
        f"Blocked: Player {winner + 1} wins the hand"
    )
    expect(panel.locator("tr.winner td:first-child")).to_contain_text(f"Player {winner + 1}")
    screenshot(page, "e2e-800x480-blocked")


def test_a_new_game_from_the_page_in_spanish(
    service: Service,
    board: BoardEmulator,
    display: Callable[[], DisplayServer],
    page: Page,
) -> None:
    open_at_lead(page, display)
    page.locator("#actions [data-action=more]").click()
    form = page.locator('form[data-form="new-game"]')
    expect(form.locator("datalist option[value=straight-block]")).to_have_count(1)
    form.locator("input[name=rules]").fill(RULES)
    form.locator("textarea[name=names]").fill("Ana\nBen\n")
    form.locator("input[name=target]").fill("50")
    form.locator("select[name=language]").select_option("es")
    form.locator("button[type=submit]").click()
    # told in the new game's language, not half in each
    expect(page.locator("#toast-text")).to_have_text("Partida nueva: hecho")
    # the controller started it: the names, the target and the table's language
    expect(page.locator("#scores .card .name")).to_have_text(["Ana", "Ben"])
    expect(page.locator("#bar")).to_contain_text("a 50")
    expect(page.locator("#phase")).to_have_text("Esperando la salida")
    hand = Hand(board, Hand.going_out())
    move = hand.next_move()
    assert move is not None and hand.game.leader is not None
    leader = hand.game.leader
    hand.lay(move)
    alert = page.locator('.alert[data-code="LEAD_UNKNOWN"]')
    expect(alert.locator(".alert-title")).to_have_text(f"Atención · {move.tile.text}")
    expect(alert.locator(".alert-message")).to_contain_text("¿Quién")  # the controller's words
    alert.locator(f'button[data-seat="{leader}"]').click()
    expect(page.locator("#toast-text")).to_have_text("Salió: hecho")
    # the lead, named after the fact, is told as that seat's
    name = ["Ana", "Ben"][leader]
    expect(page.locator("#last-play")).to_have_text(f"{name} jugó {move.tile.text}")
    turn = hand.game.turn
    assert turn is not None
    expect(page.locator(".card.turn .turn-flag")).to_have_text("TURNO")
    expect(page.locator("#phase")).to_have_text(f"Juega {['Ana', 'Ben'][turn]}")
    wrong = hand.wrong_tile()
    board.place(at(wrong))
    alert = page.locator('.alert[data-code="NO_MATCH"]')
    expect(alert.locator(".alert-title")).to_have_text(
        f"Jugada ilegal · {['Ana', 'Ben'][turn]} · {Tile(wrong.a, wrong.b).text}", timeout=15_000
    )
    expect(alert.locator(".alert-help")).to_have_text(
        "El número de la ficha no coincide con la punta que toca."
    )
    screenshot(page, "e2e-800x480-es-illegal")
    board.lift(Tile(wrong.a, wrong.b))
    expect(alert).to_have_count(0, timeout=15_000)


def test_the_game_won_is_shown_and_kept_for_a_late_page(
    service: Service,
    board: BoardEmulator,
    display: Callable[[], DisplayServer],
    page: Page,
    phone: BrowserContext,
) -> None:
    target = 5
    seed = Hand.find(
        "is won in twelve moves or fewer",
        lambda hand, kinds: hand.game.phase is Phase.OVER and sum(kinds.values()) <= 12,
        target=target,
    )
    open_at_lead(page, display)
    send_cmd("new-short", {"action": "new_game", "rules": RULES, "seats": 2, "target": target})
    expect(page.locator("#bar")).to_contain_text(f"to {target}")
    hand = Hand(board, seed, target=target)
    lead(page, hand)
    while hand.playing:
        step(page, hand)
    count_hand(page, hand)
    winner = hand.game.winner
    assert winner is not None
    expect(page.locator("#game-over-title")).to_have_text(f"Player {winner + 1} wins the game!")
    expect(page.locator(".over-panel table.final td")).to_have_text(
        [
            x
            for seat, score in enumerate(hand.game.scores())
            for x in (f"Player {seat + 1}", str(score))
        ]
    )
    expect(page.locator(".over-panel tr.winner td:first-child")).to_have_text(
        f"Player {winner + 1}"
    )
    expect(page.locator("#actions [data-action=new_game]")).to_be_visible()
    expect(page.locator(".card.turn")).to_have_count(0)
    screenshot(page, "e2e-800x480-game-over")
    # a display and a phone opened afterwards: the game's end from retained messages
    late = phone.new_page()
    late.goto(display().url)
    title = late.locator("#game-over-title")
    expect(title).to_have_text(f"Player {winner + 1} wins the game!")
    # however the title wraps, it keeps beside the trophy
    trophy = late.locator(".over-panel .trophy").bounding_box()
    box = title.bounding_box()
    assert trophy is not None and box is not None
    assert box["x"] >= trophy["x"] + trophy["width"], (box, trophy)
    screenshot(late, "e2e-390x844-game-over")
