"""How a report writes times: three significant digits in s, ms or us, and a dash for none."""

from __future__ import annotations

DASH = "-"


def _unit(seconds: float) -> tuple[float, str]:
    if seconds >= 1:
        return 1.0, "s"
    if seconds >= 1e-3:
        return 1e3, "ms"
    return 1e6, "us"


def _number(value: float) -> str:
    return f"{value:.3g}" if value < 1000 else f"{value:.0f}"


def format_time(seconds: float) -> str:
    """``seconds`` with three significant digits in s, ms or us."""
    scale, unit = _unit(seconds)
    return f"{_number(seconds * scale)} {unit}"


def format_time_range(median: float, low: float, high: float) -> str:
    """``median [min-max] unit``, all in the median's unit."""
    scale, unit = _unit(median)
    return f"{_number(median * scale)} [{_number(low * scale)}-{_number(high * scale)}] {unit}"
