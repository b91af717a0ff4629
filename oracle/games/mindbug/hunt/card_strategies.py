"""Hypothesis strategies that generate legal card definitions (mb-cards/1).

`card_definition()` draws one card whose every ability passes the card
file's checks (oracle.games.mindbug.cards.declared): a verb with a trigger it goes with,
a target only on verbs that pick creatures, filters that some creature can
meet. `card_file(n)` draws a whole file. The hunt and the tests feed them to
the engine: every legal card must load, deal and play with the invariants
holding.
"""

from __future__ import annotations

from hypothesis import strategies as st

from ..cards.declared import COST_TRIGGERS, FORMAT, KEYWORDS, LATER_KEYWORDS, VERBS, WHEN_TRIGGERS

PRINTED = tuple(k for k in KEYWORDS if k not in LATER_KEYWORDS)


@st.composite
def target(draw):
    t = {"side": draw(st.sampled_from(("enemy", "allied", "any")))}
    low = draw(st.none() | st.integers(0, 9))
    high = draw(st.none() | st.integers(low or 0, 12))
    if low is not None:
        t["power_min"] = low
    if high is not None:
        t["power_max"] = high
    if draw(st.booleans()):
        t["others"] = True
    return t


@st.composite
def ability(draw, trigger: str, later: bool):
    verbs = [v for v, (triggers, _t, is_later) in VERBS.items() if trigger in triggers and (later or not is_later)]
    verb = draw(st.sampled_from(sorted(verbs)))
    a = {"trigger": trigger, "effect": verb}
    takes_target = VERBS[verb][1]
    if verb == "power":
        a["amount"] = draw(st.integers(-3, 6))
        if draw(st.booleans()):
            a["target"] = {"side": "allied", "others": draw(st.booleans())}
        if draw(st.booleans()):
            a["when"] = "own-turn"
        return a
    if verb == "boost":                      # later.boost: to the card itself, or to any creatures
        a["count"] = draw(st.integers(1, 3))
        if draw(st.booleans()):
            a["target"] = {"side": "any"}
        return a
    if takes_target:
        a["target"] = draw(target())
        mode = draw(st.sampled_from(("one", "all", "up_to")))
        if mode == "all":
            a["all"] = True
        else:
            a["count"] = draw(st.integers(1, 2))
            if mode == "up_to":
                a["up_to"] = True
    if verb in ("gain-life", "lose-life", "steal-life"):
        a["amount"] = draw(st.integers(1, 3))
    if verb in ("gain-life", "lose-life"):
        a["who"] = draw(st.sampled_from(("me", "opponent")))
    if verb in ("discard", "steal", "draw-unused"):
        a["count"] = draw(st.integers(1, 2))
    if verb == "keyword-this-turn":
        a["keyword"] = draw(st.sampled_from(PRINTED))
    return a


@st.composite
def card_definition(draw, name: str, later: bool = False):
    """One legal card named `name`; with `later`, the later-set mechanics too."""
    card = {"name": name, "power": draw(st.integers(0, 12)), "copies": draw(st.integers(1, 2))}
    keywords = draw(st.lists(st.sampled_from(KEYWORDS if later else PRINTED), unique=True, max_size=2))
    if keywords:
        card["keywords"] = keywords
    triggers = ["play", "attack", "defeated"] + (["harvest", "end-of-turn", "action", *WHEN_TRIGGERS]
                                                 if later else [])
    abilities = []
    trig = draw(st.none() | st.sampled_from(triggers))
    if trig is not None:
        abilities.append(draw(ability(trig, later)))
        if trig == "harvest":
            card["octonite"] = draw(st.integers(1, 3))
        if later and trig in COST_TRIGGERS and draw(st.booleans()):
            abilities[-1]["cost"] = "octonite"                  # later.octonite.spend
            card["octonite"] = draw(st.integers(1, 3))
    if later and card.get("octonite") and draw(st.booleans()):
        card["distribute"] = True                               # later.octonite.distribute
    if draw(st.booleans()):
        abilities.append(draw(ability("constant", later)))
    if abilities:
        card["abilities"] = abilities
    return card


@st.composite
def card_file(draw, set_id: str, prefix: str, n: int = 3, later: bool = False):
    """A whole card file: `n` legal cards named `<prefix> 1`, `<prefix> 2`..."""
    cards = [draw(card_definition(f"{prefix} {i}", later)) for i in range(1, n + 1)]
    return {"format": FORMAT, "set": {"id": set_id, "name": f"{prefix} set"}, "cards": cards}
