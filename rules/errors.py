"""The rules engine's small error hierarchy.

``RulesError`` is the base; ``RulesInputError`` says which field of a settings,
outcome, start or call record is wrong and what was expected, in English and in
Russian (``text(lang)``); ``str()`` is the English form.
"""

from __future__ import annotations


class RulesError(Exception):
    """Base of every error the rules engine raises."""


class RulesInputError(RulesError, ValueError):
    """Malformed or impossible input; nothing was changed.

    ``field`` names the bad field the way it appears in the JSON
    (``events[2].ball``, ``settings.target``, ``start.on_table[3]``).
    """

    def __init__(self, field: str, message: str, ru: str | None = None) -> None:
        self.field = field
        self.message = message
        self.ru = ru or message
        super().__init__(f"{field}: {message}")

    def text(self, lang: str = "ru") -> str:
        """The error in the user's language: ``field: what is wrong``."""
        return f"{self.field}: {self.ru if lang == 'ru' else self.message}"
