"""Pub Chicago (RULES.md §2): what happens at the end of a throw round in each variant.

Basis hands out strokes over loser searches; Bayrisch and Tschigg move lids. Each
``settle_*`` function applies one finished throw round to the match and names the
leader of the next throw round (None when the game is over).

>>> m = new_match(["A", "B", "C"], {"variant": "bayrisch"})
>>> m.pot, m.phase, m.playing
(4, 'distribute', ['A', 'B', 'C'])
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from .pub_chicago_dice import Announcement, Result, best_and_worst, sand_outcome


@dataclass
class Match:
    """The standing of a Pub Chicago game between throw rounds.

    ``playing`` (seat order) is who throws in the next throw round: in Basis the
    players of the current loser search who are not yet safe; in Bayrisch and Tschigg
    the players still in the game.

    >>> Match("basis", 3, ["A", "B"]).strokes
    {'A': 0, 'B': 0}
    """

    variant: str
    match_length: int
    seats: list[str]
    playing: list[str] = field(default_factory=list)
    strokes: dict[str, int] = field(default_factory=dict)
    lids: dict[str, int] = field(default_factory=dict)
    pot: int = 0
    phase: str | None = None
    search_players: list[str] = field(default_factory=list)
    losers: list[str] = field(default_factory=list)
    out_by_chicago: list[str] = field(default_factory=list)
    tie_break: bool = False
    finished: bool = False
    loser: str | None = None

    def __post_init__(self) -> None:
        self.strokes = self.strokes or {p: 0 for p in self.seats}
        self.lids = self.lids or {p: 0 for p in self.seats}
        self.playing = self.playing or list(self.seats)
        self.search_players = self.search_players or list(self.seats)

    @property
    def lids_in_game(self) -> int:
        """Lids in the pot and in front of the players (laid-down lids are gone).

        >>> new_match(["A", "B"], {"variant": "bayrisch"}).lids_in_game
        3
        """
        return self.pot + sum(self.lids.values())

    def status(self, player: str) -> str:
        """``playing``, ``safe`` (out of this loser search, or out of the game with no
        lids), ``chicago`` (Bayrisch: out by a Chicago) or ``loser``.

        >>> Match("basis", 3, ["A", "B"]).status("A")
        'playing'
        """
        if player == self.loser:
            return "loser"
        if player in self.out_by_chicago:
            return "chicago"
        return "playing" if player in self.playing else "safe"

    def score(self, player: str) -> int:
        """Strokes in Basis, lids held in Bayrisch and Tschigg.

        >>> Match("basis", 3, ["A", "B"], strokes={"A": 2, "B": 0}).score("A")
        2
        """
        return self.strokes[player] if self.variant == "basis" else self.lids[player]


def new_match(players: Sequence[str], options: Mapping[str, Any]) -> Match:
    """A match before the first throw: in the lid variants every lid starts in the pot
    (decision), players + 1 of them in Bayrisch and 2 × players − 1 in Tschigg.

    >>> new_match(["A", "B", "C"], {"variant": "tschigg"}).pot
    5
    """
    variant = options["variant"]
    # Bayrisch and Tschigg end by themselves: they have no match length (0).
    match = Match(variant, options.get("match_length", 0), list(players))
    if variant == "bayrisch":
        match.pot, match.phase = len(players) + 1, "distribute"
    elif variant == "tschigg":
        match.pot, match.phase = 2 * len(players) - 1, "distribute"
    return match


def ring(seats: Sequence[str], start: str, members: Sequence[str]) -> list[str]:
    """``members`` in seat order going round the table from ``start`` (or from the seat
    after it, when ``start`` is not a member).

    >>> ring(["A", "B", "C", "D"], "C", ["A", "B", "D"])
    ['D', 'A', 'B']
    """
    at = seats.index(start)
    return [p for p in list(seats[at:]) + list(seats[:at]) if p in members]


def settle(match: Match, results: Sequence[Result], announcement: Announcement,
           chicago_out: bool, give_sand_lid: bool = True) -> tuple[str | None, list[str]]:
    """Apply a finished throw round; returns the next leader (None when the game is
    over) and what happened, one line each, for the scoreboard. ``give_sand_lid``: in
    Tschigg's reduce phase, whether the last who made Sand gives the lid (``sand_giving``).

    >>> m = new_match(["A", "B"], {"variant": "basis", "match_length": 1})
    >>> rs = [Result("A", (2, 3, 4), False, 1), Result("B", (5, 5, 4), False, 1)]
    >>> leader, lines = settle(m, rs, Announcement(), False)
    >>> leader, lines[-1], m.finished, m.loser
    (None, 'A loses the match', True, 'A')
    """
    live = [r for r in results if r.player in match.playing]
    if not live:
        return settle_all_out(match)
    if match.variant == "basis":
        best, worst = best_and_worst(live, announcement)
        return settle_basis(match, best.player, worst.player)
    if announcement.sand:
        return settle_sand(match, live, give_sand_lid)
    best, worst = best_and_worst(live, announcement)
    if match.variant == "bayrisch":
        return settle_bayrisch(match, best.player, worst.player, chicago_out)
    return settle_tschigg(match, best.player, worst.player)


# -- Basis ---------------------------------------------------------------------------------


def settle_basis(match: Match, best: str, worst: str) -> tuple[str | None, list[str]]:
    """The best is safe for the rest of the loser search; the last one left gets a stroke.

    >>> m = new_match(["A", "B", "C"], {"variant": "basis", "match_length": 3})
    >>> settle_basis(m, "B", "C"), m.playing
    (('C', ['B is best and safe']), ['A', 'C'])
    """
    match.playing.remove(best)
    lines = [f"{best} is best and safe"]
    if len(match.playing) > 1:
        return worst, lines
    loser = match.playing[0]
    match.strokes[loser] += 1
    match.losers.append(loser)
    lines.append(f"{loser} loses the loser search and gets a stroke")
    return _after_search(match, loser, lines)


def _after_search(match: Match, loser: str, lines: list[str]) -> tuple[str | None, list[str]]:
    if match.tie_break or len(match.losers) >= match.match_length:
        most = max(match.strokes.values())
        tied = [p for p in match.seats if match.strokes[p] == most]
        if len(tied) == 1:
            match.finished, match.loser, match.playing = True, tied[0], []
            lines.append(f"{tied[0]} loses the match")
            return None, lines
        # Decision: a tie for most strokes is settled by one more loser search among them.
        match.tie_break = True
        lines.append(f"{', '.join(tied)} are tied for most strokes: one more loser search")
        return _new_search(match, loser, tied), lines
    return _new_search(match, loser, match.seats), lines


def _new_search(match: Match, loser: str, players: Sequence[str]) -> str:
    match.search_players = [p for p in match.seats if p in players]
    match.playing = list(match.search_players)
    # The loser leads the next loser search (or, in a tie-break they are not part of,
    # the next tied player round the table from them: decision).
    return ring(match.seats, loser, match.playing)[0]


# -- Bayrisch and Tschigg ------------------------------------------------------------------


def take_from_pot(match: Match, player: str) -> str:
    """Phase 1: the player takes one lid from the pot; an empty pot starts phase 2.

    >>> m = new_match(["A", "B"], {"variant": "bayrisch"})
    >>> take_from_pot(m, "A"), m.pot
    ('A takes a lid from the pot', 2)
    """
    match.pot -= 1
    match.lids[player] += 1
    return f"{player} takes a lid from the pot"


def chicago_out(match: Match, player: str) -> str:
    """Bayrisch: a Chicago takes the thrower out of the game at once, with their lids.

    The game does not end here, even with one player (or none) left: the others finish
    the throw round and its settling (``settle``) ends the game.

    >>> m = new_match(["A", "B"], {"variant": "bayrisch"})
    >>> take_from_pot(m, "A"), take_from_pot(m, "A"), m.pot
    ('A takes a lid from the pot', 'A takes a lid from the pot', 1)
    >>> chicago_out(m, "A"), m.lids["A"], m.playing, m.lids_in_game, m.finished
    ('A throws a Chicago: out at once and safe; their 2 lids leave the game', 0, ['B'], 1, False)
    """
    lids, match.lids[player] = match.lids[player], 0
    match.playing.remove(player)
    match.out_by_chicago.append(player)
    # "Out" is safe here, not lost: said so, and the lids are said to leave the game.
    if not lids:
        return f"{player} throws a Chicago: out at once and safe, holding no lid"
    return (f"{player} throws a Chicago: out at once and safe; {their(lids)} leave"
            f"{'s' if lids == 1 else ''} the game")


def their(lids: int) -> str:
    """A player's lids, counted.

    >>> their(1), their(2)
    ('their lid', 'their 2 lids')
    """
    return "their lid" if lids == 1 else f"their {lids} lids"


def settle_all_out(match: Match) -> tuple[str | None, list[str]]:
    """Bayrisch: everyone still in threw a Chicago and went out, so nobody is left to be
    worst or best: no lid moves, and the game ends with no loser (decision; the rules
    are silent).

    >>> m = new_match(["A", "B"], {"variant": "bayrisch"})
    >>> _ = chicago_out(m, "A"), chicago_out(m, "B")
    >>> settle_all_out(m), m.finished, m.loser
    ((None, ['everyone left threw a Chicago: no lid moves', 'nobody is left']), True, None)
    """
    _check_end(match)
    return None, ["everyone left threw a Chicago: no lid moves", "nobody is left"]


def settle_bayrisch(match: Match, best: str, worst: str,
                    chicago_out: bool) -> tuple[str | None, list[str]]:
    """Phase 1: the worst takes a lid. Phase 2: the best lays one down (it leaves the
    game); decision: not in a round where a Chicago took a thrower out.

    >>> m = new_match(["A", "B"], {"variant": "bayrisch"})
    >>> m.pot, m.phase, m.lids = 0, "reduce", {"A": 1, "B": 2}
    >>> settle_bayrisch(m, "A", "B", False), m.finished, m.loser
    ((None, ['A lays a lid down', 'A holds no lid and is out (safe)', 'B loses']), True, 'B')
    """
    if match.phase == "distribute":
        lines = [take_from_pot(match, worst)]
    elif chicago_out:
        lines = ["nobody lays a lid down after a Chicago"]
    else:
        match.lids[best] -= 1
        lines = [f"{best} lays a lid down"]
    return _after_lids(match, worst, lines)


def settle_tschigg(match: Match, best: str, worst: str) -> tuple[str | None, list[str]]:
    """Phase 1: the worst takes a lid. Phase 2: the best gives one of theirs to the worst.

    >>> m = new_match(["A", "B"], {"variant": "tschigg"})
    >>> m.pot, m.phase, m.lids = 0, "reduce", {"A": 2, "B": 1}
    >>> settle_tschigg(m, "A", "B")[1], m.lids
    (['A gives B a lid'], {'A': 1, 'B': 2})
    """
    if match.phase == "distribute":
        lines = [take_from_pot(match, worst)]
    else:
        lines = [_give(match, best, worst)]
    return _after_lids(match, worst, lines)


def sand_giving(match: Match, results: Sequence[Result],
                announcement: Announcement) -> tuple[str, str] | None:
    """Who may give a lid to whom when this throw round is settled: in Tschigg's reduce
    phase, the last who made Sand to the last who missed it (None: no such choice).

    >>> m = new_match(["A", "B"], {"variant": "tschigg"})
    >>> m.phase = "reduce"
    >>> rs = [Result("A", (2, 3, 4), False, 1), Result("B", (6, 3, 4), False, 1)]
    >>> sand_giving(m, rs, Announcement(sand=True)), sand_giving(m, rs, Announcement())
    (('A', 'B'), None)
    """
    if match.variant != "tschigg" or match.phase != "reduce" or not announcement.sand:
        return None
    made, missed = sand_outcome([r for r in results if r.player in match.playing])
    return None if made is None or missed is None else (made.player, missed.player)


def settle_sand(match: Match, results: Sequence[Result],
                give: bool = True) -> tuple[str | None, list[str]]:
    """Tschigg's Sand round. Phase 1: the last player with a one or a six takes the lid.
    Phase 2: the last who made Sand may give a lid to the last who missed (decision: to
    them); ``give`` is that choice. No lid moves when nobody missed (phase 1) or nobody
    made it (phase 2).

    >>> m = new_match(["A", "B", "C"], {"variant": "tschigg"})
    >>> rs = [Result("A", (1, 3, 4), False, 1), Result("B", (6, 3, 4), False, 1),
    ...       Result("C", (2, 3, 4), False, 1)]
    >>> settle_sand(m, rs)[1]
    ['C makes Sand; B is the last to miss it', 'B takes a lid from the pot']
    """
    made, missed = sand_outcome(results)
    lines = [_sand_line(made, missed)]
    if match.phase == "distribute" and missed is not None:
        lines.append(take_from_pot(match, missed.player))
    elif match.phase == "reduce" and made is not None and missed is not None:
        lines.append(_give(match, made.player, missed.player) if give
                     else f"{made.player} keeps the lid: none goes to {missed.player}")
    else:
        lines.append("no lid moves")
    # The worst of a Sand round is the last who missed; if all made it, all tie and the
    # last thrower is the worst (the tie rule).
    worst = missed if missed is not None else results[-1]
    return _after_lids(match, worst.player, lines)


def _sand_line(made: Result | None, missed: Result | None) -> str:
    first = "nobody makes Sand" if made is None else f"{made.player} makes Sand"
    second = "nobody misses it" if missed is None else f"{missed.player} is the last to miss it"
    return f"{first}; {second}"


def _give(match: Match, giver: str, taker: str) -> str:
    # Tschigg: lids only move between players (decision: none leaves with a winner).
    match.lids[giver] -= 1
    match.lids[taker] += 1
    return f"{giver} gives {taker} a lid"


def _after_lids(match: Match, worst: str, lines: list[str]) -> tuple[str | None, list[str]]:
    if match.phase == "distribute" and match.pot == 0:
        match.phase = "reduce"
        lines.append("the pot is empty: the reduce phase begins")
    if match.phase == "reduce":
        # Decision (Bayrisch) and rule (Tschigg): whoever holds no lid is out and safe.
        # RULES.md's words: out and safe (Bayrisch); has won and leaves the game (Tschigg).
        # Not "no lid left": at the end of the pot some never held one.
        gone = "has won: out of the game" if match.variant == "tschigg" else "is out (safe)"
        for player in [p for p in match.playing if match.lids[p] == 0]:
            match.playing.remove(player)
            lines.append(f"{player} holds no lid and {gone}")
    if _check_end(match):
        lines.append(f"{match.loser} loses" if match.loser else "nobody is left")
        return None, lines
    return ring(match.seats, worst, match.playing)[0], lines


def _check_end(match: Match) -> bool:
    # The loser is the last player still in (holding lids, once the pot is empty).
    if len(match.playing) > 1:
        return False
    match.finished = True
    match.loser = match.playing[0] if match.playing else None
    return True
