"""Every word the pages show, written in English as ``trl(lang, "…")``, in the page's language.

The templates and the scripts get these as a dictionary (``page_texts``), so the Russian
page and the English one come from the one message catalog the command line uses.
"""

from __future__ import annotations

from ..catalog import trl
from ..rules.verdict import FOUL_WORDS

# The six pockets as the striker sees them: (key, pocket JSON).
POCKETS = (
    ("far_left", {"kind": "corner", "side": "left", "end": "far"}),
    ("far_right", {"kind": "corner", "side": "right", "end": "far"}),
    ("middle_left", {"kind": "middle", "side": "left", "end": None}),
    ("middle_right", {"kind": "middle", "side": "right", "end": None}),
    ("near_left", {"kind": "corner", "side": "left", "end": "near"}),
    ("near_right", {"kind": "corner", "side": "right", "end": "near"}),
)

# The P1 letters the marker gives by a button (the others follow from what fell, or from «промах»).
GIVEN_FOULS = ("г", "д", "е", "з", "и")


def pocket_names(lang: str) -> dict:
    return {
        "far_left": trl(lang, "far left corner"),
        "far_right": trl(lang, "far right corner"),
        "middle_left": trl(lang, "left middle"),
        "middle_right": trl(lang, "right middle"),
        "near_left": trl(lang, "near left corner"),
        "near_right": trl(lang, "near right corner"),
    }


def page_texts(lang: str) -> dict:
    """The words of both pages and of their scripts, in ``lang``."""
    return {
        "title_board": trl(lang, "Scoreboard"),
        "title_pad": trl(lang, "Marker's pad"),
        "learn": trl(lang, "learn to call"),
        "club_board": trl(lang, "club board"),
        "match": trl(lang, "match"),
        "to_play": trl(lang, "to play"),
        "from_hand": trl(lang, "from hand"),
        "needs": trl(lang, "needs {n} to {target}"),
        "reached": trl(lang, "reached {score} of {target}"),
        "won_game": trl(lang, "won: {score} of {target}"),
        "from_balls": trl(lang, "from balls"),
        "penalties": trl(lang, "penalty points"),
        "no_penalties": trl(lang, "no penalties"),
        "on_table": trl(lang, "on the table"),
        "call": trl(lang, "call"),
        "no_call_yet": trl(lang, "no call yet"),
        "verdict": trl(lang, "verdict"),
        "no_verdict_yet": trl(lang, "no stroke yet"),
        "history": trl(lang, "this game"),
        "games": trl(lang, "the match"),
        "stroke": trl(lang, "stroke"),
        "game_over": trl(lang, "game over"),
        "offline": trl(lang, "connection lost; reconnecting…"),
        "shown_at": trl(lang, "the board shows {time}"),
        "pin": trl(lang, "PIN"),
        "pin_ask": trl(lang, "Enter the table's PIN (printed when the server started)"),
        "pin_ok": trl(lang, "Enter"),
        "pin_wrong": trl(lang, "wrong PIN"),
        "change_pin": trl(lang, "Change the PIN"),
        "pin_new_ask": trl(
            lang,
            "The new PIN (4 to 64 letters, digits, '-' or '_'); pads with the old one will ask "
            "for it",
        ),
        "pin_form": trl(lang, "a PIN is 4 to 64 letters, digits, '-' or '_'"),
        "pin_changed": trl(lang, "the PIN is changed: type the new one on the other pads"),
        "call_placeholder": trl(lang, "the call, as it was said"),
        "call_example": trl(lang, "e.g. тройку чисто в правый дальний угол"),
        "take_call": trl(lang, "Take the call"),
        "no_call": trl(lang, "No call"),
        "what_fell": trl(lang, "What fell (tap a ball, then its pocket)"),
        "cue": trl(lang, "cue ball"),
        "off_table": trl(lang, "off the table"),
        "as_called": trl(lang, "as called"),
        "not_as_called": trl(lang, "missed"),
        "miss_foul": trl(lang, "miss (no ball hit)"),
        "fouls": trl(lang, "fouls"),
        "flags": trl(lang, "marks"),
        "from_hand_flag": trl(lang, "from hand"),
        "in_house": trl(lang, "first hit in the house"),
        "warned": trl(lang, "warning"),
        "unchanged": trl(lang, "positions unchanged"),
        "record": trl(lang, "Record the stroke"),
        "clear_outcome": trl(lang, "Clear"),
        "undo": trl(lang, "Undo"),
        "redo": trl(lang, "Redo"),
        "new_game": trl(lang, "New match"),
        "new_game_confirm": trl(
            lang, "Start a new match with the same players? The current one stays stored."
        ),
        "choose_route": trl(lang, "say whether the ball went as called: «по заказу» or «мимо»"),
        "no_outcome": trl(lang, "no outcome given: tap «{ok}», «{miss}» or what fell"),
        "nothing_to_undo": trl(lang, "nothing to undo"),
        "nothing_to_redo": trl(lang, "nothing to redo"),
        "recorded": trl(lang, "recorded: stroke {seq}"),
        "pocket_for": trl(lang, "ball {ball}: which pocket?"),
        "ball_word": trl(lang, "ball"),
        "take_back": trl(lang, "Take back the strike (it was none)"),  # Q14
        "taken_back_done": trl(lang, "the strike is taken back: the call counts again"),
        "stroke_marks": trl(lang, "stroke {seq}: {marks}"),
        "pockets": pocket_names(lang),
        "foul_names": {letter: trl(lang, FOUL_WORDS[letter]) for letter in GIVEN_FOULS},
    }


def board_texts(lang: str) -> dict:
    """The words of the club board (``/club``) and of its script, in ``lang``."""
    return {
        "title_club": trl(lang, "Club board"),
        "tables": trl(lang, "tables"),
        "no_tables": trl(lang, "no table is registered on the club server"),
        "no_match": trl(lang, "no match yet"),
        "no_verdict_yet": trl(lang, "no stroke yet"),
        "needs": trl(lang, "needs {n} to {target}"),
        "reached": trl(lang, "reached {target}"),
        "to_play": trl(lang, "to play"),
        "match_wins": trl(lang, "match to {wins} wins: games {score}"),
        "games_today": trl(lang, "today's games"),
        "matches_today": trl(lang, "today's matches"),
        "none_yet": trl(lang, "none yet"),
        "players": trl(lang, "players"),
        "player": trl(lang, "player"),
        "games": trl(lang, "games"),
        "won": trl(lang, "won"),
        "points_per_game": trl(lang, "points per game"),
        "penalties": trl(lang, "penalties incurred"),
        "calls_accepted": trl(lang, "calls accepted"),
        "calls_refused": trl(lang, "calls refused"),
        "offline": trl(lang, "connection lost; reconnecting…"),
        "table_link": trl(lang, "this table's scoreboard"),
        "data_as_of": trl(
            lang, "data as of {time}"
        ),  # a card while the board cannot reach the club server
    }
