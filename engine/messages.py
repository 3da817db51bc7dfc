"""What the table says to the players, in the table's language: one table per language.

Each language's `Catalogue` gives every `AlertCode` its `Words`: the sentence an alert
with that code carries as its `message` (with blanks such as `{tile}`, `{seat}`,
`{turn}`, `{pip}` and `{detail}`) and a `hint`, the code in general (no blanks), which
the display shows beside the message. A few engine reasons and table situations share a
code but say more than its sentence (`Reason.NOTHING_TO_UNDO` is reported as
`COUNT_MISMATCH`): their sentences are the catalogue's `finer` ones. Every language
has every entry, and each entry's sentence takes the same blanks in every language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from engine.alerts import AlertCode
from engine.events import Reason

LANGUAGES = ("en", "es")


class Case(Enum):
    """A situation with its own sentence that is not an engine reason."""

    UNREAD_TILE = "unread_tile"  # a played tile not read where it lies, a tile against it
    NOT_SAVED = "not_saved"  # the table cannot write its journal (a full disk): it takes nothing
    NOT_KEPT = "not_kept"  # the table cannot write its record of games (history): play goes on
    WRONG_LEAD = "wrong_lead"  # a lead that a tile held then, seen later, proves wrong

    @property
    def alert_code(self) -> AlertCode:
        """The code alerts in this situation are reported under."""
        return _CASE_CODES[self]


_CASE_CODES = {
    Case.UNREAD_TILE: AlertCode.UNREADABLE,
    Case.NOT_SAVED: AlertCode.DISK_FULL,
    Case.NOT_KEPT: AlertCode.DISK_FULL,
    # The lead broke the lead rule, as a refused lead does in full information.
    Case.WRONG_LEAD: AlertCode.BAD_LEAD,
}

Key = AlertCode | Reason | Case


class Words(NamedTuple):
    """What an alert code says: the `message` sentence, and the display's `hint`."""

    say: str
    hint: str


@dataclass(frozen=True)
class Catalogue:
    """Everything the table says in one language."""

    codes: Mapping[AlertCode, Words]
    finer: Mapping[Reason | Case, str]
    either: str  # joins the last two of several choices in a blank: "6 or 4"

    def sentence(self, key: Key) -> str | None:
        """The sentence for `key` (a reason or case without its own: its code's), or None."""
        own = self.finer.get(key) if not isinstance(key, AlertCode) else None
        if own is not None:
            return own
        code = key if isinstance(key, AlertCode) else _code_of(key)
        words = self.codes.get(code) if code is not None else None
        return words.say if words is not None else None


_EN = Catalogue(
    codes={
        AlertCode.NO_MATCH: Words(
            "{tile} does not match: that end shows {pip}.",
            "The tile's number does not match the end it touches.",
        ),
        AlertCode.NOT_TOUCHING: Words(
            "{tile} does not join any open end.", "The tile does not join an open end."
        ),
        AlertCode.CLOSED_END: Words(
            "{tile} is on an edge that is not open yet.", "That end is not open yet."
        ),
        AlertCode.UNKNOWN_TILE: Words(
            "{tile} is not in this set.", "That tile is not in this set."
        ),
        AlertCode.DUPLICATE_TILE: Words(
            "{tile} is already on the table: a tile exists only once.",
            "That tile is already on the table.",
        ),
        AlertCode.TILE_LIFTED: Words(
            "{tile} was lifted from the layout: put it back where it was.",
            "A played tile was lifted: put it back.",
        ),
        AlertCode.BAD_LEAD: Words(
            "{tile} may not lead this hand: {detail}.", "That tile cannot lead."
        ),
        AlertCode.LEAD_UNKNOWN: Words(
            "Who led? Press your button or tap your seat.", "Who led? Tap their name."
        ),
        AlertCode.EARLY_OUT: Words(
            "{seat} cannot be out yet: fewer tiles played than dealt and drawn.",
            "Too early to be out.",
        ),
        AlertCode.FALSE_KNOCK: Words(
            "{seat} passed holding {tile}, which fitted.", "A tile fitted when its holder passed."
        ),
        AlertCode.COUNT_MISMATCH: Words(
            "The count disagrees with the game: {detail}.",
            "The counted tiles do not agree with the game.",
        ),
        AlertCode.UNREADABLE: Words(
            "The camera cannot read a tile here: move the hand or the tile away.",
            "The camera cannot read a tile: straighten it.",
        ),
        AlertCode.BOARD_OFFLINE: Words(
            "The board is offline: plays are not seen. {detail}", "The board is not answering."
        ),
        AlertCode.CAMERA_OFFLINE: Words(
            "The camera is offline: plays are not seen. {detail}", "The camera is not answering."
        ),
        AlertCode.OUT_OF_TURN: Words(
            "Not {seat}'s turn: it is {turn}'s turn.",
            "Not that seat's turn, or not the time for it.",
        ),
        AlertCode.BAD_DRAW: Words("No drawing now: {detail}.", "The rules do not allow that draw."),
        AlertCode.DISK_FULL: Words(
            "The table cannot save the game: it takes nothing until it can. {detail}",
            "The table's disk is full or failing.",
        ),
    },
    finer={
        Reason.AMBIGUOUS_END: "{tile} fits two ends: say which one.",
        Reason.COUNTED_TWICE: "{tile} is counted twice ({detail}): a tile exists only once.",
        Reason.NOT_IN_HAND: "{seat} does not hold {tile}.",
        Reason.OUT_OF_TURN: "Not {seat}'s turn: it is {turn}'s turn.",
        Reason.WRONG_PHASE: "Not now: {detail}.",
        Reason.NO_DRAWING: "No drawing now: {detail}.",
        Reason.MUST_DRAW: "{seat} cannot pass yet: draw a tile from the boneyard first.",
        Reason.BONEYARD_EMPTY: "The boneyard is empty.",
        Reason.NOTHING_TO_UNDO: "Nothing to take back.",
        Case.UNREAD_TILE: (
            "{tile} is not read where it lies, with a tile against it: straighten it."
        ),
        Case.WRONG_LEAD: "{tile} should not have led: {seat} held {detail}, which leads first.",
        Case.NOT_SAVED: (
            "The table cannot save the game (its disk is full or failing): it takes no "
            "plays or commands until it can. Free some space; it goes on by itself."
        ),
        Case.NOT_KEPT: (
            "The table cannot keep the game's record (its disk is full or failing): the "
            "game goes on, but frames of plays are not kept until there is space. {detail}"
        ),
    },
    either="or",
)

_ES = Catalogue(
    codes={
        AlertCode.NO_MATCH: Words(
            "{tile} no casa: ese extremo muestra {pip}.",
            "El número de la ficha no coincide con la punta que toca.",
        ),
        AlertCode.NOT_TOUCHING: Words(
            "{tile} no toca ningún extremo abierto.", "La ficha no toca ninguna punta abierta."
        ),
        AlertCode.CLOSED_END: Words(
            "{tile} está en un lado que aún no está abierto.", "Esa punta todavía no está abierta."
        ),
        AlertCode.UNKNOWN_TILE: Words(
            "{tile} no es de este juego.", "Esa ficha no es de este juego."
        ),
        AlertCode.DUPLICATE_TILE: Words(
            "{tile} ya está en la mesa: cada ficha existe una vez.", "Esa ficha ya está en la mesa."
        ),
        AlertCode.TILE_LIFTED: Words(
            "Se levantó {tile} de la mesa: vuelva a ponerla donde estaba.",
            "Se levantó una ficha jugada: devuélvala a su sitio.",
        ),
        AlertCode.BAD_LEAD: Words(
            "{tile} no puede salir en esta mano: {detail}.", "Esa ficha no puede salir."
        ),
        AlertCode.LEAD_UNKNOWN: Words(
            "¿Quién salió? Pulse su botón o toque su asiento.", "¿Quién salió? Toque su nombre."
        ),
        AlertCode.EARLY_OUT: Words(
            "{seat} no puede haber dominado: jugó menos fichas de las repartidas y robadas.",
            "Todavía no puede haber dominó.",
        ),
        AlertCode.FALSE_KNOCK: Words(
            "{seat} pasó con {tile}, que cabía.", "Pasó teniendo una ficha que servía."
        ),
        AlertCode.COUNT_MISMATCH: Words(
            "La cuenta no cuadra con el juego: {detail}.",
            "Las fichas contadas no cuadran con la partida.",
        ),
        AlertCode.UNREADABLE: Words(
            "La cámara no puede leer una ficha aquí: aparte la mano o la ficha.",
            "La cámara no lee una ficha: enderécela.",
        ),
        AlertCode.BOARD_OFFLINE: Words(
            "El tablero no responde. {detail}", "El tablero no responde."
        ),
        AlertCode.CAMERA_OFFLINE: Words(
            "La cámara no responde. {detail}", "La cámara no responde."
        ),
        AlertCode.OUT_OF_TURN: Words(
            "No es el turno de {seat}: le toca a {turn}.",
            "No es el turno de ese asiento, o no es el momento.",
        ),
        AlertCode.BAD_DRAW: Words(
            "No se roba ahora: {detail}.", "Las reglas no permiten robar así."
        ),
        AlertCode.DISK_FULL: Words(
            "La mesa no puede guardar la partida: no acepta nada hasta que pueda. {detail}",
            "El disco de la mesa está lleno o falla.",
        ),
    },
    finer={
        Reason.AMBIGUOUS_END: "{tile} cabe en dos extremos: diga cuál.",
        Reason.COUNTED_TWICE: (
            "{tile} está contada dos veces ({detail}): cada ficha existe una sola vez."
        ),
        Reason.NOT_IN_HAND: "{seat} no tiene {tile}.",
        Reason.OUT_OF_TURN: "No es el turno de {seat}: le toca a {turn}.",
        Reason.WRONG_PHASE: "Ahora no: {detail}.",
        Reason.NO_DRAWING: "No se roba ahora: {detail}.",
        Reason.MUST_DRAW: "{seat} no puede pasar todavía: primero robe una ficha.",
        Reason.BONEYARD_EMPTY: "No quedan fichas para robar.",
        Reason.NOTHING_TO_UNDO: "No hay nada que deshacer.",
        Case.UNREAD_TILE: "No se lee {tile} donde está, con otra ficha junto a ella: enderécela.",
        Case.WRONG_LEAD: "{tile} no debía salir: {seat} tenía {detail}, que sale antes.",
        Case.NOT_SAVED: (
            "La mesa no puede guardar la partida (su disco está lleno o falla): no acepta "
            "jugadas ni órdenes hasta que pueda. Libere espacio; seguirá sola."
        ),
        Case.NOT_KEPT: (
            "La mesa no puede guardar el historial de la partida (su disco está lleno o "
            "falla): la partida sigue, pero no se guardan imágenes de las jugadas hasta que "
            "haya espacio. {detail}"
        ),
    },
    either="o",
)

CATALOGUES: Mapping[str, Catalogue] = {"en": _EN, "es": _ES}


def message(key: Key, language: str = "en", **context: object) -> str:
    """One sentence for `key`; missing context words read as blanks, never fail.

    A reason or case without a sentence of its own says its code's sentence. A blank
    given a tuple or list of several choices says them all: `pip=(6, 4)` reads "6 or 4".
    """
    catalogue = CATALOGUES.get(language, _EN)
    template = catalogue.sentence(key) or _EN.sentence(key) or str(key.value)
    words = {k: _choices(v, catalogue.either) for k, v in context.items() if v not in _NONE}
    return template.format_map(_Blank(words)).strip()


_NONE: tuple[object, ...] = (None, (), [])  # context words not given: their blanks read as missing


def _choices(value: object, either: str) -> object:
    """A tuple or list of choices as words ("5, 3 or 6"); any other value as it is."""
    if not isinstance(value, tuple | list):
        return value
    said = [str(v) for v in value]
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} {either} {said[-1]}"


def hint(code: AlertCode, language: str = "en") -> str:
    """What `code` means in general, in `language` (the display's words beside a message)."""
    return CATALOGUES.get(language, _EN).codes[code].hint


def _code_of(key: Reason | Case) -> AlertCode | None:
    return None if key is Reason.OK else key.alert_code


class _Blank(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "?" if key != "detail" else "see the display"
