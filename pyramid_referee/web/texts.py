"""Every word the pages show, written in English as ``tr("…")`` and read in the user's language.

The templates and the scripts get these as a dictionary (``page_texts``), so the Russian
page and the English one come from the one message catalog the command line uses.
"""

from __future__ import annotations

from ..i18n import tr
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


def pocket_names() -> dict:
    return {
        "far_left": tr("far left corner"),
        "far_right": tr("far right corner"),
        "middle_left": tr("left middle"),
        "middle_right": tr("right middle"),
        "near_left": tr("near left corner"),
        "near_right": tr("near right corner"),
    }


def page_texts() -> dict:
    """The words of both pages and of their scripts, in the current language."""
    return {
        "title_board": tr("Scoreboard"),
        "title_pad": tr("Marker's pad"),
        "learn": tr("learn to call"),
        "club_board": tr("club board"),
        "match": tr("match"),
        "to_play": tr("to play"),
        "from_hand": tr("from hand"),
        "needs": tr("needs {n} to {target}"),
        "reached": tr("reached {score} of {target}"),
        "won_game": tr("won: {score} of {target}"),
        "from_balls": tr("from balls"),
        "penalties": tr("penalty points"),
        "no_penalties": tr("no penalties"),
        "on_table": tr("on the table"),
        "call": tr("call"),
        "no_call_yet": tr("no call yet"),
        "verdict": tr("verdict"),
        "no_verdict_yet": tr("no stroke yet"),
        "history": tr("this game"),
        "games": tr("the match"),
        "stroke": tr("stroke"),
        "game_over": tr("game over"),
        "offline": tr("connection lost; reconnecting…"),
        "shown_at": tr("the board shows {time}"),
        "pin": tr("PIN"),
        "pin_ask": tr("Enter the table's PIN (printed when the server started)"),
        "pin_ok": tr("Enter"),
        "pin_wrong": tr("wrong PIN"),
        "change_pin": tr("Change the PIN"),
        "pin_new_ask": tr(
            "The new PIN (4 to 64 letters, digits, '-' or '_'); pads with the old one will ask "
            "for it"
        ),
        "pin_form": tr("a PIN is 4 to 64 letters, digits, '-' or '_'"),
        "pin_changed": tr("the PIN is changed: type the new one on the other pads"),
        "call_placeholder": tr("the call, as it was said"),
        "call_example": tr("e.g. тройку чисто в правый дальний угол"),
        "take_call": tr("Take the call"),
        "no_call": tr("No call"),
        "what_fell": tr("What fell (tap a ball, then its pocket)"),
        "cue": tr("cue ball"),
        "off_table": tr("off the table"),
        "as_called": tr("as called"),
        "not_as_called": tr("missed"),
        "miss_foul": tr("miss (no ball hit)"),
        "fouls": tr("fouls"),
        "flags": tr("marks"),
        "from_hand_flag": tr("from hand"),
        "in_house": tr("first hit in the house"),
        "warned": tr("warning"),
        "unchanged": tr("positions unchanged"),
        "record": tr("Record the stroke"),
        "clear_outcome": tr("Clear"),
        "undo": tr("Undo"),
        "redo": tr("Redo"),
        "new_game": tr("New match"),
        "new_game_confirm": tr(
            "Start a new match with the same players? The current one stays stored."
        ),
        "choose_route": tr("say whether the ball went as called: «по заказу» or «мимо»"),
        "no_outcome": tr("no outcome given: tap «{ok}», «{miss}» or what fell"),
        "nothing_to_undo": tr("nothing to undo"),
        "nothing_to_redo": tr("nothing to redo"),
        "recorded": tr("recorded: stroke {seq}"),
        "pocket_for": tr("ball {ball}: which pocket?"),
        "ball_word": tr("ball"),
        "take_back": tr("Take back the strike (it was none)"),  # Q14
        "taken_back_done": tr("the strike is taken back: the call counts again"),
        "stroke_marks": tr("stroke {seq}: {marks}"),
        "pockets": pocket_names(),
        "foul_names": {letter: tr(FOUL_WORDS[letter]) for letter in GIVEN_FOULS},
    }


def board_texts() -> dict:
    """The words of the club board (``/club``) and of its script, in the current language."""
    return {
        "title_club": tr("Club board"),
        "tables": tr("tables"),
        "no_tables": tr("no table is registered on the club server"),
        "no_match": tr("no match yet"),
        "no_verdict_yet": tr("no stroke yet"),
        "needs": tr("needs {n} to {target}"),
        "reached": tr("reached {target}"),
        "to_play": tr("to play"),
        "match_wins": tr("match to {wins} wins: games {score}"),
        "games_today": tr("today's games"),
        "matches_today": tr("today's matches"),
        "none_yet": tr("none yet"),
        "players": tr("players"),
        "player": tr("player"),
        "games": tr("games"),
        "won": tr("won"),
        "points_per_game": tr("points per game"),
        "penalties": tr("penalties incurred"),
        "calls_accepted": tr("calls accepted"),
        "calls_refused": tr("calls refused"),
        "offline": tr("connection lost; reconnecting…"),
        "table_link": tr("this table's scoreboard"),
        "data_as_of": tr(
            "data as of {time}"
        ),  # a card while the board cannot reach the club server
    }
