"""The alert codes and their hints, for the page: the module `GET /alerts.js` serves.

The page learns every code from here, made from `engine.alerts.AlertCode` and
`engine.messages` when the server starts: `CODE.LEAD_UNKNOWN` is
`AlertCode.LEAD_UNKNOWN.value`, and `HINTS[lang][code]` the display's words for a code
(shown beside the alert's own message), so the page knows every code the engine does.
"""

from __future__ import annotations

import json

from engine.alerts import AlertCode
from engine.messages import LANGUAGES, hint


def alerts_module() -> str:
    """The JavaScript module `/alerts.js`: `CODE` (name -> code) and `HINTS`."""
    codes = {code.name: code.value for code in AlertCode}
    hints = {lang: {code.value: hint(code, lang) for code in AlertCode} for lang in LANGUAGES}
    return (
        "// Made by the display server from engine/alerts.py and engine/messages.py.\n"
        f"export const CODE = Object.freeze({json.dumps(codes)});\n"
        f"export const HINTS = {json.dumps(hints, ensure_ascii=False)};\n"
    )
