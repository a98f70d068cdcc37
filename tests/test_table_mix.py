"""The table-sound session generator (corpora/audio/table_mix.py) built on the real recordings.

The recordings are read in place from the sound folder ($PYRAMID_SOUNDS_DIR, or the default
beside the repository that corpora/audio/README.md names); the tests skip, saying why, without
them or without espeak-ng. Each check measures the generated audio itself (stems, a clean twin
made from the same seed, the impulse response) rather than trusting the generator's own
bookkeeping.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import table_mix as tm  # corpora/audio/table_mix.py (path set in conftest.py)

ROOT = Path(__file__).resolve().parents[1]
R = tm.RATE


@pytest.fixture(scope="module")
def espeak():
    if shutil.which("espeak-ng") is None:
        pytest.skip(
            "espeak-ng is not installed: the calls cannot be spoken (apt-get install espeak-ng)"
        )


def energy(x, a, b):
    return float(np.sum(x[max(a, 0) : max(b, 0)] ** 2))


# ----------------------------------------------------------------------------------------------
# The bank


def test_bank_matches_sources_md(bank):
    assert len(bank) == 96
    assert Counter(s.kind for s in bank) == {
        "cue": 27,
        "ball": 30,
        "cushion": 14,
        "pocket": 21,
        "break": 2,
        "rack": 1,
        "other": 1,
    }
    assert len(bank.sources()) == 27
    assert len({s.source for s in bank if s.kind == "cue"}) == 18
    assert bank.get("cue_vrcbce_1.wav").source == "vrcbce"
    assert bank.get("ball_8ballypool_2.wav").source == "8ballypool"
    # the eight bright cue clicks the folder's README flags are not strikes
    assert {s.name for s in bank if s.doubtful} == set(tm.DOUBTFUL) and len(tm.DOUBTFUL) == 8
    assert len(bank.of("cue")) == 19 and len(bank.of("cue", include_doubtful=True)) == 27
    assert [s.name for s in bank.of("ball", sources={"vrcbce"})] == [
        f"ball_vrcbce_{i}.wav" for i in range(1, 6)
    ]
    for s in bank:
        assert s.samples.dtype == np.float64 and s.samples.ndim == 1
        assert np.abs(s.samples).max() <= 1.0
        assert not s.samples.flags.writeable
    with pytest.raises(ValueError):
        bank.of("cue", sources={"no_such_repo"})


def test_repositories_sharing_a_recording_are_one_source(bank):
    """SOURCES.md: the 'poolballhit' clip is kept as both ball_speedy8ball_1 and
    ball_unitypoolgame_1: leave-one-source-out must hold the two repositories out together."""
    groups = bank.recording_sources()
    assert groups["speedy8ball+unitypoolgame"] == {"speedy8ball", "unitypoolgame"}
    assert "speedy8ball" not in groups and "unitypoolgame" not in groups
    assert sorted(r for g in groups.values() for r in g) == bank.sources()  # every repository once
    folds = bank.strike_sources()
    assert "speedy8ball+unitypoolgame" in folds and "vrcbce" in folds
    assert "jasonzhoupool" not in folds  # its only cue is doubtful
    assert "crazy8ball" not in folds  # its only cue has no clear onset
    for name in folds:
        assert [s for s in bank.of("cue", groups[name]) if s.clear_onset]


def test_recordings_are_not_in_the_repository(bank):
    names = {s.name for s in bank}
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [
            d for d in dirs if d not in {".git", ".venv", "node_modules", "build", "__pycache__"}
        ]
        found += [os.path.join(folder, f) for f in files if f in names]
    assert not found


def test_onsets_inside_and_quiet_before(bank):
    w = tm.WIN_ONSET
    for s in bank:
        x, k = s.samples, s.onset_index
        assert 0 <= k < len(x), s.name
        assert abs(s.onset * R - k) < 1e-6
        track = tm.rms_track(x, w) ** 2  # sliding 1 ms energy
        before = track[: k - w + 1].max() if k >= w else 0.0
        assert before <= track.max() * 10**-2.0, (
            f"{s.name}: {10 * np.log10(before / track.max()):.1f} dB"
        )
        # the onset sample is on the rising edge, not in the pre-roll
        assert abs(x[k]) > 0


def test_only_cues_with_a_clear_onset_become_strikes(bank):
    unclear = {s.name for s in bank if s.kind == "cue" and not s.clear_onset}
    assert unclear == {"cue_crazy8ball_1.wav"}  # room tone within 25 dB of its hits
    for s in bank.of("cue"):
        if not s.clear_onset:
            continue
        x, t = tm.isolated(bank, s)
        k = int(round(t * R))
        assert energy(x, k, k + 80) > 100 * energy(x, k - 80, k), s.name


def test_isolated_pads_with_near_silence(bank):
    s = bank.get("cue_vrcbce_1.wav")
    x, t = tm.isolated(bank, s, pad_s=1.0)
    assert len(x) == len(s.samples) + 2 * R
    assert abs(t - (1.0 + s.onset)) < 0.5 / R
    floor = np.sqrt(np.mean(x[: R // 2] ** 2)) / np.abs(s.samples).max()
    assert 10 ** (-75 / 20) < floor < 10 ** (-65 / 20)


# ----------------------------------------------------------------------------------------------
# Sessions


def placed_names(truth):
    names = list(truth["strike_sounds"])
    for k in ("stroke_sounds", "late_sounds", "rack", "other"):
        names += [e["name"] for e in truth[k]]
    return names


def test_sources_restrict_every_recording(bank, espeak):
    x, truth = tm.make_session(
        np.random.default_rng(5),
        bank,
        sources={"vrcbce"},
        n_strokes=3,
        reverb=False,
        rolling_p=1.0,
        rack_p=1.0,
        chalk_p=1.0,
        clap_p=1.0,
        chatter_p=1.0,
    )
    names = placed_names(truth)
    assert len(names) > 10 and all("vrcbce" in n for n in names), names
    assert truth["sources"] == ["vrcbce"] and truth["allowed_sources"] == ["vrcbce"]
    assert not truth["other"]  # vrcbce has no chalk recording
    assert truth["rack"] and all(
        e["kind"] == "ball" for e in truth["rack"]
    )  # nor a rack one: clacks only
    assert not any(e["kind"] == "cushion" for e in truth["stroke_sounds"] + truth["late_sounds"])
    with pytest.raises(ValueError, match="no cue"):
        tm.make_session(np.random.default_rng(5), bank, sources={"poolgametemplate"}, n_strokes=1)
    with pytest.raises(ValueError, match="unknown"):
        tm.make_session(np.random.default_rng(5), bank, sources={"vrcbce", "nope"}, n_strokes=1)


@pytest.fixture(scope="module")
def clean(bank, espeak):
    """A clean, dry session with its stems."""
    return tm.make_session(
        np.random.default_rng(11), bank, n_strokes=4, snr_db=None, reverb=False, with_stems=True
    )


def test_strikes_spaced_and_exact(bank, clean):
    x, truth, stems = clean
    T = np.array(truth["strikes"])
    assert len(T) == 4
    assert np.all(np.diff(T) >= tm.MIN_STRIKE_GAP - 1 / R)
    for t, name in zip(T, truth["strike_sounds"]):
        k = int(round(t * R))
        assert abs(t * R - k) < 1e-6
        # the cue energy is right there in the final audio
        assert energy(x, k, k + 80) > 30 * energy(x, k - 80, k), (t, name)
        # and the recording sits exactly so that its onset is on the truth sample
        s = bank.get(name)
        ref = s.samples[s.onset_index : s.onset_index + 1600]
        seg = stems["strikes"][k - 200 : k + 200 + len(ref)]
        lag = int(np.argmax(np.correlate(seg, ref, mode="valid"))) - 200
        assert lag == 0, (name, lag)


def test_calls_precede_strikes_and_stroke_sounds_follow(clean):
    _, truth, _ = clean
    for i, (c, t) in enumerate(zip(truth["calls"], truth["strikes"])):
        assert c["stroke"] == i
        assert 0.3 - 1 / R <= t - c["end"]  # the pause after the call
        own = [e["t"] - t for e in truth["stroke_sounds"] if e["stroke"] == i]
        assert own and all(0.1 - 1 / R <= d <= 2.0 + 1 / R for d in own)
        assert sum(
            e["kind"] == "ball" for e in truth["stroke_sounds"] if e["stroke"] == i
        ) in range(1, 5)
    for a, b in zip(truth["calls"], truth["calls"][1:]):
        assert b["start"] > a["end"]


def test_strike_level_relative_to_the_call(clean):
    _, truth, stems = clean
    T = truth["strikes"] + [truth["duration"]]
    for i, c in enumerate(truth["calls"]):
        speech = tm.peak_rms(stems["calls"][int(c["start"] * R) : int(c["end"] * R)])
        a, b = int((T[i] - 0.06) * R), int((T[i + 1] - 0.06) * R)
        rel = 20 * np.log10(tm.peak_rms(stems["strikes"][a:b]) / speech)
        assert -15.05 <= rel <= 0.05
        assert abs(rel - truth["strike_rel_db"][i]) < 0.05


def test_strike_level_follows_the_asked_range(bank, espeak):
    _, truth, stems = tm.make_session(
        np.random.default_rng(2),
        bank,
        n_strokes=2,
        reverb=False,
        strike_rel_db=(-9.0, -9.0),
        with_stems=True,
    )
    c = truth["calls"][0]
    speech = tm.peak_rms(stems["calls"][int(c["start"] * R) : int(c["end"] * R)])
    k = int(truth["strikes"][0] * R)
    strike = tm.peak_rms(stems["strikes"][k - 1000 : int(truth["strikes"][1] * R) - 1000])
    assert abs(20 * np.log10(strike / speech) + 9.0) < 0.05


@pytest.mark.parametrize(
    "noise,snr,reverb",
    [("pink", 20, False), ("hum", 10, True), ("babble", 5, False), ("mix", 10, False)],
)
def test_snr_against_the_calls_active_power(bank, espeak, noise, snr, reverb):
    """Noise measured as the difference between the noisy file and its clean twin (same seed)."""
    x0, t0, stems = tm.make_session(
        np.random.default_rng(7), bank, n_strokes=2, snr_db=None, reverb=reverb, with_stems=True
    )
    x1, t1 = tm.make_session(
        np.random.default_rng(7), bank, n_strokes=2, snr_db=snr, noise=noise, reverb=reverb
    )
    assert t0["strikes"] == t1["strikes"] and len(x0) == len(x1)
    nz = x1 / t1["gain"] - x0 / t0["gain"]
    measured = 10 * np.log10(tm.active_power(stems["calls"]) / np.mean(nz**2))
    assert abs(measured - snr) < 0.5, measured
    assert t1["noise"] == noise and t1["snr_db"] == snr and t0["noise"] == "none"
    assert abs(np.abs(x1).max() - 0.7) < 1e-9


def test_same_seed_same_audio(bank, espeak):
    kw = dict(n_strokes=3, snr_db=10, noise="pink", reverb=True, **tm.REALISTIC)
    a, ta = tm.make_session(np.random.default_rng(42), bank, **kw)
    b, tb = tm.make_session(np.random.default_rng(42), bank, **kw)
    c, _ = tm.make_session(np.random.default_rng(43), bank, **kw)
    assert np.array_equal(a, b) and json.dumps(ta, default=float) == json.dumps(tb, default=float)
    assert len(a) != len(c) or not np.array_equal(a, c)


def test_extras_keep_their_rules(bank, espeak):
    x, truth, stems = tm.make_session(
        np.random.default_rng(9),
        bank,
        n_strokes=4,
        reverb=False,
        rolling_p=1.0,
        rack_p=1.0,
        clap_p=1.0,
        chatter_p=1.0,
        spoken_over_p=1.0,
        chalk_p=1.0,
        with_stems=True,
    )
    T = truth["strikes"]
    assert np.all(np.diff(T) >= tm.MIN_STRIKE_GAP - 1 / R)
    assert truth["late_sounds"] and truth["rack"] and truth["claps"] and truth["other"]
    for e in truth["late_sounds"]:
        t, i = e["t"], e["stroke"]
        assert 2.0 - 1 / R <= t - T[i] <= 4.0 + 1 / R
        if i + 1 < len(T):
            assert t <= T[i + 1] - 0.4 + 1 / R
    speech = truth["calls"] + truth["chatter"]
    for e in truth["rack"] + truth["other"]:
        assert not any(s["start"] - 0.05 < e["t"] < s["end"] for s in speech), (
            e
        )  # no speech around a rack
    assert truth["spoken_over"] == list(range(len(T)))
    for s in truth["chatter"]:
        if s["kind"] == "over_strike":
            assert s["start"] < T[s["strike"]] < s["end"]
        else:  # plain chatter: no strike during it or in the 0.3 s after it
            assert not any(s["start"] <= t <= s["end"] + 0.3 for t in T)
    for c in truth["claps"]:
        k = int(round(c["t"] * R))
        assert not any(abs(c["t"] - t) < 0.8 for t in T)
        assert energy(stems["claps"], k, k + 48) > 10 * energy(stems["claps"], k - 48, k)


def test_call_right_after_and_inside_stroke(bank, espeak):
    _, truth = tm.make_session(
        np.random.default_rng(4), bank, n_strokes=4, reverb=False, call_inside_stroke_p=1.0
    )
    T = truth["strikes"]
    for i in range(1, len(T)):
        assert 0.5 - 1 / R <= truth["calls"][i]["start"] - T[i - 1] <= 1.5 + 1 / R
        assert T[i] - T[i - 1] >= tm.MIN_STRIKE_GAP - 1 / R


def test_fixed_pattern(bank, espeak):
    x, truth = tm.fixed_pattern(np.random.default_rng(1), bank, n=6)
    T = np.array(truth["strikes"])
    assert len(T) == 6
    assert np.all(np.abs(np.diff(T) - 4.8) <= 1 / R)
    for i in range(1, len(T)):
        c = truth["calls"][i]
        assert T[i - 1] < c["start"] < T[i - 1] + 3.0
        assert 0.8 - 1 / R <= T[i] - c["end"] <= 1.2 + 1 / R
    assert abs(np.abs(x).max() - 0.7) < 1e-9


# ----------------------------------------------------------------------------------------------
# Room and clap


def schroeder_rt60(h, start_s=0.03):
    """RT60 from the energy decay curve (Schroeder backward integration) of the tail: T20 x 3."""
    e = h[int(start_s * R) :] ** 2
    edc = 10 * np.log10(np.cumsum(e[::-1])[::-1] / e.sum())
    t = np.arange(len(e)) / R
    sel = (edc <= -5) & (edc >= -25)
    slope = np.polyfit(t[sel], edc[sel], 1)[0]
    return -60.0 / slope


def test_room_ir_rt60_and_drr():
    for seed in range(6):
        h, info = tm.room_ir(np.random.default_rng(seed))
        assert 0.4 <= info["rt60"] <= 0.9 and 3 <= info["drr_db"] <= 12
        assert abs(schroeder_rt60(h) - info["rt60"]) <= 0.2 * info["rt60"]
        assert h[0] == 1.0
        tail = h.copy()
        tail[0] = 0.0
        for d, g in info["early"]:
            assert 0.002 <= d <= 0.025 and 0.2 <= abs(g) <= 0.6
            tail[int(round(d * R))] -= g
        assert abs(10 * np.log10(1.0 / np.sum(tail**2)) - info["drr_db"]) < 0.01


def test_clap_centroid_and_length():
    rng = np.random.default_rng(0)
    cents = []
    for _ in range(40):
        x, info = tm.clap(rng)
        assert 0.005 <= len(x) / R <= 0.015 + 1 / R
        spec = np.abs(np.fft.rfft(x, 4096)) ** 2
        f = np.fft.rfftfreq(4096, 1 / R)
        c = float(np.sum(spec * f) / np.sum(spec))
        cents.append(c)
        assert abs(c - info["fc"]) <= 0.25 * info["fc"], (c, info)
        assert 0.8e3 * 0.85 <= c <= 2.5e3 * 1.15
    assert 800 <= np.median(cents) <= 2500


# ----------------------------------------------------------------------------------------------
# CLI


def test_cli_writes_wavs_and_manifest(bank, espeak, tmp_path):
    assert (
        tm.main(
            [
                "--out",
                str(tmp_path),
                "--seed",
                "3",
                "--count",
                "1",
                "--snr",
                "10",
                "--strokes",
                "2",
                "--holdout",
                "vrcbce",
            ]
        )
        == 0
    )
    m = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert m["holdout"] == ["vrcbce"] and len(m["files"]) == 2
    from scipy.io import wavfile

    for f in m["files"]:
        rate, data = wavfile.read(tmp_path / f["file"])
        assert rate == R and data.dtype == np.int16 and abs(len(data) / R - f["duration"]) < 1e-9
        assert all("vrcbce" in n for n in placed_names(f))
    r = subprocess.run(
        [sys.executable, str(ROOT / "corpora/audio/table_mix.py"), "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0 and "--holdout" in r.stdout
    # a held-out source without a cue recording: a clear refusal, no files
    assert tm.main(["--out", str(tmp_path / "none"), "--holdout", "poolgametemplate"]) == 2
    assert not (tmp_path / "none").exists()


# ----------------------------------------------------------------------------------------------
# Real voices, Festival, café noise; the per-stroke truth


def test_speech_folder_sources(speech):
    assert len(speech.sources("speech")) == 11 and "tinkoff" in speech.sources("speech")
    assert speech.sources("noise") == ["junehui", "kunaljathal", "noisereduce", "piezobuds"]
    assert all(c.spans for c in speech.of("speech"))
    with pytest.raises(ValueError, match="unknown"):
        speech.of("speech", {"nobody"})


def test_recorded_voice_excerpt_starts_and_ends_at_pauses(speech):
    rng = np.random.default_rng(0)
    for clip in speech.of("speech")[::5]:
        x, words, at = tm.real_excerpt(rng, clip)
        assert words and 0.0 <= words[0][0] and words[-1][1] <= len(x) / R + 1e-9
        assert len(x) / R <= 3.5 + 1.0 + 0.1
        # the words are where the voice is: louder inside the spans than at the cut edges
        inside = np.concatenate([x[int(a * R) : int(b * R)] for a, b in words])
        edge = np.concatenate([x[: int(words[0][0] * R)], x[int(words[-1][1] * R) :]])
        if len(edge) > 160:
            assert np.sqrt(np.mean(inside**2)) > 2 * np.sqrt(np.mean(edge**2)), clip.name
        k = int(round(at * R))
        assert np.allclose(
            x[400:800], clip.samples[k + 400 : k + 800]
        )  # a cut of the recording itself


def festival_or_skip():
    import make_audio

    if not make_audio.festival_available():
        pytest.skip(
            "festival with the Russian voice is not installed (apt-get install festival "
            "festvox-ru)"
        )


def test_festival_words_are_where_its_speech_is():
    festival_or_skip()
    import make_audio

    x, words = make_audio.speak_festival("Пятнадцатый в правый угол")
    assert len(words) == 4 and words[0][0] == 0.0
    assert all(a < b for a, b in words) and all(
        b1 <= a2 + 1e-9 for (_, b1), (a2, _) in zip(words, words[1:])
    )
    assert abs(words[-1][1] - len(x) / R) < 0.02
    y, w2 = make_audio.speak_festival("Пятнадцатый в правый угол", 1.1)
    assert abs(len(y) / len(x) - 1.1) < 0.01 and abs(w2[-1][1] / words[-1][1] - 1.1) < 0.01


@pytest.fixture(scope="module")
def mixed(bank, speech, espeak):
    """A session with every kind of voice, recorded café noise at 10 dB, and every extra."""
    v = tm.Voices.mixed(speech, {"tinkoff"}, {"junehui"})
    return tm.make_session(
        np.random.default_rng(21),
        bank,
        sources=bank.recording_sources()["vrcbce"],
        n_strokes=5,
        snr_db=10,
        noise="cafe",
        reverb=False,
        voices=v,
        stray_call_p=1.0,
        with_stems=True,
        **tm.REALISTIC,
    )


def test_session_truth_is_where_the_audio_is(mixed, bank):
    """Per stroke, the truth's call words, strike onset and cascade end are found in the stems."""
    x, truth, stems = mixed
    assert len(truth["strokes"]) == 5
    engines = {c["engine"] for c in truth["calls"]}
    assert "espeak" in engines and engines <= {"espeak", "festival", "real"}
    for st in truth["strokes"]:
        c = truth["calls"][st["call"]]
        assert (
            c["stroke"] == st["i"]
            and st["call_start"] == c["start"]
            and st["call_end"] == c["end"]
        )
        assert c["start"] == st["words"][0][0] and c["end"] == st["words"][-1][1]
        assert c["end"] < st["strike"] < st["cascade_end"]
        # the call's sound is inside its words: nothing of it before the first or after the last
        a, b = int(c["placed"][0] * R), int(c["placed"][1] * R)
        calls = stems["calls"]
        words_e = sum(energy(calls, int(w0 * R), int(w1 * R)) for w0, w1 in st["words"])
        assert words_e > 0.97 * energy(calls, a, b)
        # the strike: its onset on the truth sample
        k = int(round(st["strike"] * R))
        assert energy(stems["strikes"], k, k + 80) > 100 * energy(stems["strikes"], k - 80, k)
        # the cascade: every one of the stroke's own sounds starts after the strike and is over
        # (30 dB down) by the cascade's end
        own = [
            e
            for e in truth["sounds"]
            if e.get("stroke") == st["i"] and not e["kind"].startswith("late_")
        ]
        assert own and all(st["strike"] + 0.1 - 1 / R <= e["t"] < st["cascade_end"] for e in own)
        e_end = int(st["cascade_end"] * R)
        table = stems["table"]
        peak = tm.peak_rms(table[k:e_end])
        nxt = [s2["strike"] for s2 in truth["strokes"] if s2["strike"] > st["strike"]]
        late = [e["t"] for e in truth["sounds"] if e["t"] >= st["cascade_end"]]
        quiet_to = int(min(nxt + late + [st["cascade_end"] + 0.2]) * R)
        if quiet_to - e_end >= 160:
            assert tm.peak_rms(table[e_end:quiet_to]) < peak * 10 ** (-25 / 20)


def test_every_placed_sound_has_its_kind(mixed):
    _, truth, _ = mixed
    kinds = Counter(e["kind"] for e in truth["sounds"])
    n_placed = sum(
        len(truth[k]) for k in ("stroke_sounds", "late_sounds", "rack", "claps", "other")
    )
    assert sum(kinds.values()) == n_placed
    assert set(kinds) <= {
        "ball",
        "cushion",
        "pocket",
        "late_ball",
        "late_cushion",
        "late_pocket",
        "rack",
        "rack_ball",
        "clap",
        "chalk",
    }
    assert kinds["ball"] >= 5


def test_a_call_with_no_stroke_then_the_call_that_plays(mixed):
    _, truth, _ = mixed
    stray = [c for c in truth["calls"] if c["stroke"] is None]
    assert len(stray) == 5  # stray_call_p = 1: one before each stroke
    for c in stray:
        later = [d for d in truth["calls"] if d["start"] > c["end"]]
        assert (
            later
            and later[0]["stroke"] is not None
            and 1.5 - 1 / R <= later[0]["start"] - c["end"]
        )
        assert not any(c["start"] <= st["strike"] <= later[0]["start"] for st in truth["strokes"])


def test_recorded_voices_and_noise_come_from_the_held_out_sources(mixed):
    _, truth, _ = mixed
    real = [c for c in truth["calls"] + truth["chatter"] if c["engine"] == "real"]
    assert real and all(c["clip"].startswith("speech_tinkoff_") for c in real)
    assert all(c["text"] is None for c in real)  # not a pyramid call: no text claimed
    assert truth["speech_sources"] == ["tinkoff"] and truth["noise_sources"] == ["junehui"]


def test_cafe_noise_at_its_snr(bank, speech, espeak):
    v = tm.Voices.mixed(speech, {"qzonic"}, {"piezobuds"})
    x0, t0, stems = tm.make_session(
        np.random.default_rng(8),
        bank,
        n_strokes=2,
        snr_db=None,
        reverb=False,
        voices=v,
        with_stems=True,
    )
    x1, t1 = tm.make_session(
        np.random.default_rng(8), bank, n_strokes=2, snr_db=5, noise="cafe", reverb=False, voices=v
    )
    nz = x1 / t1["gain"] - x0 / t0["gain"]
    measured = 10 * np.log10(tm.active_power(stems["calls"]) / np.mean(nz**2))
    assert abs(measured - 5) < 0.5, measured
    with pytest.raises(ValueError, match="recorded noise"):
        tm.make_session(np.random.default_rng(8), bank, n_strokes=1, snr_db=5, noise="cafe")


def test_strike_one_second_after_the_last_word(bank, speech, espeak):
    v = tm.Voices.mixed(speech, {"goryunova"}, {"kunaljathal"})
    _, truth = tm.make_session(
        np.random.default_rng(5), bank, n_strokes=4, reverb=False, voices=v, call_gap=(0.95, 1.05)
    )
    for st in truth["strokes"]:
        assert 0.95 - 1 / R <= st["strike"] - st["call_end"] <= 1.05 + 2 / R


def test_calibration_audio_holds_the_asked_strikes(bank, speech):
    v = tm.Voices.mixed(speech, None, {"noisereduce"})
    strikes, clacks = tm.calibration_audio(
        np.random.default_rng(1),
        bank,
        {"vrcbce"},
        5,
        snr_db=10,
        noise="cafe",
        reverb=True,
        voices=v,
        gain=0.5,
    )
    assert clacks is not None and len(strikes) > 5 * 2.5 * R
    from pyramid_referee.voice.audio import array_frames
    from pyramid_referee.voice.onsets import OnsetDetector

    det = OnsetDetector()
    loud = [
        o
        for fr in array_frames(strikes.astype(np.float32), 10)
        for o in det.feed(fr.samples, fr.t0)
    ]
    assert len(loud) >= 5
    _, none = tm.calibration_audio(np.random.default_rng(1), bank, {"poolminigame"}, 3)
    assert none is not None or not bank.of("ball", {"poolminigame"})


def test_another_tables_timbre_moves_each_kind_alone(bank, espeak):
    """``timbre_p`` (fitting's sessions only): each kind of recording is resampled and tilted by
    its own draw, the onsets stay where the truth puts them; with ``timbre_p`` 0 a session is the
    one drawn before the option existed (the benchmark's sessions do not move)."""
    kw = dict(n_strokes=2, snr_db=None, noise="pink", reverb=False)
    plain, tp = tm.make_session(np.random.default_rng(5), bank, **kw)
    again, _ = tm.make_session(np.random.default_rng(5), bank, timbre_p=0.0, **kw)
    assert np.array_equal(plain, again) and tp["timbre"] is None
    x, truth = tm.make_session(np.random.default_rng(5), bank, timbre_p=1.0, **kw)
    how = truth["timbre"]
    assert set(how) == set(tm.TIMBRE_KINDS)
    speeds = {k: up / down for k, (up, down, _, _) in how.items()}
    assert all(0.59 <= v <= 1.61 for v in speeds.values()) and len(set(speeds.values())) > 1
    # the strikes keep their times, and a strike is there in the audio
    for T in truth["strikes"]:
        k = int(T * 16000)
        assert np.abs(x[k : k + 160]).max() > 10 * np.abs(x[k - 800 : k - 160]).max()


def test_apply_timbre_scales_the_spectrum_and_keeps_the_onset():
    """A tone resampled by 1.25 (up 5, down 4 in :func:`draw_timbre`'s terms) comes out a
    quarter lower; its onset index moves with it."""
    t = np.arange(1600) / 16000
    x = np.where(t >= 0.02, np.sin(2 * np.pi * 1000 * t), 0.0)
    y, on, end = tm.apply_timbre(x, 320, 1600, (5, 4, 3000.0, 1.0))
    assert on == 400 and end == 2000 and len(y) == 2000
    f = np.fft.rfftfreq(len(y[on:]), 1 / 16000)
    assert abs(f[np.argmax(np.abs(np.fft.rfft(y[on:])))] - 800) < 15
