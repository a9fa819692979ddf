"""Practice mode in chromium at phone size (375×812): whole hands against the bots, tapped through.

Seeds are fixed (``new_seed`` is patched), so each deal is known (seed 30 deals the player a
`double-deck` hand with no marriage), and the player opens with a bid no bot would top, so the
hand goes the player's way whatever the bots' judgement. Every step waits for the page to answer
(the version a form carries changes), never for a time.

At every decision the table must fit the screen (the page never scrolls, at 320×568 too), its
controls in view, nothing on it running past its box, every card a player can tap at least 44×44
px from 360 px wide, and no engine code (``TH``, ``AS``) may show in the visible text. The page
height at each decision is written to ``test-results/practice-heights.json``, and a screenshot of
each stage to ``test-results/screenshots/`` (gitignored, kept by CI).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_accessibility import axe_violations
from tests.browser.test_scorepad_browser import assert_fits_the_phone
from tests.helpers import watch_console, with_motion

pytestmark = pytest.mark.browser


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """These phones move their cards, as a phone does by default: this module tests the motion."""
    return with_motion(browser_context_args)


CLASSIC_SEED, SIX_HANDED_SEED, NO_MARRIAGE_SEED, DOUBLE_DECK_SEED = 4, 1, 30, 2
OUT_OF_REACH = {"classic": 60, "double-deck": 200}  # an opening bid no bot tops
ENGINE_CODE = re.compile(r"\b[AKQJT9][SHDC]\b")
RESULTS = Path(__file__).resolve().parents[2] / "test-results"
SHOTS = RESULTS / "screenshots"
HEIGHTS: dict[str, list[tuple[str, int, int]]] = {}
TARGETS: dict[str, list[int]] = {}  # the narrowest visible part of a card in the fan, per decision
SECONDS = "const secs = (t) => parseFloat(t) * (t.endsWith('ms') ? 0.001 : 1);"
# When the current trick's last card has landed, and when the veil over the hand lifts (seconds).
VEIL = f"""() => {{ {SECONDS}
    const landing = [...document.querySelectorAll('.trick.now .played')].filter(
        (el) => getComputedStyle(el).animationName !== 'none');  // a card shown before lands no more
    const ends = landing.map((el) => {{
        const style = getComputedStyle(el);
        return secs(style.animationDelay) + secs(style.animationDuration); }});
    const veil = getComputedStyle(document.querySelector('.my-hand'), '::after');
    return [Math.max(0, ...ends), veil.animationName === 'none' ? 0 : secs(veil.animationDelay) + 0.001];
}}"""
# The visible part of the fan's cards: the narrowest width (up to the next card) and the least height.
TAP_TARGET = """() => {
    const boxes = [...document.querySelectorAll('.fan .card')].map((el) => el.getBoundingClientRect());
    const widths = boxes.map((box, i) => {
        const next = boxes[i + 1];
        return next && Math.abs(next.top - box.top) < 1 ? next.left - box.left : box.width; });
    return [Math.min(...widths), Math.min(...boxes.map((box) => box.height))];
}"""
# Anything on the page that runs past the page's edges, is cut inside its own box (a hidden
# overflow, an ellipsis) or, on the felt, past the felt's edge; and a trick's card lying over a
# seat. The cards of a trick on its way to its winner (gathered, faded out) are left aside.
OVERFLOWS = """() => {
    const found = [];
    const feltEl = document.querySelector('.felt');
    const felt = feltEl && feltEl.getBoundingClientRect();
    const name = (el) =>
        `${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}"`;
    for (const el of document.querySelectorAll('main *')) {
        if (!el.getClientRects().length) continue;
        if (el.closest('.visually-hidden, [hidden], .trick.gathered')) continue;
        if (el.closest('details:not([open])') && !el.closest('summary')) continue;
        const box = el.getBoundingClientRect();
        if (!box.width || !box.height) continue;
        const style = getComputedStyle(el);
        const typed = el.matches('input, select, textarea, .table-scroll');
        if (box.right > innerWidth + 0.5 || box.left < -0.5) found.push('off the page: ' + name(el));
        // (overflow: clip only keeps a trick's motion on the page; what it hid would be off the page)
        else if (!typed && !['visible', 'clip'].includes(style.overflowX)
                && el.scrollWidth > el.clientWidth + 1)
            found.push('cut in its box: ' + name(el));
        if (felt && el !== feltEl && feltEl.contains(el) && (box.right > felt.right + 0.5
                || box.left < felt.left - 0.5 || box.bottom > felt.bottom + 0.5 || box.top < felt.top - 0.5))
            found.push('past the felt: ' + name(el));
    }
    const seats = [...document.querySelectorAll('.seat')].map((el) => [el, el.getBoundingClientRect()]);
    for (const card of document.querySelectorAll('.trick.now .card')) {
        const c = card.getBoundingClientRect();
        for (const [seat, s] of seats) {
            if (c.left < s.right - 0.5 && s.left < c.right - 0.5
                    && c.top < s.bottom - 0.5 && s.top < c.bottom - 0.5)
                found.push('over a seat: ' + name(card) + ' ' + name(seat));
        }
    }
    return found;
}"""
# The contrast of each chosen card to pass (its rank and suit) with its own ground.
CHOSEN_CONTRASTS = """() => {
    const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
        return (x + 0.05) / (y + 0.05); };
    return [...document.querySelectorAll('.card.pick:has(input:checked)')].map((card) => {
        const ground = rgb(getComputedStyle(card).backgroundColor);
        return Math.min(...[...card.querySelectorAll('.face span')].map(
            (span) => ratio(rgb(getComputedStyle(span).color), ground)));
    });
}"""
# The controls of the decision at hand: all of each within the screen.
CONTROLS_OUT_OF_VIEW = """() => [...document.querySelectorAll('.decide button, .decide input, '
        + '.my-hand button.card:enabled, .my-hand input[name=pass], .pass-button')]
    .filter((el) => { const box = el.getBoundingClientRect();
        return box.top < -0.5 || box.bottom > innerHeight + 0.5
            || box.left < -0.5 || box.right > innerWidth + 0.5; })
    .map((el) => el.outerHTML.slice(0, 80))"""


@pytest.fixture(scope="module", autouse=True)
def _write_heights():
    yield
    if HEIGHTS:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "practice-heights.json").write_text(json.dumps(HEIGHTS, indent=1))
        (RESULTS / "practice-tap-widths.json").write_text(json.dumps(TARGETS, indent=1))


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    # caret="initial": hiding the caret injects a style tag, which the CSP (rightly) refuses.
    page.screenshot(path=SHOTS / f"{name}.png", caret="initial", animations="disabled", full_page=True)


def deal(page: Page, base: str, variant_label: str) -> None:
    page.goto(f"{base}/")
    page.get_by_role("link", name="Practice against the bots").click()
    page.get_by_role("link", name=variant_label).click()
    page.get_by_role("button", name="Deal").click()
    expect(page.get_by_role("region", name="Scores")).to_be_visible()
    # The table shows before htmx (deferred) takes over its forms: a tap then would be a plain
    # submit, which a test that holds /act/ would wait on for ever.
    page.wait_for_load_state()


def version(page: Page) -> str:
    return page.locator("input[name=version]").first.get_attribute("value") or ""


def answered(page: Page, before: str) -> None:
    """Wait until the table came back from a write (its version moved on)."""
    page.wait_for_function(
        "v => { const f = document.querySelector('input[name=version]'); return !f || f.value !== v; }",
        arg=before,
    )


def at_the_decision(page: Page, name: str, stage: str) -> None:
    """The table as the player sees it at a decision: on one screen, in a player's words."""
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState === 'finished')")
    height = page.evaluate("document.scrollingElement.scrollHeight")
    room = page.evaluate("document.querySelector('.felt').getBoundingClientRect().height")
    HEIGHTS.setdefault(name, []).append((stage, height, round(room)))  # the felt takes the room left
    assert height <= page.viewport_size["height"], (name, stage, height)
    assert page.evaluate(CONTROLS_OUT_OF_VIEW) == [], (name, stage)
    assert page.evaluate(OVERFLOWS) == [], (name, stage)
    if "card" in stage:
        landed, veil_lifts = page.evaluate(VEIL)
        assert veil_lifts >= landed, (name, stage, landed, veil_lifts)  # no tap before the trick is shown
    if "card" in stage or stage == "pass":
        width, height = page.evaluate(TAP_TARGET)
        assert height >= 44, (name, stage, height)
        if page.viewport_size["width"] >= 360:
            assert width >= 44, (name, stage, width)  # double-deck's twenty cards too: three rows
        TARGETS.setdefault(name, []).append(round(width))
    visible = page.evaluate("document.body.innerText")
    assert not ENGINE_CODE.search(visible), (name, stage, ENGINE_CODE.findall(visible))
    assert_fits_the_phone(page)


PHONES = {  # the smallest in dark mode, so a dark table is played through too
    "375x812": {"viewport": {"width": 375, "height": 812}, "color_scheme": "light"},
    "360x740": {"viewport": {"width": 360, "height": 740}, "color_scheme": "light"},
    "320x568": {"viewport": {"width": 320, "height": 568}, "color_scheme": "dark"},
}
HANDS = {  # variant label, seed, opening bid (None: the quick bids)
    "classic": ("Classic (4 players, partners)", CLASSIC_SEED, OUT_OF_REACH["classic"]),
    "double-deck": ("Double-deck (4 players, partners)", DOUBLE_DECK_SEED, None),
    "six-handed": ("Six-handed (Schoneboom family rules)", SIX_HANDED_SEED, None),
}


def as_phone(page: Page, phone: str) -> None:
    """The same page as on ``phone`` (one of ``PHONES``): its screen's size and colours."""
    page.set_viewport_size(PHONES[phone]["viewport"])
    page.emulate_media(color_scheme=PHONES[phone]["color_scheme"])


def play_hand(
    page: Page, name: str, opening: int | None = None, phones: tuple[str, ...] = ()
) -> dict[str, int]:
    """Bid ``opening`` in the "Other bid" box (saying yes when asked) or the highest quick bid
    once, then pass; name the first trump, pass the first cards, play the first playable card each
    time, until the hand summary shows. Counts each kind of tap; checks the table at each one.

    With ``phones``, the table is checked at each decision as each of them shows it (``name``
    followed by the phone), and each tap is made on the next of them in turn."""
    taps = {"bid": 0, "trump": 0, "pass": 0, "card": 0}
    views = [(f"{name}-{phone}", phone) for phone in phones] or [(name, "")]

    def each_phone(turn: int) -> Iterator[str]:
        """Each phone's name for the table as it shows it; then the page is the ``turn``-th's."""
        for view, phone in views:
            if phone:
                as_phone(page, phone)
            yield view
        if phones:
            as_phone(page, phones[turn % len(phones)])

    summary = page.get_by_role("region", name="Hand summary")
    turn = 0
    while not summary.is_visible():
        before = version(page)
        bids = page.get_by_role("region", name="Your bid")
        if bids.is_visible():
            for view in each_phone(turn):
                at_the_decision(page, view, f"bid {taps['bid'] + 1}")
                if taps["bid"] == 0:
                    shot(page, f"{view}-bid")
            if taps["bid"] == 0 and opening is not None:
                page.get_by_label("Other bid").fill(str(opening))
                page.get_by_role("button", name="Bid", exact=True).click()
                page.get_by_role("button", name=f"Yes, bid {opening}").click()
            else:
                chips = bids.locator("button.chip")
                (chips.last if taps["bid"] == 0 else chips.first).click()
            taps["bid"] += 1
        elif page.get_by_role("region", name="Name trump").is_visible():
            for view in each_phone(turn):
                at_the_decision(page, view, "trump")
                shot(page, f"{view}-trump")
            page.get_by_role("region", name="Name trump").locator("button[name=trump]").first.click()
            taps["trump"] += 1
        elif page.locator("input[name=pass]").first.is_visible():
            for view in each_phone(turn):
                at_the_decision(page, view, "pass")
            boxes = page.locator("input[name=pass]")
            count = int(page.locator("form.pass-form").get_attribute("data-pass-count"))
            button = page.locator(".pass-button")
            for box in boxes.all()[:count]:
                expect(button).to_be_disabled()  # not until exactly `count` are chosen
                box.check()
            for view in each_phone(turn):
                chosen = page.evaluate(CHOSEN_CONTRASTS)
                assert len(chosen) == count, (view, chosen)
                assert min(chosen) >= 4.5, (view, chosen)  # the chosen cards read at AA, dark too
                shot(page, f"{view}-pass")
            button.click()
            taps["pass"] += 1
        else:
            card = page.locator(".my-hand button.card:enabled").first
            expect(card).to_be_visible()
            for view in each_phone(turn):
                at_the_decision(page, view, f"card {taps['card'] + 1}")
                if taps["card"] in (0, 2):
                    shot(page, f"{view}-play-{taps['card'] + 1}")
            card.click()
            taps["card"] += 1
        answered(page, before)
        turn += 1
    for view in each_phone(turn):
        at_the_decision(page, view, "summary")
        shot(page, f"{view}-summary")
    return taps


@pytest.mark.parametrize("variant", HANDS)
def test_a_whole_hand_on_one_screen(live_server, new_phone, seeded, variant):
    """One hand of each variant, the table checked at every decision on each of the three phones
    (the page resized, its colours switched), each tap made on the next of them in turn."""
    label, seed, opening = HANDS[variant]
    seeded(seed)
    # Double-deck's tricks land and lift the veil on classic's timing (four seats): its hand is
    # checked for what it shows, its cards in place at once, and the motion on the other two.
    motion = {"reduced_motion": "reduce"} if variant == "double-deck" else {}
    page = new_phone(**PHONES["375x812"], **motion).new_page()
    errors = watch_console(page)
    deal(page, live_server.url, label)

    taps = play_hand(page, f"practice-{variant}", opening, tuple(PHONES))

    cards = {"classic": 12, "double-deck": 20, "six-handed": 8}[variant]
    assert taps["card"] == cards or taps["trump"] == 0  # every card, unless the hand was not played
    summary = page.get_by_role("region", name="Hand summary")
    expect(summary).to_contain_text("You bid 60" if variant == "classic" else " bid ")
    expect(page.get_by_role("button", name="Next hand")).to_be_visible()
    assert errors == []


def test_a_double_deck_hand_without_a_marriage_is_warned_before_the_bid(live_server, page: Page, seeded):
    seeded(NO_MARRIAGE_SEED)
    deal(page, live_server.url, "Double-deck (4 players, partners)")
    expect(page.get_by_role("region", name="Your bid")).to_contain_text("You hold no marriage")

    taps = play_hand(page, "practice-no-marriage", OUT_OF_REACH["double-deck"])

    assert (taps["trump"], taps["card"]) == (0, 0)
    expect(page.get_by_role("region", name="Hand summary")).to_contain_text(
        "You bid 200 and forfeited: no marriage to name trump"
    )


def test_a_stale_page_is_refused_next_to_the_hand(live_server, page: Page, new_phone, seeded):
    seeded(CLASSIC_SEED)
    deal(page, live_server.url, "Classic (4 players, partners)")
    other_tab = page.context.new_page()
    other_tab.goto(page.url)
    before = version(other_tab)
    other_tab.get_by_role("region", name="Your bid").locator("button.chip").first.click()
    answered(other_tab, before)

    page.get_by_role("region", name="Your bid").locator("button.chip").last.click()

    refusal = page.get_by_role("alert").filter(has_text="That was already played")
    expect(refusal).to_be_visible()
    box = refusal.bounding_box()
    assert box is not None
    assert box["y"] >= 0
    assert box["y"] + box["height"] <= page.viewport_size["height"]
    hand = page.get_by_role("region", name="Your hand").bounding_box()
    assert hand is not None
    assert hand["y"] - (box["y"] + box["height"]) < 200  # next to the hand, where the thumb is
    at_the_decision(page, "practice-stale", "refused")
    shot(page, "practice-refused")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_table_is_axe_clean(live_server, new_phone, seeded, scheme):
    seeded(CLASSIC_SEED)
    page = new_phone(color_scheme=scheme).new_page()
    deal(page, live_server.url, "Classic (4 players, partners)")
    page.get_by_role("region", name="Your bid").locator("button.chip").first.click()  # pass
    page.locator(".my-hand button.card:enabled, .hand-summary").first.wait_for()
    shot(page, f"practice-table-{scheme}")
    blocking = [v for v in axe_violations(page) if v["impact"] in {"serious", "critical"}]
    assert blocking == []
    # axe skips disabled controls: a card the rules refuse must still read at AA (4.5:1) on both
    # colours of its hatched ground, at full opacity.
    contrasts = disabled_card_contrasts(page)
    assert contrasts  # this deal's first trick refuses some cards
    assert min(contrasts) >= 4.5, (scheme, contrasts)
    # … and is visibly dimmed, rank and suit, beside the page's text (dark: the muted grey alone was
    # nearly as bright, and a red suit kept its full red)
    text = luminance(page.evaluate("getComputedStyle(document.body).color"))
    faces = page.locator(".fan button.card:disabled .face span").evaluate_all(
        "(spans) => spans.map((span) => getComputedStyle(span).color)"
    )
    dimmed = [luminance(colour) for colour in faces]
    if scheme == "dark":
        assert max(dimmed) < 0.4 * text, (faces, text)
    else:
        assert min(dimmed) > 3 * text, (faces, text)


def luminance(css_colour: str) -> float:
    """The relative luminance (WCAG) of an ``rgb(…)`` colour."""
    channels = [float(v) / 255 for v in re.findall(r"[\d.]+", css_colour)[:3]]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_the_bid_says_the_least_bid_where_the_eye_is_and_pass_is_plain(live_server, page: Page, seeded):
    seeded(CLASSIC_SEED)
    deal(page, live_server.url, "Classic (4 players, partners)")
    bids = page.get_by_role("region", name="Your bid")
    least = page.get_by_label("Other bid").get_attribute("min")

    expect(bids.get_by_role("heading")).to_have_text(f"Your bid — at least {least}")
    assert bids.locator("button.chip").nth(1).inner_text() == least  # the first quick bid is that bid
    pass_chip = bids.get_by_role("button", name="Pass", exact=True)
    ground = pass_chip.evaluate("(chip) => getComputedStyle(chip).backgroundColor")
    card = page.locator(".practice-totals li").first.evaluate("(li) => getComputedStyle(li).backgroundColor")
    assert ground == card  # a plain chip, not the filled green of "chosen" or "suggested"


def disabled_card_contrasts(page: Page) -> list[float]:
    """The contrast of each disabled card's text with the page's two ground colours (its hatching)."""
    return page.evaluate(
        """() => {
        const rgb = (text) => text.match(/[\\d.]+/g).slice(0, 3).map(Number);
        const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255;
            return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
            return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
        const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
            return (x + 0.05) / (y + 0.05); };
        const probe = document.createElement('span');
        document.body.append(probe);
        const ground = ['--bg', '--card'].map((name) => {
            probe.style.color = `var(${name})`; return rgb(getComputedStyle(probe).color); });
        probe.remove();
        return [...document.querySelectorAll('.fan button.card:disabled')].flatMap((card) => {
            const style = getComputedStyle(card);
            const faded = Number(style.opacity) < 1 ? 0 : 1;  // a faded card fails outright
            return ground.map((g) => faded * ratio(rgb(style.color), g));
        });
    }"""
    )


def test_a_hand_plays_with_javascript_off(live_server, browser: Browser, browser_context_args, seeded):
    seeded(CLASSIC_SEED)
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    page = context.new_page()
    try:
        deal(page, live_server.url, "Classic (4 players, partners)")
        page.get_by_role("link", name="Hint").click()
        expect(page.get_by_text("Hint: ")).to_be_visible()
        assert not ENGINE_CODE.search(page.evaluate("document.body.innerText"))
        before = version(page)
        page.get_by_role("button", name="Take the hint").click()
        answered(page, before)
        expect(page.locator(".auction")).to_contain_text("You")

        taps = play_hand_without_javascript(page)

        assert taps == 12
        page.get_by_role("button", name="Next hand").click()
        expect(page.get_by_text("Hand 2")).to_be_visible()
    finally:
        context.close()


def play_hand_without_javascript(page: Page) -> int:
    """Plain forms all the way (the layout may scroll here): pass, name a trump, pass the first
    cards, play the first playable card; the number of cards played."""
    cards = 0
    while not page.get_by_role("region", name="Hand summary").is_visible():
        before = version(page)
        if page.get_by_role("region", name="Your bid").is_visible():
            page.get_by_label("Other bid").fill(str(OUT_OF_REACH["classic"]))
            page.get_by_role("button", name="Bid", exact=True).click()
            page.get_by_role("button", name=f"Yes, bid {OUT_OF_REACH['classic']}").click()
        elif page.get_by_role("region", name="Name trump").is_visible():
            page.get_by_role("region", name="Name trump").locator("button[name=trump]").first.click()
        elif page.locator("input[name=pass]").first.is_visible():
            count = int(page.locator("form.pass-form").get_attribute("data-pass-count"))
            for box in page.locator("input[name=pass]").all()[:count]:
                box.check()
            page.locator(".pass-button").click()
        else:
            page.locator(".my-hand button.card:enabled").first.click()
            cards += 1
        answered(page, before)
    return cards


CONTROLS = "button, a, summary, input, label, .practice-totals li, th, td"


def clipped_controls(page: Page) -> list[str]:
    """Controls and table cells cut off at the page's right edge or inside their own box. A table
    that scrolls sideways in its own box (the advisor's nine columns) is not counted: its scroll
    reaches every cell. The practice table's strip of folds is counted: it wraps, never scrolls."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].filter((el) => {
            const box = el.getBoundingClientRect();
            if (!box.width || el.closest('.table-scroll, .visually-hidden, [hidden]')) return false;
            const typed = el.matches('input, select');  // a long value scrolls inside its box
            const hides = getComputedStyle(el).overflowX !== 'visible';
            const cut = !typed && hides && el.scrollWidth > el.clientWidth + 1;
            return box.right > innerWidth + 0.5 || box.left < -0.5 || cut;
        }).map((el) => el.outerHTML.slice(0, 80))""",
        CONTROLS,
    )


@pytest.mark.parametrize(
    "variant", ["Six-handed (Schoneboom family rules)", "Double-deck (4 players, partners)"]
)
def test_nothing_is_clipped_at_320_pixels(live_server, new_phone, seeded, variant):
    seeded(SIX_HANDED_SEED)
    page = new_phone(viewport={"width": 320, "height": 640}).new_page()
    deal(page, live_server.url, variant)
    shot(page, f"practice-320-{variant.split()[0].lower()}")

    assert_fits_the_phone(page)
    assert clipped_controls(page) == []


@pytest.mark.parametrize(
    "path",
    [
        "/meld/?variant=classic&trump=H&cards=AH+TH+KH+QH+JH+9H+KS+QS",
        "/meld/?variant=six-handed",
        "/meld/?variant=six-handed&cards=AS+TS+KS+QS+JS+KH+QH+9D&advise=1",
    ],
)
def test_the_meld_calculator_and_advisor_are_not_clipped_at_320_pixels(live_server, new_phone, path):
    page = new_phone(viewport={"width": 320, "height": 640}).new_page()
    page.goto(f"{live_server.url}{path}")
    shot(
        page, "meld-320-" + path.split("variant=")[1].split("&")[0] + ("-advice" if "advise" in path else "")
    )

    assert_fits_the_phone(page)
    assert clipped_controls(page) == []
    if "advise" in path:  # the advisor's table fits without its sideways scroll
        fits = "(box) => box.querySelector('table').scrollWidth <= box.clientWidth"
        assert page.locator(".advisor .table-scroll").evaluate(fits)


def test_the_next_seat_says_thinking_while_the_answer_is_on_its_way(live_server, page: Page, seeded):
    seeded(CLASSIC_SEED)
    deal(page, live_server.url, "Classic (4 players, partners)")
    held = []
    page.route("**/act/", lambda route: held.append(route))  # the answer waits until the check below
    thinking = page.locator(".seat.next .thinking")
    expect(thinking).to_be_hidden()

    page.get_by_role("region", name="Your bid").locator("button.chip").first.click()

    expect(thinking).to_be_visible()
    expect(thinking).to_have_text("thinking…")
    deadline = time.monotonic() + 10  # the held request reaches the handler as Playwright's events are read
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(20)
    held[0].continue_()
    expect(page.locator(".practice-table.htmx-request")).to_have_count(0)


def test_a_landscape_tablet_gets_the_same_table_wider(live_server, new_phone, seeded):
    seeded(CLASSIC_SEED)
    page = new_phone(viewport={"width": 1024, "height": 768}, is_mobile=False, has_touch=True).new_page()
    deal(page, live_server.url, "Classic (4 players, partners)")
    at_the_decision(page, "practice-tablet", "bid 1")
    shot(page, "practice-tablet-landscape")
    felt = page.locator(".felt").bounding_box()
    assert felt is not None
    assert felt["width"] > 600
