"""Card Chicago (RULES.md §4): the Nordic five-card game, kept score of from the table.

There are no dice: players enter the exchanges, the hands shown, the Chicago call and
the trick winners. A deal goes: exchange 1, the best hand scores; exchange 2, the best
hand scores; exchange 3, five tricks, the last trick scores; the best hand scores a
third time. The dealer passes clockwise, and when a deal ends with someone at 52 or
more the highest total wins.

>>> from scorer import new_game
>>> g = new_game("card_chicago", ["Aino", "Bertil"])
>>> g.apply({"type": "show", "round": 1, "hands": {"Aino": "QS QH 7D 4C 2S",
...                                                 "Bertil": "JS JH 9D 4D 2C"}})
>>> [p["score"] for p in g.state()["players"]], g.state()["deal"]["phase"]
([1, 0], 'exchange 2')
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence

from .actions import Action
from .cards import (Card, CardError, Category, HandValue, deck, describe, hand_value,
                    parse_card, parse_hand, suit_key)
from .card_chicago_hands import (ALL_EXCHANGES, exchanged_since, hands_problem, held,
                                 known_hands, shown_before, trick_problem)
from .errors import Refusal, json_shown, with_article
from .rules import OptionWords, Rules

WIN_AT = 52
TRICKS = 5
CHICAGO_BONUS = 15
HAND_POINTS = {Category.PAIR: 1, Category.TWO_PAIR: 2, Category.THREE_OF_A_KIND: 3,
               Category.STRAIGHT: 4, Category.FLUSH: 5, Category.FULL_HOUSE: 6}
USUAL_PLAYERS = 4
#: Five cards each from one deck of 52: ten players is the most a deal can hold.
MOST_PLAYERS = 10

EXCHANGE_PHASES = ("exchange 1", "exchange 2", "exchange 3")
TRICKS_PHASE, FINAL_PHASE, OVER_PHASE = "tricks", "final hands", "game over"
#: The phases in which each show round may be entered. Round 1 may be left out when
#: nobody shows (round 2 then passes over it); round 2 may not, so that a trick entered
#: by mistake after a deal ended early is refused rather than taken as the next deal's.
SHOW_PHASES = {1: EXCHANGE_PHASES[:1], 2: EXCHANGE_PHASES[:2], 3: (FINAL_PHASE,)}
BEFORE_TRICKS = EXCHANGE_PHASES
TRICK_PHASES = (EXCHANGE_PHASES[2], TRICKS_PHASE)


def hand_points(value: HandValue, options: Mapping[str, Any]) -> int:
    """The points a winning hand scores under the options (0 below a pair).

    A royal flush under ``royal_flush: win`` also scores 0: it wins the game instead.

    >>> opts = {"four_of_a_kind": 8, "straight_flush": 11, "royal_flush": 8}
    >>> hand_points(hand_value("9S 9H 9D 9C 2S"), opts)
    8
    >>> hand_points(hand_value("AS KS QS JS TS"), opts)
    11
    """
    category = value.category
    if value.royal:
        royal = options["royal_flush"]
        # Decision: "8" means the royal is just a straight flush, so it scores like one.
        if royal == "win":
            return 0
        return int(options["straight_flush"]) if royal == 8 else int(royal)
    if category is Category.STRAIGHT_FLUSH:
        return int(options["straight_flush"])
    if category is Category.FOUR_OF_A_KIND:
        return int(options["four_of_a_kind"])
    return HAND_POINTS.get(category, 0)


def last_trick_points(card: Card | None, options: Mapping[str, Any]) -> int:
    """What the last trick scores: 5, or 2 (5 when won with a two) under ``two_bonus``.

    >>> last_trick_points(Card(2, "H"), {"last_trick": "two_bonus"})
    5
    >>> last_trick_points(Card(14, "H"), {"last_trick": "two_bonus"})
    2
    """
    if options["last_trick"] == 5:
        return 5
    return 5 if card is not None and card.rank == 2 else 2


@dataclass
class Shown:
    """One show round: the hands entered and who scored with what.

    >>> Shown(1, {"Aino": "QS QH 7D 4C 2S"}, best="Aino", points=1).to_json()["name"]
    'pair of queens'
    """

    round: int
    hands: dict[str, str]
    best: str | None = None
    points: int = 0
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """The show as the scoreboard lists it.

        >>> Shown(2, {"Aino": "AD JD 9S 6D 3H"}, note="nobody scores").to_json()["hands"]
        {'Aino': {'cards': 'AD JD 9S 6D 3H', 'name': 'high card, ace'}}
        """
        return {"round": self.round, "best": self.best, "points": self.points,
                "name": _name(self.hands[self.best]) if self.best else None,
                "note": self.note,
                "hands": {p: {"cards": h, "name": _name(h)} for p, h in self.hands.items()}}


@dataclass
class Trick:
    """A trick: who took it, and with which card when that was entered.

    >>> Trick(5, "Bertil", "2H").card
    '2H'
    """

    number: int
    winner: str
    card: str | None


@dataclass
class Deal:
    """One deal: from the first exchange to the final hands (or a failed Chicago).

    >>> _new_deal(1, "Aino", ["Aino", "Bertil", "Cecilia"], set()).order
    ['Bertil', 'Cecilia', 'Aino']
    """

    number: int
    dealer: str
    order: list[str]                       # turn order: left of the dealer first
    stopped: list[str]                     # under buy stop: no exchanges this deal
    phase: str = EXCHANGE_PHASES[0]
    exchanges: list[dict[str, int]] = field(default_factory=lambda: [{}, {}, {}])
    shows: list[Shown] = field(default_factory=list)
    caller: str | None = None
    chicago: str | None = None             # None, "called", "won" or "failed"
    leader: str = ""                       # who leads the next trick
    tricks: list[Trick] = field(default_factory=list)
    points: dict[str, int] = field(default_factory=dict)
    events: list[str] = field(default_factory=list)

    @property
    def exchange(self) -> int | None:
        """Which exchange (1..3) is open, or None.

        >>> Deal(1, "Aino", ["Bertil", "Aino"], [], phase="exchange 2").exchange
        2
        """
        if self.phase in EXCHANGE_PHASES:
            return EXCHANGE_PHASES.index(self.phase) + 1
        return None


@dataclass
class CardChicagoState:
    """Where a game of Card Chicago stands: totals, the deal under way, the deals done.

    >>> state = RULES.start(["Aino", "Bertil"], RULES_DEFAULTS)
    >>> state.totals, state.deal.dealer, state.deal.phase
    ({'Aino': 0, 'Bertil': 0}, 'Aino', 'exchange 1')
    """

    options: Mapping[str, Any]
    seats: list[str]
    totals: dict[str, int]
    deal: Deal
    chicago_won: set[str] = field(default_factory=set)   # players with a successful Chicago
    stopped_for_game: set[str] = field(default_factory=set)
    history: list[dict[str, Any]] = field(default_factory=list)
    finished: bool = False
    winner: str | None = None
    zero_ready: str | None = None    # who may use four of a kind to zero, right now
    before_zero: "ZeroChoice | None" = None


@dataclass
class ZeroChoice:
    """The state from just before a show that four of a kind won, and that show.

    The four's owner may still zero the opponents instead of scoring; the choice
    replaces the show's points, so the game goes back to before it.

    >>> from scorer import new_game
    >>> g = new_game("card_chicago", ["Aino", "Bertil"], {"zero_option": True})
    >>> g.apply({"type": "show", "round": 1, "hands": {"Aino": "9S 9H 9D 9C 2S"}})
    >>> g.raw_state.before_zero.kept.totals, g.raw_state.totals
    ({'Aino': 0, 'Bertil': 0}, {'Aino': 7, 'Bertil': 0})
    """

    kept: CardChicagoState
    shown: Shown


def _name(cards: str) -> str:
    return describe(cards)


def _card(text: Any, what: str) -> Card:
    try:
        return parse_card(text)
    except CardError as exc:
        raise Refusal(f"{what}: {exc}") from None


def _hand(text: Any, what: str) -> tuple[Card, ...]:
    try:
        return parse_hand(text)
    except CardError as exc:
        raise Refusal(f"{what}: {exc}") from None


def _new_deal(number: int, dealer: str, seats: Sequence[str], stopped: set[str]) -> Deal:
    # The player left of the dealer (the next seat, as the deal passes clockwise)
    # exchanges first and leads the first trick; the dealer comes last.
    seat = seats.index(dealer)
    order = list(seats[seat + 1:]) + list(seats[:seat + 1])
    return Deal(number=number, dealer=dealer, order=order,
                stopped=[p for p in order if p in stopped], leader=order[0],
                points={p: 0 for p in seats})


class CardChicagoRules(Rules[CardChicagoState]):
    """The rules of Card Chicago with every option and decision of RULES.md §4.

    >>> RULES.family, RULES.min_players, RULES.max_players, RULES.options["buy_stop"]
    ('card_chicago', 2, 10, (46, 42, 41))
    """

    family = "card_chicago"
    title = "Card Chicago"
    options = {"four_of_a_kind": (7, 8), "straight_flush": (8, 11),
               "royal_flush": (52, 20, 8, "win"), "last_trick": (5, "two_bonus"),
               "chicago_from": (15, 0), "chicago_lead": ("caller", "dealer_left"),
               "buy_stop": (46, 42, 41), "buy_stop_lasts": ("deal", "game"),
               "win_needs_chicago": ("no", "play_on", "reset"),
               "zero_option": (False, True), "equal_hands": ("nobody", "suit_order")}
    option_words = {
        "four_of_a_kind": OptionWords("four of a kind scores", ("7", "8")),
        "straight_flush": OptionWords("straight flush scores", ("8", "11")),
        # "8" is the rule book's "just a straight flush": it scores the straight flush's
        # points (11 under that option), so the form says so rather than a bare 8.
        "royal_flush": OptionWords("royal flush scores", ("52", "20", "8: just a straight flush",
                                                          "wins the game")),
        "last_trick": OptionWords("last trick scores", ("5", "2, or 5 taken with a two")),
        "chicago_from": OptionWords("Chicago may be called", ("from 15 points", "always")),
        "chicago_lead": OptionWords("after a Chicago call leads", ("the caller",
                                                                   "the dealer's left")),
        "buy_stop": OptionWords("buy stop (no exchange) from", ("46 points", "42 points", "41 points")),
        "buy_stop_lasts": OptionWords("buy stop lasts", ("the next deal", "the rest of the game")),
        "win_needs_chicago": OptionWords("reaching 52 without a Chicago",
                                          ("is allowed", "plays on", "goes back to 0")),
        "zero_option": OptionWords("four of a kind may zero the others", ("no", "yes")),
        "equal_hands": OptionWords("equal best hands", ("score nothing", "suits decide: ♠ ♥ ♦ ♣")),
    }
    action_types = frozenset({"exchange", "show", "call", "trick", "zero"})
    min_players = 2
    max_players = MOST_PLAYERS

    def __init__(self, deal_checked: bool = True) -> None:
        # Whether a hand, and a trick's card, are checked against what the deal has
        # shown (scorer.card_chicago_hands, 12f6ed3): the versions before took any hand
        # typed, and a game they stored is replayed so (as_stored).
        self.deal_checked = deal_checked

    def as_stored(self) -> "CardChicagoRules":
        return _AS_STORED

    def start(self, players: Sequence[str], options: Mapping[str, Any]) -> CardChicagoState:
        # The first player of the list deals the first deal (GAMEFILE.md).
        seats = list(players)
        return CardChicagoState(options=options, seats=seats, totals={p: 0 for p in seats},
                                deal=_new_deal(1, seats[0], seats, set()))

    # -- verify ----------------------------------------------------------------------------

    def verify(self, state: CardChicagoState, action: Action) -> None:
        if action.type == "zero":
            self._verify_zero(state, action)
            return
        if state.finished:
            raise Refusal(f"the game is over: {state.winner} has won")
        check = {"exchange": self._verify_exchange, "show": self._verify_show,
                 "call": self._verify_call, "trick": self._verify_trick}[action.type]
        check(state, action)

    def _verify_exchange(self, state: CardChicagoState, action: Action) -> None:
        deal, player = state.deal, _need_player(action)
        if deal.exchange is None:
            raise Refusal(f"no exchange is open: the deal is at {deal.phase}")
        count = action.get("count")
        if "count" not in action.fields:
            raise Refusal("an exchange needs 'count', how many cards were exchanged (0..5)")
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 5:
            raise Refusal("an exchange needs 'count', a whole number 0..5, "
                          f"not {json_shown(count)}")
        if player in deal.stopped:
            raise Refusal(f"{player} is under buy stop this deal and may not exchange cards")
        if player in deal.exchanges[deal.exchange - 1]:
            # Each exchange ends with its show; a skipped round 1 (nobody showed) leaves
            # exchange 1 open, so say how to reach the next one.
            raise Refusal(f"{player} has already exchanged in exchange {deal.exchange}; "
                          f"the next exchange opens once round {deal.exchange}'s show is "
                          "entered (with no hands if nobody shows)"
                          if deal.exchange < 3 else
                          f"{player} has already exchanged in exchange {deal.exchange}")

    def _verify_show(self, state: CardChicagoState, action: Action) -> None:
        deal = state.deal
        number = action.get("round")
        if type(number) is not int or number not in SHOW_PHASES:
            raise Refusal(f"a show needs 'round' 1, 2 or 3, not {json_shown(number)}")
        if deal.phase not in SHOW_PHASES[number]:
            when = "after the five tricks" if number == 3 else "before the tricks, once"
            raise Refusal(f"hands of round {number} are shown {when}; the deal is at "
                          f"{deal.phase}{_due_show(deal)}")
        hands = action.get("hands")
        if not isinstance(hands, Mapping):
            raise Refusal("a show needs 'hands': {player: 'AS KS QS JS TS'}")
        _check_hands(state, number, hands, self.deal_checked)

    def _verify_call(self, state: CardChicagoState, action: Action) -> None:
        deal, player = state.deal, _need_player(action)
        if deal.caller is not None:
            raise Refusal(f"{deal.caller} has already called Chicago this deal")
        if deal.phase not in BEFORE_TRICKS:
            raise Refusal(f"Chicago is called before the first trick, not at {deal.phase}")
        if not _may_call(state, player):
            raise Refusal(f"{player} has {state.totals[player]} points; calling Chicago "
                          f"needs at least {state.options['chicago_from']}")

    def _verify_trick(self, state: CardChicagoState, action: Action) -> None:
        deal = state.deal
        if deal.phase not in TRICK_PHASES:
            raise Refusal(f"no trick is played now: the deal is at {deal.phase}"
                          f"{_due_show(deal)}")
        winner = action.get("winner")
        if "winner" not in action.fields:
            raise Refusal(f"a trick needs 'winner', the player who took it "
                          f"(players: {', '.join(state.seats)})")
        if not isinstance(winner, str) or winner not in state.seats:
            raise Refusal(f"the trick's winner {json_shown(winner)} is not in the game "
                          f"(players: {', '.join(state.seats)})")
        if "card" in action.fields:
            card = _card(action.get("card"), "the trick's card")
            for trick in deal.tricks:
                if trick.card == card.code:
                    raise Refusal(f"the card {card.code} already took trick {trick.number}")
            problem = trick_problem(deal, winner, card) if self.deal_checked else None
            if problem is not None:
                raise Refusal(problem)
        elif len(deal.tricks) == TRICKS - 1 and state.options["last_trick"] == "two_bonus":
            raise Refusal("the last trick needs its 'card': a two scores the bonus")

    def _verify_zero(self, state: CardChicagoState, action: Action) -> None:
        player = _need_player(action)
        if not state.options["zero_option"]:
            raise Refusal("zeroing the opponents is not a rule of this game (zero_option)")
        if state.zero_ready != player:
            raise Refusal(f"{player} may zero the opponents only right after a show that "
                          f"{player}'s four of a kind won")

    # -- act -------------------------------------------------------------------------------

    def act(self, state: CardChicagoState, action: Action) -> None:
        # The choice to zero lasts only until the next action.
        choice, state.zero_ready, state.before_zero = state.before_zero, None, None
        if action.type == "zero":
            assert choice is not None    # verify saw zero_ready
            self._zero(state, action.player or "", choice)
            return
        if action.type == "exchange":
            deal = state.deal
            deal.exchanges[(deal.exchange or 1) - 1][action.player or ""] = action.get("count")
        elif action.type == "show":
            self._show(state, action.get("round"), dict(action.get("hands")))
        elif action.type == "call":
            self._call(state, action.player or "")
        else:
            card = action.get("card")
            self._trick(state, action.get("winner"), card if isinstance(card, str) else None)

    def _show(self, state: CardChicagoState, number: int, hands: dict[str, str]) -> None:
        shown = Shown(number, {p: hands[p] for p in state.seats if p in hands})
        self._judge(state.options, shown)
        if shown.best is not None and state.options["zero_option"] and \
                hand_value(shown.hands[shown.best]).category is Category.FOUR_OF_A_KIND:
            # The four's owner may still choose to zero the opponents instead: keep the
            # state from before this show so that choice can replace the points.
            kept = _snapshot(state)
            self._record_show(state, shown)
            state.before_zero, state.zero_ready = ZeroChoice(kept, shown), shown.best
            return
        self._record_show(state, shown)

    def _record_show(self, state: CardChicagoState, shown: Shown) -> None:
        deal, best = state.deal, shown.best
        deal.shows.append(shown)
        if best is None:
            deal.events.append(f"round {shown.round}: {shown.note}")
        elif state.options["royal_flush"] == "win" and hand_value(shown.hands[best]).royal:
            deal.events.append(f"round {shown.round}: {best} wins at once with a royal flush")
            self._finish(state, best)
            return
        else:
            self._score(state, best, shown.points)
            deal.events.append(f"round {shown.round}: {best} scores {shown.points} for "
                               f"{_name(shown.hands[best])}")
        if shown.round == 3:
            self._end_deal(state)
        else:
            deal.phase = EXCHANGE_PHASES[shown.round]

    def _judge(self, options: Mapping[str, Any], shown: Shown) -> None:
        """Who scores in a show: the best hand with at least a pair, if it is alone."""
        values = {p: hand_value(h) for p, h in shown.hands.items()}
        scoring = {p: v for p, v in values.items() if v.category >= Category.PAIR}
        if not scoring:
            shown.note = "nobody has at least a pair: nobody scores"
            return
        top = max(scoring.values())
        tied = [p for p, v in scoring.items() if v == top]
        if len(tied) > 1 and options["equal_hands"] == "nobody":
            shown.note = f"exactly equal best hands ({', '.join(tied)}): nobody scores"
            return
        if len(tied) > 1:
            tied.sort(key=lambda p: suit_key(parse_hand(shown.hands[p])), reverse=True)
            shown.note = f"equal best hands: {tied[0]} wins on suit order"
        shown.best = tied[0]
        shown.points = hand_points(top, options)

    def _call(self, state: CardChicagoState, player: str) -> None:
        deal = state.deal
        deal.caller, deal.chicago = player, "called"
        deal.events.append(f"{player} calls Chicago")
        if state.options["chicago_lead"] == "caller":
            deal.leader = player

    def _trick(self, state: CardChicagoState, winner: str, card: str | None) -> None:
        deal = state.deal
        deal.phase = TRICKS_PHASE
        deal.tricks.append(Trick(len(deal.tricks) + 1, winner, card))
        deal.leader = winner          # the trick's winner leads the next one
        caller = deal.caller
        if caller is not None and winner != caller:
            # A failed Chicago ends the deal at once: no last trick, no final hand.
            deal.chicago = "failed"
            self._score(state, caller, -CHICAGO_BONUS)
            deal.events.append(f"{winner} takes trick {len(deal.tricks)}: {caller}'s Chicago "
                               f"fails ({-CHICAGO_BONUS})")
            self._end_deal(state)
            return
        if len(deal.tricks) < TRICKS:
            return
        if caller is not None:
            deal.chicago = "won"
            state.chicago_won.add(caller)
            self._score(state, caller, CHICAGO_BONUS)
            deal.events.append(f"{caller} takes all five tricks: Chicago (+{CHICAGO_BONUS})")
        points = last_trick_points(parse_card(card) if card else None, state.options)
        self._score(state, winner, points)
        deal.events.append(f"{winner} takes the last trick ({points})")
        deal.phase = FINAL_PHASE

    def _zero(self, state: CardChicagoState, player: str, choice: ZeroChoice) -> None:
        """Four of a kind zeroes every opponent instead of scoring; the deal ends."""
        _restore(state, choice.kept)
        shown = replace(choice.shown, points=0,
                        note=f"{player} zeroes the opponents instead of scoring")
        deal = state.deal
        deal.shows.append(shown)
        deal.events.append(f"{player} zeroes the opponents with "
                           f"{_name(shown.hands[player])}")
        for other in state.seats:
            if other != player:
                deal.points[other] -= state.totals[other]
                state.totals[other] = 0
        self._end_deal(state)

    def _score(self, state: CardChicagoState, player: str, points: int) -> None:
        state.totals[player] += points
        state.deal.points[player] += points

    def _end_deal(self, state: CardChicagoState) -> None:
        options, deal = state.options, state.deal
        if options["win_needs_chicago"] == "reset":
            self._reset_without_chicago(state)
        winner = self._winner(state)
        if winner is not None:
            self._finish(state, winner)
            return
        tied = self._top(state)
        if len(tied) > 1:
            # Said like the play-on reason below: two totals past 52 and no winner need
            # the rule book's reason beside them (RULES.md §4, "play on").
            deal.events.append(f"{' and '.join(tied)} share the top with "
                               f"{state.totals[tied[0]]}: a tie plays on")
        if options["win_needs_chicago"] == "play_on":
            # Said in the deal's story, which the screens show as the next deal begins: a
            # total past 52 that does not end the game needs a reason beside it.
            for player in state.seats:
                if state.totals[player] >= WIN_AT and player not in state.chicago_won:
                    deal.events.append(f"{player} has {state.totals[player]} but no Chicago "
                                       "won yet: the game goes on")
        state.history.append(_summary(state))
        # Buy stop is checked again after every deal (or lasts, under the option).
        stopped = {p for p in state.seats if state.totals[p] >= options["buy_stop"]}
        if options["buy_stop_lasts"] == "game":
            state.stopped_for_game |= stopped
            stopped = set(state.stopped_for_game)
        dealer = state.seats[(state.seats.index(deal.dealer) + 1) % len(state.seats)]
        state.deal = _new_deal(deal.number + 1, dealer, state.seats, stopped)

    def _reset_without_chicago(self, state: CardChicagoState) -> None:
        """House rule: 52 or more without a successful Chicago puts the player back to 0."""
        deal = state.deal
        for player in state.seats:
            if state.totals[player] >= WIN_AT and player not in state.chicago_won:
                deal.events.append(f"{player} reached {state.totals[player]} without a "
                                   f"Chicago: reset to 0")
                deal.points[player] -= state.totals[player]
                state.totals[player] = 0

    def _winner(self, state: CardChicagoState) -> str | None:
        """The highest total once someone has 52 (with a Chicago, if required); ties play on."""
        leaders = self._top(state)
        return leaders[0] if len(leaders) == 1 else None

    def _top(self, state: CardChicagoState) -> list[str]:
        """Who has the highest total of those with 52 (and a Chicago, if required)."""
        eligible = [p for p in state.seats if state.totals[p] >= WIN_AT]
        if state.options["win_needs_chicago"] != "no":
            eligible = [p for p in eligible if p in state.chicago_won]
        if not eligible:
            return []
        top = max(state.totals[p] for p in eligible)
        return [p for p in eligible if state.totals[p] == top]

    def _finish(self, state: CardChicagoState, winner: str) -> None:
        state.finished, state.winner = True, winner
        state.deal.phase = OVER_PHASE
        state.history.append(_summary(state))

    def end_turn(self, state: CardChicagoState) -> bool:
        # Cards have no rolls, so no correction ever leaves a turn half done.
        return False

    # -- describe --------------------------------------------------------------------------

    def seated(self, state: CardChicagoState) -> Sequence[str]:
        return state.seats

    def current_player(self, state: CardChicagoState) -> str | None:
        deal = state.deal
        if state.finished:
            return None
        if deal.exchange is not None and deal.caller is None:
            # After a call the tricks are what comes next, though a late exchange is
            # still accepted.
            waiting = _may_exchange(deal)
            if waiting:
                return waiting[0]
        if deal.phase == EXCHANGE_PHASES[2] or deal.phase == TRICKS_PHASE:
            return deal.leader
        return None      # hands are entered for everyone at once

    def view(self, state: CardChicagoState) -> dict[str, Any]:
        deal = state.deal
        return {
            "finished": state.finished,
            "winner": state.winner,
            "loser": None,
            "players": [{"name": p, "score": state.totals[p], "buy_stop": p in deal.stopped,
                         "chicago": p in state.chicago_won, "deal_points": deal.points[p]}
                        for p in state.seats],
            "next": {"player": self.current_player(state), "actions": self._legal(state),
                     "dice": 0, "round": _show_round(deal) if not state.finished else None},
            "deal": {"number": deal.number, "dealer": deal.dealer, "order": list(deal.order),
                     "phase": deal.phase, "exchange": deal.exchange,
                     "buy_stop": list(deal.stopped),
                     "exchanges": [dict(e) for e in deal.exchanges],
                     "caller": deal.caller, "chicago": deal.chicago, "leader": deal.leader,
                     "callers": [p for p in deal.order if _may_call(state, p)],
                     "tricks": [{"number": t.number, "winner": t.winner, "card": t.card}
                                for t in deal.tricks],
                     "shows": [s.to_json() for s in deal.shows],
                     "points": dict(deal.points), "events": list(deal.events)},
            "deals": [dict(h) for h in state.history],
            "zero": state.zero_ready,
            "warning": None if len(state.seats) <= USUAL_PLAYERS else
            f"{len(state.seats)} players: Chicago is for 2 to 4; the stock may run out, "
            "and then the discards are shuffled into a new stock",
        }

    def _legal(self, state: CardChicagoState) -> list[str]:
        deal = state.deal
        legal: list[str] = []
        if not state.finished:
            if deal.exchange is not None and _may_exchange(deal):
                legal.append("exchange")
            if _show_round(deal) is not None:
                legal.append("show")
            if deal.phase in BEFORE_TRICKS and deal.caller is None and any(
                    _may_call(state, p) for p in state.seats):
                legal.append("call")
            if deal.phase in TRICK_PHASES:
                legal.append("trick")
        if state.zero_ready is not None:
            legal.append("zero")
        return legal

    def help(self, options: Mapping[str, Any]) -> list[str]:
        return help_lines(options)


def _may_call(state: CardChicagoState, player: str) -> bool:
    """Whether ``player``'s total lets them call Chicago: from ``chicago_from`` points, or
    at any score, below zero too, when that option is 0 (RULES.md: "from 15 points or
    always")."""
    need = state.options["chicago_from"]
    return not need or state.totals[player] >= need


def _check_hands(state: CardChicagoState, number: int, hands: Mapping[str, Any],
                 deal_checked: bool = True) -> None:
    """Refuse ``hands`` for show round ``number`` unless each is five cards its player can
    hold: no card in two hands, nor in a hand other than the one it took a trick for, and
    (``deal_checked``) nothing the deal has shown otherwise
    (:mod:`scorer.card_chicago_hands`)."""
    deal = state.deal
    taken = {t.card: t.winner for t in deal.tricks if t.card is not None}
    seen: dict[Card, str] = {}
    parsed: dict[str, tuple[Card, ...]] = {}
    for player, text in hands.items():
        if player not in state.seats:
            raise Refusal(f"unknown player {json_shown(player)} in the hands "
                          f"(players: {', '.join(state.seats)})")
        parsed[player] = _hand(text, f"the hand of {player}")
        for card in parsed[player]:
            if card in seen:
                raise Refusal(f"the card {card.code} is in the hands of both {seen[card]} "
                              f"and {player}")
            seen[card] = player
            won_by = taken.get(card.code)
            if number == 3 and won_by is not None and won_by != player:
                raise Refusal(f"the card {card.code} of {player}'s hand took a trick for "
                              f"{won_by}")
    problem = hands_problem(deal, number, parsed) if deal_checked else None
    if problem is not None:
        raise Refusal(problem)


def _need_player(action: Action) -> str:
    if action.player is None:
        raise Refusal(f"{with_article(action.type)} needs 'player'")
    return action.player


def _due_show(deal: Deal) -> str:
    due = _show_round(deal)
    return f" (round {due} is shown next)" if due is not None else ""


def _show_round(deal: Deal) -> int | None:
    for number, phases in SHOW_PHASES.items():
        if deal.phase in phases:
            return number
    return None


def _may_exchange(deal: Deal) -> list[str]:
    """Who may still exchange in the open exchange, in turn order."""
    if deal.exchange is None:
        return []
    done = deal.exchanges[deal.exchange - 1]
    return [p for p in deal.order if p not in deal.stopped and p not in done]


def _summary(state: CardChicagoState) -> dict[str, Any]:
    deal = state.deal
    return {"number": deal.number, "dealer": deal.dealer, "points": dict(deal.points),
            "totals": dict(state.totals), "caller": deal.caller, "chicago": deal.chicago,
            "events": list(deal.events)}


def _snapshot(state: CardChicagoState) -> CardChicagoState:
    kept = copy.copy(state)
    kept.totals = dict(state.totals)
    kept.chicago_won = set(state.chicago_won)
    kept.stopped_for_game = set(state.stopped_for_game)
    kept.deal = _copy_deal(state.deal)
    kept.history = list(state.history)
    return kept


def _copy_deal(deal: Deal) -> Deal:
    # Shows and tricks are never changed once made, so the lists can share them.
    return replace(deal, order=list(deal.order), stopped=list(deal.stopped),
                   exchanges=[dict(e) for e in deal.exchanges], shows=list(deal.shows),
                   tricks=list(deal.tricks), points=dict(deal.points),
                   events=list(deal.events))


def _restore(state: CardChicagoState, kept: CardChicagoState) -> None:
    for name in ("totals", "chicago_won", "stopped_for_game", "deal", "history",
                 "finished", "winner"):
        setattr(state, name, getattr(kept, name))
    state.before_zero = None


def help_lines(options: Mapping[str, Any]) -> list[str]:
    """The rules, options and decisions in force, one line each.

    >>> help_lines(RULES_DEFAULTS)[0]
    'Card Chicago: 2 to 4 players (up to 10 with a warning), 52 cards, five each.'
    """
    royal = options["royal_flush"]
    royal_text = {"win": "wins the game at once (decision: with or without a Chicago)",
                  8: "scores as a straight flush (decision)"}.get(
        royal, f"scores {royal}")
    last = "5" if options["last_trick"] == 5 else "2, or 5 when won with a two"
    lines = [
        "Card Chicago: 2 to 4 players (up to 10 with a warning), 52 cards, five each.",
        "The first player deals first; the deal passes clockwise; the player left of the "
        "dealer exchanges first and leads the first trick.",
        "A deal: exchange 1 and the best hand scores; exchange 2 and the best hand scores; "
        "exchange 3, five tricks (the last trick scores), and the best hand scores again.",
        "Tricks: no trumps; follow suit if able; the highest card of the led suit wins, and "
        "the trick's winner leads next.",
        f"Hand points: pair 1, two pair 2, three of a kind 3, straight 4, flush 5, full "
        f"house 6, four of a kind {options['four_of_a_kind']}, straight flush "
        f"{options['straight_flush']}; a royal flush {royal_text}. Last trick: {last}.",
        "Hands compare by category, then the ranks that make them, then kickers; A-2-3-4-5 "
        "is the lowest straight (decision). Nobody with at least a pair: nobody scores.",
        "Exactly equal best hands: nobody scores." if options["equal_hands"] == "nobody" else
        "Exactly equal best hands: the suit of the highest deciding card breaks the tie, "
        "spades, hearts, diamonds, clubs (decision).",
        "Chicago: call it before the first trick to take all five: +15 plus the last trick "
        "and hand; a failed call ends the deal when an opponent takes a trick: -15, and "
        "nobody scores the last trick or the final hand.",
        (f"Chicago may be called with at least {options['chicago_from']} points (decision: "
         "the caller's total at the call)." if options["chicago_from"] else
         "Chicago may be called at any score.")
        + " One call per deal, the first in turn order (decision).",
        "After a call the caller leads the first trick." if options["chicago_lead"] == "caller"
        else "After a call the player left of the dealer still leads.",
        f"Buy stop: a player who ends a deal with {options['buy_stop']} or more may not "
        + ("exchange in the following deal (checked after every deal)"
           if options["buy_stop_lasts"] == "deal" else "exchange for the rest of the game")
        + "; decision: an exchange of 0 cards is refused too.",
        {"no": "Winning: when a deal ends with someone at 52 or more, the highest total wins; "
               "a tie at the top plays on (decision).",
         "play_on": "Winning: 52 or more and a successful Chicago (decision: one in the same "
                    "deal counts); the highest such total wins, ties play on.",
         "reset": "Winning: 52 or more and a successful Chicago; a player who ends a deal at "
                  "52 or more without one is reset to 0; the highest total wins, ties play "
                  "on."}[options["win_needs_chicago"]],
        "Decision: exchanges may be entered in any order or left out; each player exchanges "
        "once per exchange (an exchange is binding, seed 001). Round 1's show may be left "
        "out when nobody shows; round 2's is entered (with no hands if nobody shows) "
        "before the first trick.",
        "Decision: a show lists the hands of the players who show; the same card may not be "
        "in two hands, nor take two tricks in a deal, and after the tricks it is not in the "
        "hand of a player other than the one it took a trick for.",
        "Decision: a hand holds what the deal has shown: the cards its owner took tricks "
        "with (final hands), and the hand shown before in the deal, changed by at most the "
        "cards exchanged since (none under buy stop; anything when an exchange was left "
        "out); a card known to stay in one hand is in no other, nor takes a trick for "
        "another.",
        "Decision: hand points, the last trick and Chicago count the moment they are won; "
        "the game is decided only when a deal ends.",
        "At the table: a player who breaks up a hand that already scored shows it first; "
        "when the stock runs out the discards are shuffled into a new stock.",
    ]
    if options["zero_option"]:
        lines.append("Four of a kind may zero every opponent instead of scoring, right after "
                     "the show it wins; the deal then ends (decision: only the winning hand).")
    if options["last_trick"] == "two_bonus":
        lines.append("The last trick needs its card, to see whether a two took it.")
    return lines


RULES = CardChicagoRules()
_AS_STORED = CardChicagoRules(deal_checked=False)
RULES_DEFAULTS = {key: values[0] for key, values in CardChicagoRules.options.items()}


def random_action(game: Any, rng: Any) -> dict[str, Any]:
    """A legal action for a reasonable random table, for benchmarks and property tests.

    Hands are dealt from a shuffled deck (now and then a strong one is stacked, so that
    fours, straight flushes and royals turn up); a caller usually takes the tricks.

    >>> import random
    >>> from scorer import new_game
    >>> g = new_game("card_chicago", ["A", "B", "C"], {"zero_option": True})
    >>> rng = random.Random(7)
    >>> for _ in range(60):
    ...     g.apply(random_action(g, rng))
    >>> len(g.log)
    60
    """
    state: CardChicagoState = game.raw_state
    deal = state.deal
    if state.zero_ready is not None and rng.random() < 0.5:
        return {"type": "zero", "player": state.zero_ready}
    if state.finished:
        raise ValueError("the game is over: no action is legal")
    exchangers = _may_exchange(deal)
    if exchangers and rng.random() < 0.5:
        return {"type": "exchange", "player": rng.choice(exchangers), "count": rng.randint(0, 5)}
    callers = [p for p in deal.order if _may_call(state, p)]
    if deal.phase in BEFORE_TRICKS and deal.caller is None and callers:
        # Calls come after the last exchange as a rule, now and then earlier.
        if rng.random() < (0.2 if deal.phase == EXCHANGE_PHASES[2] else 0.02):
            return {"type": "call", "player": rng.choice(callers)}
    due = _show_round(deal)
    if due is not None and rng.random() < 0.95:
        # Mostly the show that is due; now and then a round nobody shows is left out.
        skip = due < 2 and deal.phase == EXCHANGE_PHASES[0] and rng.random() < 0.05
        number = due + 1 if skip else due
        return {"type": "show", "round": number, "hands": _random_hands(state, rng)}
    if due is not None and deal.phase not in TRICK_PHASES:
        return {"type": "show", "round": due, "hands": _random_hands(state, rng)}
    return _random_trick(state, rng)


def _random_trick(state: CardChicagoState, rng: Any) -> dict[str, Any]:
    deal = state.deal
    winner = deal.caller if deal.caller and rng.random() < 0.7 else rng.choice(state.seats)
    used = {t.card for t in deal.tricks}
    taken = _held_by_others(deal, winner, ALL_EXCHANGES)
    before = shown_before(deal, winner)
    free: list[str] = []
    if before is not None and (held(deal, winner, ALL_EXCHANGES) is not None or rng.random() < 0.8):
        # The trick is taken with a card of the hand shown before (always when the
        # table knows that hand is held still), so that the final hand can follow it.
        free = sorted(c.code for c in before[1] if c.code not in used and c not in taken)
    if not free:
        free = [c.code for c in deck() if c.code not in used and c not in taken]
    twos = [c for c in free if c[0] == "2"]
    last = len(deal.tricks) == TRICKS - 1
    card = rng.choice(twos) if last and twos and rng.random() < 0.3 else rng.choice(free)
    return {"type": "trick", "winner": winner, "card": card}


def _held_by_others(deal: Deal, player: str, upto: int) -> set[Card]:
    """The cards the table knows other players than ``player`` to hold."""
    return {card for other, (cards, _why) in known_hands(deal, upto).items()
            if other != player for card in cards}


def _random_hands(state: CardChicagoState, rng: Any) -> dict[str, str]:
    """Hands for some players to show, dealt from one shuffled deck, that the deal lets
    them hold (a few tries; else nobody shows, which is always allowed)."""
    number = _show_round(state.deal) or 1
    for _ in range(20):
        hands = _try_hands(state, number, rng)
        try:
            _check_hands(state, number, hands)
        except Refusal:
            continue
        return hands
    return {}


def _try_hands(state: CardChicagoState, number: int, rng: Any) -> dict[str, str]:
    deal, upto = state.deal, number          # exchanges 1..number came before this show
    won: dict[str, list[Card]] = {p: [] for p in state.seats}
    if deal.phase == FINAL_PHASE:
        # After the tricks a hand holds the cards its owner took tricks with.
        for trick in deal.tricks:
            if trick.card is not None:
                won[trick.winner].append(parse_card(trick.card))
    showing = [p for p in state.seats if won[p] or rng.random() >= 0.3]
    everyone_won = {c for cards in won.values() for c in cards}
    kept: dict[str, list[Card]] = {p: list(won[p]) for p in showing}
    for player in showing:
        # A hand shown before keeps all but as many cards as were exchanged since.
        before = shown_before(deal, player)
        most = exchanged_since(deal, player, before[0], upto) if before else None
        if before is None or most is None:
            continue
        old = [c for c in sorted(before[1]) if c not in everyone_won]
        rng.shuffle(old)
        fresh = len(set(won[player]) - before[1])
        new = rng.randint(0, max(0, most - fresh))
        kept[player] += old[:max(0, 5 - len(kept[player]) - new)]
    reserved = _held_by_others(deal, "", upto) | everyone_won | \
        {c for cards in kept.values() for c in cards}
    stock = [c for c in deck() if c not in reserved]
    rng.shuffle(stock)
    hands: dict[str, str] = {}
    for player in showing:
        cards = kept[player] or _strong_hand(stock, rng)
        while len(cards) < 5:
            cards.append(stock.pop())
        hands[player] = " ".join(c.code for c in cards)
    return hands


def _strong_hand(stock: list[Card], rng: Any) -> list[Card]:
    """Now and then a four of a kind or a straight flush from the stock, else nothing."""
    if rng.random() > 0.08:
        return []
    if rng.random() < 0.5:
        rank = rng.randint(2, 14)
        wanted = [Card(rank, s) for s in "SHDC"]
    else:
        top, suit = rng.randint(5, 14), rng.choice("SHDC")
        wanted = [Card(14 if r == 1 else r, suit) for r in range(top - 4, top + 1)]
    if not all(c in stock for c in wanted):
        return []
    for card in wanted:
        stock.remove(card)
    return wanted
