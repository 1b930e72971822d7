"""The game families the start form offers, with their option tables (from the scorer)."""
from __future__ import annotations

from typing import Any

import scorer

def family_table() -> dict[str, Any]:
    """Every family whose rules load: title, options (default first), how the form says
    each option and its values (``words``), which options mean something only with
    another option's value (``needs``), and player limits.

    A family still being written (its module missing or broken) is left out rather than
    breaking the page.
    """
    out: dict[str, Any] = {}
    for family in scorer.FAMILIES:
        try:
            rules = scorer.rules_for(family)
        except Exception:  # noqa: BLE001 - not ready yet; the form offers the others
            continue
        out[family] = {"title": rules.title,
                       "options": {k: list(v) for k, v in rules.options.items()},
                       "words": {k: {"label": w.label, "values": list(w.values)}
                                 for k, w in rules.option_words.items()},
                       "needs": {k: list(v) for k, v in rules.option_needs.items()},
                       "min_players": rules.min_players, "max_players": rules.max_players}
    return out


def titles() -> dict[str, str]:
    """Each family's name as the rule book gives it, by its key (the key itself for a
    family whose rules do not load, so an old game of it still has a name)."""
    out: dict[str, str] = {}
    for family in scorer.FAMILIES:
        try:
            out[family] = scorer.rules_for(family).title
        except Exception:  # noqa: BLE001 - as in family_table
            out[family] = family
    return out
