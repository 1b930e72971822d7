"""A tap the table refuses, in the words the control page shows the family (the answer's
``plain``, else its ``error``, as control.js and the history page pick them): what went
wrong and what to do, with names, not "action 3 (join by Aino)" nor input in Python's
quotes. The API's ``error`` keeps the engine's message, which names the action."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable

import pytest

from web.fakes import reading
from web.live import LiveServer

CARD_GAME = json.loads((Path(__file__).parents[2] / "docs" / "card_chicago.json").read_text())


def shown_words(out: dict[str, Any]) -> str:
    """What the control page shows of a refusal (control.js post())."""
    words: str = out.get("plain") or out["error"]
    return words


def refused(api: Any, path: str, body: Any, status: int) -> dict[str, Any]:
    """A tap's refusal, checked to have changed nothing."""
    before = api.state()
    out = api.post(path, body, status=status)
    assert api.state() == before
    return out


def start_body(api: Any, family: str, players: str) -> dict[str, Any]:
    """The start form's POST, as control.js sends it."""
    body: dict[str, Any] = {"family": family, "players": players, "options": {},
                            "after": api.state()["table"]["game_id"]}
    if family == "pub_chicago":
        body["leader"] = "lot"
    return body


# (game, players as typed, the route the form posts, the words shown, the API's message)
START_FORM = [
    ("sum_chicago", "", "games", "type the players' names first, with commas between them",
     "players: Sum Chicago takes 1 to 40 players, not 0"),
    ("pub_chicago", "Aino", "games", "Pub Chicago needs 2 players or more: type another name",
     "players: Pub Chicago takes 2 to 40 players, not 1"),
    ("card_chicago", ", ".join(f"P{i}" for i in range(11)), "games",
     "Card Chicago is for 10 players at most, not 11",
     "players: Card Chicago takes 2 to 10 players, not 11"),
    ("ten_thousand", "Aino, Bertil, Aino", "games",
     "Aino is typed twice: give each player a name of their own",
     "players: names must be unique"),
    ("sum_chicago", "Aino, " + "Bertil-Bertilsson " * 3, "games",
     "Bertil-Bertilsson Be… is too long: a name has at most 40 characters",
     "players[1]: a name is 1 to 40 characters"),
    ("sum_chicago", "Aino, aino", "games",
     "Aino and aino look the same on the scoreboard: give them names that differ by more "
     "than capitals, spaces or accents",
     "players: 'Aino' and 'aino' differ only in case"),
    ("sum_chicago", "Aino", "draw",
     "each throwing one die needs two players or more: type another name, or let the first "
     "listed start",
     'a draw needs two players or more, not ["Aino"]'),
    ("sum_chicago", "Aino, Aino", "draw",
     "Aino is typed twice: give each player a name of their own",
     "players: names must be unique"),
]


@pytest.mark.parametrize("family,players,route,words,message", START_FORM,
                         ids=[f"{f}-{r}-{i}" for i, (f, _, r, _, _) in enumerate(START_FORM)])
def test_the_start_form_says_what_is_wrong_with_the_names(
        api: Any, family: str, players: str, route: str, words: str, message: str) -> None:
    api.start()
    out = refused(api, route, start_body(api, family, players), 400)
    assert shown_words(out) == words
    assert message in out["error"]          # the API's message, as game files have it


def test_a_name_already_playing_is_said_with_what_to_do(api: Any) -> None:
    api.start()
    out = refused(api, "join", {"player": "Aino"}, 409)
    assert shown_words(out) == "Aino is already playing: give the new player another name"
    assert out["error"] == "action 0 (join by Aino): Aino is already in the game"


def test_join_tapped_with_no_name_says_what_to_do(api: Any) -> None:
    api.start()
    out = refused(api, "join", {"player": ""}, 400)
    assert shown_words(out) == "type the new player's name, then tap Join"


def test_a_name_that_looks_like_one_playing_is_said_by_the_names(api: Any) -> None:
    api.start()
    out = refused(api, "join", {"player": " BERTIL"}, 400)
    assert shown_words(out).startswith("Bertil and BERTIL look the same on the scoreboard")


def test_a_name_with_a_hidden_character_is_said_without_it(api: Any) -> None:
    api.start()
    out = refused(api, "join", {"player": "Do\tra"}, 400)
    assert shown_words(out) == ("the name Dora holds a hidden character (a tab, a line "
                                "break, a mark that turns the text): type it again")


def test_a_refusal_of_the_rules_is_said_without_the_game_logs_action_number(api: Any) -> None:
    api.start()
    api.post("leave", {"player": "Cecilia"})
    out = refused(api, "join", {"player": "Cecilia"}, 409)
    assert shown_words(out) == ("Cecilia has left the game, and a name that has played stays "
                                "theirs: join under another name")
    assert out["error"].startswith("action 1 (join by Cecilia): ")


def card_game_at_its_last_trick(api: Any) -> int:
    """Card Chicago with a two's bonus for the last trick, played to its fifth trick (the
    rule book's example game); returns the number of its actions."""
    api.post("games", {"family": "card_chicago", "players": CARD_GAME["players"],
                       "options": {"last_trick": "two_bonus"}})
    first_four_tricks = CARD_GAME["actions"][:15]
    for action in first_four_tricks:
        api.post("action", action)
    assert api.state()["game"]["next"]["actions"][0] == "trick"
    return len(first_four_tricks)


# (the trick as the form sends it, the words shown)
TRICKS = [
    ({"type": "trick", "winner": "Bertil"},
     "type or tap the card that took the last trick: a two scores the bonus"),
    ({"type": "trick", "winner": "Bertil", "card": "ZZ"},
     "ZZ is not a card: type its rank (2 to 10, J, Q, K, A), then its suit (S, H, D, C), "
     "as 10H or QS"),
    ({"type": "trick", "winner": "Bertil", "card": "AS"}, "the card AS already took trick 1"),
]


@pytest.mark.parametrize("trick,words", TRICKS, ids=["no card", "not a card", "card taken"])
def test_a_card_chicago_trick_refused_says_which_card_is_wanted(
        api: Any, trick: dict[str, Any], words: str) -> None:
    actions = card_game_at_its_last_trick(api)
    out = refused(api, f"action?actions={actions}", trick, 409)
    assert shown_words(out) == words
    assert out["error"].startswith(f"action {actions} (trick by Bertil): ")


def one_throw_scored(api: Any) -> None:
    """A game with Aino's first throw scored (on another screen, or by the camera)."""
    api.start()
    api.post("roll", {"dice": [1, 1]})


def waiting_throw(api: Any) -> int:
    """A game whose first throw waits to be checked, its second die read as a 4 surely
    enough and its first not at all; returns the reading's id."""
    api.start()
    api.table.handle_reading(reading(None, 4, flagged=[0]))
    waiting: int = api.state()["reading"]["id"]
    return waiting


def confirmed_throw(api: Any) -> int:
    """That throw, its die picked and so scored, on a screen that still shows it waiting."""
    waiting = waiting_throw(api)
    api.post("correct", {"reading": waiting, "die": 0, "value": 3})
    return waiting


def throw_undone(api: Any) -> int:
    """That throw, scored, then taken back by Undo."""
    scored = confirmed_throw(api)
    api.post("undo")
    return scored


def draw_thrown(api: Any) -> None:
    """A draw for the starter, Aino's die thrown (on another screen, or by the camera)."""
    api.post("draw", {"players": ["Aino", "Bertil"]})
    api.post("draw/throw", {"value": 3})


def turn_moved_while_a_throw_waited(api: Any) -> int:
    """Bertil's throw waits to be checked; Undo takes back Aino's before it, so it is Aino's
    turn again. Returns the waiting reading's id."""
    api.start()
    api.table.handle_reading(reading(1, 1))
    api.table.handle_reading(reading(5, 6, flagged=[1]))
    waiting: int = api.state()["reading"]["id"]
    api.post("undo")
    return waiting


# A tap on a screen that shows the table as it was a moment ago: the setup, the tap as
# the page sends it, and the words shown.
ON_A_SCREEN_GONE_BY = [
    (one_throw_scored, "undo", lambda _: {"actions": 0},
     "the game changed meanwhile, by the camera or on another screen: nothing was done; "
     "look again and tap again if it is still wanted"),
    (waiting_throw, "correct", lambda rid: {"reading": rid, "die": 1, "value": 5,
                                            "seen": [None, 5]},
     "the dice of this throw changed on another screen: look again and tap once more"),
    (confirmed_throw, "confirm", lambda rid: {"reading": rid, "seen": [3, 4]},
     "this throw is not waiting to be checked any more: look again"),
    (confirmed_throw, "correct", lambda rid: {"reading": rid, "remove": 1, "seen": [3, 4]},
     "this throw is not waiting to be checked any more: tap a die to correct its value "
     "instead"),
    (throw_undone, "correct", lambda rid: {"reading": rid, "die": 1, "value": 5,
                                           "seen": [3, 4]},
     "this throw was taken back by an undo and no longer counts: there is nothing to "
     "correct; throw again"),
    (turn_moved_while_a_throw_waited, "confirm", lambda rid: {"reading": rid, "seen": [5, 6]},
     "this throw was Bertil's, but it is Aino's throw now: enter it by hand or throw again"),
    (draw_thrown, "draw/throw", lambda _: {"value": 5, "player": "Aino"},
     "it is Bertil's throw in the draw now: look again and tap once more"),
    (draw_thrown, "draw/take-back", lambda _: {"throws": 0},
     "the draw changed on another screen: look again and tap once more"),
]


@pytest.mark.parametrize("setup,path,tap,words", ON_A_SCREEN_GONE_BY,
                         ids=["undo", "die", "confirm", "not a die", "undone", "turn moved",
                              "draw throw", "draw take back"])
def test_a_tap_on_a_screen_gone_by_is_said_without_the_apis_numbers(
        api: Any, setup: Callable[[Any], Any], path: str,
        tap: Callable[[Any], dict[str, Any]], words: str) -> None:
    out = refused(api, path, tap(setup(api)), 409)
    assert shown_words(out) == words


def test_no_refusal_a_tap_meets_shows_the_game_log_or_python(api: Any) -> None:
    """Every refusal above, as the page shows it: no "action N", no brackets, no None, no
    input in quotes."""
    api.start()
    outs = [api.post(route, start_body(api, family, players), status=None)
            for family, players, route, _, _ in START_FORM]
    outs += [api.post("join", {"player": name}, status=None) for name in ("Aino", "aino")]
    actions = card_game_at_its_last_trick(api)
    outs += [api.post(f"action?actions={actions}", trick, status=None) for trick, _ in TRICKS]
    for setup, path, tap, _ in ON_A_SCREEN_GONE_BY:
        outs.append(api.post(path, tap(setup(api)), status=None))
        if api.state()["draw"]:
            api.post("draw/cancel")        # the next one starts a game
    for out in outs:
        assert 400 <= out["_status"] < 500
        words = shown_words(out)
        assert not re.search(r"action \d|[\[\]{}\"]|\bNone\b|'\w+'", words), words


@pytest.mark.browser
def test_the_control_page_shows_the_refusal_in_the_familys_words(
        browser: Any, tmp_path: Path) -> None:
    """The box under the start form and the toast say the plain words, not the API's."""
    words = "Pub Chicago needs 2 players or more: type another name"
    with LiveServer(tmp_path / "data") as server:
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        page.goto(server.url + "/control")
        # The start form is filled in once the page has its families and its first state.
        page.wait_for_selector("#controlpage:not([inert]) #family option[value='pub_chicago']",
                               state="attached")
        page.select_option("#family", "pub_chicago")
        page.fill("#newplayers", "Aino")
        page.click("#start")
        page.wait_for_selector("#toast.show")
        assert [page.inner_text("#starterror"), page.inner_text("#toast")] == [words, words]
        assert server.table.state()["game"] is None
        page.close()


def test_the_examples_in_the_refusals_docstrings_hold() -> None:
    import doctest

    from web import refusals

    result = doctest.testmod(refusals)
    assert result.attempted and not result.failed


def two_games_left_unfinished(api: Any) -> tuple[int, int]:
    """Game 1 left unfinished when game 2 was started; returns their ids."""
    first = api.start()["table"]["game_id"]
    second = api.start()["table"]["game_id"]
    return first, second


def test_continue_on_a_history_page_gone_by_is_said_as_a_continue(api: Any) -> None:
    first, second = two_games_left_unfinished(api)
    api.post("continue", {"game": first})             # on another tablet
    out = refused(api, "continue", {"game": second, "after": second}, 409)
    assert shown_words(out) == (f"game {first} was started or continued just now, on this "
                                "screen or another: look at it on the control page before "
                                "continuing this one")
    out = refused(api, "continue", {"game": first, "after": second}, 409)
    assert shown_words(out) == "this game is being played already: the control page shows it"


@pytest.mark.browser
def test_the_history_page_shows_the_refusal_in_the_familys_words(
        browser: Any, tmp_path: Path) -> None:
    with LiveServer(tmp_path / "data") as server:
        server.table.new_game("sum_chicago", ["Aino", "Bertil"])
        first = server.table.game_id
        server.table.new_game("ten_thousand", ["Aino", "Bertil"])
        history = browser.new_page(viewport={"width": 1024, "height": 768})
        history.on("dialog", lambda dialog: dialog.accept())   # leave the game played: yes
        history.goto(server.url + "/history")
        server.table.continue_game(first)              # on another tablet, meanwhile
        history.click(f"[data-continue='{first}']")
        history.wait_for_selector("#continueerror:not([hidden])")
        assert history.inner_text("#continueerror") == ("this game is being played already: "
                                                        "the control page shows it")
        history.close()
