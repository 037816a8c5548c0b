"""The table's side of a ruleset: how a hand is entered, titled and marked on the page.

Each ruleset's ``form_side.py`` offers ``FORM_SIDE``, a subclass of ``base.FormSide`` overriding only
what the ruleset has (the defaults are a plain win or draw with no bets). The contract:
- ``Form``: the hand form (an ``HandForm``): ``step()`` — the next question of the fast path or
  ``"preview"`` — and ``entry(state, rules)`` — the contract's HAND object; None where the entry
  page records no such hand (the seating);
- ``MISSING``: the message for a step left unanswered on a POST;
- ``REQUIREMENTS``: the engine fields whose refusal on a preview only means the sheet is not
  done yet (诸暨's 1 台): stated as a note, red only when a confirm is refused;
- ``FIELD_OF``: the form field that shows an engine refusal's contract field, where they differ;
- ``initial(entry, fix)``: form data for a stored hand (edit); ``STEP_FIELDS``: the answers its
  questions before the sheet set, and ``edit_start(answers)``: the answers an edit's first
  question starts from (the stored hand's less those, each question marking its old one 原来);
- ``TEMPLATE``: the steps and the sheet of the entry page; ``PARTIAL``: the part of it an htmx
  refresh of the preview swaps (``request.htmx`` picks it);
- ``context(game, form, state, rules)``: what that template needs;
- ``title(names, entry, result)``: a hand's one-line title (「南家 自摸 ×2」);
- ``wind(state, seat)``: the wind shown on a player's tile (诸暨 counts them from the dealer);
- ``marks(state, seat, pending)``: the badges beside a player's total (买, 下4);
- ``streak_text(streak)``: the dealer's streak as the pages say it beside 庄 (「连2」; 杭州's 老庄,
  「二老庄」), "" for none;
- ``bets(game, state, rules)``: the bets the game page offers before the next hand (义乌's 买子,
  下子) or None, ``prefill(data, pending, state, rules)``: an entry's answers with the bets
  placed there, and ``change_bet(pending, state, rules, *, bet, seat, amount, on)``: one placed
  or taken back (``BetRefused`` when the rules do not allow it);
- ``placed_bets(entry, state, rules)``, ``move_bets(entry, bets, state, rules)`` and
  ``merge_pending(pending, bets)``: the bets placed before a hand, kept by a void for the next
  hand that stands (or the next one recorded);
- ``RULES_TEMPLATE`` and ``rules_context(rules)``: the ruleset's part of the rules page;
- ``other_outcomes(game)``: the ruleset's own outcomes besides a win and a draw, as (outcome,
  label) buttons on the game page and the winner step (义乌's 逃跑);
- ``PRESET_LABEL``: the new-game form's name for the presets, (zh, en); 底分 by default;
- ``ANALYSE_WORDS``: its own words on the 算牌 page (诸暨 says 放冲), and
  ``analyse_text(answer, breakdown)``: how 算牌 says an answer it may not win.
The views ask ``form_side_for(game)`` or ``form_side_of(game, data)`` and never branch on the ruleset's code.
"""

from scoring.engine.seating import is_seating
from scoring.handform import manual
from scoring.handform.base import FormSide
from scoring.handform.seating import SEATING


def form_side_for(game) -> FormSide:
    return game.plugin.form_side


def form_side_of(game, data) -> FormSide:
    """The ``FormSide`` for ``data``: the manual hand's or the seating's (the same in every ruleset), else the game's."""
    if manual.is_manual(data):
        return manual.MANUAL
    return SEATING if is_seating(data) else form_side_for(game)


def hand_title(game, entry: dict, result=None, names: list[str] | None = None, form_side=None) -> str:
    """A hand's title in the ruleset's words (南家 自摸 ×2, 流局), with ``names`` (the first seating by default);
    ``form_side``: the entry's, when the caller has it already."""
    return (form_side or form_side_of(game, entry)).title(names or game.players, entry, result)
