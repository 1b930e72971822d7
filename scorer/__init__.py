"""The rules engines of dicetray: pure Python, no I/O.

A game is a log of actions (GAMEFILE.md); its state is the log replayed.

>>> from scorer import new_game
>>> game = new_game("sum_chicago", ["Aino", "Bertil"])
>>> game.apply({"type": "roll", "player": "Aino", "dice": [1, 1]})
>>> game.state()["next"]["player"]
'Bertil'
"""
from .actions import Action, parse_dice
from .errors import GameError, GameFileError, IllegalAction, Refusal
from .game import FAMILIES, FORMAT, Dropped, Game, load_game, new_game, rules_for
from .rules import OptionWords, Rules

__all__ = ["Action", "Dropped", "FAMILIES", "FORMAT", "Game", "GameError", "GameFileError",
           "IllegalAction", "OptionWords", "Refusal", "Rules", "load_game", "new_game", "parse_dice", "rules_for"]
