"""Spanish for the engine's and the services' English (see :mod:`bot.i18n.text`).

Keys are the English templates exactly as written in the code and in ``rules/*.yaml``; values keep
the same ``{placeholders}``. Rule names and IDs (MC-4, CC-3...) stay as they are.
``python -m bot.i18n.sources es`` lists the English still missing here.
"""

from __future__ import annotations

TEXT: dict[str, str] = {
}
