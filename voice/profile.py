"""A table's profile: what calibration at the table found, and how it adjusts the strike detector.

``strikes calibrate`` asks the player for a few strikes (one at a time, the table quiet between
them) and a few collisions (a ball rolled into another), hears them, and fits:

- **levels**: the background (room noise, dBFS of 1 ms windows) and the strikes' loudest
  millisecond; the quietest strike the detector will take is set ``level_margin_db`` (20 dB)
  under the quietest strike heard, never under the detector's own floor (-75 dBFS): a game's
  strikes come softer than calibration's (12 dB of margin lost strikes at 5 dB of noise);
- **the tip threshold**: a bias added to the model's tip logit, chosen (see :func:`fit`) so that
  every calibration strike is taken for a strike, and sure, while no calibration collision is;
  when strikes and collisions cannot be told apart here, that is said;
- **the room**: how long a strike rings on (the 20 dB decay of its envelope) and the
  direct-to-late energy ratio, a measure of microphone distance and reverberation, shown to the
  user and kept for reference.

Profiles live as JSON in the user's config folder (platformdirs), or ``$PYRAMID_REFEREE_PROFILES``;
the one saved without a name is ``default``.
"""

from __future__ import annotations

import datetime
import json
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import platformdirs

from .errors import VoiceError
from .onsets import FEATURES
from .strike import Look, StrikeParams, class_proba, on_quiet_table

ENV_DIR = "PYRAMID_REFEREE_PROFILES"
DEFAULT_NAME = "default"
MAX_BIAS = 4.0


@dataclass(frozen=True)
class TableProfile:
    name: str
    tip_bias: float  # added to the tip logit
    min_level_db: float  # the quietest strike taken (dBFS, loudest 1 ms)
    background_db: float  # room noise (dBFS, 1 ms windows)
    strike_level_db: float  # median loudest ms of the calibration strikes
    strike_decay_ms: float  # median 20 dB decay of the strikes' envelope
    direct_to_late_db: float  # strike energy in its first 10 ms over the next 10–100 ms
    strikes_asked: int
    strikes_found: int
    strikes_sure_before: int  # how many were sure strikes with the default settings
    collisions_heard: int
    collisions_as_strikes: int  # … that the fitted profile would still take for a strike
    separable: bool
    created: str
    # the calibration strikes' and collisions' first-look features (their timbre): the strike
    # decision starts with them as this table's strikes and clacks (a profile made before they
    # were kept has none, and works as it did)
    strike_timbre: tuple[tuple[float, ...], ...] = ()
    clack_timbre: tuple[tuple[float, ...], ...] = ()

    def apply(self, params):
        """The detector's settings with this profile's adjustments."""
        return replace(params, tip_bias=self.tip_bias, min_level_db=self.min_level_db)

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> TableProfile:
        fields = cls.__dataclass_fields__
        optional = ("strike_timbre", "clack_timbre")
        missing = [k for k in fields if k not in data and k not in optional]
        if missing:
            raise ValueError(f"missing fields: {', '.join(missing)}")
        got = {k: data[k] for k in fields if k in data}
        for k in optional:
            got[k] = tuple(tuple(float(v) for v in row) for row in got.get(k, ()))
            if any(len(row) != len(FEATURES) for row in got[k]):
                raise ValueError(f"{k}: each row needs {len(FEATURES)} numbers")
        return cls(**got)


def profiles_dir() -> Path:
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env)

    return Path(platformdirs.user_config_dir("pyramid-referee")) / "profiles"


def profile_path(name_or_path: str) -> Path:
    """A name (``default``, ``table3``) is a file in :func:`profiles_dir`; anything with a slash or
    ending in .json is a path."""
    if "/" in name_or_path or os.sep in name_or_path or name_or_path.endswith(".json"):
        return Path(name_or_path)
    return profiles_dir() / f"{name_or_path}.json"


def save(profile: TableProfile, path: Path | None = None) -> Path:
    path = path or profile_path(profile.name)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(
        json.dumps(profile.to_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    os.replace(tmp, path)
    return path


class ProfileError(VoiceError, ValueError):
    """A profile that cannot be read (missing, not JSON, not a profile)."""


def load(name_or_path: str, *, lang: str = "ru") -> TableProfile:
    path = profile_path(name_or_path)
    ru = lang != "en"
    if not path.exists():
        raise ProfileError(
            f"профиль стола не найден: {path} (создайте его: pyramid-referee strikes calibrate)"
            if ru
            else f"table profile not found: {path} (make one: pyramid-referee strikes calibrate)"
        )
    try:
        return TableProfile.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (ValueError, TypeError, UnicodeDecodeError) as exc:
        raise ProfileError(
            f"{path}: это не профиль стола ({exc})"
            if ru
            else f"{path}: not a table profile ({exc})"
        ) from None


def load_default() -> TableProfile | None:
    """The ``default`` profile when one was saved, else None (a broken one is an error)."""
    path = profile_path(DEFAULT_NAME)
    return load(DEFAULT_NAME) if path.exists() else None


def asks_for_none(spec: str | None) -> bool:
    """Does ``--profile`` ask for no profile (``none``/``нет``, any case)?"""
    return spec is not None and spec.lower() in ("none", "нет")


def load_spec(spec: str | None, *, lang: str = "ru") -> TableProfile | None:
    """The profile a command names (``--profile``): None is the saved default (or none if none
    was saved), ``none``/``нет`` no profile (:func:`asks_for_none`), anything else a name or a
    file (:func:`load`)."""
    if spec is None:
        return load_default()
    if asks_for_none(spec):
        return None
    return load(spec, lang=lang)


# ----------------------------------------------------------------------------------------------
# Fitting


def _decay_ms(env_db: np.ndarray) -> float:
    """Milliseconds from the loudest 1 ms window until the envelope is 20 dB under it."""
    k = int(np.argmax(env_db))
    below = np.flatnonzero(env_db[k:] < env_db[k] - 20.0)
    return float(below[0]) if len(below) else float(len(env_db) - k)


def _direct_to_late_db(envelope) -> float:
    """A strike's first 10 ms against the 90 ms after (its 1 ms envelope in dB): the microphone's
    distance and the room."""
    lin = 10 ** (np.asarray(envelope) / 10)
    return float(10 * np.log10(lin[:10].sum() / (lin[10:100].sum() + 1e-14) + 1e-14))


def fit(
    strikes: list,
    collisions: list,
    *,
    strikes_asked: int,
    background_db: float,
    strike_envelopes: list[np.ndarray],
    model,
    params=None,
    name: str = DEFAULT_NAME,
    level_margin_db: float = 20.0,
) -> TableProfile:
    """Fit a profile from the calibration sounds (:class:`~.strike.Sound` objects with features)
    and the 1 ms envelopes (dB) of the strikes (the 120 ms from each onset).

    The tip bias is searched on a grid (−4 … +4, step 0.25) with the detector's own decision on a
    quiet table with no call before the sound (:func:`.strike.on_quiet_table`, the strict case:
    there a strike must sound like a tip), preferring, in order: every calibration strike
    taken for a strike; no collision taken for one; as many sure strikes as can be; the smallest
    change from the defaults.
    """
    params = params or StrikeParams()

    def outcome(bias: float):
        took = sure = 0
        for s in strikes:
            d, ok = on_quiet_table(
                Look.of(class_proba(model, s.features, bias), model.classes),
                params,
                after_call=False,
            )
            took += d == "strike"
            sure += d == "strike" and ok
        coll = sum(
            on_quiet_table(
                Look.of(class_proba(model, c.features, bias), model.classes),
                params,
                after_call=False,
            )[0]
            == "strike"
            for c in collisions
        )
        return took, coll, sure

    grid = np.round(np.arange(-MAX_BIAS, MAX_BIAS + 1e-9, 0.25), 2)
    results = {float(b): outcome(float(b)) for b in grid}
    took0, coll0, sure0 = results[0.0]

    def rank(b: float):
        took, coll, sure = results[b]
        return (took == len(strikes), -coll, sure, -abs(b))

    bias = max(results, key=rank) if strikes else 0.0
    took, coll, sure = results[bias]
    separable = took == len(strikes) and coll == 0
    levels = [float(np.max(e[:8])) for e in strike_envelopes]
    decays = [_decay_ms(e) for e in strike_envelopes]
    dl = [_direct_to_late_db(e) for e in strike_envelopes]
    return TableProfile(
        name=name,
        tip_bias=float(bias),
        min_level_db=round(max(min(levels) - level_margin_db, -75.0), 1) if levels else -75.0,
        background_db=round(background_db, 1),
        strike_level_db=round(float(np.median(levels)), 1) if levels else float("nan"),
        strike_decay_ms=round(float(np.median(decays)), 1) if decays else float("nan"),
        direct_to_late_db=round(float(np.median(dl)), 1) if dl else float("nan"),
        strikes_asked=strikes_asked,
        strikes_found=len(strikes),
        strikes_sure_before=sure0,
        collisions_heard=len(collisions),
        collisions_as_strikes=coll,
        separable=separable,
        created=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        strike_timbre=tuple(tuple(round(float(v), 5) for v in s.features) for s in strikes),
        clack_timbre=tuple(tuple(round(float(v), 5) for v in c.features) for c in collisions),
    )
