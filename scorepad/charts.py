"""The totals chart of a game: running totals per side, drawn as SVG polylines.

Pure geometry, no Django: ``totals_chart`` turns the running totals after each hand into
coordinates inside a fixed viewBox, so the template only prints numbers. The y-axis always
spans 0 and the target, and reaches below 0 when a side goes negative (RULES.md §0.7), so
every point, the zero line and the target line lie inside the viewBox.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 320
HEIGHT = 214
MARGIN_TOP = 10
MARGIN_RIGHT = 10
MARGIN_BOTTOM = 36  # two rows under the plot: the hand numbers, then the axis name "hand"
LABEL_FONT_SIZE = 11  # the axis labels' size in viewBox units: .totals-chart-svg in history.css
CHAR_WIDTH = 7  # px per digit of an axis label at the chart's font size
MAX_Y_TICKS = 6
MAX_X_TICKS = 8


@dataclass(frozen=True, slots=True)
class Tick:
    value: int
    position: float  # y for the value axis, x for the hand axis


@dataclass(frozen=True, slots=True)
class Series:
    side: int
    label: str
    total: int
    points: str  # "x,y x,y …" for <polyline points>
    end_x: float
    end_y: float


@dataclass(frozen=True, slots=True)
class TotalsChart:
    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    series: tuple[Series, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    zero_y: float
    target: int
    target_y: float
    hands: int
    summary: str

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width} {self.height}"

    @property
    def value_label_x(self) -> float:
        """Where the value axis's labels end, just left of the plot."""
        return self.left - 4

    @property
    def hand_label_y(self) -> float:
        """The baseline of the hand axis's numbers, just below the plot."""
        return self.bottom + LABEL_FONT_SIZE + 5

    @property
    def axis_name_x(self) -> float:
        """The axis name is centred under the plot, on a row of its own.

        Beside the numbers it ran into the "0" under the first hand: the gutter left of the plot is
        only as wide as the value labels, which can be a single digit.
        """
        return (self.left + self.right) / 2

    @property
    def axis_name_y(self) -> float:
        """The axis name's baseline, a full line below the hand numbers."""
        return self.hand_label_y + LABEL_FONT_SIZE + 3


def nice_step(span: float, max_ticks: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50 … that cuts ``span`` into at most ``max_ticks`` steps."""
    rough = max(span, 1) / max_ticks
    magnitude = 10 ** math.floor(math.log10(rough))
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= rough:
            return max(1, int(factor * magnitude))
    return int(10 * magnitude)  # pragma: no cover - the loop always returns


def _round(value: float) -> float:
    return round(value, 1)


def totals_chart(
    totals: Sequence[Sequence[int]],
    *,
    target: int,
    labels: Sequence[str],
    width: int = WIDTH,
    height: int = HEIGHT,
) -> TotalsChart:
    """Scale the running totals after each hand (one list per hand, one entry per side).

    Every line starts at 0 before the first hand, so hand ``k`` (counting from 1) sits at
    step ``k`` of the hand axis.
    """
    sides = len(labels)
    if any(len(row) != sides for row in totals):
        raise ValueError(f"every hand needs one total per side ({sides})")
    rows = [tuple([0] * sides), *(tuple(row) for row in totals)]
    values = [value for row in rows for value in row]

    step = nice_step(max(max(values), target) - min(min(values), 0), MAX_Y_TICKS)
    low = math.floor(min(min(values), 0) / step) * step
    high = max(math.ceil(max(max(values), target) / step) * step, low + step)
    y_ticks_values = range(low, high + 1, step)

    left = float(8 + CHAR_WIDTH * max(len(str(v)) for v in y_ticks_values))
    right, top, bottom = float(width - MARGIN_RIGHT), float(MARGIN_TOP), float(height - MARGIN_BOTTOM)
    hands = len(rows) - 1

    def x_of(hand: int) -> float:
        return _round(left + (right - left) * hand / max(hands, 1))

    def y_of(value: int) -> float:
        return _round(bottom - (bottom - top) * (value - low) / (high - low))

    series = tuple(
        Series(
            side=side,
            label=labels[side],
            total=rows[-1][side],
            points=" ".join(f"{x_of(hand)},{y_of(row[side])}" for hand, row in enumerate(rows)),
            end_x=x_of(hands),
            end_y=y_of(rows[-1][side]),
        )
        for side in range(sides)
    )
    x_step = nice_step(hands, MAX_X_TICKS)
    return TotalsChart(
        width=width,
        height=height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        series=series,
        y_ticks=tuple(Tick(v, y_of(v)) for v in y_ticks_values),
        x_ticks=tuple(Tick(h, x_of(h)) for h in range(0, hands + 1, x_step)),
        zero_y=y_of(0),
        target=target,
        target_y=y_of(target),
        hands=hands,
        summary=_summary(series, hands, target),
    )


def _summary(series: Sequence[Series], hands: int, target: int) -> str:
    """The chart in words, for its <desc>: what a screen reader says instead of the lines."""
    standings = "; ".join(f"{line.label} {line.total}" for line in series)
    plural = "" if hands == 1 else "s"
    return f"Running totals after {hands} hand{plural}: {standings}. Target {target}."
