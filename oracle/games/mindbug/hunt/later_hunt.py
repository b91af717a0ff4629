"""The hunt on the later sets (`mb-oracle hunt --sets ...`): where their new
mechanics meet the old keywords.

Each probe is a small position of English revised (the only edition that
deals these sets) and the decisions to make from it, a preference list:
at each decision with more than one answer the next preference is taken
when it is legal; a choice for an effect, the order of effects and a chance
outcome take their first option when no preference names them; any other
decision the preferences do not answer ends the probe there ("stops at"),
which is an outcome too: a reading that forbids a step shows so. The
probe is played under every combination of the choices of the readings it
names (the team's first), with the engine's invariants and the hunt's step
checks (`checks.step_violations`) after every decision. A finding says:

- `reading-dependent`: the readings lead to different outcomes; the
  finding names each choice and its outcome;
- `settled`: every reading gives the same outcome (the clauses settle it);
- `engine-bug`: a step check failed (the message names the clause).

The probes: TOUGH and Evolve (an exhausted stage I evolving into a TOUGH
face, then blocking a bigger creature); Boost and POISONOUS (a boosted
HUNTER names a POISONOUS blocker: both fall, and the boost cards go to a
discard pile); Action and FAST (an enemy creature fresh this turn, without
FAST, picked by Cake Trickster's forced attack after a Mindbug); forced
attacks and HUNTER (who names the blocker of a forced HUNTER attacker, and
Captain Hippo against a HUNTER); forced attacks and SNEAKY (which creature
may block a forced SNEAKY attacker).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from ....term import visible
from ..cards import CARDS, lookup
from ..readings import READINGS, with_readings

EDITION = "en-revised"


@dataclass(frozen=True)
class Probe:
    id: str
    title: str
    sets: tuple[str, ...]
    clauses: tuple[str, ...]
    readings: tuple[str, ...]           # reading clauses whose choices are varied
    players: tuple[dict, dict]          # zone -> card names ({"play": [...], "hand": [...], "discard": [...]})
    prefer: tuple[tuple, ...]           # (kind, card name or names or None), in order
    exhausted: tuple[str, ...] = ()
    active: int = 0
    note: str = ""                      # what the probe asks, in game terms


PROBES = (
    Probe("later-hunt.tough-evolve", "An exhausted Curious Tadpole evolves into Frog Prophet (TOUGH), then blocks "
          "Gorillion", ("beyond-evolution",), ("later.evolve", "keywords.tough"), ("later.evolve.tough",),
          ({"play": ["Curious Tadpole"], "hand": ["Bee Bear"]}, {"play": ["Gorillion"], "hand": ["Brain Fly"]}),
          (("activate", "Curious Tadpole"), ("attack", "Gorillion"), ("block", "Curious Tadpole")),
          exhausted=("Curious Tadpole",),
          note="is the new face's TOUGH used up by the stage I's exhaustion (sheet Q3.2)?"),
    Probe("later-hunt.tough-evolve-ready", "A ready Waddling Recruit evolves into Veteran Penguin (TOUGH), then blocks "
          "Gorillion", ("beyond-evolution",), ("later.evolve", "keywords.tough"), ("later.evolve.tough",),
          ({"play": ["Waddling Recruit"], "hand": ["Bee Bear"]}, {"play": ["Gorillion"], "hand": ["Brain Fly", "Spider Owl"]}),
          (("activate", "Waddling Recruit"), ("choose", None), ("attack", "Gorillion"), ("block", "Waddling Recruit")),
          note="a TOUGH face reached by a ready creature: its TOUGH is unused"),
    Probe("later-hunt.boost-poisonous", "Sea-Rex boosts itself, then its HUNTER names a POISONOUS blocker",
          ("beyond-eternity",), ("later.boost", "later.boost.leave", "keywords.poisonous", "keywords.hunter"),
          ("later.boost.leave", "later.boost.empty"),
          ({"play": ["Sea-Rex"], "hand": ["Bee Bear"], "discard": ["Luchataur"]},
           {"play": ["Koibra", "Gorillion"], "hand": ["Brain Fly"], "discard": ["Rhino Turtle"]}),
          (("attack", "Sea-Rex"), ("choose", ("Rhino Turtle",)), ("hunt", "Koibra")),
          note="POISONOUS defeats the boosted attacker whatever its power; where its boost card goes (Q4.1)"),
    Probe("later-hunt.action-fast", "After a Mindbug, Cake Trickster picks the enemy creature that came into play "
          "this turn without FAST", ("beyond-evolution",), ("later.action", "later.action.fresh", "later.forced.cake",
                                                           "keywords.fast"), ("later.action.useful",),
          ({"play": ["Cake Trickster"], "hand": ["Luchataur"]}, {"play": [], "hand": ["Brain Fly"]}),
          (("play", "Luchataur"), ("mindbug", None), ("activate", "Cake Trickster"), ("choose", ("Luchataur",)),
           ("block", None)),
          note="may a creature fresh this turn attack when forced (sheet R2.4, Q8.1)?"),
    Probe("later-hunt.forced-hunter", "Cake Trickster forces an enemy HUNTER to attack: who names the blocker",
          ("beyond-evolution",), ("later.forced.cake", "keywords.hunter"), ("later.action.useful",),
          ({"play": ["Cake Trickster", "Spider Owl"], "hand": ["Bee Bear"]},
           {"play": ["Urchin Hurler"], "hand": ["Brain Fly"]}),
          (("activate", "Cake Trickster"), ("choose", ("Urchin Hurler",)), ("hunt", "Spider Owl")),
          note="the forced attacker's controller uses its HUNTER (sheet Q8.2)"),
    Probe("later-hunt.forced-sneaky", "Cake Trickster forces an enemy SNEAKY creature to attack: only SNEAKY blocks",
          ("beyond-evolution",), ("later.forced.cake", "keywords.sneaky"), ("later.action.useful",),
          ({"play": ["Cake Trickster", "Gorillion"], "hand": ["Bee Bear"]},
           {"play": ["Spider Owl"], "hand": ["Brain Fly"]}),
          (("activate", "Cake Trickster"), ("choose", ("Spider Owl",)), ("block", "Gorillion")),
          note="a forced SNEAKY attacker may be blocked only by a SNEAKY creature"),
    Probe("later-hunt.hippo-hunter", "Captain Hippo against an enemy HUNTER on its controller's opponent's turn",
          ("beyond-evolution",), ("later.forced.hippo", "keywords.hunter"), ("later.forced.hippo",),
          ({"play": ["Captain Hippo", "Bee Bear"], "hand": ["Brain Fly"]},
           {"play": ["Urchin Hurler", "Luchataur"], "hand": ["Spider Owl"]}),
          (("play", "Spider Owl"), ("pass", None), ("hunt", "Captain Hippo")), active=1,
          note="must the HUNTER attack Captain Hippo, and may the player do anything else (sheet Q8.3, Q8.4)?"),
)


@dataclass
class LaterFinding:
    probe: str
    category: str                       # reading-dependent | settled | engine-bug
    clauses: tuple[str, ...]
    summary: str
    outcomes: dict = field(default_factory=dict)   # "clause=choice, ..." -> outcome text

    def to_json(self) -> dict:
        return {"id": self.probe, "category": self.category, "clauses": list(self.clauses), "summary": self.summary,
                "outcomes": self.outcomes}


def _choices(clause: str) -> list[str]:
    r = next((r for r in READINGS if r.clause == clause), None)
    if r is None:
        return []
    team = r.team
    return [team] + [c for c in r.names() if c != team]


def _position(probe: Probe, readings: dict):
    """The probe's game under `readings`, and the ids of its cards by name."""
    from ..engine import Game

    defs, ids, zones = {}, {}, {}
    for p, side in enumerate(probe.players):
        for zone, names in side.items():
            for name in names:
                c = len(defs) + 1
                defs[c] = lookup(name)
                ids.setdefault(name, c)
                zones.setdefault((zone, p), []).append(c)
    for name in sorted({d.name for d in CARDS.values() if d.stage == 2 and d.card_set in probe.sets and d.line}):
        defs[len(defs) + 1] = CARDS[name]        # the set's double-sided cards, set aside (setup.set-aside)
    g = Game.position(with_readings(EDITION, readings), zones, defs, active=probe.active,
                      exhausted=[ids[n] for n in probe.exhausted], unused=[], out=[])
    return g, ids


def _matches(option, pref, ids) -> bool:
    kind, arg = option
    want_kind, want = pref
    if kind != want_kind:
        return False
    if want is None:
        return True if kind in ("mindbug", "pass", "choose") else arg is None
    if isinstance(want, tuple):
        return isinstance(arg, tuple) and sorted(arg) == sorted(ids.get(n, -1) for n in want)
    return arg == ids.get(want)


def play_probe(probe: Probe, readings: dict) -> tuple[str, list[str]]:
    """(the outcome in words, the step checks that failed) of a probe under `readings`."""
    from ..engine import SetupError
    from .checks import step_violations

    try:
        g, ids = _position(probe, readings)
    except SetupError as e:
        return f"refused: {e.code} [{e.clause}] {e.message}", []
    broken: list[str] = []
    prefs = list(probe.prefer)
    stop = ""
    turn = g.state.turn
    for _ in range(200):
        p = g.pending
        if p is None or (not prefs and (p.stage == "action" or g.state.turn != turn)):
            break              # the preferences are spent: what follows in their turn is settled, no more
        options = p.options
        pick = next((o for o in options if prefs and _matches(o, prefs[0], ids)), None)
        if pick is not None:
            prefs.pop(0)
            turn = g.state.turn
        elif prefs and g.state.turn != turn and p.stage == "action" and len(options) > 1:
            stop = f"; {_words(prefs[0])} never became legal"
            break
        elif len(options) == 1 or p.stage in ("choose", "order", "random"):
            pick = options[0]
        else:
            stop = f"; {_words(prefs[0]) if prefs else 'an answer'} is not legal at the {p.stage} decision of " \
                   f"player {p.player}"
            break
        before = g.copy()
        events = g.apply_unchecked(*pick)
        broken += step_violations(before, _decision(p, pick), events, g)
    return _outcome(g) + stop, broken


def _words(pref) -> str:
    kind, arg = pref
    return f"{kind} {', '.join(arg) if isinstance(arg, tuple) else arg}" if arg else kind


def _decision(p, pick):
    from ..engine import Decision

    return Decision(pick[0], None if p.is_chance else p.player, pick[1])


def _outcome(g) -> str:
    s = g.state
    names = g.table.names
    under = dict(s.boosts)

    def creature(c):
        d = g.design(c)
        text = d.name + (f" (stage {d.stage})" if d.stage >= 2 else "") + (" exhausted" if c in s.exhausted else "")
        if under.get(c):
            text += f" with {len(under[c])} boost card{'s' * (len(under[c]) != 1)}"
        return text

    parts = []
    for p in (0, 1):
        parts.append(f"player {p}: life {s.life[p]}, play [{', '.join(creature(c) for c in s.play[p])}], "
                     f"discard [{', '.join(sorted(names[c] for c in s.discard[p]))}]")
    if s.winner is not None:
        parts.append(f"player {s.winner} wins")
    return "; ".join(parts)


def hunt_later(sets) -> list[LaterFinding]:
    """Every probe of the named sets, under every combination of its readings."""
    chosen = set(sets)
    out = []
    for probe in PROBES:
        if not set(probe.sets) <= chosen:
            continue
        clauses = [c for c in probe.readings if _choices(c)]
        combos = list(itertools.product(*[_choices(c) for c in clauses])) or [()]
        outcomes: dict[str, str] = {}
        broken: list[str] = []
        for combo in combos:
            readings = dict(zip(clauses, combo))
            text, bad = play_probe(probe, readings)
            key = ", ".join(f"{c}={v}" for c, v in readings.items()) or "the team's readings"
            outcomes[key] = text
            broken += [f"{key}: {b}" for b in bad]
        all_clauses = tuple(dict.fromkeys(probe.clauses + tuple(clauses)))
        if broken:
            out.append(LaterFinding(probe.id, "engine-bug", all_clauses, f"{probe.title}: " + "; ".join(broken[:3]),
                                    outcomes))
        distinct = set(outcomes.values())
        if len(distinct) > 1:
            summary = f"{probe.title}: {_sentence(probe.note)} The readings lead to different outcomes."
            out.append(LaterFinding(probe.id, "reading-dependent", all_clauses, summary, outcomes))
        elif not broken:
            summary = f"{probe.title}: {_sentence(probe.note)} " + (
                f"Every reading of {', '.join(clauses)} gives the same outcome." if clauses and len(combos) > 1
                else "One outcome.")
            out.append(LaterFinding(probe.id, "settled", all_clauses, summary, outcomes))
    return out


def _sentence(note: str) -> str:
    """A probe's note as a sentence that ends with its stop (a question keeps its mark)."""
    return note if note.endswith((".", "?", "!")) else note + "."


def render(found: list[LaterFinding], sets) -> str:
    lines = [f"mb-oracle hunt --sets {','.join(sets)}: {len(found)} finding{'s' * (len(found) != 1)} "
             f"({EDITION}, the only edition that deals these sets)", ""]
    for i, f in enumerate(found, 1):
        lines.append(f"{i}. {f.category}: {f.probe}: {' + '.join(f.clauses)}")
        lines.append(f"   {f.summary}")
        for key, text in f.outcomes.items():
            lines.append(f"   {key}: {text}")
        lines.append("")
    return "\n".join(map(visible, lines))


__all__ = ["PROBES", "LaterFinding", "hunt_later", "play_probe", "render"]
