"""`domino-table doctor` says whether the voice can be heard: espeak-ng there, an audio
output found, and a silent phrase played through it."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli.doctor.findings import Status
from cli.doctor.voice import check_voice
from config import load_settings
from service.outputs.hearing import audio_outputs, hearing
from tests.service.outputs.sound import null_sound_home

PI_CARDS = """\
 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones
                      bcm2835 Headphones
 1 [Device         ]: USB-Audio - USB PnP Sound Device
                      C-Media Electronics Inc. USB PnP Sound Device at usb-xhci-hcd.0-1.2, full speed
"""  # noqa: E501 - /proc/asound/cards on a Raspberry Pi 4 with a USB speaker


@pytest.fixture
def null_sound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """ALSA's default output is a null device (as a card no one hears): espeak-ng plays."""
    monkeypatch.setenv("HOME", str(null_sound_home(tmp_path)))
    cards = tmp_path / "cards"
    cards.write_text(PI_CARDS)
    return cards


def voice_on(tmp_path: Path) -> object:
    path = tmp_path / "settings.toml"
    path.write_text("[outputs.voice]\n")
    return load_settings(path)


def test_the_sound_cards_of_a_pi_and_a_sound_server_are_found(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    cards.write_text(PI_CARDS)
    run = tmp_path / "run"
    (run / "pulse").mkdir(parents=True)
    (run / "pulse" / "native").touch()
    assert audio_outputs(cards, {"XDG_RUNTIME_DIR": str(run)}) == [
        "sound card 0: bcm2835_headpho - bcm2835 Headphones",
        "sound card 1: USB-Audio - USB PnP Sound Device",
        "a PulseAudio or PipeWire server",
    ]
    cards.write_text("--- no soundcards ---\n")
    assert audio_outputs(cards, {}) == []
    assert audio_outputs(tmp_path / "missing", {}) == []


@pytest.mark.process
def test_the_voice_can_be_heard_with_espeak_ng_and_a_card(tmp_path: Path, null_sound: Path) -> None:
    found = hearing(5, null_sound, {})
    assert found.heard and found.problem is None
    (finding,) = check_voice(voice_on(tmp_path), 5, cards=null_sound, environ={})  # type: ignore[arg-type]
    assert finding.status is Status.OK
    assert finding.detail.startswith("can be heard: espeak-ng at ")
    assert "sound card 1: USB-Audio - USB PnP Sound Device" in finding.detail


@pytest.mark.process
def test_no_audio_output_is_a_problem_with_what_to_do(tmp_path: Path, null_sound: Path) -> None:
    (finding,) = check_voice(voice_on(tmp_path), 5, cards=tmp_path / "none", environ={})  # type: ignore[arg-type]
    assert finding.status is Status.PROBLEM
    assert "cannot be heard" in finding.detail and "no audio output found" in finding.detail
    assert finding.fix is not None and "aplay -l" in finding.fix


@pytest.mark.process
def test_a_card_espeak_ng_cannot_open_is_a_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()  # ALSA's default: a card 7 that is not there
    (home / ".asoundrc").write_text("pcm.!default { type hw card 7 }\n")
    monkeypatch.setenv("HOME", str(home))
    cards = tmp_path / "cards"
    cards.write_text(PI_CARDS)
    (finding,) = check_voice(voice_on(tmp_path), 5, cards=cards, environ={})  # type: ignore[arg-type]
    assert finding.status is Status.PROBLEM
    assert "espeak-ng could not speak" in finding.detail


def test_no_espeak_ng_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    (finding,) = check_voice(voice_on(tmp_path), 5)  # type: ignore[arg-type]
    assert (finding.status, finding.detail, finding.fix) == (
        Status.PROBLEM, "espeak-ng is not installed", "sudo apt install espeak-ng",
    )  # fmt: skip


@pytest.mark.process
def test_with_the_voice_off_the_doctor_still_says_whether_it_could_be_heard(
    tmp_path: Path, null_sound: Path
) -> None:
    (finding,) = check_voice(load_settings(None), 5, cards=null_sound, environ={})
    assert finding.status is Status.SKIPPED
    assert finding.detail.startswith("off ([outputs.voice] is not set): espeak-ng at ")
