"""The totals chart's geometry: every point inside the viewBox, axes that tell the truth."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorepad.charts import LABEL_FONT_SIZE, nice_step, totals_chart


def points_of(series):
    return [tuple(float(n) for n in pair.split(",")) for pair in series.points.split()]


def inside_plot(chart, x, y):
    return chart.left <= x <= chart.right and chart.top <= y <= chart.bottom


def test_lines_start_at_zero_before_the_first_hand_and_end_at_the_final_total():
    chart = totals_chart([[31, 21], [1, 45]], target=150, labels=["N/S", "E/W"])

    ns, ew = chart.series
    assert [p[0] for p in points_of(ns)] == [chart.left, (chart.left + chart.right) / 2, chart.right]
    assert points_of(ns)[0][1] == chart.zero_y
    assert (ns.total, ew.total) == (1, 45)
    assert (ns.end_x, ns.end_y) == points_of(ns)[-1]


def test_a_higher_total_is_drawn_higher_up():
    chart = totals_chart([[100, 20]], target=150, labels=["N/S", "E/W"])

    ns, ew = chart.series
    assert ns.end_y < ew.end_y < chart.zero_y


def test_negative_totals_extend_the_axis_below_zero_inside_the_viewbox():
    chart = totals_chart([[-30, 24], [-85, 40]], target=150, labels=["N/S", "E/W"])

    assert chart.y_ticks[0].value <= -85 < 0
    assert chart.zero_y < chart.bottom  # room below the zero line
    ns = chart.series[0]
    assert ns.end_y > chart.zero_y  # below zero means lower on screen
    assert all(inside_plot(chart, x, y) for x, y in points_of(ns))
    assert chart.bottom <= chart.height


def test_the_target_line_is_on_the_axis_even_when_nobody_is_near_it():
    chart = totals_chart([[10, 5]], target=500, labels=["N/S", "E/W"])

    assert chart.top <= chart.target_y < chart.series[0].end_y
    assert chart.y_ticks[-1].value >= 500


def test_y_ticks_are_evenly_spaced_round_numbers_in_order():
    chart = totals_chart([[210, -40], [430, -10]], target=500, labels=["N/S", "E/W"])

    values = [tick.value for tick in chart.y_ticks]
    steps = {b - a for a, b in itertools.pairwise(values)}
    assert len(steps) == 1
    assert steps.pop() in {50, 100, 200}
    assert [tick.position for tick in chart.y_ticks] == sorted(
        (tick.position for tick in chart.y_ticks), reverse=True
    )


def test_long_games_label_only_a_few_hands():
    chart = totals_chart([[i, -i] for i in range(1, 41)], target=150, labels=["N/S", "E/W"])

    assert len(chart.x_ticks) <= 9
    assert chart.x_ticks[0].value == 0
    assert chart.x_ticks[-1].value == 40


@pytest.mark.parametrize("target", [50, 150, 1000])
def test_the_hand_axis_name_has_its_own_row_below_the_hand_numbers(target):
    chart = totals_chart([[12, -30], [40, 8]], target=target, labels=["N/S", "E/W"])

    # Beside the numbers, "hand" ran into the "0" under the first hand.
    assert chart.axis_name_y - LABEL_FONT_SIZE >= chart.hand_label_y
    assert chart.hand_label_y - LABEL_FONT_SIZE >= chart.bottom
    assert chart.axis_name_y + LABEL_FONT_SIZE / 4 <= chart.height  # its descent stays in the viewBox
    assert chart.left < chart.axis_name_x < chart.right


def test_six_sides_get_six_lines():
    totals = [[10 * s for s in range(6)], [20 * s - 50 for s in range(6)]]
    chart = totals_chart(totals, target=1000, labels=[f"P{s + 1}" for s in range(6)])

    assert [line.label for line in chart.series] == ["P1", "P2", "P3", "P4", "P5", "P6"]
    assert [line.total for line in chart.series] == [-50, -30, -10, 10, 30, 50]


def test_a_game_without_hands_still_has_a_sensible_axis():
    chart = totals_chart([], target=150, labels=["N/S", "E/W"])

    assert chart.hands == 0
    assert chart.zero_y == chart.bottom
    assert chart.target_y >= chart.top


def test_summary_reads_the_standings_in_words():
    chart = totals_chart([[31, 21]], target=150, labels=["Ann & Cy", "Bo & Di"])

    assert chart.summary == "Running totals after 1 hand: Ann & Cy 31; Bo & Di 21. Target 150."


def test_a_row_with_the_wrong_number_of_sides_is_refused():
    with pytest.raises(ValueError, match="one total per side"):
        totals_chart([[1, 2, 3]], target=150, labels=["N/S", "E/W"])


@pytest.mark.parametrize(("span", "step"), [(0, 1), (6, 1), (7, 2), (150, 50), (1000, 200), (1300, 500)])
def test_nice_step_picks_1_2_5_steps(span, step):
    assert nice_step(span, 6) == step


totals_rows = st.integers(min_value=1, max_value=6).flatmap(
    lambda sides: st.lists(
        st.lists(st.integers(min_value=-5000, max_value=5000), min_size=sides, max_size=sides),
        max_size=60,
    ).map(lambda rows: (sides, rows))
)


@given(totals_rows, st.integers(min_value=1, max_value=2000))
def test_every_point_and_line_lies_inside_the_viewbox(sides_rows, target):
    sides, rows = sides_rows
    chart = totals_chart(rows, target=target, labels=[str(s) for s in range(sides)])

    assert 0 < chart.left < chart.right <= chart.width
    assert 0 < chart.top < chart.bottom <= chart.height
    for line in chart.series:
        assert all(inside_plot(chart, x, y) for x, y in points_of(line))
    for y in (chart.zero_y, chart.target_y, *(t.position for t in chart.y_ticks)):
        assert chart.top <= y <= chart.bottom
