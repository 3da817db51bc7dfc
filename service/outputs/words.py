"""The outputs' words in the table's languages: what the voice says and the matrix writes.

Alert sentences are the table's own (`engine.messages`, in the alert's `message`); these
are the few the outputs make themselves. Numbers stay digits: espeak-ng reads "15" as
"fifteen" in English and "quince" in Spanish.
"""

from __future__ import annotations

from collections.abc import Sequence

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "scored": "{name}, {points}",
        "hand_domino": "{name} wins the hand, {points}.",
        "hand_domino_team": "{name} win the hand, {points}.",
        "hand_blocked": "Blocked. {name} wins the hand, {points}.",
        "hand_blocked_team": "Blocked. {name} win the hand, {points}.",
        "hand_blocked_nobody": "Blocked. Nobody scores.",
        "hand_redealt": "The hand is dealt again. Nobody scores.",
        "game_won": "Game over. {name} wins with {score}.",
        "game_won_team": "Game over. {name} win with {score}.",
        "game_over": "Game over.",
        "points_1": "1 point",
        "points_n": "{n} points",
        "and": " and ",
        "wins": "{name} wins",
        "wins_team": "{name} win",
    },
    "es": {
        "scored": "{name}, {points}",
        "hand_domino": "{name} gana la mano, {points}.",
        "hand_domino_team": "{name} ganan la mano, {points}.",
        "hand_blocked": "Tranque. {name} gana la mano, {points}.",
        "hand_blocked_team": "Tranque. {name} ganan la mano, {points}.",
        "hand_blocked_nobody": "Tranque. Nadie anota.",
        "hand_redealt": "Se reparte otra vez. Nadie anota.",
        "game_won": "Fin de la partida. Gana {name} con {score}.",
        "game_won_team": "Fin de la partida. Ganan {name} con {score}.",
        "game_over": "Fin de la partida.",
        "points_1": "1 punto",
        "points_n": "{n} puntos",
        "and": " y ",
        "wins": "Gana {name}",
        "wins_team": "Ganan {name}",
    },
}
LANGUAGES = tuple(WORDS)


def say(language: str, key: str, **fields: object) -> str:
    """The sentence `key` in `language` (English when the table's is not known here)."""
    words = WORDS.get(language, WORDS["en"])
    return words[key].format(**fields)


def points(language: str, n: int) -> str:
    return say(language, "points_1" if n == 1 else "points_n", n=n)


def joined(language: str, names: Sequence[str]) -> str:
    """ "Ana and Carla", "Ana, Bo and Carla" ("y" in Spanish)."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + say(language, "and") + names[-1]
