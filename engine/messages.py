"""Alert sentences a player understands, in the table's language (English, Spanish)."""

from __future__ import annotations

from engine.events import Reason

LANGUAGES = ("en", "es")

_TEXT: dict[str, dict[Reason, str]] = {
    "en": {
        Reason.NO_MATCH: "{tile} does not match: that end shows {pip}.",
        Reason.NOT_TOUCHING: "{tile} does not join any open end.",
        Reason.CLOSED_END: "{tile} is on an edge that is not open yet.",
        Reason.AMBIGUOUS_END: "{tile} fits two ends: say which one.",
        Reason.UNKNOWN_TILE: "{tile} is not in this set.",
        Reason.DUPLICATE_TILE: "{tile} is already on the table: a tile exists only once.",
        Reason.BAD_LEAD: "{tile} may not lead this hand: {detail}.",
        Reason.LEAD_UNKNOWN: "Who led? Press your button or tap your seat.",
        Reason.EARLY_OUT: "{seat} cannot be out yet: fewer tiles played than dealt.",
        Reason.FALSE_KNOCK: "{seat} passed holding {tile}, which fitted.",
        Reason.COUNT_MISMATCH: "The count disagrees with the game: {detail}.",
        Reason.NOT_IN_HAND: "{seat} does not hold {tile}.",
        Reason.OUT_OF_TURN: "Not {seat}'s turn: it is {turn}'s turn.",
        Reason.WRONG_PHASE: "Not now: {detail}.",
        Reason.NO_DRAWING: "No drawing now: {detail}.",
        Reason.BONEYARD_EMPTY: "The boneyard is empty.",
        Reason.NOTHING_TO_UNDO: "Nothing to take back.",
    },
    "es": {
        Reason.NO_MATCH: "{tile} no casa: ese extremo muestra {pip}.",
        Reason.NOT_TOUCHING: "{tile} no toca ningún extremo abierto.",
        Reason.CLOSED_END: "{tile} está en un lado que aún no está abierto.",
        Reason.AMBIGUOUS_END: "{tile} cabe en dos extremos: diga cuál.",
        Reason.UNKNOWN_TILE: "{tile} no es de este juego.",
        Reason.DUPLICATE_TILE: "{tile} ya está en la mesa: cada ficha existe una vez.",
        Reason.BAD_LEAD: "{tile} no puede salir en esta mano: {detail}.",
        Reason.LEAD_UNKNOWN: "¿Quién salió? Pulse su botón o toque su asiento.",
        Reason.EARLY_OUT: "{seat} no puede haber dominado: jugó menos fichas de las repartidas.",
        Reason.FALSE_KNOCK: "{seat} pasó con {tile}, que cabía.",
        Reason.COUNT_MISMATCH: "La cuenta no cuadra con el juego: {detail}.",
        Reason.NOT_IN_HAND: "{seat} no tiene {tile}.",
        Reason.OUT_OF_TURN: "No es el turno de {seat}: le toca a {turn}.",
        Reason.WRONG_PHASE: "Ahora no: {detail}.",
        Reason.NO_DRAWING: "No se roba ahora: {detail}.",
        Reason.BONEYARD_EMPTY: "No quedan fichas para robar.",
        Reason.NOTHING_TO_UNDO: "No hay nada que deshacer.",
    },
}


def message(reason: Reason, language: str = "en", **context: object) -> str:
    """One sentence for `reason`; missing context words read as blanks, never fail."""
    table = _TEXT.get(language, _TEXT["en"])
    template = table.get(reason) or _TEXT["en"].get(reason, reason.value)
    return template.format_map(_Blank({k: v for k, v in context.items() if v is not None}))


class _Blank(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "?" if key != "detail" else "see the display"
