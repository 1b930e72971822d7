"""Counts said as a person says them, for the texts every screen shows."""
from __future__ import annotations


def counted_dice(n: int) -> str:
    """``n`` dice, said as a person would: a throw may be of one die (Pub Chicago's last
    die, 10000's last die, a draw's single die).

    >>> counted_dice(1), counted_dice(3), counted_dice(0)
    ('1 die', '3 dice', '0 dice')
    """
    return f"{n} {'die' if n == 1 else 'dice'}"
