"""The die size measured from the dice read surely: taken when a few throws agree on it,
never from a set of dice of two sizes."""
from __future__ import annotations

import doctest

import pytest

from calibration import die_size
from calibration.die_size import (
    KEEP,
    MIN_DICE,
    MIN_THROWS,
    STALE_ABOVE,
    STALE_BELOW,
    STALE_THROWS,
    DieSizeEvidence,
    SizeCheck,
)


def _throws(*throws: list[float]) -> DieSizeEvidence:
    evidence = DieSizeEvidence()
    for faces in throws:
        evidence = evidence.with_throw(faces)
    return evidence


def test_the_examples_in_the_docstrings_hold() -> None:
    result = doctest.testmod(die_size)
    assert result.failed == 0 and result.attempted > 0


def test_a_size_is_taken_only_after_enough_throws() -> None:
    """Twenty dice in one throw are still one throw: a camera that saw one throw may have
    seen it while the dice still moved, or one odd moment."""
    one = [40.0 + 0.1 * i for i in range(20)]
    assert _throws(one).size() is None and _throws(one).status() == "measuring"
    assert _throws(one, one).size() is None
    assert _throws(*[one] * MIN_THROWS).size() == pytest.approx(40.95, abs=0.05)


def test_a_size_is_taken_only_after_enough_dice() -> None:
    few = [[40.0, 41.0]] * MIN_THROWS   # six dice in three throws
    assert len(few) * 2 < MIN_DICE
    assert _throws(*few).size() is None and _throws(*few).status() == "measuring"


def test_three_throws_of_three_dice_measure_a_set() -> None:
    """Pub Chicago throws three dice: three throws of them are enough, the reader's size
    for each die wandering by up to a tenth either way."""
    evidence = _throws([40.0, 43.5, 37.0], [41.0, 37.5, 44.0], [39.0, 42.5, 40.5])
    assert evidence.size() == 40.5 and evidence.status() == "agreed"


def test_a_set_whose_dice_spread_wider_is_not_measured() -> None:
    """Dice a fifth apart in size (an oblique camera shows near dice bigger): cut at one
    size some would be flagged, so each is read at its own size."""
    evidence = _throws(*[[34.0, 40.0, 48.0]] * 4)
    assert evidence.size() is None and evidence.status() == "differ"


@pytest.mark.parametrize("odd", [28.0, 56.0])
def test_a_set_with_one_die_of_another_size_in_every_throw_is_never_measured(odd: float) -> None:
    """A bigger or smaller die among three: cut at the others' size, it would be flagged
    or missed in a third of the throws; read at its own size, it is read."""
    evidence = _throws(*[[39.5, 40.5, odd]] * 30)
    assert evidence.size() is None and evidence.status() == "differ"
    assert evidence.agreeing() == pytest.approx(2 / 3, abs=0.02)   # of the newest 40 dice


def test_a_die_read_a_little_off_its_size_does_not_stop_the_measuring() -> None:
    """The reader's own size for a die wanders by a tenth either way, and now and then a
    die is sized well off: one in twelve does no harm."""
    evidence = _throws([40.0, 44.0, 36.5, 41.0], [39.0, 43.5, 38.0, 40.5], [40.0, 41.5, 37.0, 60.0])
    assert evidence.size() == pytest.approx(40.25, abs=0.05)


def test_only_the_newest_dice_count() -> None:
    """New dice of another size: once the old set's dice have gone out of the window, the
    new ones are measured (after some throws of disagreement in between)."""
    old = [[30.0, 30.5, 29.5, 30.0]] * 10
    evidence = _throws(*old)
    assert evidence.size() == 30.0
    new = [45.0, 45.5, 44.5, 45.0]
    evidence = evidence.with_throw(new)
    assert evidence.size() == 30.0      # one throw in ten may be sized oddly
    evidence = evidence.with_throw(new)
    assert evidence.size() is None and evidence.status() == "differ"
    for _ in range(KEEP // len(new)):
        evidence = evidence.with_throw(new)
    assert evidence.size() == 45.0 and len(evidence.faces) == KEEP


def test_a_throw_without_a_die_read_surely_is_no_throw() -> None:
    evidence = _throws([40.0] * 6, [], [0.0, -3.0], [40.0] * 6)
    assert evidence.throws == 2 and evidence.size() is None


def _seen(size: float, *seen: float | None) -> SizeCheck:
    check = SizeCheck()
    for s in seen:
        check = check.with_throw(s, size)
    return check


def test_a_size_is_stale_when_the_dice_look_bigger_or_smaller_throw_after_throw() -> None:
    big, small = 40.0 * (STALE_ABOVE + 0.05), 40.0 * (STALE_BELOW - 0.05)
    assert _seen(40.0, *[big] * STALE_THROWS).stale() == "bigger"
    assert _seen(40.0, *[small] * STALE_THROWS).stale() == "smaller"
    assert _seen(40.0, *[big] * (STALE_THROWS - 1)).stale() is None


def test_a_size_the_dice_fit_is_never_stale() -> None:
    assert _seen(40.0, 40.0, 44.0, 36.0, 40.0 * STALE_ABOVE, 40.0 * STALE_BELOW).stale() is None


def test_only_throws_in_a_row_on_one_side_make_a_size_stale() -> None:
    big, small = 60.0, 25.0
    assert _seen(40.0, big, big, 40.0, big, big).stale() is None
    assert _seen(40.0, big, small, big).stale() is None
    assert _seen(40.0, 40.0, big, big, big).stale() == "bigger"


def test_a_throw_with_no_die_says_nothing_of_the_size() -> None:
    assert _seen(40.0, 60.0, None, 60.0, None, 60.0).stale() == "bigger"
    assert _seen(40.0, None, None, None).stale() is None
