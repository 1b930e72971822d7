"""Pub Chicago's help text: the rules, options and decisions in force, one line each.

>>> help_lines({"variant": "basis", "match_length": 5})[0].split(":")[0]
'Pub Chicago, variant Basis (strokes)'
"""
from __future__ import annotations

from typing import Any, Mapping

COMMON = [
    "A throw round goes once round the table from its leader; each player throws up to "
    "three times and may stop after any throw (done).",
    "After a throw a player may set dice aside; they stay and are not thrown again.",
    "Two sixes of the latest throw may become a one (set aside) while a throw is left; the "
    "other six goes back in the cup and the next throw must be made. Decision: at most once "
    "per throw; both sixes must still be on the table; three sixes never become two ones.",
    "The leader announces after their last throw: ones 100 or 1, sixes 60 or 6, high or low "
    "(decision: high = the highest value is best, low = the lowest).",
    "Decision: the announcement is due when the leader says done, uses the third throw or "
    "throws a Chicago; the leader's turn is not over until announced, and announcing after "
    "any throw also ends the leader's throwing.",
    "The leader's number of throws caps everyone else in that throw round.",
    "A turn ends with done, or by itself after the last allowed throw; a done there is "
    "accepted and changes nothing.",
    "Value: the sum of the three dice, ones and sixes counted as announced (6·3·5 is 68 "
    "with sixes 60, 14 with sixes 6).",
    "Chicago: three ones in one throw beat everything; ones gathered over several throws "
    "count normally. Decision: a Chicago ends the thrower's turn at once.",
    "Ties: the first to reach the best value is best; the last to reach the worst is worst. "
    "Decision: the same between two Chicagos.",
    "The first leader is drawn by lot (the leader action; without it the first player "
    "leads). Decision: the app draws once a game; a draw taken back by Undo is drawn the "
    "same again. Decision: the worst of a throw round leads the next one, in every variant.",
    "Decision: players cannot join or leave a game of Pub Chicago.",
    "Decision: if a correction ends the leader's turn before the announcement, the round is "
    "valued ones 100, sixes 60, high.",
]

BASIS = [
    "The best of each throw round is safe for the rest of the loser search; the last player "
    "left gets a stroke.",
    "The loser of a loser search leads the next one.",
    "Decision: a tie for most strokes is decided by one more loser search among the tied "
    "players, led by the last loser (or the next tied player round the table from them).",
]

LIDS = [
    "Decision: every lid starts in the pot.",
    "Phase 1, distribute: the worst of each throw round takes a lid from the pot until it is "
    "empty.",
    "Decision: when the pot is empty, players without lids are out (safe).",
    "The loser is the last player still holding lids (or the last one left in the game).",
]

BAYRISCH = [
    "Phase 2, reduce: the best of each throw round lays one lid down (it leaves the game); "
    "a player with no lids left is out (safe).",
    "A Chicago takes the thrower out at once with all their lids (they leave the game); the "
    "others finish the throw round, even if only one of them is left, and in phase 1 its "
    "worst still takes a lid; the game ends when that round does.",
    "Decision: in phase 2 nobody lays a lid down in a round where a Chicago took a thrower "
    "out. Decision: a leader who throws a Chicago still announces.",
    "Decision: if everyone left in a throw round throws a Chicago, nobody is left and the "
    "game ends with no loser.",
]

TSCHIGG = [
    "Phase 2, reduce: the best of each throw round gives one of their lids to the worst; a "
    "player with no lids has won and leaves the game.",
    "Decision: lids only move between players; one who leaves takes none out of the game.",
    "Sand: instead of the usual announcement the leader may announce Sand; a result with no "
    "one and no six makes Sand (decision: a Chicago counts as making it).",
    "Sand, phase 1: the last player whose result holds a one or a six takes the lid. Phase 2: "
    "the last who made Sand may give one of their lids away (decision: to the last who "
    "missed it); the lid goes unless they keep it before the next throw.",
    "Decision: in a Sand round no lid moves if nobody missed (phase 1) or nobody made it "
    "(phase 2); the last who missed it (else the last thrower) leads next.",
]


def help_lines(options: Mapping[str, Any]) -> list[str]:
    """Every line of help for a game with these options.

    >>> lines = help_lines({"variant": "bayrisch"})
    >>> lines[0]
    'Pub Chicago, variant Bayrisch (lids): players + 1 lids; the game ends by itself.'
    """
    variant = options["variant"]
    if variant == "basis":
        head = (f"Pub Chicago, variant Basis (strokes): the match is {options['match_length']} "
                f"loser search{'' if options['match_length'] == 1 else 'es'} (decision: 3 "
                "unless chosen; the seed gives none); the loser has the most strokes.")
        return [head] + COMMON + BASIS
    if variant == "bayrisch":
        head = "Pub Chicago, variant Bayrisch (lids): players + 1 lids; the game ends by itself."
        return [head] + COMMON + LIDS + BAYRISCH
    head = "Pub Chicago, variant Tschigg (lids): 2 × players − 1 lids; the game ends by itself."
    return [head] + COMMON + LIDS + TSCHIGG
