"""What a Card Chicago hand can hold, from what its deal has shown so far.

Hands are entered by hand at the table, so a hand can be typed that nobody holds: a
player under buy stop showing other cards than before, a final hand without the cards
its owner took tricks with. Only what the deal proves is checked: a hand shown earlier
in the deal, the exchanges entered since (a game file may leave them out, and then
nothing is known), buy stop (no exchange at all), and the cards that took tricks.

>>> from scorer import new_game
>>> g = new_game("card_chicago", ["Aino", "Bertil"])
>>> g.apply({"type": "show", "round": 1, "hands": {"Aino": "2S 2H 7D 4C 9S"}})
>>> g.apply({"type": "exchange", "player": "Aino", "count": 1})
>>> hands_problem(g.raw_state.deal, 2, {"Aino": parse_hand("2S 2H 7D 4C 3S")})
>>> hands_problem(g.raw_state.deal, 2, {"Aino": parse_hand("AH AD AC AS KH")})
"Aino's hand holds 5 cards that are not in the hand shown in round 1 (2S 2H 7D 4C 9S), but Aino exchanged 1 card since (new: AH AD AC AS KH)"
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, Sequence

from .cards import Card, parse_card, parse_hand

if TYPE_CHECKING:
    from .card_chicago import Deal

#: Exchange k comes before show round k, and the third before the tricks too: the
#: exchanges made by show round k are 1..k, and by the tricks all of them.
ALL_EXCHANGES = 3


def shown_before(deal: Deal, player: str) -> tuple[int, frozenset[Card], str] | None:
    """The round, cards and text of ``player``'s latest hand shown in ``deal``."""
    for shown in reversed(deal.shows):
        if player in shown.hands:
            text = shown.hands[player]
            return shown.round, frozenset(parse_hand(text)), text
    return None


def exchanged_since(deal: Deal, player: str, since: int, upto: int) -> int | None:
    """How many cards ``player`` exchanged after show round ``since`` up to and with
    exchange ``upto``: none under buy stop, else the counts entered; ``None`` when one
    of those exchanges was not entered, as then nothing is known."""
    if player in deal.stopped:
        return 0
    total = 0
    for number in range(since + 1, upto + 1):
        count = deal.exchanges[number - 1].get(player)
        if count is None:
            return None
        total += count
    return total


def held(deal: Deal, player: str, upto: int) -> tuple[frozenset[Card], str] | None:
    """The cards ``player`` is known to hold after exchange ``upto``: a hand shown this
    deal with no card exchanged since (the cards and why), else ``None``."""
    before = shown_before(deal, player)
    if before is None:
        return None
    round_, cards, text = before
    if exchanged_since(deal, player, round_, upto) != 0:
        return None
    why = "under buy stop" if player in deal.stopped else "no card exchanged since"
    return cards, f"shown in round {round_}: {text}, {why}"


def known_hands(deal: Deal, upto: int) -> dict[str, tuple[frozenset[Card], str]]:
    """Each player whose hand the table knows after exchange ``upto`` (see :func:`held`)."""
    known = {player: held(deal, player, upto) for player in deal.order}
    return {player: hand for player, hand in known.items() if hand is not None}


def hands_problem(deal: Deal, number: int, hands: Mapping[str, Sequence[Card]]
                  ) -> str | None:
    """Why the ``hands`` of show round ``number`` cannot be what their players hold, or
    ``None``: each hand against its owner's earlier hand and exchanges, the final hands
    against the cards their owners took tricks with, and every hand against the cards
    another player is known to hold."""
    kept = {p: hand for p, hand in known_hands(deal, number).items() if p not in hands}
    for player, cards in hands.items():
        problem = _against_before(deal, player, number, cards)
        if problem is None and number == 3:
            problem = _against_tricks(deal, player, frozenset(cards))
        if problem is not None:
            return problem
        for other, (other_cards, why) in kept.items():
            for card in cards:
                if card in other_cards:
                    return (f"the card {card.code} of {player}'s hand is in {other}'s hand "
                            f"({why})")
    return None


def trick_problem(deal: Deal, winner: str, card: Card) -> str | None:
    """Why ``winner`` cannot have taken a trick with ``card``, or ``None``."""
    for player, (cards, why) in known_hands(deal, ALL_EXCHANGES).items():
        if player == winner and card not in cards:
            return f"{card.code} is not in {winner}'s hand ({why})"
        if player != winner and card in cards:
            return f"{card.code} is in {player}'s hand ({why}), not {winner}'s"
    return None


def _against_before(deal: Deal, player: str, number: int, entered: Sequence[Card]
                    ) -> str | None:
    before = shown_before(deal, player)
    if before is None:
        return None
    round_, old, text = before
    most = exchanged_since(deal, player, round_, number)
    fresh = [card for card in entered if card not in old]
    if most is None or len(fresh) <= most:
        return None
    # The refusal names the cards, so that the one typed wrong can be found and fixed.
    named = " ".join(card.code for card in fresh)
    if player in deal.stopped:
        return (f"{player} is under buy stop this deal: the hand stays as shown in round "
                f"{round_} ({text}), and {named} {'is' if len(fresh) == 1 else 'are'} not "
                "in it")
    cards_new = "1 card that is" if len(fresh) == 1 else f"{len(fresh)} cards that are"
    return (f"{player}'s hand holds {cards_new} not in the hand shown in round {round_} "
            f"({text}), but {player} exchanged {most} card{'' if most == 1 else 's'} since "
            f"(new: {named})")


def _against_tricks(deal: Deal, player: str, cards: frozenset[Card]) -> str | None:
    # A player plays the five cards of the final hand in the tricks: a card that took a
    # trick for this player is in it.
    for trick in deal.tricks:
        if trick.winner == player and trick.card is not None:
            if parse_card(trick.card) not in cards:
                return (f"{player} took trick {trick.number} with {trick.card}, so "
                        f"{player}'s final hand holds it")
    return None

