"""Playing cards and the five-card poker evaluator of Card Chicago (RULES.md §4).

A card is written as its rank and suit, ``"AS"`` (ranks 2-9 T J Q K A, suits S H D C);
a hand as five cards, ``"AS KS QS JS TS"``. A hand's value compares by category
first, then by the ranks that make it, then by the kickers, high to low; A-2-3-4-5
is the lowest straight. Suits never make one hand better than another, except in
the house rule that ranks them to break an exact tie.

>>> value = evaluate(parse_hand("KS KH KD 5C 5S"))
>>> value.category.name, name_of(value)
('FULL_HOUSE', 'full house, kings over fives')
>>> evaluate(parse_hand("5S 4H 3D 2C AS")) < evaluate(parse_hand("6S 5H 4D 3C 2S"))
True
"""
from __future__ import annotations

from enum import IntEnum
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import NamedTuple, Sequence

from .errors import json_shown

RANKS = "23456789TJQKA"
#: Suits from the highest to the lowest in the suit-order house rule (a decision of
#: RULES.md §4: spades, hearts, diamonds, clubs).
SUITS = "SHDC"
ACE = 14
HAND_SIZE = 5


class CardError(ValueError):
    """A card or hand that is not written as RULES.md says, or holds a card twice.

    >>> parse_card("1S")
    Traceback (most recent call last):
    ...
    scorer.cards.CardError: '1S' is not a card (rank 2-9 T J Q K A, then suit S H D C)
    """


class Card(NamedTuple):
    """One card: its rank (2..14, ace high) and suit letter.

    >>> Card(14, "S").code
    'AS'
    """

    rank: int
    suit: str

    @property
    def code(self) -> str:
        """The card as written in a game file."""
        return RANKS[self.rank - 2] + self.suit


class Category(IntEnum):
    """The nine poker categories, the weakest first (a royal flush is a straight flush).

    >>> Category.FLUSH > Category.STRAIGHT
    True
    """

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


class HandValue(NamedTuple):
    """What a hand is worth: its category, then the ranks that decide within it.

    ``ranks`` lists the ranks of the groups that make the hand (largest group first,
    higher rank first among equal groups), then the kickers high to low; a straight is
    named by its top card alone (5 for A-2-3-4-5). Comparing two values as tuples is
    the poker order, and it is a total order: equal values are exactly equal hands.

    >>> evaluate(parse_hand("8S 8H AD AC 3S"))
    HandValue(category=<Category.TWO_PAIR: 2>, ranks=(14, 8, 3))
    """

    category: Category
    ranks: tuple[int, ...]

    @property
    def royal(self) -> bool:
        """Whether the hand is a royal flush (an ace-high straight flush).

        >>> evaluate(parse_hand("AS KS QS JS TS")).royal
        True
        """
        return self.category is Category.STRAIGHT_FLUSH and self.ranks[0] == ACE


def parse_card(text: str) -> Card:
    """A card from its two letters.

    >>> parse_card("TD")
    Card(rank=10, suit='D')
    """
    if (not isinstance(text, str) or len(text) != 2 or text[0] not in RANKS
            or text[1] not in SUITS):
        raise CardError(f"{json_shown(text)} is not a card (rank 2-9 T J Q K A, then suit S H D C)")
    return _CARDS[text]


def parse_hand(text: str) -> tuple[Card, ...]:
    """Five different cards separated by spaces.

    >>> [c.code for c in parse_hand("AS KS QS JS TS")]
    ['AS', 'KS', 'QS', 'JS', 'TS']
    >>> parse_hand("AS AS QS JS TS")
    Traceback (most recent call last):
    ...
    scorer.cards.CardError: 'AS' appears twice in the hand
    """
    if not isinstance(text, str):
        raise CardError(f"a hand is five cards written like 'AS KS QS JS TS', not {json_shown(text)}")
    return _parse_hand(text)


#: Enough for every hand of a long game, so that replaying it parses nothing twice.
CACHED_HANDS = 16384


@lru_cache(maxsize=CACHED_HANDS)
def _parse_hand(text: str) -> tuple[Card, ...]:
    words = text.split()
    if len(words) != HAND_SIZE:
        raise CardError(f"a hand is five cards, not {len(words)}: {text!r}")
    # The lookup is the fast path; parse_card only runs to name a word that is no card.
    hand = tuple(_CARDS.get(word) or parse_card(word) for word in words)
    if len(set(words)) != HAND_SIZE:
        twice = next(word for word in words if words.count(word) > 1)
        raise CardError(f"{twice!r} appears twice in the hand")
    return hand


@lru_cache(maxsize=CACHED_HANDS)
def hand_value(text: str) -> HandValue:
    """The value of a hand written as text (cached, as a replay judges hands again).

    >>> hand_value("AS KS QS JS TS").royal
    True
    """
    return evaluate(parse_hand(text))


def deck() -> list[Card]:
    """The 52 cards, ace of spades first.

    >>> cards = deck()
    >>> len(cards), cards[0].code, cards[-1].code
    (52, 'AS', '2C')
    """
    return [Card(rank, suit) for rank in range(ACE, 1, -1) for suit in SUITS]


_CARDS = {card.code: card for card in deck()}


def evaluate(hand: Sequence[Card]) -> HandValue:
    """The value of five different cards (looked up in tables built once, so it is fast).

    >>> name_of(evaluate(parse_hand("2H 2D 9S 9C 9H")))
    'full house, nines over twos'
    """
    ranks = tuple(sorted((card.rank for card in hand), reverse=True))
    suit = hand[0].suit
    flush = hand[1].suit == suit and hand[2].suit == suit and hand[3].suit == suit \
        and hand[4].suit == suit
    return (_FLUSH_TABLE if flush else _TABLE)[ranks]


def _classify(ranks: tuple[int, ...], flush: bool) -> HandValue:
    """The value of five ranks (high to low) by the rule book, used to fill the tables."""
    counts = {r: ranks.count(r) for r in ranks}
    # Groups first: the bigger group decides before the smaller, then the higher rank.
    grouped = tuple(sorted(counts, key=lambda r: (counts[r], r), reverse=True))
    shape = sorted(counts.values(), reverse=True)
    top = _straight_top(ranks)
    if top and flush:
        return HandValue(Category.STRAIGHT_FLUSH, (top,))
    if shape == [4, 1]:
        return HandValue(Category.FOUR_OF_A_KIND, grouped)
    if shape == [3, 2]:
        return HandValue(Category.FULL_HOUSE, grouped)
    if flush:
        return HandValue(Category.FLUSH, ranks)
    if top:
        return HandValue(Category.STRAIGHT, (top,))
    by_shape = {3: Category.THREE_OF_A_KIND, 2: Category.PAIR}
    if shape == [2, 2, 1]:
        return HandValue(Category.TWO_PAIR, grouped)
    return HandValue(by_shape.get(shape[0], Category.HIGH_CARD), grouped)


def _straight_top(ranks: tuple[int, ...]) -> int:
    """The top card of a straight (5 for A-2-3-4-5, where the ace is low), else 0."""
    if len(set(ranks)) != HAND_SIZE:
        return 0
    if ranks[0] - ranks[4] == 4:
        return ranks[0]
    return 5 if ranks == (ACE, 5, 4, 3, 2) else 0


def _tables() -> tuple[dict[tuple[int, ...], HandValue], dict[tuple[int, ...], HandValue]]:
    plain: dict[tuple[int, ...], HandValue] = {}
    flush: dict[tuple[int, ...], HandValue] = {}
    for chosen in combinations_with_replacement(range(ACE, 1, -1), HAND_SIZE):
        if max(chosen.count(r) for r in chosen) > 4:
            continue  # five of a kind needs a joker, and there is none
        plain[chosen] = _classify(chosen, False)
        if len(set(chosen)) == HAND_SIZE:
            flush[chosen] = _classify(chosen, True)
    return plain, flush


_TABLE, _FLUSH_TABLE = _tables()


def ordered(hand: Sequence[Card]) -> list[Card]:
    """The cards in the order that decides: the groups that make the hand, then kickers.

    Among cards of one rank the higher suit comes first; in A-2-3-4-5 the ace is last.

    >>> [c.code for c in ordered(parse_hand("5C AS 5S 2H 3D"))]
    ['5S', '5C', 'AS', '3D', '2H']
    >>> [c.code for c in ordered(parse_hand("AS 2H 3D 4C 5S"))]
    ['5S', '4C', '3D', '2H', 'AS']
    """
    value = evaluate(hand)
    counts = {r: sum(1 for c in hand if c.rank == r) for r in {c.rank for c in hand}}
    wheel = value.category in (Category.STRAIGHT, Category.STRAIGHT_FLUSH) and value.ranks[0] == 5

    def strength(card: Card) -> tuple[int, int, int]:
        rank = 1 if wheel and card.rank == ACE else card.rank
        return counts[card.rank], rank, -SUITS.index(card.suit)

    return sorted(hand, key=strength, reverse=True)


def suit_key(hand: Sequence[Card]) -> tuple[int, ...]:
    """The suits of the hand in deciding order, higher is better (spades 3 .. clubs 0).

    Used only by the house rule that breaks an exact tie by suit: the hand whose
    highest deciding card has the higher suit wins.

    >>> suit_key(parse_hand("KH KD 9S 4C 2S")) > suit_key(parse_hand("KS KC 9H 4D 2C"))
    False
    """
    return tuple(len(SUITS) - 1 - SUITS.index(card.suit) for card in ordered(hand))


_NAMES = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
          9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace"}


def rank_name(rank: int, plural: bool = False) -> str:
    """The English name of a rank.

    >>> rank_name(6, plural=True), rank_name(12)
    ('sixes', 'queen')
    """
    name = _NAMES[rank]
    if not plural:
        return name
    return name + "es" if name.endswith("x") else name + "s"


def name_of(value: HandValue) -> str:
    """The hand's name as players say it at the table.

    >>> name_of(evaluate(parse_hand("QS QH 7D 4C 2S")))
    'pair of queens'
    >>> name_of(evaluate(parse_hand("AS 2S 3S 4S 5S")))
    'straight flush, five high'
    """
    if value.royal:
        return "royal flush"
    c, r = value.category, value.ranks
    top, many = rank_name(r[0]), [rank_name(rank, plural=True) for rank in r]
    if c is Category.PAIR:
        return f"pair of {many[0]}"
    if c is Category.TWO_PAIR:
        return f"two pair, {many[0]} and {many[1]}"
    if c is Category.FULL_HOUSE:
        return f"full house, {many[0]} over {many[1]}"
    if c in (Category.THREE_OF_A_KIND, Category.FOUR_OF_A_KIND):
        return f"{_LABELS[c]}, {many[0]}"
    if c is Category.HIGH_CARD:
        return f"high card, {top}"
    return f"{_LABELS[c]}, {top} high"


_LABELS = {c: c.name.lower().replace("_", " ") for c in Category}


@lru_cache(maxsize=CACHED_HANDS)
def describe(text: str) -> str:
    """The name of a hand written as text.

    >>> describe("9S 9H 9D 9C 2S")
    'four of a kind, nines'
    """
    return name_of(hand_value(text))
