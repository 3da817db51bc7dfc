"""The display's side of the camera: the hub keeps its status and snapshot apart from the
table's view (a snapshot a second pushes no table view), the view carries a summary and
the game's set, and the server serves the snapshot and the Camera page's stream."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from display.hub import Hub
from display.settings import DisplayServerSettings
from tests.display import samples
from tests.display.camera_samples import FAULTS, camera
from tests.display.conftest import PREFIX, Controller, DisplayServer, wait_for

pytestmark = pytest.mark.xdist_group("camera-samples")  # camera()'s frames: see test_camera_page


def took(queue: asyncio.Queue[str | None]) -> Any:
    """What a page's queue holds now, as JSON."""
    text = queue.get_nowait()
    assert text is not None
    return json.loads(text)


def hub() -> Hub:
    return Hub(DisplayServerSettings(table=samples.TABLE), clock=lambda: 1_700_000_000.0)


@pytest.mark.slow
def test_the_camera_is_kept_apart_from_the_table_view() -> None:
    h = hub()
    table_pages = h.pages.add()
    camera_pages = h.camera.pages.add()
    table_pages.get_nowait(), camera_pages.get_nowait()  # what a page gets on opening
    status, jpeg = camera(FAULTS["GLARE"])
    h.on_message(f"{PREFIX}/camera/snapshot", jpeg)
    assert table_pages.empty()  # the table's pages are not sent their view again
    sent = took(camera_pages)
    assert sent["picture"]["n"] == 1 and sent["picture"]["bytes"] == len(jpeg)
    h.on_message(f"{PREFIX}/camera/status", json.dumps(status).encode())
    assert took(table_pages)["camera"] == {"state": "ok", "warnings": ["GLARE"]}
    assert took(camera_pages)["status"] == status
    h.on_message(f"{PREFIX}/camera/snapshot", b"not a picture")  # ignored
    h.on_message(f"{PREFIX}/camera/status", b"[1, 2]")
    assert h.camera.picture == 1 and h.camera.status == status
    assert camera_pages.empty()


def test_the_view_names_the_game_set() -> None:
    h = hub()
    h.on_message(f"{PREFIX}/state", json.dumps(samples.state()).encode())  # walnut for four
    assert h.view.snapshot(0)["set"] == {"name": "double-six", "max_pip": 6, "size": 28}
    seven = samples.state(rules="walnut")
    seven["seats"] = [dict(seven["seats"][0], seat=n) for n in range(7)]
    h.on_message(f"{PREFIX}/state", json.dumps(seven | {"seq": 99}).encode())
    assert h.view.snapshot(0)["set"]["name"] == "double-twelve"


def get(url: str) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read(), response.headers.get("Cache-Control", "")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), ""


def test_the_snapshot_and_the_page_are_served(
    controller: Controller, display_server: DisplayServer
) -> None:
    assert get(f"{display_server.url}/camera/snapshot.jpg")[0] == 404
    _, jpeg = camera(FAULTS["DARK"])
    controller.client.publish(
        f"{PREFIX}/camera/snapshot", jpeg, qos=0, retain=True
    ).wait_for_publish(5)
    served = wait_for(
        lambda: (g := get(f"{display_server.url}/camera/snapshot.jpg"))[0] == 200 and g
    )
    assert served[1] == jpeg and served[2] == "no-store"
    code, page, _ = get(f"{display_server.url}/camera")
    assert code == 200 and b"/static/camera.js" in page
    request = urllib.request.urlopen(f"{display_server.url}/camera/events", timeout=10)
    lines = [request.readline() for _ in range(6)]
    request.close()
    data = next(x for x in lines if x.startswith(b"data: {"))
    assert json.loads(data[6:])["picture"]["bytes"] == len(jpeg)
    assert b"event: camera\n" in lines
