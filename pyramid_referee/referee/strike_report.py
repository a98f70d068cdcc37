"""What the strike detector heard, for people: a line per sound (``--explain``) and a picture
(``--plot``), in the language each is asked in."""

from __future__ import annotations

import math

from ..catalog import N_, trl
from ..i18n import UserError

KIND = {
    "tip": N_("cue tip"),
    "ball": N_("ball on ball"),
    "cushion": N_("cushion"),
    "pocket": N_("pocket"),
    "clap": N_("clap"),
    "speech": N_("speech"),
    "other": N_("other knock"),
}
# A strike is the only red line; every kind of sound has a hue of its own (the Okabe-Ito palette,
# told apart by colour-blind readers too): a cushion in brown beside a red tip read as one colour.
STRIKE_COLOR = "#d62728"
COLORS = {
    "tip": "#cc79a7",
    "ball": "#0072b2",
    "cushion": "#e69f00",
    "pocket": "#009e73",
    "clap": "#000000",
    "speech": "#56b4e9",
    "other": "#7f7f7f",
}


def kind_name(kind: str, lang: str) -> str:
    return trl(lang, KIND[kind]) if kind in KIND else kind


def decision_name(s, lang: str) -> str:
    if s.decision == "strike":
        return trl(lang, "STRIKE") + ("" if s.sure else trl(lang, " (unsure)"))
    if s.decision == "retracted" and not _in_word(s):
        return trl(lang, "taken back")  # (why: no stroke followed it, a word went on …)
    return {
        "in-stroke": trl(lang, "the stroke's sound"),
        "moving": trl(lang, "balls moving"),
        "not-tip": trl(lang, "not a strike"),
        "not-strike": trl(lang, "not a strike"),
        "unsure": trl(lang, "possible strike?"),
        "quiet-floor": trl(lang, "too faint"),
        "retracted": trl(lang, "taken back: a word"),
    }.get(s.decision, s.decision)


def _in_word(s) -> bool:
    from pyramid_referee.voice.strike import IN_WORD  # deferred: the strike detector (numpy)

    return s.reason.startswith(IN_WORD)


def why(s, lang: str) -> str:
    """Why the detector decided so, in ``lang``."""
    p = f"{s.tip_k:.2f}"
    voice = s.proba[5] + s.proba[4] if len(s.proba) >= 6 else 0.0
    if s.decision in ("strike", "not-strike", "retracted", "unsure"):
        return _why_sequence(s, lang)
    if s.decision == "strike":
        after = {
            "quiet": trl(lang, "the table was quiet"),
            "call": trl(lang, "a new call was said after the last stroke"),
            "long": trl(lang, "the last stroke went on too long"),
        }.get(s.after.split("+")[0], "")
        call = trl(lang, " and a call was said") if "+call" in s.after else ""
        late = trl(lang, " (found by the second look, 150 ms on)") if s.late else ""
        return trl(
            lang, "the first knock after {after}{call}; tip-like {p} (among knocks){late}"
        ).format(after=after, call=call, p=p, late=late)
    if s.decision == "in-stroke" and s.kind in ("speech", "clap"):
        return trl(
            lang, "{since_strike:.2f} s after the strike: {kind}, no knock on the table"
        ).format(since_strike=s.since_strike, kind=kind_name(s.kind, lang))
    if s.decision == "in-stroke":
        return trl(
            lang, "{since_strike:.2f} s after the strike, balls still rolling ({kind})"
        ).format(since_strike=s.since_strike, kind=kind_name(s.kind, lang))
    if s.decision == "moving":
        return trl(
            lang,
            "a knock with no call before it that does not sound like a tip ({p}): balls moved "
            "without a strike (a rack being set, a ball spotted?)",
        ).format(p=p)
    if s.decision == "unsure":
        return trl(
            lang, "more like {kind}, but may be a strike (tip-like {p}); not counted"
        ).format(kind=kind_name(s.kind, lang), p=p)
    if s.decision == "quiet-floor":
        return trl(lang, "a knock below the table profile's level floor")
    if s.decision == "retracted":
        return trl(
            lang, "a voice began right after the knock: it was the first consonant of a word"
        )
    return trl(lang, "sounds like {kind} ({voice:.2f}), no ball moved").format(
        kind=kind_name(s.kind, lang), voice=voice
    )


def _why_sequence(s, lang: str) -> str:
    """Why a sound decided from what followed it is (not) a strike."""
    p = f"{s.p_strike:.2f}"
    if getattr(s, "denoised", False):  # weighed with what RNNoise takes away at it
        p += trl(lang, ", with RNNoise")
    if s.decision == "strike":
        return trl(
            lang, "the first knock on a still table, and the stroke followed it (p={p})"
        ).format(p=p)
    if s.decision == "unsure":
        return trl(lang, "may be a strike (p={p}); not counted").format(p=p)
    if _in_word(s):
        return trl(
            lang,
            "inside a word the recognizer heard, and no stroke followed it: the word's (p={p})",
        ).format(p=p)
    if s.decision == "retracted":
        return trl(
            lang, "shown as «strike?», taken back: what followed was not a stroke (p={p})"
        ).format(p=p)
    return trl(lang, "what followed was not a stroke (p={p})").format(p=p)


def explain_lines(sounds, lang: str = "ru") -> list[str]:
    """A line per sound: time, decision, what it sounds like, why; and its spectral shape (in
    ``lang``)."""
    out = []
    for s in sounds:
        shape = ""
        if s.features:
            c, low = math.exp(s.feature("log_centroid")), s.feature("low1k") * 100
            shape = trl(lang, "  [centroid {c:.0f} Hz, below 1 kHz {low:.0f} %]").format(
                c=c, low=low
            )
        seconds = trl(lang, "s")
        decision, kind = decision_name(s, lang), kind_name(s.kind, lang)
        out.append(f"  {s.time:8.3f} {seconds}  {decision:<18} {kind:<18} {why(s, lang)}{shape}")
    return out


def plot(
    samples, rate: int, sounds, path: str, title: str = "", lang: str = "ru", start: float = 0.0
) -> None:
    """Waveform and spectrogram, with every sound marked (strikes in red), written as PNG;
    ``start``: where ``samples`` begin in the recording (the time axis reads the recording's)."""
    fig = figure(
        samples, rate, sounds, title, lang, start
    )  # says so when matplotlib (an optional extra) is missing
    import matplotlib.pyplot as plt  # deferred: matplotlib loads only for --plot

    try:
        fig.savefig(path, dpi=110, bbox_inches="tight")
    except OSError as exc:
        raise UserError(
            trl(lang, "cannot write {path}: {strerror}").format(path=path, strerror=exc.strerror)
        ) from None
    finally:
        plt.close(fig)


def figure(samples, rate: int, sounds, title: str = "", lang: str = "ru", start: float = 0.0):
    """The picture ``plot`` writes, as a matplotlib figure (the legend beside the axes)."""
    try:
        import matplotlib  # deferred: matplotlib loads only for --plot
    except ImportError:
        raise UserError(
            trl(lang, "--plot needs matplotlib: pip install 'pyramid-referee[plot]'")
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # deferred: matplotlib loads only for --plot
    import numpy as np  # deferred: numpy loads only with the audio

    x = np.asarray(samples, float)
    t = start + np.arange(len(x)) / rate
    dur = max(len(x) / rate, 1e-3)
    fig, (a1, a2) = plt.subplots(
        2,
        1,
        figsize=(max(10, min(40, dur * 0.8)), 7),
        sharex=True,
        gridspec_kw={"height_ratios": [1, 1.4]},
    )
    a1.plot(t, x, lw=0.4, color="#333333")
    a1.set_ylabel(trl(lang, "amplitude"))
    if title:
        fig.suptitle(title)
    # a floor of white noise at about −140 dBFS (fixed seed): digital silence has empty bins,
    # whose log10 warned on the user's terminal; nothing this quiet shows in the picture
    floor = 1e-7 * np.random.default_rng(0).standard_normal(len(x))
    a2.specgram(
        x + floor,
        NFFT=512,
        Fs=rate,
        noverlap=384,
        cmap="magma",
        scale="dB",
        xextent=(start, start + dur),
    )
    a2.set_ylabel(trl(lang, "frequency, Hz"))
    a2.set_xlabel(trl(lang, "time, s"))
    a2.set_ylim(0, rate / 2)
    seen = set()
    for s in sounds:
        strike = s.decision == "strike"
        c = STRIKE_COLOR if strike else COLORS.get(s.kind, COLORS["other"])
        label = trl(lang, "strike") if strike else kind_name(s.kind, lang)
        for ax in (a1, a2):
            ax.axvline(
                s.time,
                color=c,
                lw=1.6 if strike else 0.8,
                ls="-" if strike else "--",
                label=label if (ax is a1 and label not in seen) else None,
            )
        seen.add(label)
        if strike:
            near_end = (
                s.time > start + 0.9 * dur
            )  # the label goes left of a line at the right edge
            word = trl(lang, "strike") + ("" if s.sure else "?")
            a1.text(
                s.time,
                a1.get_ylim()[1] * 0.9,
                (word + " ") if near_end else (" " + word),
                color=c,
                fontsize=9,
                va="top",
                ha="right" if near_end else "left",
            )
    a1.set_xlim(start, start + dur)
    fig.tight_layout()
    if seen:  # beside the plot, never over the last seconds of the data
        a1.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, borderaxespad=0)
    return fig
