"""The voice for real: espeak-ng writes each phrase to a WAV file, sox measures it (its
length, and that it is not silent); the speaking thread drops a phrase that waited
while a newer one came."""

from __future__ import annotations

import re
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest

from config.outputs import VoiceSettings
from service.outputs.voice import Espeak, Phrase, Speaker, audio_problem, espeak_found

# What espeak-ng 1.51 printed on a machine with no sound card (it still exits 0).
NO_CARD_STDERR = b"""ALSA lib confmisc.c:855:(parse_card) cannot find card '0'
ALSA lib conf.c:5180:(_snd_config_evaluate) function snd_func_card_inum returned error: No such file or directory
ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default
error: No such file or directory
"""  # noqa: E501


@dataclass(frozen=True)
class Sound:
    seconds: float
    rms: float
    peak: float


def measure(wav: Path) -> Sound:
    """sox's `stat` of a WAV file: its length, RMS and peak amplitude (0-1)."""
    done = subprocess.run(["sox", str(wav), "-n", "stat"], capture_output=True, check=True)
    text = done.stderr.decode()

    def field(name: str) -> float:
        found = re.search(rf"^{name}:\s+(-?[\d.]+)", text, re.MULTILINE)
        assert found is not None, f"sox said no {name}: {text}"
        return float(found.group(1))

    return Sound(
        field(r"Length \(seconds\)"), field(r"RMS\s+amplitude"), field(r"Maximum amplitude")
    )


def speak(settings: VoiceSettings, tmp_path: Path, *phrases: Phrase) -> list[Sound]:
    """Each phrase through the speaking thread into a WAV file, one after the other."""
    espeak = Espeak(settings, wav_dir=tmp_path)
    speaker = Speaker(espeak)
    try:
        for phrase in phrases:
            speaker.say(phrase)
            assert speaker.idle(30), "espeak-ng did not finish in 30 s"
    finally:
        speaker.close()
    assert len(espeak.spoken) == len(phrases) and speaker.dropped == 0
    return [measure(wav) for wav in espeak.spoken]


@pytest.mark.process
def test_espeak_ng_and_sox_are_installed() -> None:
    assert espeak_found() is not None, "install espeak-ng (./run test does)"
    assert subprocess.run(["sox", "--version"], capture_output=True, check=False).returncode == 0


@pytest.mark.process
def test_each_phrase_is_spoken_in_the_tables_language_and_is_not_silent(tmp_path: Path) -> None:
    sounds = speak(
        VoiceSettings(),
        tmp_path,
        Phrase("Ximena, 15", "en"),
        Phrase("Blocked. Ximena wins the hand, 5 points.", "en"),
        Phrase("Tranque. Ximena gana la mano, 5 puntos.", "es"),
        Phrase("Fin de la partida. Gana Bo con 152 puntos.", "es"),
    )
    for sound in sounds:
        assert 0.5 < sound.seconds < 8.0
        assert sound.rms > 0.02 and sound.peak > 0.2  # speech, not silence
    # a longer phrase takes longer to say: the words themselves were spoken
    assert sounds[1].seconds > sounds[0].seconds * 1.5
    assert sorted(p.name for p in tmp_path.glob("*.wav")) == [
        "0001-en.wav", "0002-en.wav", "0003-es.wav", "0004-es.wav",
    ]  # fmt: skip


@pytest.mark.process
def test_the_spanish_voice_says_the_number_in_spanish(tmp_path: Path) -> None:
    espeak = Espeak(VoiceSettings())
    assert espeak.command(Phrase("15", "es"))[:3] == ["espeak-ng", "-v", "es"]
    english, spanish = speak(VoiceSettings(), tmp_path, Phrase("15", "en"), Phrase("15", "es"))
    # "fifteen" and "quince" are not the same sound
    assert (tmp_path / "0001-en.wav").read_bytes() != (tmp_path / "0002-es.wav").read_bytes()
    assert english.rms > 0.02 and spanish.rms > 0.02


@pytest.mark.process
def test_volume_and_rate_are_heard(tmp_path: Path) -> None:
    text = Phrase("Ximena, 15", "en")
    (quiet,) = speak(VoiceSettings(volume=40), tmp_path / "quiet", text)
    (loud,) = speak(VoiceSettings(volume=180), tmp_path / "loud", text)
    (slow,) = speak(VoiceSettings(rate=100), tmp_path / "slow", text)
    (fast,) = speak(VoiceSettings(rate=300), tmp_path / "fast", text)
    (mute,) = speak(VoiceSettings(volume=0), tmp_path / "mute", text)
    assert loud.rms > quiet.rms * 2
    assert slow.seconds > fast.seconds * 1.8
    assert mute.rms == 0.0  # what silence measures: the checks above would catch it


def test_a_phrase_still_waiting_when_a_newer_one_comes_is_dropped() -> None:
    started, release = threading.Event(), threading.Event()
    spoken: list[str] = []

    def slow_voice(phrase: Phrase) -> None:  # a long phrase being spoken
        spoken.append(phrase.text)
        started.set()
        assert release.wait(10)

    speaker = Speaker(slow_voice)
    try:
        speaker.say(Phrase("Ximena, 15", "en"))
        assert started.wait(10)
        speaker.say(Phrase("Bo, 10", "en"))  # waits...
        speaker.say(Phrase("Dev, 5", "en"))  # ...and is dropped for this one
        assert spoken == ["Ximena, 15"]  # `say` never waited for the voice
        release.set()
        assert speaker.idle(10)
        assert spoken == ["Ximena, 15", "Dev, 5"] and speaker.dropped == 1
    finally:
        release.set()
        speaker.close()


@pytest.mark.process
def test_no_espeak_ng_is_said_once_and_the_rest_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng on it
    espeak = Espeak(VoiceSettings(), wav_dir=tmp_path)
    espeak(Phrase("Ximena, 15", "en"))
    espeak(Phrase("Bo, 10", "en"))
    warned = [r.getMessage() for r in caplog.records if r.name == "service.outputs.voice"]
    assert len(warned) == 1 and "sudo apt install espeak-ng" in warned[0]
    assert espeak.spoken == []


def test_an_audio_output_that_is_not_there_is_told_though_espeak_ng_exits_0() -> None:
    problem = audio_problem(0, NO_CARD_STDERR)
    assert problem == "espeak-ng could not speak: error: No such file or directory"
    assert audio_problem(0, b"") is None
    assert audio_problem(1, b"") == "espeak-ng could not speak: exit 1"
