"""What the voice referee marks on a stroke's strike (Q13, Q14), as stored and as shown.

The notes live here, below both the stored match (match/) and the voice referee (referee/),
so that neither has to import the other for them.
"""

from __future__ import annotations

from ..catalog import N_, trl

NOT_HEARD_NOTE = N_("strike not heard — call taken when the outcome was entered")  # Q13
TAKEN_BACK_NOTE = N_("taken back by the marker")  # Q14


def strike_marks(note: dict | None, lang: str = "ru") -> list[str]:
    """The record's marks of a stroke's strike, for a person: «удар не услышан — заказ взят по
    вводу исхода» (Q13), «удар 1.50 с снят маркёром» for each strike taken back (Q14)."""
    if not note:
        return []
    out = [
        trl(lang, "strike {t} s {note}").format(t=f"{t:.2f}", note=trl(lang, TAKEN_BACK_NOTE))
        for t in note.get("taken_back") or ()
    ]
    if note.get("heard") is False:
        out.append(trl(lang, NOT_HEARD_NOTE))
    return out
