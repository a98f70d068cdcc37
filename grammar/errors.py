"""The call language's error base: misuse of the API (not a refused call)."""

from __future__ import annotations


class GrammarError(ValueError):
    """Misuse of the grammar API: a bad mode, a bad ``balls_left``, a call render cannot say.

    A call that cannot be accepted is not an error: ``parse`` returns a
    ``Refusal`` for it.
    """
