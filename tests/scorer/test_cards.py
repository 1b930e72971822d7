"""The five-card evaluator of Card Chicago: parsing, categories, names, order, and the
exhaustive count over every five-card hand (RULES.md §4)."""
from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from scorer.cards import (Card, CardError, Category, HandValue, deck, describe, evaluate,
                          name_of, parse_card, parse_hand, suit_key)


def value(text: str) -> HandValue:
    return evaluate(parse_hand(text))


# -- parsing ------------------------------------------------------------------------------

def test_cards_parse_rank_and_suit() -> None:
    assert parse_card("AS") == Card(14, "S")
    assert parse_card("TD") == Card(10, "D")
    assert parse_card("2C") == Card(2, "C")
    assert [c.code for c in parse_hand("AS KS QS JS TS")] == ["AS", "KS", "QS", "JS", "TS"]
    assert len(set(deck())) == 52


@pytest.mark.parametrize("text", ["1S", "10S", "AX", "as", "A", "ASK", "", " AS", "11",
                                  None, 14])
def test_malformed_cards_are_refused(text: object) -> None:
    with pytest.raises(CardError, match="is not a card"):
        parse_card(text)  # type: ignore[arg-type]


@pytest.mark.parametrize("text, reason", [
    ("AS KS QS JS", "five cards, not 4"),
    ("AS KS QS JS TS 9S", "five cards, not 6"),
    ("AS KS QS JS AS", "'AS' appears twice"),
    ("AS KS QS JS ZZ", "'ZZ' is not a card"),
    ("AS,KS,QS,JS,TS", "five cards, not 1"),
])
def test_malformed_hands_are_refused(text: str, reason: str) -> None:
    with pytest.raises(CardError, match=reason):
        parse_hand(text)


# -- categories and names -------------------------------------------------------------------

@pytest.mark.parametrize("text, category, name", [
    ("AS KS QS JS TS", Category.STRAIGHT_FLUSH, "royal flush"),
    ("9H 8H 7H 6H 5H", Category.STRAIGHT_FLUSH, "straight flush, nine high"),
    ("AD 2D 3D 4D 5D", Category.STRAIGHT_FLUSH, "straight flush, five high"),
    ("9S 9H 9D 9C 2S", Category.FOUR_OF_A_KIND, "four of a kind, nines"),
    ("KS KH KD 5C 5S", Category.FULL_HOUSE, "full house, kings over fives"),
    ("6S 6H 6D KC KS", Category.FULL_HOUSE, "full house, sixes over kings"),
    ("AH JH 9H 6H 3H", Category.FLUSH, "flush, ace high"),
    ("TS 9H 8D 7C 6S", Category.STRAIGHT, "straight, ten high"),
    ("AS 2H 3D 4C 5S", Category.STRAIGHT, "straight, five high"),
    ("AS KH QD JC TS", Category.STRAIGHT, "straight, ace high"),
    ("7S 7H 7D KC 2S", Category.THREE_OF_A_KIND, "three of a kind, sevens"),
    ("AS AH 8D 8C 3S", Category.TWO_PAIR, "two pair, aces and eights"),
    ("QS QH 7D 4C 2S", Category.PAIR, "pair of queens"),
    ("AS JH 9D 6C 3S", Category.HIGH_CARD, "high card, ace"),
    # Not straights: the ace does not wrap around, and four in a row is not five.
    ("QS KH AD 2C 3S", Category.HIGH_CARD, "high card, ace"),
    ("9S 8H 7D 6C 4S", Category.HIGH_CARD, "high card, nine"),
    # Four cards of one suit are not a flush.
    ("AH JH 9H 6H 3S", Category.HIGH_CARD, "high card, ace"),
])
def test_category_and_name(text: str, category: Category, name: str) -> None:
    assert value(text).category is category
    assert name_of(value(text)) == name
    assert describe(text) == name


def test_only_the_ace_high_straight_flush_is_royal() -> None:
    assert value("AS KS QS JS TS").royal
    assert not value("KS QS JS TS 9S").royal
    assert not value("AS 2S 3S 4S 5S").royal
    assert not value("AS KH QD JC TS").royal


# -- comparison ---------------------------------------------------------------------------

@pytest.mark.parametrize("better, worse", [
    ("2S 2H 5D 7C 9S", "AS KH QD JC 9S"),          # any pair beats any high card
    ("QS QH 5D 4C 2S", "TS TH AD KC QD"),          # pair of queens beats pair of tens
    ("QS QH 9D 4C 2S", "QD QC 8S 7H 6D"),          # equal pairs: the kickers, high first
    ("QS QH 9D 5C 2S", "QD QC 9S 4H 3D"),          # ... down to the second kicker
    ("AS AH 3D 3C 4S", "KS KH QD QC AD"),          # two pair: the higher pair first
    ("KS KH 4D 4C 2S", "KD KC 3S 3H AD"),          # then the lower pair
    ("KS KH 4D 4C 6S", "KD KC 4S 4H 5D"),          # then the kicker
    ("2S 2H 2D 4C 5S", "AS AH KD KC QS"),          # three of a kind beats two pair
    ("6S 5H 4D 3C 2S", "5S 4H 3D 2C AS"),          # A-2-3-4-5 is the lowest straight
    ("5S 4H 3D 2C AS", "AS AH AD KC QS"),          # ... yet a straight beats trips
    ("AS KH QD JC TS", "KS QH JD TC 9S"),          # ace-high straight is the top
    ("7H 5H 4H 3H 2H", "AS KH QD JC TS"),          # flush beats straight
    ("AH JH 9H 6H 4H", "AD JD 9D 6D 3D"),          # flushes: every card, high to low
    ("2S 2H 2D 3C 3S", "AH KH QH JH 9H"),          # full house beats flush
    ("3S 3H 3D 2C 2S", "2D 2C 2H AS AH"),          # full house: the trips decide
    ("2S 2H 2D 2C 3S", "AS AH AD KC KS"),          # four of a kind beats full house
    ("5S 5H 5D 5C 2S", "4S 4H 4D 4C AS"),
    ("5S 4S 3S 2S AS", "AS AH AD AC KS"),          # the lowest straight flush beats fours
    ("AS KS QS JS TS", "KH QH JH TH 9H"),          # royal flush is the top
])
def test_poker_order(better: str, worse: str) -> None:
    assert value(better) > value(worse)
    assert value(worse) < value(better)


@pytest.mark.parametrize("a, b", [
    ("AS KH 9D 6C 3S", "AH KD 9C 6S 3D"),
    ("AS KS QS JS TS", "AH KH QH JH TH"),
    ("5S 4H 3D 2C AS", "5H 4D 3C 2S AH"),
    ("QS QH 7D 4C 2S", "QD QC 7S 4H 2H"),
])
def test_hands_differing_only_in_suits_are_exactly_equal(a: str, b: str) -> None:
    assert value(a) == value(b)


def test_suit_order_breaks_on_the_highest_deciding_card() -> None:
    # Spades, hearts, diamonds, clubs, high to low (RULES.md §4 decision).
    assert suit_key(parse_hand("AS KS QS JS TS")) > suit_key(parse_hand("AH KH QH JH TH"))
    assert suit_key(parse_hand("AH KH QH JH TH")) > suit_key(parse_hand("AD KD QD JD TD"))
    assert suit_key(parse_hand("AD KD QD JD TD")) > suit_key(parse_hand("AC KC QC JC TC"))
    # Equal pairs of kings: the king of spades beats the king of hearts, kickers aside.
    assert suit_key(parse_hand("KS KC 4D 3D 2D")) > suit_key(parse_hand("KH KD 4S 3S 2S"))
    # In A-2-3-4-5 the five is the highest card, not the ace.
    assert suit_key(parse_hand("5S 4C 3C 2C AC")) > suit_key(parse_hand("5H 4S 3S 2S AS"))


# -- every hand ---------------------------------------------------------------------------

KNOWN_COUNTS = {
    Category.STRAIGHT_FLUSH: 40, Category.FOUR_OF_A_KIND: 624, Category.FULL_HOUSE: 3744,
    Category.FLUSH: 5108, Category.STRAIGHT: 10200, Category.THREE_OF_A_KIND: 54912,
    Category.TWO_PAIR: 123552, Category.PAIR: 1098240, Category.HIGH_CARD: 1302540,
}
#: Distinct values per category: 7,462 classes of equal hands in all.
KNOWN_CLASSES = {
    Category.STRAIGHT_FLUSH: 10, Category.FOUR_OF_A_KIND: 156, Category.FULL_HOUSE: 156,
    Category.FLUSH: 1277, Category.STRAIGHT: 10, Category.THREE_OF_A_KIND: 858,
    Category.TWO_PAIR: 858, Category.PAIR: 2860, Category.HIGH_CARD: 1277,
}


def test_every_five_card_hand_counted_by_category() -> None:
    counts: Counter[Category] = Counter()
    royals = 0
    examples: dict[HandValue, tuple[Card, ...]] = {}
    for hand in combinations(deck(), 5):
        v = evaluate(hand)
        counts[v.category] += 1
        if v not in examples:
            examples[v] = hand
    royals = sum(1 for hand in combinations([c for c in deck() if c.rank >= 10], 5)
                 if evaluate(hand).royal)
    assert sum(counts.values()) == 2_598_960
    assert dict(counts) == KNOWN_COUNTS
    assert royals == 4
    assert Counter(v.category for v in examples) == Counter(KNOWN_CLASSES)
    assert len(examples) == 7462
    _order_agrees_with_a_plain_ranking(examples)


def plain_rank(hand: tuple[Card, ...]) -> tuple[int, list[int]]:
    """A slow, separate poker ranking straight from the rule book, for comparison."""
    ranks = sorted((c.rank for c in hand), reverse=True)
    flush = len({c.suit for c in hand}) == 1
    if ranks == [14, 5, 4, 3, 2]:
        ranks = [5, 4, 3, 2, 1]                      # the ace plays low in A-2-3-4-5
    straight = len(set(ranks)) == 5 and ranks[0] - ranks[4] == 4
    # Sort by (how many of that rank, rank): the groups that make the hand come first.
    by_group = sorted(ranks, key=lambda r: (ranks.count(r), r), reverse=True)
    shape = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    if straight and flush:
        return 8, ranks
    table = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}
    if tuple(shape) in ((4, 1), (3, 2)):
        return table[tuple(shape)], by_group
    if flush:
        return 5, ranks
    if straight:
        return 4, ranks
    return table.get(tuple(shape), 0), by_group


def _order_agrees_with_a_plain_ranking(examples: dict[HandValue, tuple[Card, ...]]) -> None:
    # One hand of every class, sorted by the evaluator, is in strictly increasing order
    # by the plain ranking too: the evaluator's order is total and the poker order.
    by_evaluator = sorted(examples)
    plain = [plain_rank(examples[v]) for v in by_evaluator]
    assert all(a < b for a, b in zip(plain, plain[1:]))
    assert [v.category for v in by_evaluator] == sorted(v.category for v in by_evaluator)
