"""Pictures of calls: the SVG of a call's route on the pyramid table.

What a learner or a spectator relies on: one arrow for every contact of the declared route, in
its order; the called pocket ringed and named as the call names it; every ball of the route drawn
and numbered; each kind of route looking different; arrows that never cross; a refused call
that says why; a picture with nothing outside it (no fonts, scripts or images to fetch)."""

from __future__ import annotations

import itertools
import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pyramid_referee.cli import main
from pyramid_referee.grammar import Call, Pocket, parse
from pyramid_referee.teach import drill
from pyramid_referee.teach.diagram import (
    OX,
    OY,
    DiagramError,
    L,
    W,
    call_svg,
    learn_fragment,
    refusal_svg,
)

NS = {"s": "http://www.w3.org/2000/svg"}
CORPUS = Path(__file__).resolve().parent.parent / "corpora" / "calls"

# One call for every route element the grammar knows (grammar/README.md, route order).
ROUTE_KINDS = {
    "clean": "тройку чисто в правый дальний угол",
    "abricole": "абриколем тройку в левую середину",
    "cushion": "тройку от борта в левый дальний угол",
    "two_cushions": "тройку от двух бортов к себе в левый угол",
    "kiss": "тройку от шестёрки в правый дальний угол",
    "driver": "шестёркой тройку в левый дальний угол",
    "drivers": "тремя шарами пятёркой, девяткой и двойкой двенадцатый в правый ближний угол",
    "carom": "карамболем от шестёрки одиннадцатым шаром тройку чисто в середину",
    "contre_coup": "тройку от контр-ку в правый дальний угол",
    "abricole_kiss_cushion": "абриколем тройку от шестёрки от борта в правый дальний угол",
}


def svg_tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def contacts(root) -> list[tuple[str, str]]:
    return [
        (p.get("data-actor"), p.get("data-target"))
        for p in root.iterfind(".//s:path[@class='contact']", NS)
    ]


def classes(root, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def texts(root) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]


def as_route_strings(call: Call) -> list[tuple[str, str]]:
    return [
        ("ball" if a is None else str(a), "ball" if t is None else str(t)) for a, t in call.route
    ]


@pytest.mark.parametrize("kind", ROUTE_KINDS)
def test_every_route_element_draws_one_arrow_per_contact_in_order(kind):
    text = ROUTE_KINDS[kind]
    call = parse(text)
    root = svg_tree(call_svg(text))
    assert root.get("data-ok") == "true"
    assert contacts(root) == as_route_strings(call)
    steps = [int(p.get("data-step")) for p in root.iterfind(".//s:path[@class='contact']", NS)]
    assert steps == list(range(1, len(call.route) + 1))
    # every ball of the route is drawn once, numbered; the cue ball once, unnumbered
    balls = {x for c in call.route for x in c if isinstance(x, int)}
    drawn = {g.get("data-ball"): "".join(g.itertext()) for g in classes(root, "ball")}
    assert set(drawn) == {str(b) for b in balls} | {"cue"}
    assert all(drawn[str(b)] == str(b) for b in balls)
    assert len(classes(root, "ball")) == len(balls) + 1
    # one mark per cushion and per contre-coup contact
    assert len(classes(root, "cushion")) == sum(t == "cushion" for _, t in call.route)
    assert len(classes(root, "contre_coup")) == sum(t == "contre_coup" for _, t in call.route)
    # the called ball ringed
    (called,) = [g for g in classes(root, "ball") if "called" in g.get("class")]
    assert called.get("data-ball") == str(call.ball)


def test_each_kind_of_route_looks_different():
    def signature(text):
        root = svg_tree(call_svg(text))
        return (
            tuple(contacts(root)),
            len(classes(root, "cushion")),
            len(classes(root, "contre_coup")),
        )

    shapes = {kind: signature(text) for kind, text in ROUTE_KINDS.items()}
    assert len(set(shapes.values())) == len(shapes)
    # and the abricole starts at the cushion, the carom leaves the cue ball twice
    assert shapes["abricole"][0][0] == ("cue", "cushion")
    assert [a for a, _ in shapes["carom"][0]][:2] == ["cue", "cue"]


@pytest.mark.parametrize(
    "text, pockets, target",
    [
        ("тройку чисто в правый дальний угол", {"corner-right-far"}, "corner-right-far"),
        ("тройку чисто в левый ближний угол", {"corner-left-near"}, "corner-left-near"),
        ("тройку чисто к себе в правый угол", {"corner-right-near"}, "corner-right-near"),
        ("тройку чисто в правую середину", {"middle-right"}, "middle-right"),
        # a call that leaves a part open fits several pockets: all ringed, the ball goes into one
        ("тройку чисто в левый угол", {"corner-left-far", "corner-left-near"}, "corner-left-far"),
        ("тройку чисто в середину", {"middle-left", "middle-right"}, "middle-left"),
    ],
)
def test_the_called_pocket_is_ringed_where_the_call_names_it(text, pockets, target):
    root = svg_tree(call_svg(text))
    marked = {g.get("data-pocket") for g in classes(root, "called") if "pocket" in g.get("class")}
    assert marked == pockets
    (aimed,) = [g.get("data-pocket") for g in classes(root, "target")]
    assert aimed == target
    assert len(classes(root, "pocket")) == 6


def test_pockets_sit_where_the_striker_sees_them():
    """Far corners at the top, near at the bottom (the striker's end), left on the left."""
    root = svg_tree(call_svg("тройку чисто в правый дальний угол"))
    centre = {}
    for g in classes(root, "pocket"):
        c = g.find("s:circle", NS)
        centre[g.get("data-pocket")] = (float(c.get("cx")), float(c.get("cy")))
    assert centre["corner-left-far"][1] < centre["middle-left"][1] < centre["corner-left-near"][1]
    assert centre["corner-left-far"][0] < centre["corner-right-far"][0]
    assert centre["middle-right"][0] > centre["middle-left"][0]
    # the table is 2:1
    cloth = classes(root, "cloth")[0]
    assert float(cloth.get("height")) == 2 * float(cloth.get("width"))
    names = dict(
        zip([g.get("data-pocket") for g in classes(root, "pocket")], classes(root, "pocket-name"))
    )
    assert "".join(names["corner-right-far"].itertext()) == "правый дальний угол"
    assert "сторона игрока: ближний борт" in " ".join(texts(root))


def _segments(svg: str):
    out = []
    for d in re.findall(
        r'class="contact"[^>]* d="M ([-\d.]+) ([-\d.]+) L ([-\d.]+) ([-\d.]+)"', svg
    ):
        out.append(tuple(map(float, d)))
    return out


def _cross(s, t) -> bool:
    def orient(ax, ay, bx, by, cx, cy):
        v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
        return (v > 1e-9) - (v < -1e-9)

    a, b, c, d = s[:2], s[2:], t[:2], t[2:]
    return (orient(*a, *b, *c) * orient(*a, *b, *d) < 0) and (
        orient(*c, *d, *a) * orient(*c, *d, *b) < 0
    )


def _drill_shots():
    shots = []
    for level in drill.LEVELS:
        shots += [ex.shot for ex in drill.generate(7, level, 60)]
    return shots


def test_arrows_never_cross_and_stay_on_the_cloth_for_every_drill_shot():
    shots = _drill_shots()
    assert len(shots) == 180
    for shot in shots:
        svg = call_svg(shot)
        segs = _segments(svg)
        assert len(segs) == len(shot.route)
        for s, t in itertools.combinations(segs, 2):
            assert not _cross(s, t), (shot, s, t)
        for x1, y1, x2, y2 in segs:
            for x, y in ((x1, y1), (x2, y2)):
                assert OX - 1 <= x <= OX + W + 1 and OY - 1 <= y <= OY + L + 1


def test_no_cushion_contact_is_drawn_at_a_middle_pocket():
    for shot in _drill_shots():
        root = svg_tree(call_svg(shot))
        for g in classes(root, "mark"):
            el = g.find("s:line", NS)
            y = (
                float(el.get("y1")) + 16
                if el is not None
                else float(g.find("s:circle", NS).get("cy"))
            )
            assert abs(y - (OY + L / 2)) > 60


def test_the_picture_is_self_contained():
    svg = call_svg(ROUTE_KINDS["carom"])
    assert "<script" not in svg and "<image" not in svg and "href" not in svg
    assert "http" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "@import" not in svg and "@font-face" not in svg


def test_the_caption_is_the_canonical_call_in_russian_and_english_names_on_request():
    root = svg_tree(call_svg("тройка от борта дальний левый угол"))
    caption = " ".join("".join(t.itertext()) for t in classes(root, "caption"))
    assert caption == "«тройку от борта в левый дальний угол»"
    assert "заказанный шар" in texts(root) and "борт" in texts(root)
    en = svg_tree(call_svg("тройку от борта в левый дальний угол", lang="en"))
    assert "left far corner" in texts(en) and "the called ball" in texts(en)


def test_a_refused_call_draws_the_reason_and_how_to_say_it():
    root = svg_tree(call_svg("тройку в угол"))
    assert root.get("data-ok") == "false"
    assert contacts(root) == [] and classes(root, "ball") == []
    caption = " ".join("".join(t.itertext()) for t in classes(root, "caption"))
    assert caption.startswith("Не принят: луза названа неточно") and "Как сказать:" in caption


def test_ball_and_pocket_draws_the_ball_and_the_pocket_and_no_way():
    root = svg_tree(call_svg("тройку в правый дальний угол", mode="ball_and_pocket"))
    assert contacts(root) == []
    assert len(classes(root, "way-open")) == 1
    assert {g.get("data-ball") for g in classes(root, "ball")} == {"3", "cue"}
    assert "способ не назван (C7)" in texts(root)


def test_the_last_ball_unnamed_is_numbered_from_the_balls_left():  # C5
    root = svg_tree(call_svg("абриколем чужой от борта в левую середину", balls_left=[9]))
    called = [g for g in classes(root, "ball") if "called" in g.get("class")]
    assert [g.get("data-ball") for g in called] == ["9"] and "".join(called[0].itertext()) == "9"
    assert contacts(root) == [
        ("cue", "cushion"),
        ("cue", "ball"),
        ("ball", "cushion"),
        ("ball", "pocket"),
    ]


def test_a_drill_caption_replaces_the_call():
    ex = drill.generate(3, 2, 1)[0]
    svg = call_svg(ex.shot, caption="Упражнение 1: закажите этот удар.")
    assert ex.canonical not in svg and ex.canonical in call_svg(ex.shot)
    assert "Упражнение 1: закажите этот удар." in texts(svg_tree(svg))


def test_misuse_raises_and_user_text_never_does():
    with pytest.raises(DiagramError):
        call_svg(42)
    with pytest.raises(DiagramError):
        call_svg("тройку чисто в середину", mode="nonsense")
    with pytest.raises(DiagramError):
        call_svg("тройку чисто в середину", lang="de")
    with pytest.raises(DiagramError):  # a route no call can say: a driving ball off a cushion
        call_svg(Call(3, Pocket("middle"), (("cue", 6), (6, "cushion"), (6, 3), (3, "pocket"))))
    for text in ("", "   ", "\x00", "тройку " * 100, "🎱", "<script>alert(1)</script>"):
        root = svg_tree(call_svg(text))
        assert root.get("data-ok") == "false"


def test_every_corpus_call_renders():
    count = 0
    for path in sorted(CORPUS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            svg = call_svg(
                r["text"],
                mode=r.get("mode", "clean"),
                balls_left=r.get("balls_left"),
                pocket_precision=r.get("pocket_precision", "side_for_corners"),
            )
            root = svg_tree(svg)
            assert root.get("data-ok") == ("true" if "call" in r else "false"), r
            if "call" in r and r["call"]["route"] is not None:
                assert len(contacts(root)) == len(r["call"]["route"]), r
            count += 1
    assert count >= 600


def test_learn_fragment_gives_the_reading_the_phrasing_the_fix_and_the_picture():
    good = learn_fragment("тройка от борта дальний левый угол")
    assert good["ok"] is True and good["canonical"] == "тройку от борта в левый дальний угол"
    assert good["fix"] == "Правильно сказать: «тройку от борта в левый дальний угол»"
    assert good["reading"][0].startswith("Заказан: шар 3")
    assert svg_tree(good["svg"]).get("data-ok") == "true" and good["error"] is None
    assert good["call"]["route"] == [["cue", 3], [3, "cushion"], [3, "pocket"]]
    bad = learn_fragment("тройку в угол")
    assert bad["ok"] is False and bad["canonical"] is None and bad["call"] is None
    assert bad["error"]["code"] == "pocket_not_definite" and bad["fix"].startswith("Как сказать:")
    assert svg_tree(bad["svg"]).get("data-ok") == "false"
    assert learn_fragment("тройку в угол", "en")["fix"].startswith("How to say it:")
    with pytest.raises(DiagramError):
        learn_fragment(None)


def test_refusal_svg_escapes_what_the_user_typed():
    refusal = parse("<b>тройку</b> в угол")
    root = svg_tree(refusal_svg(refusal))
    assert root.get("data-ok") == "false"


# -- the command line -----------------------------------------------------------------------


def test_explain_svg_writes_the_picture(tmp_path, capsys):
    out = tmp_path / "заказ.svg"
    status = main(["explain", "тройку от борта в левый дальний угол", "--svg", str(out)])
    text = capsys.readouterr().out
    assert status == 0 and f"Рисунок: {out}" in text
    assert contacts(svg_tree(out.read_text(encoding="utf-8"))) == [
        ("cue", "3"),
        ("3", "cushion"),
        ("3", "pocket"),
    ]
    status = main(["explain", "тройку в угол", "--svg", str(out), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 1 and data["svg"] == str(out) and data["ok"] is False
    assert svg_tree(out.read_text(encoding="utf-8")).get("data-ok") == "false"


@pytest.mark.parametrize(
    "name, message",
    [
        ("picture.png", "рисунок — это файл SVG: дайте имя, оканчивающееся на «.svg»"),
        ("missing/picture.svg", "не удаётся записать (нет такого файла или каталога)"),
    ],
)
def test_explain_svg_to_a_bad_path_is_one_russian_line_and_writes_nothing(
    tmp_path, capsys, name, message
):
    status = main(["explain", "тройку чисто в середину", "--svg", str(tmp_path / name)])
    err = capsys.readouterr().err
    assert status == 2 and message in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_drill_svg_draws_each_exercise_without_giving_the_answer(tmp_path, capsys):
    folder = tmp_path / "рисунки"
    status = main(
        ["drill", "--show", "3", "--seed", "5", "--level", "3", "--svg", str(folder), "--json"]
    )
    items = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 0 and sorted(p.name for p in folder.iterdir()) == [
        "exercise-01.svg",
        "exercise-02.svg",
        "exercise-03.svg",
    ]
    for item in items:
        svg = Path(item["svg"]).read_text(encoding="utf-8")
        root = svg_tree(svg)
        assert len(contacts(root)) == len(item["exercise"]["shot"]["route"])
        assert item["canonical"] not in svg
        assert any(t.startswith(f"Упражнение {item['exercise']['index']}:") for t in texts(root))


def test_drill_svg_into_a_file_is_refused_in_russian(tmp_path, capsys):
    f = tmp_path / "file.txt"
    f.write_text("x")
    status = main(["drill", "--show", "1", "--svg", str(f)])
    err = capsys.readouterr().err
    assert status == 2 and "--svg" in err and "не удаётся создать папку" in err


# -- what a person sees: rendered by a real browser ------------------------------------------

CHROMIUM = shutil.which("chromium") or (
    "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
)


@pytest.mark.slow
@pytest.mark.skipif(
    CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)"
)
@pytest.mark.parametrize("kind", ["carom", "two_cushions"])
def test_chromium_renders_the_picture_as_a_green_table_with_a_red_route(tmp_path, kind):
    image = pytest.importorskip("matplotlib.image")
    svg = tmp_path / f"{kind}.svg"
    svg.write_text(call_svg(ROUTE_KINDS[kind]), encoding="utf-8")
    png = tmp_path / f"{kind}.png"
    subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--screenshot={png}",
            "--window-size=692,1400",
            svg.as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert png.exists(), "chromium wrote no screenshot"
    pixels = image.imread(str(png))[..., :3]
    r, g, b = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    cloth = (
        (abs(r - 0x1D / 255) < 0.05) & (abs(g - 0x6B / 255) < 0.05) & (abs(b - 0x3A / 255) < 0.05)
    ).mean()
    red = ((r > 0.85) & (g < 0.4) & (b < 0.35)).mean()
    assert cloth > 0.25  # the cloth fills a good part of the picture
    assert red > 0.001  # the called ball's arrow and the pocket's ring are drawn


# -- every call the language can say (the strategy test_grammar_render.py checks render with) --

from hypothesis import given, settings  # noqa: E402
from test_grammar_render import calls  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(calls())
def test_every_sayable_call_draws_its_route_without_crossings(case):
    call, mode, balls_left, precision = case
    root = svg_tree(call_svg(call, balls_left=balls_left))
    assert root.get("data-ok") == "true"
    if call.route is None:
        assert contacts(root) == [] and len(classes(root, "way-open")) == 1
    else:
        assert contacts(root) == as_route_strings(call)
        segs = _segments(call_svg(call, balls_left=balls_left))
        for s, t in itertools.combinations(segs, 2):
            assert not _cross(s, t)
        # each ball once as a ball; a ball the route meets again drawn dashed where it does
        targets = [t for _, t in call.route if t not in ("cushion", "pocket", "contre_coup")]
        names = [str(balls_left[0]) if t is None else str(t) for t in targets]
        drawn = [g.get("data-ball") for g in classes(root, "ball") if g.get("data-ball") != "cue"]
        assert sorted(drawn) == sorted(set(names))
        assert len(classes(root, "ball-again")) == len(names) - len(set(names))
    fits = {g.get("data-pocket") for g in classes(root, "called") if "pocket" in g.get("class")}
    every = {
        "corner-left-far",
        "corner-right-far",
        "middle-left",
        "middle-right",
        "corner-left-near",
        "corner-right-near",
    }
    assert fits == {f for f in every if call.pocket.fits(Pocket(*(f.split("-") + [None])[:3]))}


def test_a_ball_the_route_meets_twice_is_drawn_again_dashed():
    root = svg_tree(call_svg("карамболем от шестёрки шестёркой тройку чисто в середину"))
    assert contacts(root) == [("cue", "6"), ("cue", "6"), ("6", "3"), ("3", "pocket")]
    assert [g.get("data-ball") for g in classes(root, "ball-again")] == ["6"]
    assert sorted(g.get("data-ball") for g in classes(root, "ball")) == ["3", "6", "cue"]


def test_the_crossing_check_itself_finds_crossings():
    assert _cross((0, 0, 10, 10), (0, 10, 10, 0))
    assert not _cross((0, 0, 10, 10), (10, 10, 20, 0))  # joined at an end: the route's own turn
    assert not _cross((0, 0, 10, 0), (0, 5, 10, 5))


def test_a_bare_table_for_a_scoreboard_has_no_caption_and_no_legend():
    bare = svg_tree(call_svg(ROUTE_KINDS["carom"], caption="", legend=False))
    full = svg_tree(call_svg(ROUTE_KINDS["carom"]))
    assert classes(bare, "caption") == [] and classes(bare, "legend") == []
    assert classes(full, "caption") and classes(full, "legend")
    assert contacts(bare) == contacts(full)
    assert float(bare.get("height")) < float(full.get("height"))


def test_a_drill_picture_draws_every_ball_the_text_says_is_on_the_table(tmp_path, capsys):
    folder = tmp_path / "рисунки"
    status = main(["drill", "--show", "12", "--seed", "3", "--svg", str(folder), "--json"])
    items = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 0 and len(items) == 12
    for item in items:
        root = svg_tree(Path(item["svg"]).read_text(encoding="utf-8"))
        drawn = {
            g.get("data-ball")
            for g in root.iter()
            if (g.get("class") or "").split()[:1] in (["ball"], ["ball-again"])
        }
        assert {str(b) for b in item["exercise"]["balls_left"]} <= drawn, item["exercise"]


def test_the_other_balls_stand_clear_of_the_route_and_of_each_other():
    from pyramid_referee.teach.diagram import BALL_R

    for shot in _drill_shots()[::6]:
        on_table = tuple(range(1, 16))
        root = svg_tree(call_svg(shot, on_table=on_table))
        balls = [g for g in root.iter() if (g.get("class") or "").split()[:1] == ["ball"]]
        assert len({g.get("data-ball") for g in balls}) >= 16  # fifteen and the cue ball
        centres = [(float(c.get("cx")), float(c.get("cy"))) for g in balls for c in list(g)[1:2]]
        for (x1, y1), (x2, y2) in itertools.combinations(centres, 2):
            assert ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 >= 2 * BALL_R, shot
        others = [g for g in balls if "on-table" in g.get("class")]
        for g in others:
            c = list(g)[1]
            p = (float(c.get("cx")), float(c.get("cy")))
            for seg in _segments(call_svg(shot)):
                x1, y1, x2, y2 = seg
                assert _distance_to_segment(p, (x1, y1), (x2, y2)) > BALL_R, shot


def _distance_to_segment(p, a, b):
    from pyramid_referee.teach.diagram import _segment_distance

    return _segment_distance(p, a, b)
