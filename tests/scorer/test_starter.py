"""Who starts Sum Chicago, found by each throwing one die (RULES.md §1)."""
from __future__ import annotations

import doctest

import pytest

import scorer.starter
from scorer.starter import (BadDrawPlayers, DrawDecided, DrawError, DrawUndecided,
                            NotADieFace, NothingToTakeBack, StarterDraw)

FAMILY = ("Aino", "Bertil", "Cecilia", "Daniel")


def thrown(*values: int, players: tuple[str, ...] = FAMILY) -> StarterDraw:
    draw = StarterDraw(players)
    for value in values:
        draw = draw.throw(value)
    return draw


def test_everyone_throws_in_list_order_and_the_highest_starts() -> None:
    draw = StarterDraw(FAMILY)
    order = []
    for value in (3, 5, 2, 4):
        order.append(draw.thrower)
        assert draw.starter is None
        draw = draw.throw(value)
    assert order == list(FAMILY)
    assert draw.starter == "Bertil" and draw.thrower is None


def test_the_list_is_rotated_to_begin_with_the_starter_not_sorted() -> None:
    draw = thrown(3, 1, 6, 5)
    assert draw.seating() == ("Cecilia", "Daniel", "Aino", "Bertil")


def test_the_first_in_the_list_starting_keeps_the_list_as_typed() -> None:
    assert thrown(6, 1, 2, 3).seating() == FAMILY


def test_only_those_tied_for_the_highest_throw_again_in_list_order() -> None:
    draw = thrown(2, 6, 1, 6)                # Bertil and Daniel tie at 6
    assert draw.starter is None
    assert draw.rounds[0].tied == ("Bertil", "Daniel")
    assert draw.thrower == "Bertil"
    draw = draw.throw(3)
    assert draw.thrower == "Daniel"
    draw = draw.throw(4)
    assert draw.starter == "Daniel"
    assert draw.seating() == ("Daniel", "Aino", "Bertil", "Cecilia")


def test_a_tie_below_the_highest_throws_nothing_again() -> None:
    draw = thrown(2, 2, 5, 1)                # Aino and Bertil tie, but Cecilia is higher
    assert draw.starter == "Cecilia" and len(draw.rounds) == 1


def test_a_tie_in_the_throw_off_is_thrown_off_again_as_often_as_needed() -> None:
    draw = thrown(6, 6, 6, 1, 4, 4, 2)       # three tie; then Aino and Bertil tie again
    assert [r.throwers for r in draw.rounds] == [FAMILY, ("Aino", "Bertil", "Cecilia"),
                                                 ("Aino", "Bertil")]
    draw = draw.throw(5).throw(5)            # and again
    assert draw.thrower == "Aino" and len(draw.rounds) == 4
    draw = draw.throw(1).throw(2)
    assert draw.starter == "Bertil"
    assert draw.seating() == ("Bertil", "Cecilia", "Daniel", "Aino")


def test_a_throw_no_die_shows_is_refused_and_changes_nothing() -> None:
    draw = thrown(3)
    # Each named as the request wrote it: JSON's null and true, not Python's None and True.
    for value, said in ((0, "0"), (7, "7"), (-1, "-1"), (3.0, "3.0"), ("4", "'4'"),
                        (None, "null"), (True, "true")):
        assert not draw.can_throw(value)
        with pytest.raises(NotADieFace, match=f"Bertil's throw {said}: a die shows 1 to 6"):
            draw.throw(value)
    assert draw.throws == (3,) and draw.thrower == "Bertil"


def test_a_throw_after_the_starter_is_found_is_refused() -> None:
    draw = thrown(1, 2, 3, 4)
    assert not draw.can_throw(5)
    with pytest.raises(DrawDecided, match="Daniel starts already"):
        draw.throw(5)
    with pytest.raises(DrawDecided, match=r"throws \[5\] come after Daniel"):
        StarterDraw(FAMILY, (1, 2, 3, 4, 5))


def test_the_latest_throw_is_taken_back_even_the_one_that_decided() -> None:
    draw = thrown(2, 6, 1, 6, 3, 4)
    assert draw.starter == "Daniel" and draw.last_throw == ("Daniel", 4)
    draw = draw.take_back()
    assert draw.starter is None and draw.thrower == "Daniel"
    draw = draw.take_back()                  # Bertil's throw-off throw
    assert draw.thrower == "Bertil" and draw.last_throw == ("Daniel", 6)
    draw = draw.take_back()                  # Daniel's 6: no tie any more
    assert len(draw.rounds) == 1 and draw.thrower == "Daniel"


def test_nothing_to_take_back_before_the_first_throw() -> None:
    draw = StarterDraw(FAMILY)
    assert not draw.can_take_back()
    with pytest.raises(NothingToTakeBack, match="Aino throws first"):
        draw.take_back()


def test_the_seating_is_not_known_before_the_starter() -> None:
    with pytest.raises(DrawUndecided, match="Aino throws next"):
        StarterDraw(("Aino", "Bertil"), (4, 4)).seating()


@pytest.mark.parametrize("players, words", [
    (("Aino",), "two players or more"),
    ((), "two players or more"),
    (("Aino", "Bertil", "Aino"), "Aino cannot draw twice"),
    (["Aino", "Bertil"], "a tuple of names"),
    (("Aino", ""), "a tuple of names"),
])
def test_players_who_cannot_draw_are_refused_by_name(players: object, words: str) -> None:
    with pytest.raises(BadDrawPlayers, match=words):
        StarterDraw(players)  # type: ignore[arg-type]


def test_every_refusal_is_a_value_error() -> None:
    for error in (BadDrawPlayers, NotADieFace, DrawDecided, NothingToTakeBack, DrawUndecided):
        assert issubclass(error, DrawError) and issubclass(error, ValueError)


def test_a_draw_is_a_frozen_value() -> None:
    draw = thrown(3)
    after = draw.throw(5)
    assert draw.throws == (3,) and after.throws == (3, 5)
    assert thrown(3, 5) == after
    with pytest.raises(AttributeError):
        draw.throws = ()  # type: ignore[misc]


def test_the_screens_see_each_round_who_throws_and_who_starts() -> None:
    data = thrown(5, 5, players=("Aino", "Bertil", "Cecilia")).to_json()
    assert data == {
        "players": ["Aino", "Bertil", "Cecilia"],
        "rounds": [{"throws": [{"player": "Aino", "value": 5}, {"player": "Bertil", "value": 5},
                               {"player": "Cecilia", "value": None}], "tied": []}],
        "thrower": "Cecilia", "starter": None, "seating": None,
        "last": {"player": "Bertil", "value": 5},
    }
    data = thrown(5, 5, 2, 1, 3, players=("Aino", "Bertil", "Cecilia")).to_json()
    assert data["rounds"][0]["tied"] == ["Aino", "Bertil"]
    assert data["rounds"][1]["throws"] == [{"player": "Aino", "value": 1},
                                           {"player": "Bertil", "value": 3}]
    assert data["starter"] == "Bertil" and data["thrower"] is None
    assert data["seating"] == ["Bertil", "Cecilia", "Aino"]


def test_doctests() -> None:
    assert doctest.testmod(scorer.starter).failed == 0
