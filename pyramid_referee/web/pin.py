"""The pad's PIN and the guard against guessing it.

A 6-digit PIN falls in half an hour to a script that may try it as fast as the loopback answers.
So each client (its network address) has ``FREE_TRIES`` wrong PINs; from then on every wrong PIN
holds that client back before its next try is even looked at, for a delay that doubles from
``FIRST_DELAY`` up to ``MAX_DELAY`` (1 s, 2 s, 4 s … 60 s). While held, a request with any PIN —
the right one too — is refused with 429 and ``Retry-After``: a guess is never checked early. A
right PIN clears the client's count; a client quiet for ``FORGET_AFTER`` starts afresh.

At 60 s a try, the million PINs of six digits take about two years from one address. Someone
guessing is said where the marker looks: in ``serve``'s log and on the pad (``alert``), and the
marker can change the PIN from the pad without restarting the server (``change``).
"""

from __future__ import annotations

import hmac
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..catalog import trl, trn

PIN_RE = re.compile(r"^[0-9A-Za-z_-]{4,64}$")

FREE_TRIES = 5  # wrong PINs a client may give before it is held back
FIRST_DELAY = 1.0  # seconds, after the FREE_TRIES-th wrong PIN; doubled after each further one
MAX_DELAY = 60.0
FORGET_AFTER = 15 * 60.0  # a client with no wrong PIN for this long starts afresh
MAX_CLIENTS = 1024  # past this many clients with wrong PINs, the quiet ones are dropped


@dataclass
class _Client:
    failures: int = 0
    last: float = 0.0
    held_until: float = 0.0


@dataclass(frozen=True)
class Verdict:
    """What a request's PIN came to: ``ok``, ``wrong`` (and the hold it started,
    if any) or ``held``."""

    kind: str
    retry_after: int = 0  # whole seconds, for the Retry-After header


def delay_after(failures: int) -> float:
    """The hold after a client's ``failures``-th wrong PIN (0 before ``FREE_TRIES``)."""
    if failures < FREE_TRIES:
        return 0.0
    return min(FIRST_DELAY * 2 ** (failures - FREE_TRIES), MAX_DELAY)


class PinGuard:
    """The PIN of one server and every client's wrong tries. ``clock``: seconds, monotonic (a test
    gives its own); ``log``: where a line for the server's operator goes (someone is guessing);
    ``lang``: what those lines, the pad's alert and a refused new PIN are said in."""

    def __init__(
        self,
        pin: str,
        *,
        clock: Callable[[], float] = time.monotonic,
        log: Callable[[str], None] | None = None,
        lang: str = "ru",
    ) -> None:
        self._pin = pin
        self.lang = lang
        self.clock = clock
        self.log = log or (lambda line: None)
        self.clients: dict[str, _Client] = {}
        self.wrong_total = 0  # since the start or the last change of the PIN: for the pad's alert
        self.guessers: set[str] = set()  # clients held back since then
        self.changed = False  # the PIN is not the one printed at start

    def check(self, client: str, given: str) -> Verdict:
        now = self.clock()
        rec = self.clients.get(client)
        if rec is not None and now - rec.last > FORGET_AFTER and now >= rec.held_until:
            del self.clients[client]
            rec = None
        if rec is not None and now < rec.held_until:
            return Verdict("held", math.ceil(rec.held_until - now))
        if hmac.compare_digest(given.encode(), self._pin.encode()):
            self.clients.pop(client, None)
            return Verdict("ok")
        if len(self.clients) >= MAX_CLIENTS:
            self._forget_quiet(now)
        rec = self.clients.setdefault(client, _Client())
        rec.failures += 1
        rec.last = now
        self.wrong_total += 1
        delay = delay_after(rec.failures)
        if not delay:
            return Verdict("wrong")
        rec.held_until = now + delay
        self.guessers.add(client)
        self.log(
            trn(
                "someone at {client} is guessing the PIN: {n} wrong PIN; their next try waits {s} "
                "s",
                "someone at {client} is guessing the PIN: {n} wrong PINs; their next try waits "
                "{s} s",
                rec.failures,
                self.lang,
            ).format(client=client, n=rec.failures, s=math.ceil(delay))
        )
        return Verdict("wrong", math.ceil(delay))

    def _forget_quiet(self, now: float) -> None:
        """Keep the table of clients small: drop the ones quiet for FORGET_AFTER and not held."""
        for key in [
            k
            for k, r in self.clients.items()
            if now - r.last > FORGET_AFTER and now >= r.held_until
        ]:
            del self.clients[key]

    def change(self, new: str, client: str) -> None:
        """A new PIN from the marker (who gave the current one). Raises
        ValueError with the reason."""
        if not PIN_RE.match(new):
            raise ValueError(trl(self.lang, "a PIN is 4 to 64 letters, digits, '-' or '_'"))
        if hmac.compare_digest(new.encode(), self._pin.encode()):
            raise ValueError(trl(self.lang, "the new PIN is the same as the current one"))
        self._pin = new
        self.changed = True
        self.wrong_total = 0
        self.guessers.clear()  # the alert is answered; the holds of the clients stay
        self.log(
            trl(
                self.lang,
                "the PIN was changed from the pad at {client}; pads with the old PIN ask for the "
                "new one",
            ).format(client=client)
        )

    def alert(self) -> dict | None:
        """For the pad: someone was held back for guessing since the start or the last change."""
        if not self.guessers:
            return None
        return {
            "wrong": self.wrong_total,
            "clients": sorted(self.guessers),
            "line": trn(
                "someone is guessing the PIN: {n} wrong PIN from {clients}; their tries are "
                "slowed down. Change the PIN if it may have been seen",
                "someone is guessing the PIN: {n} wrong PINs from {clients}; their tries are "
                "slowed down. Change the PIN if it may have been seen",
                self.wrong_total,
                self.lang,
            ).format(n=self.wrong_total, clients=", ".join(sorted(self.guessers))),
        }
