"""axe-core (from the npm registry, installed by `./run test` into the git-ignored
`.test-tools/npm/`) run in the page: which texts fail a contrast rule, and which axe
could not decide.

axe leaves undecided ("incomplete") one- and two-character texts (an open end's number,
a "+10" badge, a count of tiles left): it cannot tell such short text from an icon.
Those are measured here instead, the same WCAG way: a text's colour over the
backgrounds it stands on, a layout label's fill over its ring, badge or tile; so is a
text scrolled out of its list's view (axe calls it obscured). Any other text axe cannot
decide (one covered by another element) fails the check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[2] / ".test-tools/npm/node_modules/axe-core/axe.min.js"
AAA = "color-contrast-enhanced"  # WCAG 1.4.6: 7:1, 4.5:1 for large text (off by default)
AA = "color-contrast"  # WCAG 1.4.3: 4.5:1, 3:1 for large text
NEEDED = {AAA: 7.0, AA: 4.5}

RUN = """async (rule) => {
    const r = await axe.run(document, {
        runOnly: {type: "rule", values: [rule]},
        rules: {[rule]: {enabled: true}},
        resultTypes: ["violations", "incomplete", "passes"],
    });
    const rgba = (c) => {
        const m = c.match(/[\\d.]+/g).map(Number);
        return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
    };
    const over = (top, under) =>
        top.slice(0, 3).map((v, i) => v * top[3] + under[i] * (1 - top[3]));
    const lum = (c) => {
        const [r, g, b] = c.slice(0, 3).map((v) => {
            v /= 255;
            return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a, b) => {
        const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
        return (hi + 0.05) / (lo + 0.05);
    };
    // what an element stands on: its and its ancestors' backgrounds, laid over one another
    const ground = (el) => {
        const layers = [];
        for (let e = el; e; e = e.parentElement) {
            const bg = rgba(getComputedStyle(e).backgroundColor);
            if (bg[3] > 0) layers.push(bg);
            if (bg[3] >= 1) break;
        }
        return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255]);
    };
    // a layout label: its fill over the ring, badge or tile of its group, over the felt
    const labelRatio = (t) => {
        const felt = ground(document.getElementById("layout-wrap"));
        const g = t.closest("g");
        const shapes = ".open-end-ring, .last-points rect, .tile-body, .unread-ring";
        const back = g && g.querySelector(shapes);
        const under = back ? over(rgba(getComputedStyle(back).fill), felt) : felt;
        return ratio(over(rgba(getComputedStyle(t).fill), under), under);
    };
    const textRatio = (el) => {
        const under = ground(el);
        return ratio(over(rgba(getComputedStyle(el).color), under), under);
    };
    // a text scrolled out of its list's view (axe: "obscured"), covered by nothing else
    const scrolledAway = (el) => {
        const r = el.getBoundingClientRect();
        for (let a = el.parentElement; a; a = a.parentElement) {
            const o = getComputedStyle(a);
            const scrolls = (v) => v === "auto" || v === "scroll";
            if (!scrolls(o.overflowY) && !scrolls(o.overflowX)) continue;
            const b = a.getBoundingClientRect();
            const out = r.top < b.top || r.bottom > b.bottom;
            if (out || r.left < b.left || r.right > b.right) return true;
        }
        return false;
    };
    const lines = (found) => found.flatMap((f) => f.nodes.map((n) => {
        const el = document.querySelector(n.target[0]);
        const short = n.any.some((c) => c.data && c.data.messageKey === "shortTextContent");
        const layout = Boolean(el && el.closest("svg.layout"));
        const away = Boolean(el && !short && !layout && scrolledAway(el));
        return {
            target: n.target.join(" "),
            why: n.failureSummary || n.any.concat(n.none).map((c) => c.message).join("; "),
            measured: !el || !(short || layout || away) ? null
                : layout ? labelRatio(el) : textRatio(el),
        };
    }));
    const labels = [...document.querySelectorAll("svg.layout text")].map(
        (t) => ({text: t.textContent, ratio: labelRatio(t)}));
    return {
        violations: lines(r.violations), incomplete: lines(r.incomplete), labels,
        passes: r.passes.reduce((k, f) => k + f.nodes.length, 0),
    };
}"""


def axe_script() -> Path:
    if not AXE.is_file():
        pytest.fail(
            f"{AXE} is missing: ./run test installs axe-core there "
            "(npm install --prefix .test-tools/npm axe-core@4)"
        )
    return AXE


def contrast_failures(page: Page, rule: str) -> list[str]:
    """Every text that breaks `rule` or that axe could not judge, one line each (the
    short ones axe leaves undecided measured here instead)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(axe_script()))
    result: dict[str, Any] = page.evaluate(RUN, rule)
    assert result["passes"] >= 10, f"axe judged only {result['passes']} texts: is {rule} on?"
    lines = [f"violation: {n['target']}: {n['why']}" for n in result["violations"]]
    # the AAA rule never leaves a text undecided (it counts it as passed): AA tells which
    undecided = result if rule == AA else page.evaluate(RUN, AA)
    for node in undecided["incomplete"]:
        if node["measured"] is None:
            lines.append(f"undecided: {node['target']}: {node['why']}")
        elif node["measured"] < NEEDED[rule]:
            lines.append(f"measured: {node['target']}: {node['measured']:.2f}:1")
    for label in result["labels"]:  # every layout label, whatever axe made of it
        if label["ratio"] < NEEDED[rule]:
            lines.append(f"layout label {label['text']!r}: {label['ratio']:.2f}:1")
    return lines
