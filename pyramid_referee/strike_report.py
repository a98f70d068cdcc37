"""What the strike detector heard, for people: a line per sound (``--explain``) and a picture (``--plot``)."""

from __future__ import annotations

from .i18n import UserError, tr

KIND_RU = {"tip": "наклейка по битку", "ball": "шар о шар", "cushion": "борт", "pocket": "луза",
           "clap": "хлопок", "speech": "речь", "other": "другой стук"}
KIND_EN = {"tip": "cue tip", "ball": "ball on ball", "cushion": "cushion", "pocket": "pocket",
           "clap": "clap", "speech": "speech", "other": "other knock"}
COLORS = {"tip": "#d62728", "ball": "#1f77b4", "cushion": "#8c564b", "pocket": "#9467bd",
          "clap": "#ff7f0e", "speech": "#2ca02c", "other": "#7f7f7f"}


def kind_name(kind: str) -> str:
    return tr(KIND_RU.get(kind, kind), KIND_EN.get(kind, kind))


def decision_name(s) -> str:
    if s.decision == "strike":
        return tr("УДАР", "STRIKE") + ("" if s.sure else tr(" (неуверенно)", " (unsure)"))
    return {
        "in-stroke": tr("звук удара", "the stroke's sound"),
        "moving": tr("шары в движении", "balls moving"),
        "not-tip": tr("не удар", "not a strike"),
        "unsure": tr("возможно удар?", "possible strike?"),
        "quiet-floor": tr("слишком тихо", "too faint"),
        "retracted": tr("снят: это слово", "taken back: a word"),
    }.get(s.decision, s.decision)


def why(s) -> str:
    """Why the detector decided so, in the user's language."""
    p = f"{s.tip_k:.2f}"
    voice = s.proba[5] + s.proba[4] if len(s.proba) >= 6 else 0.0
    if s.decision == "strike":
        after = {"quiet": tr("стол был тих", "the table was quiet"),
                 "call": tr("после прошлого удара прозвучал новый заказ", "a new call was said after the last stroke"),
                 "long": tr("прошлый удар длился слишком долго", "the last stroke went on too long")
                 }.get(s.after.split("+")[0], "")
        call = tr(" и прозвучал заказ", " and a call was said") if "+call" in s.after else ""
        late = tr(" (найден вторым взглядом, через 150 мс)", " (found by the second look, 150 ms on)") if s.late else ""
        return tr(f"первый стук после того, как {after}{call}; похож на наклейку на {p} (среди стуков){late}",
                  f"the first knock after {after}{call}; tip-like {p} (among knocks){late}")
    if s.decision == "in-stroke" and s.kind in ("speech", "clap"):
        return tr(f"через {s.since_strike:.2f} с после удара: {kind_name(s.kind)}, не стук на столе",
                  f"{s.since_strike:.2f} s after the strike: {kind_name(s.kind)}, no knock on the table")
    if s.decision == "in-stroke":
        return tr(f"через {s.since_strike:.2f} с после удара, шары ещё катятся ({kind_name(s.kind)})",
                  f"{s.since_strike:.2f} s after the strike, balls still rolling ({kind_name(s.kind)})")
    if s.decision == "moving":
        return tr(f"стук без заказа перед ним, не похожий на наклейку ({p}): шары двигали без удара "
                  f"(ставят пирамиду, выставляют шар?)",
                  f"a knock with no call before it that does not sound like a tip ({p}): balls moved "
                  f"without a strike (a rack being set, a ball spotted?)")
    if s.decision == "unsure":
        return tr(f"похоже скорее на «{kind_name(s.kind)}», но может быть и удар (похож на наклейку на {p}); не засчитан",
                  f"more like {kind_name(s.kind)}, but may be a strike (tip-like {p}); not counted")
    if s.decision == "quiet-floor":
        return tr("стук тише порога профиля стола", "a knock below the table profile's level floor")
    if s.decision == "retracted":
        return tr("сразу за стуком зазвучал голос: это был первый согласный слова",
                  "a voice began right after the knock: it was the first consonant of a word")
    return tr(f"звучит как «{kind_name(s.kind)}» ({voice:.2f}), шары не двигались",
              f"sounds like {kind_name(s.kind)} ({voice:.2f}), no ball moved")


def explain_lines(sounds) -> list[str]:
    """A line per sound: time, decision, what it sounds like, why; and its spectral shape."""
    import math

    out = []
    for s in sounds:
        shape = ""
        if s.features:
            c, low = math.exp(s.feature("log_centroid")), s.feature("low1k") * 100
            shape = tr(f"  [центр {c:.0f} Гц, ниже 1 кГц {low:.0f} %]", f"  [centroid {c:.0f} Hz, below 1 kHz {low:.0f} %]")
        out.append(f"  {s.time:8.3f} {tr('с', 's')}  {decision_name(s):<18} {kind_name(s.kind):<18} {why(s)}{shape}")
    return out


def plot(samples, rate: int, sounds, path: str, title: str = "") -> None:
    """Waveform and spectrogram, with every sound marked (strikes in red), written as PNG."""
    try:
        import matplotlib
    except ImportError:
        raise UserError(tr("для --plot нужен matplotlib: pip install 'pyramid-referee[plot]'",
                           "--plot needs matplotlib: pip install 'pyramid-referee[plot]'")) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    x = np.asarray(samples, float)
    t = np.arange(len(x)) / rate
    dur = max(len(x) / rate, 1e-3)
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(max(10, min(40, dur * 0.8)), 7), sharex=True,
                                 gridspec_kw={"height_ratios": [1, 1.4]})
    a1.plot(t, x, lw=0.4, color="#333333")
    a1.set_ylabel(tr("амплитуда", "amplitude"))
    a1.set_title(title)
    a2.specgram(x + 1e-9, NFFT=512, Fs=rate, noverlap=384, cmap="magma", scale="dB")
    a2.set_ylabel(tr("частота, Гц", "frequency, Hz"))
    a2.set_xlabel(tr("время, с", "time, s"))
    a2.set_ylim(0, rate / 2)
    seen = set()
    for s in sounds:
        strike = s.decision == "strike"
        c = COLORS["tip"] if strike else COLORS.get(s.kind, "#7f7f7f")
        label = (tr("удар", "strike") if strike else kind_name(s.kind))
        for ax in (a1, a2):
            ax.axvline(s.time, color=c, lw=1.6 if strike else 0.8, ls="-" if strike else "--",
                       label=label if (ax is a1 and label not in seen) else None)
        seen.add(label)
        if strike:
            a1.text(s.time, a1.get_ylim()[1] * 0.9, " " + tr("удар", "strike") + ("" if s.sure else "?"),
                    color=c, fontsize=9, va="top")
    if seen:
        a1.legend(loc="upper right", fontsize=8, ncol=min(4, len(seen)))
    a1.set_xlim(0, dur)
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=110)
    except OSError as exc:
        raise UserError(tr(f"не удалось записать {path}: {exc.strerror}", f"cannot write {path}: {exc.strerror}")) from None
    finally:
        plt.close(fig)
