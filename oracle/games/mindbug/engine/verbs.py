"""The verbs card abilities are written with, in one place: each ability
is handed this module (`fx`) and calls what it needs of it
(cards.abilities). The verbs live in the rule modules below; this module
only gathers them, and adds `copy_play`, the one verb that runs another
ability.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .board import Board

from ..cards import abilities

# The verbs of First Contact (effects.py, life.py).
from .effects import (choose, defeat, discard, enter_play, pick_at_random, play_from_discard,  # noqa: F401
                      queue_trigger, steal, take_control, then, to_hand_from_discard)
from .life import gain_life, lose_life, set_life  # noqa: F401
# Verbs of the New Servants mechanics, in modules of their own.
from .lasting import mark as mark_this_turn  # noqa: F401
from .handover import may_play_from_discard  # noqa: F401
from .octonite import spend as spend_octonite  # noqa: F401
from .later import draw_unused, refresh, steal_life  # noqa: F401
from .boost import ANY, THIS, boost, boosted, place as boost_with, take_to_hand as take_boost_card  # noqa: F401
from .boost import release, take_from_under, under as boost_cards  # noqa: F401
from .eternity import (choose_among, discard_draw_pile, discard_then_draw, refill_hand,  # noqa: F401
                       take_from_discard, to_discard_from_hand)
# Verbs of the promos' effects (promo.*), each in a module of its own.
from .outcome import win, lose as lose_game  # noqa: F401
from .dice import roll  # noqa: F401
from .hands import swap as swap_hands, power_choices, hand_over_power, unused_to_deck_bottom  # noqa: F401
from .aside import set_aside, bring_back, put_into_play  # noqa: F401
# Verbs of Beyond Evolution (later.evolve, later.give-control, later.return-hand, later.discard-all).
from .evolve import evolve, then_evolve  # noqa: F401
from .control import discard_all, give_control, return_to_hand  # noqa: F401


def copy_play(g: Board, player: int, card: int, source: int) -> None:
    """later.copy-play: `source`'s Play effect resolves as `card`'s own."""
    name = g.design(source).name
    g.emit("trigger", ("later.copy-play", "triggers.play", "triggers.controller"), player=player, card=card,
           source=source)
    abilities.TRIGGERED[(name, "play")](VERBS, g, player, card)


# This module, as the abilities receive it.
VERBS: Final = sys.modules[__name__]
