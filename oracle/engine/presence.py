"""Which New Servants mechanics a game can meet at all, worked out once per
game (its `Table`), so that games without those cards pay nothing for them:
attack bans (Hamster Lion), powers that follow life (Bugserker), abilities
that wait in discard piles (Hyenix)."""

from __future__ import annotations

from typing import NamedTuple

from ..cards.abilities import ATTACK_RULES, LIFE_READERS


class Flags(NamedTuple):
    attack_rules: bool
    life_readers: bool
    from_discard: bool
    end_of_turn: bool
    action: bool


_last: list = [None, None]   # the last table asked about and its flags (one game at a time)


def flags(table) -> Flags:
    if _last[0] is not table:
        names = set(table.names.values())
        triggers = {d.trigger for d in table.defs.values()}
        _last[1] = Flags(not names.isdisjoint(ATTACK_RULES), not names.isdisjoint(LIFE_READERS),
                         "when" in triggers, "end-of-turn" in triggers, "action" in triggers)
        _last[0] = table
    return _last[1]
