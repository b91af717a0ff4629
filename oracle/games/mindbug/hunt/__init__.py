"""Mindbug's hunt: property-based rules hunting.

The rulebooks are read twice: once by the reference engine (`engine`),
once here, as declarative constraints on the outcome of a situation
(`constraints`), each applying to an edition as the clause catalogue says.
Hypothesis searches situations for places where the clauses an edition
states admit no outcome (a contradiction) or several (an ambiguity), where
two editions give different outcomes for the same position and decisions,
and where the engine's outcome is one the constraints forbid (an engine
bug). Every finding is shrunk to a minimal position and can be written as
a draft scenario.

    mb-oracle hunt --all --budget 2500 --seed 0 --out findings/
    mb-oracle scenarios findings/

Modules:

- `strategies`: Hypothesis strategies for positions, decision sequences,
  whole games and combat situations.
- `facts`: the First Contact cards read a second time, as data (what each
  ability does), and `Board`, the power and keywords of creatures in play.
- `constraints`: the combat, blocking and keyword clauses as constraints,
  and each edition's verdict on a question.
- `probe`: walks the engine through a situation in every edition at once,
  asking the constraints at every decision and fight and comparing the
  editions' games.
- `search`: the search, the shrinking, the findings.
- `drafts`: findings as draft scenarios (mb-scenario/1).
- `checks`: what must hold after every step of any game (used by the
  stateful tests).
- `budget`: the situations a hunt may examine and their shares.
- `card_hunt`, `card_strategies`: the hunt of declared cards (--cards) and
  legal card files for it.
- `later_hunt`: the hunt of the later sets (--sets).
- `clause_rules`, `questions`: the clauses as rules, the questions they
  answer.
- `command`: the game's HUNT (registry entry), which `mb-oracle hunt` calls.

What both games share stays in oracle/hunt: the command `mb-oracle hunt`
(`command`), its options and its dispatch of a game to its entry's HUNT.
"""
