"""What a learner sees on ``/learn``: a real ``serve`` and headless Chromium (Debian's, via
Playwright).

Screenshots are saved under the test's tmp dir (``learn-1920x1080.png``, ``learn-768x1024.png``).
Skipped, saying why, where Chromium or Playwright is missing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from web_server import Server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(
        "no chromium at /usr/bin/chromium (apt-get install chromium)", allow_module_level=True
    )
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright for Python is not installed"
)

pytestmark = pytest.mark.slow

# seed 7, level 1, exercise 1: the cue ball into the 5, the 5 into the far left corner
SEED = 7
RIGHT = "пятёрку чисто в левый дальний угол"
WRONG = "пятёрку чисто в правый дальний угол"

# Nothing sideways off the screen, the two panels apart, nothing sticking out of its panel.
LAYOUT_JS = """() => {
  const panels = [...document.querySelectorAll('.panel')].map(e => e.getBoundingClientRect());
  const [a, b] = panels;
  const overlap = a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const outside = [];
  document.querySelectorAll('.panel').forEach((panel, i) => {
    const p = panel.getBoundingClientRect();
    for (const e of panel.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      if (r.left < p.left - 1 || r.right > p.right + 1
          || r.top < p.top - 1 || r.bottom > p.bottom + 1)
        outside.push(i + ' ' + (e.id || e.className || e.tagName));
    }
  });
  const wide = [...document.querySelectorAll('.words *')]
    .filter(e => e.scrollWidth > e.clientWidth + 1 && !['SELECT', 'INPUT'].includes(e.tagName))
    .map(e => e.id || e.className || e.tagName);
  const img = (id) => {
    const r = document.getElementById(id).getBoundingClientRect();
    return {w: r.width, h: r.height};
  };
  return {overlap, outside, wide, scrollW: document.documentElement.scrollWidth, w: innerWidth,
          learnImg: img('learn-diagram'), drillImg: img('drill-diagram'),
          side: b.top < a.bottom};  // the panels side by side (wide screen) or one above the other
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("learn") / "m.db", "--players", "Иван", "Пётр")
    yield srv
    srv.stop()


def _diagram_shown(page, img_id: str, ok: str) -> None:
    page.wait_for_function(
        f"(() => {{ const i = document.getElementById('{img_id}'); "
        f"return !i.hidden && i.dataset.ok === '{ok}' && i.complete && i.naturalWidth > 0; }})()",
        timeout=5000,
    )


def test_typing_a_call_shows_its_right_phrasing_and_its_picture_asking_once_typing_pauses(
    browser, server
):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/learn?" in r.url else None)
    page.goto(server.base + f"/learn?seed={SEED}")
    call = "3 от борта в правый дальний угол"
    page.locator("#learn-input").press_sequentially(call, delay=20)
    page.wait_for_function(
        "document.getElementById('learn-canonical').textContent.includes('тройку')", timeout=5000
    )
    _diagram_shown(page, "learn-diagram", "true")
    assert (
        page.locator("#learn-canonical").inner_text() == "«тройку от борта в правый дальний угол»"
    )
    assert (
        page.locator("#learn-diagram").get_attribute("alt")
        == "тройку от борта в правый дальний угол"
    )
    assert page.locator("#learn-status").inner_text() == "заказ принят"
    assert page.locator("#learn-reading li").first.inner_text().startswith("Заказан: шар 3")
    assert not page.locator("#learn-fix").is_visible()  # accepted: the right phrasing says it all
    assert len(asked) < len(call) / 2, asked  # debounced: not a request a keystroke

    page.fill("#learn-input", "тройку в угол")
    _diagram_shown(page, "learn-diagram", "false")
    assert page.locator("#learn-status").inner_text() == "заказ не принят"
    assert (
        page.locator("#learn-fix").inner_text()
        == "Как сказать: скажите «в левый угол» или «в правый угол»"
    )
    assert page.locator("#learn-canonical").inner_text() == "—"
    page.close()


def test_a_drill_answered_wrong_then_right_with_a_hint_an_answer_and_the_next_one(browser, server):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server.base + f"/learn?seed={SEED}")
    _diagram_shown(page, "drill-diagram", "true")
    prompt = page.locator("#drill-prompt").inner_text()
    assert (
        "Упражнение 1 (уровень 1)" in prompt and "пятёрка → левая дальняя угловая луза" in prompt
    )

    page.fill("#drill-input", WRONG)
    page.click("#drill-check")
    page.wait_for_function(
        "document.getElementById('drill-result').classList.contains('bad')", timeout=5000
    )
    result = page.locator("#drill-result").inner_text()
    assert result.startswith("Неверно.") and "луза: сказана правая, а нужна левая" in result
    assert RIGHT not in result  # the answer waits for its button

    page.click("#drill-hint")
    assert page.locator("#drill-help").inner_text().startswith("шар: пятёрка")
    page.click("#drill-answer")
    assert page.locator("#drill-help").inner_text() == f"Ответ: «{RIGHT}»"

    page.fill("#drill-input", RIGHT)
    page.press("#drill-input", "Enter")
    page.wait_for_function(
        "document.getElementById('drill-result').classList.contains('ok')", timeout=5000
    )
    assert page.locator("#drill-result").inner_text() == "Верно."

    page.click("#drill-next")
    page.wait_for_function(f"document.body.dataset.drill === '{SEED}:1:2'", timeout=5000)
    assert "Упражнение 2" in page.locator("#drill-prompt").inner_text()
    assert (
        page.locator("#drill-result").inner_text() == ""
        and page.locator("#drill-input").input_value() == ""
    )

    page.select_option("#drill-level", "3")
    page.wait_for_function(f"document.body.dataset.drill === '{SEED}:3:1'", timeout=5000)
    assert "уровень 3" in page.locator("#drill-prompt").inner_text()
    page.close()


@pytest.mark.parametrize("width, height", [(1920, 1080), (768, 1024)])
def test_the_teaching_page_fits_a_tv_and_a_tablet(browser, server, tmp_path, width, height):
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(server.base + f"/learn?seed={SEED}")
    _diagram_shown(page, "drill-diagram", "true")
    page.fill("#learn-input", "семёрку карамболем от двойки в левую середину")
    _diagram_shown(page, "learn-diagram", "true")
    page.fill("#drill-input", WRONG)
    page.click("#drill-check")
    page.wait_for_function(
        "document.getElementById('drill-result').classList.contains('bad')", timeout=5000
    )
    shot = tmp_path / f"learn-{width}x{height}.png"
    page.screenshot(path=str(shot), full_page=True)
    m = page.evaluate(LAYOUT_JS)
    assert m["scrollW"] <= m["w"], m  # nothing off the side
    assert not m["overlap"] and not m["outside"] and not m["wide"], m
    assert m["side"] is (width > 1400), (
        m
    )  # side by side on the TV, one above the other on the tablet
    for key in ("learnImg", "drillImg"):
        assert m[key]["h"] >= 0.5 * height and m[key]["w"] >= 250, (
            m
        )  # the table big enough to read
    assert shot.stat().st_size > 20_000
    page.close()


def test_the_scoreboard_links_to_the_teaching_page(browser, server):
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(server.base + "/")
    page.click("a.learn-link")
    page.wait_for_url("**/learn")
    assert page.locator("h1").inner_text() == "Учимся заказывать"
    page.close()
