"""Spoken scores through espeak-ng, in the table's language (`[outputs.voice]`).

The voice says each play that scores ("Ximena, 15"), the hand's result, game over and
each illegal alert (its own sentence). What one change of the table says is one phrase;
phrases are spoken one at a time on the voice's own thread, never the table's worker,
and a phrase still waiting when a newer one comes is dropped, so the voice never falls
behind the game. espeak-ng plays on the default audio output (ALSA or PulseAudio), or
writes WAV files (`Espeak(wav_dir=...)`, for the tests and for trying a voice).
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from config.outputs import VoiceSettings
from service.outputs.base import Output
from service.outputs.scoreboard import Scoreboard
from service.outputs.words import joined, points, say

log = logging.getLogger(__name__)

ESPEAK = "espeak-ng"
VOICES = {"en": "en", "es": "es"}  # the table's language -> espeak-ng's voice
SPEAK_TIMEOUT_S = 30.0


@dataclass(frozen=True, slots=True)
class Phrase:
    text: str
    language: str


# --- what is said -----------------------------------------------------------------------


def sentence(kind: str, event: Mapping[str, Any], board: Scoreboard | None) -> str | None:
    """What the voice says of one event, or None."""
    language = board.language if board is not None else "en"
    if kind == "play" and event["points"] > 0:
        name = board.name(event.get("seat")) if board is not None else ""
        # a lead the table cannot attribute yet: its points alone
        return (
            say(language, "scored", name=name, points=event["points"])
            if name
            else f"{event['points']}."
        )
    if kind == "hand":
        return _hand(event, board, language)
    if kind == "game" and event["event"] == "over":
        return _game_over(event, board, language)
    if kind == "alert" and event["severity"] == "illegal" and not event["resolved"]:
        return str(event["message"])
    return None


def _winners(event: Mapping[str, Any], board: Scoreboard | None) -> tuple[str, bool] | None:
    """Who won a hand or a game, and whether it is a team; None: nobody."""
    if board is None:
        return None
    if event.get("team") is not None:
        team = next((t for t in board.teams if t.team == event["team"]), None)
        if team is not None:
            return joined(board.language, [board.name(s) for s in team.seats]), True
    if event.get("winner") is not None:
        return board.name(event["winner"]), False
    return None


def _hand(event: Mapping[str, Any], board: Scoreboard | None, language: str) -> str:
    if event["result"] == "redealt":  # abandoned by `redeal`: no winner, its points back
        return say(language, "hand_redealt")
    who = _winners(event, board)
    if who is None:
        return say(language, "hand_blocked_nobody")
    name, team = who
    key = f"hand_{event['result']}" + ("_team" if team else "")
    return say(language, key, name=name, points=points(language, event["points"]))


def _game_over(event: Mapping[str, Any], board: Scoreboard | None, language: str) -> str:
    who = _winners(event, board)
    if who is None:
        return say(language, "game_over")
    name, team = who
    scores = event["team_scores"] if team else event["scores"]
    index = event["team"] if team else event["winner"]
    score = scores[index] if 0 <= index < len(scores) else 0
    key = "game_won_team" if team else "game_won"
    return say(language, key, name=name, score=points(language, score))


# --- speaking, off the table's thread -----------------------------------------------------


class Speaker:
    """Speaks phrases one at a time on its own thread; a phrase still waiting when a
    newer one comes is dropped (`dropped` counts them). `close()` stops it."""

    def __init__(self, speak: Callable[[Phrase], None]) -> None:
        self._speak = speak
        self._wake = threading.Condition()
        self._waiting: Phrase | None = None
        self._closed = False
        self._busy = False
        self.dropped = 0  # phrases dropped for a newer one
        self.spoken = 0  # phrases handed to the voice
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()

    def say(self, phrase: Phrase) -> None:
        """Queue `phrase` (never waits); one already waiting is dropped for it."""
        with self._wake:
            if self._waiting is not None:
                self.dropped += 1
                log.debug("voice: dropped %r for a newer phrase", self._waiting.text)
            self._waiting = phrase
            self._wake.notify()

    def idle(self, timeout: float) -> bool:
        """Wait until nothing is waiting or being spoken; False on timeout."""
        with self._wake:
            return self._wake.wait_for(lambda: self._waiting is None and not self._busy, timeout)

    def close(self, timeout: float = 5.0) -> None:
        """Stop after the phrase being spoken (what waits is dropped). Idempotent."""
        with self._wake:
            self._closed = True
            self._waiting = None
            self._wake.notify_all()
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self._waiting is not None or self._closed)
                if self._closed:
                    return
                phrase, self._waiting, self._busy = self._waiting, None, True
            try:
                assert phrase is not None
                self.spoken += 1
                self._speak(phrase)
            except Exception:
                log.exception("voice: could not speak %r", phrase)
            finally:
                with self._wake:
                    self._busy = False
                    self._wake.notify_all()


class Espeak:
    """espeak-ng as a process per phrase, at the settings' volume and rate: to the
    default audio output, or to numbered WAV files in `wav_dir`."""

    def __init__(self, settings: VoiceSettings, wav_dir: Path | None = None) -> None:
        self.settings = settings
        self.wav_dir = wav_dir
        self.spoken: list[Path] = []  # the WAV files written, in order
        self._warned = False

    def command(self, phrase: Phrase, wav: Path | None = None) -> list[str]:
        voice = VOICES.get(phrase.language, "en")
        out = ["-w", str(wav)] if wav is not None else []
        s = self.settings
        return [ESPEAK, "-v", voice, "-a", str(s.volume), "-s", str(s.rate), *out, "--stdin"]

    def __call__(self, phrase: Phrase) -> None:
        wav = None
        if self.wav_dir is not None:
            self.wav_dir.mkdir(parents=True, exist_ok=True)
            wav = self.wav_dir / f"{len(self.spoken) + 1:04d}-{phrase.language}.wav"
        try:
            done = subprocess.run(
                self.command(phrase, wav),
                input=phrase.text.encode(),
                capture_output=True,
                timeout=SPEAK_TIMEOUT_S,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            self._warn(f"espeak-ng did not run ({exc}): sudo apt install espeak-ng")
            return
        problem = audio_problem(done.returncode, done.stderr)
        if problem is not None:
            self._warn(problem)
        elif wav is not None:
            self.spoken.append(wav)

    def _warn(self, problem: str) -> None:
        """Said once (every phrase would say it again); `domino-table doctor` explains."""
        if not self._warned:
            log.warning("voice: %s; the game goes on without it (domino-table doctor)", problem)
        self._warned = True


def audio_problem(returncode: int, stderr: bytes) -> str | None:
    """What went wrong, from espeak-ng's exit and its error output, or None. It exits 0
    even when it found no audio device or could not write its file: it only says so."""
    lines = [ln.strip() for ln in stderr.decode(errors="replace").splitlines() if ln.strip()]
    if returncode != 0 or lines:
        return f"espeak-ng could not speak: {(lines or [f'exit {returncode}'])[-1]}"
    return None


def espeak_found() -> str | None:
    """The path of espeak-ng, or None."""
    return shutil.which(ESPEAK)


class Says(Protocol):
    """Where phrases go: a `Speaker`."""

    def say(self, phrase: Phrase) -> None: ...
    def close(self) -> None: ...


class VoiceOutput(Output):
    """Says what each change of the table brings, as one phrase, through `speaker`."""

    def __init__(self, speaker: Says) -> None:
        super().__init__()
        self.speaker = speaker
        self._said: list[str] = []  # the sentences of the change under way

    def on_event(self, kind: str, event: Mapping[str, Any]) -> None:
        text = sentence(kind, event, self.board)
        if text is not None:
            self._said.append(text)

    def on_board(self, board: Scoreboard) -> None:
        """The change is told (its state follows its events): say it as one phrase."""
        said, self._said = self._said, []
        if said:
            self.speaker.say(Phrase(" ".join(said), board.language))

    def close(self) -> None:
        self.speaker.close()
