"""The Camera page in a real Chromium, fed through a real Mosquitto with what a camera
publishes for real (rendered frames read by the camera path and its view): the picture
and the status, every warning shown in words with what to do (and gone on a table drawn
well), Calibrate, a new picture, enrolling the set against replies on the broker, the
link from the table's page, and a phone."""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import cv2
import numpy as np
import pytest
from playwright.sync_api import Browser, Page, Route, expect

from tests.display import samples
from tests.display.camera_samples import FAULTS, WELL, camera
from tests.display.conftest import PREFIX, Controller, DisplayServer, screenshot
from tests.fixtures.browser import screen

# On one xdist worker with test_camera_feed.py: the frames `camera()` renders and reads
# for each look (~0.7 s of CPU each) are made once per process.
pytestmark = pytest.mark.xdist_group("camera-samples")

Json = dict[str, Any]
TITLES = {
    "MARKERS_MISSING": "Corner marker missing",
    "GLARE": "Glare on the table",
    "BLUR": "Blurred picture",
    "DARK": "Too dark",
    "TILE_SCALE": "Tiles of another size",
    "SLOW": "Too slow",
}


def show(controller: Controller, look: Any) -> Json:
    """Publish what the camera publishes when the table looks so (retained)."""
    status, jpeg = camera(look)
    controller.publish("camera/status", status, retain=True)
    controller.client.publish(
        f"{PREFIX}/camera/snapshot", jpeg, qos=0, retain=True
    ).wait_for_publish(5)
    return status


def open_camera(page: Page, controller: Controller, server: DisplayServer, query: str = "") -> None:
    controller.state(samples.state())
    controller.status("online")
    page.goto(f"{server.url}/camera{query}")
    expect(page.locator("body")).to_have_class("camera-page live")


def answering(controller: Controller, replies: dict[str, Callable[[Json], Json]]) -> None:
    """The controller answers each action with the reply made from the command."""

    def answer(command: Json) -> Json | None:
        made = replies.get(command["action"])
        return None if made is None else made(command)

    controller.answer = answer


def reply(command: Json, ok: bool, error: str | None = None, detail: Json | None = None) -> Json:
    payload = samples.reply(command["id"], ok, error)
    if detail is not None:
        payload["detail"] = detail
    return payload


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    with screen(browser, 390, 844, scale=2) as context:
        yield context.new_page()


def test_the_picture_and_the_status_of_a_camera_that_sees_well(
    controller: Controller, display_server: DisplayServer, page: Page, phone: Page
) -> None:
    show(controller, WELL)
    open_camera(page, controller, display_server)
    picture = page.locator("#picture")
    expect(picture).to_be_visible()
    page.wait_for_function("document.getElementById('picture').naturalWidth === 1280")
    expect(page.locator("#picture-caption")).to_contain_text("Picture of ")
    state = page.locator(".cam-state")
    expect(state).to_have_attribute("data-state", "ok")
    expect(state.locator(".state-title")).to_have_text("The camera sees the table")
    expect(page.locator(".marker-chip.seen")).to_have_count(4)
    expect(page.locator("#cam-numbers")).to_contain_text("1280 x 960 px")
    expect(page.locator("#cam-calibration")).to_contain_text("Calibrated by the markers (error ")
    expect(page.locator("#cam-reading")).to_contain_text(": 4 tiles, 0 unsure")
    expect(page.locator(".all-good")).to_have_text("No warnings")
    screenshot(page, "camera-800x480-ok")
    open_camera(phone, controller, display_server)
    phone.wait_for_function("document.getElementById('picture').naturalWidth === 1280")
    expect(phone.locator(".cam-state")).to_be_visible()
    screenshot(phone, "camera-390x844-ok")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_every_warning_in_words_with_what_to_do_and_none_when_the_table_looks_right(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    show(controller, WELL)
    open_camera(page, controller, display_server)
    for code, look in FAULTS.items():
        status = show(controller, look)
        said = next(w for w in status["warnings"] if w["code"] == code)
        shown = page.locator(f'.cam-warning[data-code="{code}"]')
        expect(shown).to_be_visible()
        expect(shown.locator(".warning-title")).to_have_text(TITLES[code])
        expect(shown.locator(".warning-message")).to_have_text(said["message"])
        expect(shown.locator(".warning-fix")).to_have_count(0)  # the sentence says what to do
        expect(page.locator(".cam-warning")).to_have_count(len(status["warnings"]))
        expect(page.locator(".cam-state")).not_to_have_class("cam-state state-ok fine")
        screenshot(page, f"camera-800x480-{code.lower()}")
    show(controller, WELL)
    expect(page.locator(".cam-warning")).to_have_count(0)
    expect(page.locator(".all-good")).to_be_visible()


def test_warnings_in_spanish(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    show(controller, FAULTS["GLARE"])
    open_camera(page, controller, display_server, "?lang=es")
    expect(page.locator(".cam-warning .warning-title")).to_have_text("Reflejo en la mesa")
    # the table speaks English: the page says what to do in its own language too
    expect(page.locator(".cam-warning .warning-fix")).to_have_text(
        "Mueva o atenúe la lámpara, o incline la cámara, hasta que no haya reflejo sobre la mesa."
    )
    screenshot(page, "camera-800x480-es-glare")
    expect(page.locator(".cam-state .state-title")).to_have_text("La cámara ve la mesa")
    expect(page.locator('[data-action="calibrate"]')).to_have_text("Calibrar")


def test_the_fix_in_the_pages_language_comes_when_the_tables_view_comes_after_the_camera(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    # Whether the page adds what to do in its own language depends on the table's
    # language, which the table's view tells on /events; the camera's status comes on
    # /camera/events and can reach the page first (test_warnings_in_spanish failed so
    # once in ten runs). Here the view is held back until the warning is on the page.
    show(controller, FAULTS["GLARE"])
    controller.state(samples.state())
    controller.status("online")
    held = {"/events"}

    def hold(route: Route) -> None:
        if urlsplit(route.request.url).path in held:
            route.fulfill(status=503, body="held back by the test")
        else:
            route.continue_()

    page.route("**/*", hold)
    page.goto(f"{display_server.url}/camera?lang=es")
    expect(page.locator(".cam-warning .warning-title")).to_have_text("Reflejo en la mesa")
    expect(page.locator(".cam-warning .warning-fix")).to_have_count(0)  # no view yet
    held.clear()  # the page asks for /events again 2 s after it was refused
    expect(page.locator(".cam-warning .warning-fix")).to_have_text(
        "Mueva o atenúe la lámpara, o incline la cámara, hasta que no haya reflejo sobre la mesa."
    )


def test_calibrate_found_and_not_found(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    show(controller, FAULTS["MARKERS_MISSING"])
    open_camera(page, controller, display_server)
    expect(page.locator('.marker-chip.missing[data-marker="1"]')).to_be_visible()
    missing = "ArUco marker(s) 1 not found (seen: 0, 2, 3): check that all four are in view"
    answering(
        controller, {"calibrate": lambda c: reply(c, False, missing, {"markers_seen": [0, 2, 3]})}
    )
    page.locator('[data-action="calibrate"]').click()
    result = page.locator("#calibrate-result")
    expect(result).to_contain_text(f"Not calibrated: {missing}")
    expect(result).to_contain_text("Seen: 0, 2, 3")
    screenshot(page, "camera-800x480-calibrate-failed")
    found = {"method": "markers", "markers_seen": [0, 1, 2, 3], "error_px": 0.21}
    answering(controller, {"calibrate": lambda c: reply(c, True, None, found)})
    page.locator('[data-action="calibrate"]').click()
    expect(result).to_have_text("Markers 0, 1, 2, 3 found: calibrated (error 0.21 px).")
    assert [c["action"] for c in controller.commands] == ["calibrate", "calibrate"]


def test_a_new_picture_on_request(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    show(controller, WELL)
    open_camera(page, controller, display_server)
    page.wait_for_function("document.getElementById('picture').src.endsWith('n=1')")

    _, jpeg = camera(FAULTS["GLARE"])

    def snapshot(command: Json) -> Json:  # on paho's thread: publish, do not wait
        controller.client.publish(f"{PREFIX}/camera/snapshot", jpeg, qos=0, retain=True)
        return reply(command, True)  # the table publishes the picture before it replies

    answering(controller, {"snapshot": snapshot})
    page.locator('[data-action="snapshot"]').click()
    page.wait_for_function("document.getElementById('picture').src.endsWith('n=2')")
    expect(page.locator("#toast")).to_contain_text("New picture: done")


def test_enrolling_the_set_says_what_was_missed_or_misread(
    controller: Controller, display_server: DisplayServer, page: Page, phone: Page
) -> None:
    show(controller, WELL)
    open_camera(phone, controller, display_server)
    enrol = phone.locator("#enrol")
    expect(enrol.locator(".enrol-steps").last).to_contain_text(
        "Lay the whole set face up on the table"
    )
    expect(enrol.locator("#enrol-set")).to_have_value("double-six")  # walnut for four
    missed = {"expected": 28, "read": 26, "missing": ["0-0", "5-0"],
              "misread": [{"tile": "6-4", "as": "6-1"}], "extra": ["9-9"]}  # fmt: skip
    error = "2 tiles were not found and 1 was misread."
    answering(controller, {"enrol": lambda c: reply(c, False, error, missed)})
    enrol.locator('[data-action="enrol"]').click()
    result = phone.locator("#enrol-result")
    expect(result.locator(".enrol-error")).to_have_text(f"The set is not enrolled: {error}")
    expect(result.locator(".enrol-count")).to_have_text("Read 26 of 28 tiles.")
    expect(result.locator(".enrol-missing .domino-chip")).to_have_text(["0-0", "5-0"])
    expect(result.locator(".enrol-misread .domino-chip")).to_have_text(["6-4 read as 6-1"])
    expect(result.locator(".enrol-extra .domino-chip")).to_have_text(["9-9"])
    expect(result.locator(".enrol-again")).to_be_visible()
    result.scroll_into_view_if_needed()
    screenshot(phone, "camera-390x844-enrol-missed")
    assert controller.commands[-1]["set"] == "double-six"
    right = {"expected": 55, "read": 55, "missing": [], "misread": [], "extra": []}
    answering(controller, {"enrol": lambda c: reply(c, True, None, right)})
    enrol.locator("#enrol-set").select_option("double-nine")
    enrol.locator('[data-action="enrol"]').click()
    expect(result).to_have_text("All 55 tiles read right: the set is enrolled.")
    assert controller.commands[-1]["set"] == "double-nine"


def test_the_mat_is_offered_read_and_the_set_model_shown(
    controller: Controller, display_server: DisplayServer, phone: Page
) -> None:
    """The mat's PDF for the chosen set and paper; Read the mat sends `enrol` with `mat`;
    each slot that is not right is said; the model the table keeps is shown: colours,
    sizes, and its halves from the reply that enrolled the set."""
    show(controller, WELL)
    open_camera(phone, controller, display_server)
    enrol = phone.locator("#enrol")
    enrol.locator("#enrol-set").select_option("double-nine")
    enrol.locator("#mat-paper").select_option("a3")
    link = enrol.locator("#mat-pdf")
    expect(link).to_have_attribute("href", "/camera/mat.pdf?set=double-nine&paper=a3")
    pdf = phone.request.get(f"{display_server.url}/camera/mat.pdf?set=double-nine&paper=a3")
    assert pdf.ok and pdf.headers["content-type"] == "application/pdf"
    assert (
        pdf.body().startswith(b"%PDF")
        and b"double-nine" in pdf.headers.get("content-disposition", "").encode()
    )
    bad = phone.request.get(f"{display_server.url}/camera/mat.pdf?set=double-six&paper=b5")
    assert bad.status == 400 and "'b5' is no paper the mat is made for" in bad.text()

    slots = [
        {"tile": "3-2", "page": 1, "state": "empty", "message": "3-2 (page 1): the slot is empty"}
    ]
    missed = {"expected": 55, "read": 54, "missing": ["3-2"], "misread": [], "extra": [],
              "mat": {"paper": "a3", "pages": 2, "pages_seen": [1, 2], "slots": slots}}  # fmt: skip
    answering(controller, {"enrol": lambda c: reply(c, False, "Not enrolled: 54 of 55.", missed)})
    enrol.locator('[data-action="enrol-mat"]').click()
    result = phone.locator("#enrol-result")
    expect(result.locator(".enrol-slots li")).to_have_text(["3-2 (page 1): the slot is empty"])
    assert (
        controller.commands[-1]["mat"] is True and controller.commands[-1]["set"] == "double-nine"
    )

    model = {"version": 2, "source": "mat", "tone": "light", "face": "#f0e4c8",
             "pips": {"1": "#181818", "2": "#181818"}, "divider": "#282828",
             "tile_mm": [48.2, 24.1], "pip_mm": 4.1, "pip_share": 0.17, "pip_round": 0.91,
             "halves": 110, "corrected": 0}  # fmt: skip
    png = base64.b64encode(
        cv2.imencode(".png", np.full((32, 32, 3), 200, np.uint8))[1].tobytes()
    ).decode()
    right = {"expected": 55, "read": 55, "missing": [], "misread": [], "extra": [],
             "model": model, "halves": {"png": png, "values": [0], "corrected": [False],
                                        "columns": 16}}  # fmt: skip
    answering(controller, {"enrol": lambda c: reply(c, True, None, right)})
    enrol.locator('[data-action="enrol-mat"]').click()
    expect(result).to_have_text("All 55 tiles read right: the set is enrolled.")
    status, _ = camera(WELL)
    status["profile"] = {"set": "double-nine", "at": status["ts"], "model": model}
    controller.publish("camera/status", status, retain=True)
    facts = enrol.locator(".model-facts")
    expect(facts).to_contain_text("48.2 \u00d7 24.1 mm")
    expect(facts).to_contain_text("4.1 mm across, 91 % round")
    expect(facts).to_contain_text("110 (0 from corrections)")
    expect(enrol.locator("#model-halves")).to_have_attribute("src", f"data:image/png;base64,{png}")
    enrol.scroll_into_view_if_needed()
    screenshot(phone, "camera-390x844-enrol-model")


def test_the_table_page_links_to_the_camera_and_marks_its_warnings(
    controller: Controller, display_server: DisplayServer, page: Page
) -> None:
    controller.state(samples.state())
    controller.status("online")
    page.goto(display_server.url)
    expect(page.locator("#scores .card")).to_have_count(4)
    expect(page.locator("#camera-link")).to_have_count(0)  # no camera heard of yet
    show(controller, FAULTS["GLARE"])
    link = page.locator("#camera-link")
    expect(link).to_have_class("cam-warn")
    expect(link).to_have_text("Camera")
    screenshot(page, "800x480-camera-link")
    show(controller, WELL)
    expect(link).to_have_class("cam-fine")
    link.click()
    expect(page).to_have_url(f"{display_server.url}/camera")
    expect(page.locator(".cam-state")).to_have_attribute("data-state", "ok")
    page.locator("#back").click()
    expect(page.locator("#scores .card")).to_have_count(4)
