"""Decision lines the rules allow although the engine asks nothing there.

A log may write what the rules leave no room to decide, or decline something
before the rules ask. Each case is accepted with a note and never consumes
a decision of the engine, so the rest of the log stays aligned:

- an empty answer (`choose []`, `random []`) to a choice the rules skipped
  because there was nothing to pick (effects.as-much-as-possible);
- a decline written early (`hunt null` before the Attack effect's choice,
  `pass` for a FRENZY second attack before the combat's effects finished):
  recorded, and given as the answer when the rules ask;
- a declined option the rules do not offer at all (`hunt null` for an
  attacker without HUNTER, `pass` for a FRENZY attack not on offer);
- the block HUNTER forced, written by the defender;
- the order of a single waiting effect (`choose [card]`), which the rules
  resolve without asking;
- a forced step left out before a decision of the same kind (Grave Robber's
  one card, then the next Play effect's `choose`): the line is not the
  forced step's one answer but is legal once the forced steps are taken;
- a decision left out whose every option leads to the same position
  (`one_outcome`): the rules take it like a forced step;
- forced steps taken for a state claim that matched only after them: they
  and the choices they skipped are remembered as if taken for the next
  decision line.

spec/replay-format.md lists them with the reasons.
"""

from __future__ import annotations

from ..cards import HUNTER
from ..engine.state import decision_words

# Decision kinds that skip an empty choice, with the player field to match.
_EMPTY = ("choose", "random")
# Declines that may come early, and the stages they answer.
DECLINES = {"hunt": ("hunt",), "pass": ("frenzy", "mindbug", "fast")}


class Leniency:
    """What the verifier remembers for the accepted forms of one game."""

    __slots__ = ("skipped", "declined", "forced")

    def __init__(self):
        # Choices the rules skipped for want of anything to pick, not yet
        # answered by the log: (kind, chooser or None, source card).
        self.skipped: list[tuple] = []
        # A decline written before the rules asked: (stage, player).
        self.declined: tuple | None = None
        # Forced steps the verifier took while reading the current and the
        # previous decision line: ((kind, arg), player or None, line).
        self.forced: list[tuple] = []

    def copy(self) -> "Leniency":
        out = Leniency()
        out.skipped, out.declined, out.forced = list(self.skipped), self.declined, list(self.forced)
        return out

    def saw(self, events, chosen=None) -> None:
        """Remember the choices the rules skipped in `events`, and the effects
        that resolved with no order decision (the only one waiting), all but
        `chosen`, the one an order decision picked."""
        for e in events:
            k = e.kind
            if k == "no-effect":
                self.skipped.append(("random" if e.player is None else "choose", e.player, e.source))
            elif k == "trigger" and e.card != chosen:
                self.forced.append((("choose", (e.card,)), "order", None))


def already_taken(v, t: str, player, arg, lineno: int) -> bool:
    """An empty answer to a skipped choice, or a forced step written after the
    verifier took it (a decline written early moves the forced steps)."""
    if empty_answer(v, t, player, arg, lineno):
        return True
    for i, (option, who, at) in enumerate(v.lenient.forced):
        if option == (t, arg) and (who is None or who == "order" or who == player):
            del v.lenient.forced[i]
            if who == "order":
                v.report.notes.append(f"line {lineno}: 'choose' names {v.g.name(arg[0])}'s effect, the only one "
                                      "waiting; the rules resolve it without asking (effects.simultaneous)")
            else:
                v.report.notes.append(f"line {lineno}: '{t}' writes the forced step the rules took at line {at}; "
                                      "accepted like a forced step left out")
            return True
    return False


def empty_answer(v, t: str, player, arg, lineno: int) -> bool:
    """`choose []` / `random []` answering a choice the rules skipped."""
    if arg != () or t not in _EMPTY:
        return False
    for i, (kind, who, source) in enumerate(v.lenient.skipped):
        if kind == t and (t == "random" or who == player):
            del v.lenient.skipped[i]
            whose = f"{v.g.name(source)}'s effect" if source is not None else "the effect"
            v.report.notes.append(f"line {lineno}: '{t} []' answers {whose}, which had nothing to pick; "
                                  "the rules skip that choice (effects.as-much-as-possible)")
            return True
    return False


def answer_declined(v) -> bool:
    """The rules now ask what the log declined earlier: give the decline."""
    d = v.lenient.declined
    pend = v.g.pending
    if d is None or pend is None or (pend.stage, pend.player) != d:
        return False
    v.lenient.declined = None
    option = ("hunt", None) if pend.stage == "hunt" else ("pass", None)
    if option not in pend.options:
        return False
    v._apply(*option)
    return True


# The options a decision may have for the verifier to try each of them (one
# copy of the game each), to see whether they all come to the same: a bound
# on the work one line of a hostile log can ask for.
MAX_SAME_OUTCOME = 64


def one_outcome(g):
    """The answer the rules take for the pending decision when a log leaves
    it out, or None: its one option, or the first of its options when every
    one of them leads to the same position (Wheatle naming a power against
    an empty hand): a choice that decides nothing is a forced step too."""
    pend = g.pending
    if pend is None:
        return None
    options = pend.options
    if len(options) == 1:
        return options[0]
    if not options or len(options) > MAX_SAME_OUTCOME:
        return None
    first = None
    for option in options:
        probe = g.copy()
        probe.apply_unchecked(*option)
        after = probe.state.to_builtins()
        if first is None:
            first = after
        elif after != first:
            return None
    return options[0]


def left_out(v, step, lineno: int) -> None:
    """Take the forced step the log left out (`one_outcome`) and remember
    it, in case the log writes it after all. A choice with more than one
    option, all of them with the same outcome, gets a note."""
    pend = v.g.pending
    if len(pend.options) > 1:
        v.report.notes.append(
            f"line {lineno}: the log leaves out {decision_words(pend.stage, pend.player)} ({pend.prompt}); "
            f"every one of its {len(pend.options)} answers has the same outcome: taken like a forced step")
    v._apply(*step)
    v.lenient.forced.append((step, None if pend.is_chance else pend.player, lineno))


def claimed_after_forced(v, g, events, steps) -> None:
    """A state claim agrees with `g`, the rules after the forced `steps`:
    go on from there, and remember those steps and the choices they skipped
    as if the rules took them for the next decision line (a late `choose
    []`, the forced step written after all: `already_taken`)."""
    v.g = g
    v.since_claim = []
    v._rules_alt = None
    v.lenient.forced.extend(steps)
    v.lenient.saw(events)


def reaches(g, kind: str, player) -> bool:
    """Do the forced steps from here lead to a decision of `player` that a
    `kind` line answers? (Then the line is on time, with forced steps left
    out; otherwise it is a decline written early.)"""
    probe = g.copy()
    stages = DECLINES[kind]
    while probe.pending is not None:
        p = probe.pending
        if p.stage in stages and p.player == player:
            return True
        step = one_outcome(probe)
        if step is None:
            return False
        probe.apply_unchecked(*step)
    return False


def harmless_decline(v, t: str, player, arg, lineno: int) -> bool:
    """Declining changes nothing whatever the order, so a decline the rules do
    not ask for here is accepted with a note; if the rules ask for it later in
    the same attack, the decline written here is the answer."""
    g = v.g
    s = g.state
    combat = s.combat
    if t == "pass" and v.attacker == player:
        if any(step[0] == "after-attack" for step in s.stack):
            what = "a FRENZY second attack before the rules offer it (after the attack's effects)"
            v.lenient.declined = ("frenzy", player)
        else:
            what = "a FRENZY second attack the rules do not offer here"
    elif t == "hunt" and arg is None and combat is not None and player == s.active and not combat[2] \
            and combat[0] in s.play[player]:
        if ("hunt",) in s.stack:
            # effects.hunter-order: the HUNTER choice comes later.
            what = "HUNTER before the rules ask for it (after the Attack effect, effects.hunter-order)"
            v.lenient.declined = ("hunt", player)
        elif not g.has(combat[0], HUNTER):
            what = "HUNTER for an attacker that does not have it"
        else:
            return False
    else:
        return False
    v.report.notes.append(f"line {lineno}: '{t}' declines {what}; it changes nothing")
    return True


def forced_block(v, t: str, player, arg, lineno: int) -> bool:
    """The defender writes the block HUNTER forced on the named creature."""
    prev = v.prev
    if t != "block" or prev is None or prev[0] != "hunt" or prev[1] is None or arg != prev[1]:
        return False
    if player is None or player == v.attacker or v.attacker is None:
        return False
    v.report.notes.append(f"line {lineno}: 'block' repeats the block HUNTER forced on card {arg} "
                          "(keywords.hunter); the rules ask the defender nothing there")
    return True


# The forced steps in a row a probe takes at most (a game's are far fewer): a
# bound on the work one line of a hostile log can ask for.
MAX_FORCED_RUN = 64


def after_forced(g, t: str, player, arg) -> bool:
    """Whether a line of the kind the rules wait for, which is not an
    answer of the forced step pending, is a legal answer once the forced
    steps (`one_outcome`, none of them this line) are taken: then those are
    steps the log left out."""
    if (t, arg) in g.pending.options:
        return False
    probe = g.copy()
    for _ in range(MAX_FORCED_RUN):
        if probe.pending is None or (t, arg) in probe.pending.options:
            break
        step = one_outcome(probe)
        if step is None:
            break
        probe.apply_unchecked(*step)
    pend = probe.pending
    return pend is not None and (t, arg) in pend.options and (pend.is_chance or pend.player == player)
