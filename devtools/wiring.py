"""The panel's wiring drawn from the project's own pin table: docs/figures/panel-wiring.svg.

    python -m devtools.wiring          write the drawing
    python -m devtools.wiring --check  exit 1 when the committed drawing is not current

The wiring drawn is the `[panel]` example of docs/guide/display-and-panel.md, read from
that page and checked by the settings' own model (`config.panel.PanelSettings`); each pin
is placed on the 40-pin header by `config.pins.HEADER_GPIO`. A change to either, or to
this drawing, without writing it again fails `tests/docs/test_figures.py`.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from html import escape
from pathlib import Path

from config.panel import PanelSettings
from config.pins import HEADER_GPIO, gpio_number

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "guide" / "display-and-panel.md"
OUT = ROOT / "docs" / "figures" / "panel-wiring.svg"

POWER = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V"}
GROUND = frozenset({6, 9, 14, 20, 25, 30, 34, 39})
BUTTON, LED, BUZZER = "#1f6feb", "#d29922", "#8250df"
ROW, TOP, PIN_R = 22, 70, 7


def example() -> PanelSettings:
    """The `[panel]` block of the display-and-panel guide, as the settings read it."""
    text = GUIDE.read_text()
    blocks = re.findall(r"```toml\n(\[panel\]\n.*?)```", text, re.S)
    if len(blocks) != 1:
        raise SystemExit(f"{GUIDE}: expected one ```toml block starting with [panel]")
    return PanelSettings.model_validate(tomllib.loads(blocks[0])["panel"])


def label(use: str) -> tuple[str, str]:
    """What a pin does, in words, and its colour."""
    key, _, seat = use.partition("[")
    seat_text = f" seat {seat.rstrip(']')}" if seat else ""
    words = {
        "pass": ("PASS", BUTTON), "draw": ("DRAW", BUTTON), "shared_pass": ("PASS", BUTTON),
        "shared_draw": ("DRAW", BUTTON), "undo": ("UNDO (hold)", BUTTON),
        "next_hand": ("NEXT HAND", BUTTON), "turn_leds": ("turn LED", LED),
        "alert_led": ("alert LED", LED), "buzzer": ("buzzer", BUZZER),
    }  # fmt: skip
    word, colour = words[key]
    return word + seat_text, colour


def render(settings: PanelSettings | None = None) -> str:
    """The drawing, as SVG text (the same text for the same wiring)."""
    panel = example() if settings is None else settings
    by_gpio = {gpio_number(pin): use for use, pin in panel.pin_uses()}
    width, height = 760, TOP + 20 * ROW + 90
    left_x, right_x = width // 2 - 14, width // 2 + 14
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        '<text x="20" y="28" font-size="16" font-weight="bold">The players\' panel on the '
        "Raspberry Pi's 40-pin header</text>",
        '<text x="20" y="48" fill="#555">Buttons to GND (internal pull-up); LEDs through '
        "330 Ohm-1 kOhm to GND; an active buzzer. Pin 1 has the square pad.</text>",
        f'<rect x="{left_x - 16}" y="{TOP - 16}" width="{right_x - left_x + 32}" '
        f'height="{20 * ROW + 10}" rx="6" fill="#222"/>',
    ]
    gpio_of = HEADER_GPIO
    for physical in range(1, 41):
        row = (physical - 1) // 2
        odd = physical % 2 == 1
        x = left_x if odd else right_x
        y = TOP + row * ROW
        anchor, tx = ("end", x - 16) if odd else ("start", x + 16)
        if physical in POWER:
            fill, text = "#e5534b", POWER[physical]
        elif physical in GROUND:
            fill, text = "#000", "GND"
        else:
            gpio = gpio_of[physical]
            use = by_gpio.get(gpio)
            if use is None:
                fill, text = "#888", f"GPIO{gpio}"
            else:
                words, fill = label(use)
                text = f"GPIO{gpio}: {words}"
        weight = ' font-weight="bold"' if fill not in ("#888", "#000", "#e5534b") else ""
        out.append(f'<circle cx="{x}" cy="{y}" r="{PIN_R}" fill="{fill}" stroke="#ddd"/>')
        out.append(
            f'<text x="{tx}" y="{y + 4}" text-anchor="{anchor}"{weight}>'
            f"{escape(text)} ({physical})</text>"
        )
    legend_y = TOP + 20 * ROW + 30
    for i, (name, colour) in enumerate(
        (("button", BUTTON), ("LED", LED), ("buzzer", BUZZER), ("power", "#e5534b"),
         ("ground", "#000"), ("free", "#888"))
    ):  # fmt: skip
        x = 20 + i * 120
        out.append(f'<circle cx="{x}" cy="{legend_y}" r="{PIN_R}" fill="{colour}"/>')
        out.append(f'<text x="{x + 14}" y="{legend_y + 4}">{name}</text>')
    out.append(
        f'<text x="20" y="{legend_y + 32}" fill="#555">(n): the pin on the header. Drawn '
        "from config/pins.py and the guide's [panel] example (python -m devtools.wiring)."
        "</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m devtools.wiring")
    parser.add_argument("--check", action="store_true", help="fail when the drawing is stale")
    args = parser.parse_args(argv)
    drawn = render()
    if args.check:
        current = OUT.exists() and OUT.read_text() == drawn
        if not current:
            print(f"{OUT.relative_to(ROOT)} is not current: python -m devtools.wiring")
        return 0 if current else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(drawn)
    print(OUT.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
