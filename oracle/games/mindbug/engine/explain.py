"""Why a decision is refused: the stable code and the clause that forbids it.

Only reached for illegal decisions, so it may take its time.
"""

from __future__ import annotations

from ..cards import FAST
from .combat import block_forbidden
from .errors import ILLEGAL_DECISION, ILLEGAL_RANDOM, Refusal
from .forced import refusal_reason
from .mindbug_rules import banned_by
from .play_limits import limiter
from .restrictions import barred_by
from .state import STAGE_KINDS, ZONE_WORDS, asks_number, decision_words


def label(g, card) -> str:
    return f"{g.name(card)} ({card})" if card in g.table.defs else f"card {card}"


def where(g, card) -> str:
    """Where `card` is, in game terms."""
    s = g.state
    if s.played == card:
        return "waiting for the Mindbug decision"
    for zone, words in ZONE_WORDS.items():
        for p in (0, 1):
            if card in getattr(s, zone)[p]:
                return f"in player {p}'s {words}"
    return "in the unused pile" if card in s.unused else "out of the game"


def why_no_block(g, attacker: int, blocker: int, clause: str, holder) -> str:
    """Why `blocker` may not block `attacker`, in game terms."""
    if clause == "keywords.sneaky":
        return (f"{label(g, blocker)} has no SNEAKY, so it may not block {label(g, attacker)}, "
                "which has SNEAKY")
    if holder is not None and g.name(holder) == "Bee Bear":
        return (f"{label(g, blocker)} has power {g.power(blocker)}: {label(g, holder)} cannot be blocked "
                "by creatures with power 6 or less")
    if holder is not None and g.name(holder) == "Elephantopus":
        return (f"{label(g, blocker)} has power {g.power(blocker)}: while {label(g, holder)} is in play, "
                "the opponent of its controller cannot block with creatures with power 4 or less")
    if clause == "effects.this-turn":
        return f"an effect made this turn forbids {label(g, blocker)} to block"
    who = f"{label(g, holder)}'s ability" if holder is not None else "a constant ability"
    return f"{who} forbids {label(g, blocker)} to block {label(g, attacker)}"


def taken_fast(g, player, card=None) -> bool:
    """Whether `player`, whose turn it is not, took a FAST creature (`card`,
    or any) with a Mindbug this turn (keywords.fast.mindbugged)."""
    s = g.state
    if player is None or player == s.active:
        return False
    return any(c in s.play[player] and g.has(c, FAST) for c in (s.arrived if card is None else (card,))
               if c in s.arrived)


def _taken_fast(g, d) -> bool:
    """Whether `d` attacks or activates with a FAST creature its player took
    with a Mindbug in the other player's turn."""
    return d.kind in ("attack", "activate") and taken_fast(g, d.player, d.arg)


def explain(g, d) -> Refusal:
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
        return refuse(p.clauses[0], f"the game waits for {decision_words(p.stage, p.player)}"
                      f" ({p.prompt}), not for '{d.kind}'")
    if d.player != p.player:
        if p.stage == "mindbug":
            return refuse("mindbug.use", "only the opponent of the player who played the card may use a Mindbug on it")
        if p.stage == "action":
            if _taken_fast(g, d):
                return refuse("keywords.fast.mindbugged",
                              f"{label(g, d.arg)} is a FAST creature player {d.player} took with a Mindbug this "
                              f"turn; by the team's reading (keywords.fast.mindbugged=no-action) it neither attacks "
                              f"nor acts in player {p.player}'s turn, whose turn action this is")
            return refuse(p.clauses[0], f"it is player {p.player}'s turn action, not player {d.player}'s")
        if p.stage == "choose" and "effects.chooser" in p.clauses:
            # The rule broken is who chooses, not the effect itself.
            return refuse("effects.chooser", f"player {p.player} makes this choice, not player {d.player}",
                          p.source)
        return refuse(p.clauses[0], f"this decision belongs to player {p.player}")
    arg = d.arg
    if p.stage == "mindbug":
        ban = banned_by(g)
        if ban is not None:
            return refuse("promo.mindbug-ban", f"while {label(g, ban)} is in play no player may use a Mindbug", ban)
        return refuse("mindbug.none-left", f"player {d.player} has no Mindbug left")
    if p.stage in ("action", "hunt"):
        why = refusal_reason(g, p, d)                          # the Beyond Evolution turn rules
        if why is not None:
            return refuse(*why)
    if p.stage == "action":
        me = p.player
        if d.kind == "play":
            lim = limiter(g, me)
            if lim is not None and arg in s.hand[me]:
                return refuse("promo.play-limit", f"while the opponent controls {label(g, lim)}, player {me} may "
                              f"not play {label(g, arg)} (printed power {g.table.defs[arg].power})", lim)
            return refuse("play.from-hand", f"card {arg} is not in player {me}'s hand")
        if d.kind == "activate":
            return refuse("triggers.action", f"card {arg} has no Action effect player {me} may activate now "
                          "(not an allied creature with an Action effect, or the effect would do nothing)")
        if arg in s.play[me]:
            return _barred(g, me, arg, refuse, f" (power {g.power(arg)})")
        return refuse("combat.attack", f"card {arg} is not a creature in player {me}'s play area")
    if p.stage in ("frenzy", "fast"):
        if d.kind == "attack" and arg == p.source:
            return _barred(g, p.player, arg, refuse, "")
        if d.kind == "attack" and p.stage == "fast":
            return refuse("keywords.fast", f"only the FAST creature just played, {label(g, p.source)}, may attack "
                          "now: the turn action was the play")
        if d.kind == "attack":
            return refuse("keywords.frenzy.same-creature",
                          "only the FRENZY creature that just attacked may attack again this turn")
    if p.stage == "hunt":
        a = s.combat[0] if s.combat else p.source
        # effects.hunter-order: the attacker's Attack effect resolved first and
        # may have removed the creature the log names (a chance event may have
        # come between that effect and this choice).
        events = g.events_before_chance() + g.events
        gone = [e for e in events if e.kind in ("defeat", "take-control", "return-to-hand")
                and arg is not None and (e.card == arg or arg in (e.cards or ())) and e.source == a]
        if gone and a is not None:
            verb = {"defeat": "defeated", "take-control": "took control of",
                    "return-to-hand": "returned"}[gone[0].kind]
            return refuse("effects.hunter-order", f"{label(g, a)}'s Attack effect {verb} {label(g, arg)} "
                          f"before the HUNTER choice; it is now {where(g, arg)}", a)
        if arg is not None and arg in g.table.defs and g.controller(arg) != 1 - p.player:
            return refuse("keywords.hunter", f"HUNTER names an enemy creature; {label(g, arg)} is {where(g, arg)}")
        return refuse("keywords.hunter", f"{label(g, arg) if arg is not None else arg} is not an enemy "
                      "creature HUNTER can name")
    if p.stage == "block":
        a = s.combat[0] if s.combat else None
        if arg is not None and a is not None and g.controller(arg) == p.player:
            why = block_forbidden(g, a, arg)
            if why is not None:
                clause, holder = why
                return refuse(clause, why_no_block(g, a, arg, clause, holder), holder if holder is not None else a)
        if arg is not None and arg in g.table.defs:
            return refuse("combat.block", f"only player {p.player}'s creatures in play can block; "
                          f"{label(g, arg)} is {where(g, arg)}")
        return refuse("combat.block", f"card {arg} is not a creature of player {p.player} that can block")
    if p.stage in ("choose", "order"):
        picked = (list(arg) if asks_number(p) or not arg
                  else "[" + ", ".join(label(g, c) for c in arg) + "]")
        if p.resume and p.resume[0] == "boost-card" and arg and len(arg) > 1 and ("choose", (arg[0],)) in p.options:
            # Several picks of a boost in one answer: it asks for them one at a time.
            return refuse("later.boost.split", f"{picked} is not a legal pick: a boost takes its cards one at a "
                          "time, each card (then the creature it goes under) in an answer of its own", p.source)
        return refuse(p.clauses[0], f"{picked} is not a legal pick: {p.prompt}", p.source)
    return refuse(p.clauses[0], "not a legal decision here")


def _barred(g, player, card, refuse, more):
    """abilities.cannot-attack (later.in-discard): the refusal names the card whose ability bars the attack."""
    why = barred_by(g, player, card)
    if why is None:
        return refuse("abilities.cannot-attack", f"an enemy constant ability forbids {label(g, card)} to attack{more}")
    clause, holder = why
    where = " from a discard pile" if clause == "later.in-discard" else ""
    return refuse(clause, f"{label(g, holder)}'s ability{where} forbids {label(g, card)} to attack{more}", holder)
