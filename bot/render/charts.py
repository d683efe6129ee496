"""PNG charts for Slack, drawn from the curves core computed.

Figures on a chart are spelt by ``bot.render.formats``, as in the message beside it:
a chart's ``−42%`` is read off the two bars it labels.

Each chart owns its ``Figure`` and Agg canvas and never touches pyplot, whose global
state would let two requests served on two threads draw into each other's figures.
PNG metadata carries no software version, so the same curve gives the same bytes
(cacheable, and comparable in tests).
"""

from __future__ import annotations

import io
from typing import Literal

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator

from bot.render import formats
from core.curves import BeforeAfter, CostCurve, GrowthCurve
from core.scenario import Basis

SIZE_IN = (8.0, 4.5)
DPI = 100
LEASE, API, MARK, AFTER = "#1f5fa8", "#c0392b", "#2e7d32", "#e08e0b"
LOG_SCALE_ABOVE = 5.0
"""Growth whose need passes 5x the lease is drawn on a log axis, or the lease line and
the month it runs out would be squeezed flat against the bottom."""


def cost_chart(curve: CostCurve) -> bytes:
    fig, ax = _canvas(curve.title)
    x = [u * 100 for u in curve.utilization]
    ax.plot(x, curve.usd_per_million, color=LEASE, linewidth=2.2, label=_safe("Lease $/M"))
    api = curve.api_usd_per_million
    if api is not None:
        label = _safe(f"API {formats.usd_m(api)}")
        ax.axhline(api, color=API, linestyle="--", linewidth=1.6, label=label)
        cheaper = [y <= api for y in curve.usd_per_million]
        if any(cheaper):
            ax.fill_between(
                x, curve.usd_per_million, api, where=cheaper,
                color=MARK, alpha=0.10, linewidth=0, label="Lease cheaper than the API",
            )  # fmt: skip
    _breakeven(ax, curve)
    cx, cy = curve.current_utilization * 100, curve.current_usd_per_million
    ax.plot([cx], [cy], "o", color=MARK, markersize=8, zorder=5)
    right = cx > 50  # the curve falls to the right: say it below-left there, above-right here
    ax.annotate(
        _safe(f"now: {formats.pct(curve.current_utilization)} busy, {formats.usd_m(cy)}"),
        (cx, cy),
        xytext=(-8, -10) if right else (8, 8),
        textcoords="offset points",
        ha="right" if right else "left",
        va="top" if right else "bottom",
        color=MARK,
        fontweight="bold",
    )
    ax.set_xlim(0, 100)
    ax.set_ylim(0, _cost_top(curve))
    ax.set_xlabel("Utilization (% of lease hours busy)")
    ax.set_ylabel(_safe("$ per M output tokens"))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: _safe(f"${v:,.0f}")))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:.0f}%"))
    _legend(ax, "upper right")
    basis = _basis(curve.basis, curve.error_band)
    _footnote(fig, f"{basis}. A lease bills every hour, used or not.")
    return _png(fig)


def growth_chart(curve: GrowthCurve) -> bytes:
    fig, ax = _canvas(curve.title)
    ax.step(
        curve.months,
        curve.gpus_needed,
        where="post",
        color=API,
        linewidth=2.2,
        label="GPUs the peak needs at full load",
    )
    ax.axhline(
        curve.gpus_leased,
        color=LEASE,
        linestyle="--",
        linewidth=1.8,
        label=f"Leased: {curve.gpus_leased:,} GPUs",
    )
    over = [n > curve.gpus_leased for n in curve.gpus_needed]
    ax.fill_between(
        curve.months, curve.gpus_leased, curve.gpus_needed, where=over, step="post",
        color=API, alpha=0.12, linewidth=0,
    )  # fmt: skip
    _headroom(ax, curve)
    ax.set_xlim(curve.months[0], curve.months[-1])
    log = max(curve.gpus_needed) > LOG_SCALE_ABOVE * curve.gpus_leased
    if log:
        ax.set_yscale("log")
        ax.yaxis.set_minor_locator(LogLocator(subs=(2.0, 5.0)))
        ax.yaxis.set_minor_formatter(_counts())
        ax.set_ylabel("GPUs (log scale)")
    else:
        ax.set_ylim(0, max(*curve.gpus_needed, curve.gpus_leased) * 1.15)
        ax.set_ylabel("GPUs")
    ax.yaxis.set_major_formatter(_counts())
    ax.set_xlabel("Months from the start of the lease")
    _legend(ax, "center left" if log else "lower right")  # where the rising need is not
    g = curve.monthly_growth
    growth = f"Peak grows {formats.pct(g)} a month, compounding" if g > 0 else "Peak held flat"
    basis = _basis(curve.basis, curve.error_band)
    _footnote(fig, f"{basis}. {growth}; GPUs come in replicas of {curve.gpus_per_replica}.")
    return _png(fig)


def before_after_chart(data: BeforeAfter) -> bytes:
    fig, ax = _canvas(data.title)
    slots = range(len(data.labels))
    width = 0.38
    before = ax.bar([i - width / 2 for i in slots], data.before, width, color=LEASE, label="Before")
    after = ax.bar([i + width / 2 for i in slots], data.after, width, color=AFTER, label="After")
    for bars, values in ((before, data.before), (after, data.after)):
        ax.bar_label(bars, labels=[_safe(formats.usd_per_m(v)) for v in values], padding=2)
    top = max(*data.before, *data.after, 1e-9)
    for i, (b, a) in enumerate(zip(data.before, data.after, strict=True)):
        if b > 0:
            ax.annotate(
                formats.change(b, a, "usd_per_m"),
                (i, max(a, b)),
                xytext=(0, 16),
                textcoords="offset points",
                ha="center",
                fontweight="bold",
            )
    ax.set_xticks(list(slots), [_safe(label) for label in data.labels])
    ax.set_ylim(0, top * 1.3)
    ax.set_ylabel(_safe(data.unit))
    _legend(ax, "upper right")
    if data.footnote:
        _footnote(fig, data.footnote)
    return _png(fig)


def _canvas(title: str) -> tuple[Figure, Axes]:
    fig = Figure(figsize=SIZE_IN, dpi=DPI)
    FigureCanvasAgg(fig)
    fig.subplots_adjust(left=0.11, right=0.97, top=0.89, bottom=0.2)
    ax = fig.add_subplot()
    ax.set_title(_safe(title), fontsize=13, fontweight="bold", loc="left")
    ax.grid(True, color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    return fig, ax


def _breakeven(ax: Axes, curve: CostCurve) -> None:
    b = curve.breakeven_utilization
    if b is None:
        return
    lowest = curve.utilization[0]
    if b > 1:
        text = "Never breaks even: the API is cheaper even at 100% busy"
    elif b < lowest:
        text = f"Breaks even below {formats.pct(lowest)} busy ({formats.pct(b)})"
    else:
        ax.axvline(b * 100, color=MARK, linestyle=":", linewidth=1.8)
        _line_label(ax, f"breakeven {formats.pct(b)}", b * 100, flip=b > 0.6)
        return
    ax.text(0.98, 0.62, _safe(text), transform=ax.transAxes, ha="right", color=MARK)


def _cost_top(curve: CostCurve) -> float:
    """Clip the 1/u tail: the interesting range is around the API price and today's load."""
    cheapest = min(curve.usd_per_million)
    wanted = max(3 * (curve.api_usd_per_million or 0), 3 * curve.current_usd_per_million)
    return min(max(curve.usd_per_million), max(wanted, 5 * cheapest)) * 1.05


def _headroom(ax: Axes, curve: GrowthCurve) -> None:
    h = curve.months_of_headroom
    last = curve.months[-1]
    if h is None:
        text = "No growth: the lease carries the peak throughout"
    elif h > last:
        text = f"Headroom lasts {formats.months(h)}, past this chart"
    else:
        ax.axvline(h, color=MARK, linestyle=":", linewidth=1.8)
        _line_label(ax, f"more GPUs needed after {formats.months(h)}", h, flip=h > 0.6 * last)
        return
    ax.text(0.02, 0.05, text, transform=ax.transAxes, color=MARK)


def _line_label(ax: Axes, text: str, x: float, *, flip: bool) -> None:
    """Label a vertical marker near the top, on whichever side has room."""
    ax.annotate(
        text,
        (x, 0.97),
        xycoords=("data", "axes fraction"),
        xytext=(-6 if flip else 6, 0),
        textcoords="offset points",
        ha="right" if flip else "left",
        va="top",
        color=MARK,
        fontweight="bold",
        bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.85, "pad": 1.5},
    )


def _legend(ax: Axes, loc: Literal["upper right", "lower right", "center left"]) -> None:
    ax.legend(loc=loc, facecolor="white", edgecolor="none", framealpha=0.9)


def _basis(basis: Basis, band: float) -> str:
    if basis == "measured":
        return "Throughput measured"
    return f"Throughput {basis}, {formats.band(band)}"


def _footnote(fig: Figure, text: str) -> None:
    fig.text(0.01, 0.02, _safe(text), fontsize=9, color="#555555", ha="left", va="bottom")


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


def _counts() -> FuncFormatter:
    """A fresh formatter per axis: matplotlib binds a formatter to the axis it serves."""
    return FuncFormatter(lambda v, _: f"{v:,.0f}")


def _safe(text: str) -> str:
    """Two dollar signs in one label would switch matplotlib to math mode."""
    return text.replace("$", r"\$")
