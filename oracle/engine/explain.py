"""Why a decision is refused: the stable code and the clause that forbids it.

Only reached for illegal decisions, so it may take its time.
"""

from __future__ import annotations

from .errors import ILLEGAL_DECISION, ILLEGAL_RANDOM, Refusal
from .state import STAGE_KINDS


def explain(g, d) -> Refusal:
    from .combat import block_forbidden

    s = g.state
    p = s.pending
    options = tuple(g.legal_decisions())

    def refuse(clause, message, card=None):
        return Refusal(ILLEGAL_DECISION, clause, message, options,
                       g.name(card) if card is not None else None)

    if p.is_chance:
        if d.kind != "random":
            return refuse(p.clauses[0], "a random outcome must come first: " + p.prompt)
        return Refusal(ILLEGAL_RANDOM, p.clauses[0], "this outcome is not possible here", options)
    if d.kind == "random":
        return refuse(p.clauses[0], "no random effect is under way")
    stage_kinds = STAGE_KINDS[p.stage]
    if d.kind == "mindbug" and p.stage != "mindbug":
        return refuse("mindbug.not-in-play", "a Mindbug can only take a card just played from hand; "
                      "no such card is waiting")
    if d.kind not in stage_kinds:
        return refuse(p.clauses[0], f"the game waits for a {p.stage} decision by player {p.player}"
                      f" ({p.prompt}), not for '{d.kind}'")
    if d.player != p.player:
        if p.stage == "mindbug":
            return refuse("mindbug.use", "only the opponent of the player who played the card may use a Mindbug on it")
        if p.stage == "action":
            return refuse(p.clauses[0], f"it is player {p.player}'s turn action, not player {d.player}'s")
        if p.stage == "choose" and "effects.chooser" in p.clauses:
            # The rule broken is who chooses, not the effect itself.
            return refuse("effects.chooser", f"player {p.player} makes this choice, not player {d.player}",
                          p.source)
        return refuse(p.clauses[0], f"this decision belongs to player {p.player}")
    arg = d.arg
    if p.stage == "mindbug":
        return refuse("mindbug.none-left", f"player {d.player} has no Mindbug left")
    if p.stage == "action":
        me = p.player
        if d.kind == "play":
            return refuse("play.from-hand", f"card {arg} is not in player {me}'s hand")
        return refuse("combat.attack", f"card {arg} is not a creature in player {me}'s play area")
    if p.stage == "frenzy":
        if d.kind == "attack":
            return refuse("keywords.frenzy.same-creature",
                          "only the FRENZY creature that just attacked may attack again this turn")
    if p.stage == "hunt":
        return refuse("keywords.hunter", f"card {arg} is not an enemy creature HUNTER can name")
    if p.stage == "block":
        a = s.combat[0] if s.combat else None
        if arg is not None and a is not None and g.controller(arg) == p.player:
            why = block_forbidden(g, a, arg)
            if why is not None:
                clause, holder = why
                return refuse(clause, f"card {arg} may not block card {a}", holder if holder is not None else a)
        return refuse("combat.block", f"card {arg} is not a creature of player {p.player} that can block")
    if p.stage in ("choose", "order"):
        return refuse(p.clauses[0], f"{list(arg) if arg else arg} is not a legal pick: {p.prompt}",
                      p.source)
    return refuse(p.clauses[0], "not a legal decision here")
