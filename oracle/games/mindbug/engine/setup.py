"""Game setup (rulebook: Game Setup; Taking Turns, first player)."""

from __future__ import annotations

from typing import Final

from ..cards import DEFAULT_SETS
from ..editions import profile as get_profile
# resolve_cards, check_composition, check_mechanics: also found here, where they were first (adapters import them)
from .deck import _known, check_composition, check_mechanics, numbered, resolve_cards, resolve_deck  # noqa: F401
from .errors import SetupError
from .octonite import set_counters
from .presence import Flags
from .state import COMPILED, ZONE_WORDS, State

HAND_SIZE: Final = 5
DECK_SIZE: Final = 10
START_LIFE: Final = 3
START_MINDBUGS: Final = 2


def first_from_reveals(defs, reveals) -> int:
    """setup.first-player: the higher revealed power starts; a tie reveals again."""
    for i, pair in enumerate(reveals):
        a, b = defs[pair[0]].power, defs[pair[1]].power
        last = i == len(reveals) - 1
        if a == b and last:
            raise SetupError("BAD_SETUP", "setup.first-player",
                             f"the last revealed pair ties ({a} against {b}): another pair must follow")
        if a != b and not last:
            raise SetupError("BAD_SETUP", "setup.first-player",
                             f"revealed pair {i + 1} does not tie ({a} against {b}), yet more pairs follow")
        if a != b:
            return 0 if a > b else 1
    raise SetupError("BAD_SETUP", "setup.first-player", "no revealed pair")


def set_aside_of(defs: dict, dealt: set, given=None) -> list[int]:
    """setup.set-aside: the double-sided cards of a deal (the cards named by a
    stage II face), in id order; none may be dealt into a pile (`dealt`: the
    ids dealt into piles). `given`: the ids the log's `set_aside` lists,
    which must be exactly those."""
    aside = [c for c, d in defs.items() if d.stage == 2]
    aside.sort()
    wrong = [c for c in aside if c in dealt]
    if wrong:
        raise SetupError("BAD_SETUP", "setup.set-aside",
                         f"card {wrong[0]} ({defs[wrong[0]].name}) is a double-sided card, set aside before the "
                         "deal: it is in no draw pile and not in the unused pile", {"actual": wrong})
    if given is not None and sorted(given) != aside:
        raise SetupError("BAD_SETUP", "setup.set-aside",
                         f"field set_aside: the set-aside cards are {aside}, not {sorted(given)}",
                         {"actual": sorted(given), "expected": aside})
    return aside


_NONE: Final[set] = set()      # no card dealt: what set_aside_of reads of a deal without double-sided cards


def _each_once(seen: list, n: int) -> bool:
    """Whether every item of `seen` is one of the ids 1 to `n` (an int), none
    twice: then `set(seen)` is as long as `seen` and within those ids."""
    marks = [False] * (n + 1)
    for c in seen:
        if type(c) is not int:
            return False
        k: int = c
        if k < 1 or k > n or marks[k]:
            return False
        marks[k] = True
    return True


_COMPILED: Final = COMPILED      # the engine runs compiled (state.COMPILED)


def dealt_state(edition, cards, decks, unused, first=None, reveals=(), life_piles=None, tolerate=None,
                sets=DEFAULT_SETS, set_aside=None):
    """The state at the start of a dealt game, before the first turn:
    (profile, designs by card id, owner by card id, state, flags). `Game.deal`
    builds the game from it. `flags`: the game's Flags (engine.presence) when
    its cards are exactly those of `sets`, which every such deal shares;
    None otherwise (the Table works them out from its cards).

    A deal the rules refuse raises SetupError. With `tolerate` (a list), the
    faults that still leave a game to play are appended to it instead, and
    the game is dealt as given: extra or missing copies, draw piles of another
    size, cards of the setup dealt nowhere (they are set out of the game),
    reveals that do not pick the starting player the log names (the log's
    starting player starts), revealed cards dealt again into a draw pile
    (they stay where they are dealt). The double-sided cards of `cards` are
    set aside (setup.set-aside); `set_aside`, when given, must list them.
    A card dealt twice, an unknown card, or a deal with no starting player
    still raise."""
    prof = get_profile(edition)
    defs, exact = resolve_deck(cards, sets)
    if not exact:
        cards = numbered(cards)     # the names by id, for the composition's check
    # A deal of exactly the deck of `sets` breaks the mechanics check as
    # that deck does: the check runs only on a deck that can fail it.
    if not exact or not prof.later_sets and _known.later_in(sets):
        check_mechanics(prof, defs)

    def fault(err: SetupError) -> None:
        if tolerate is None:
            raise err
        tolerate.append(err)

    flags: Flags | None = None
    try:
        if not exact:
            check_composition(defs, sets, cards.values())
    except SetupError as e:
        fault(e)
    else:
        flags = _known.deck_flags(sets, defs)
    decks = [list(decks[0]), list(decks[1])]
    unused = list(unused)
    seen = decks[0] + decks[1] + unused
    lines = flags is None or flags.lines
    # The cards of a deck given by their names in id order are the ids 1 to
    # N (resolve_deck): compiled, its deal is checked against them by id, and
    # the set of the ids dealt is made only for what still reads it
    # (interpreted, the set's own loops in C are the faster).
    if type(cards) is dict or not _COMPILED or not _each_once(seen, len(defs)):
        dealt = set(seen)
        # `difference` looks each id up in `defs` by the hash the set keeps: a
        # fraction of a dict view's `>=`, which hashes each id again.
        if dealt.difference(defs) or len(seen) != len(dealt):
            raise SetupError("BAD_SETUP", "setup.deal",
                             "every card must be dealt exactly once, into a draw pile or the unused pile")
    else:
        dealt = set(seen) if lines else _NONE     # read only for the double-sided cards of evolution lines
    # setup.set-aside: a deal of exactly the cards of sets without evolution lines has no double-sided card
    aside = set_aside_of(defs if lines else {}, dealt, set_aside)
    # Every card dealt or set aside (both within defs, and apart): none is left.
    undealt = [] if len(seen) + len(aside) == len(defs) else sorted(defs.keys() - set(seen) - set(aside))
    if undealt:
        shown = sorted(set(undealt) & {c for pair in reveals or () for c in pair})
        hint = (f" (revealed {shown}: a revealed card is revealed from the unused pile, so `unused` lists it)"
                if shown else "")
        fault(SetupError("BAD_SETUP", "setup.deal",
                         f"every card must be dealt exactly once; cards dealt nowhere: {undealt}{hint}",
                         {"actual": undealt}))
    for p in (0, 1):
        if len(decks[p]) != DECK_SIZE:
            fault(SetupError("BAD_SETUP", "setup.deal",
                             f"player {p}'s draw pile holds {len(decks[p])} cards, not {DECK_SIZE}",
                             {"actual": len(decks[p]), "expected": DECK_SIZE}))
    owner: dict = {}
    for p in (0, 1):
        for c in decks[p]:
            owner[c] = p
    s = State()
    s.deck = decks
    s.unused = unused                                          # terms.unused-pile
    s.set_aside = aside                                        # setup.set-aside
    s.out = list(undealt)                                      # tolerated: in no pile of the deal
    s.mindbugs = [START_MINDBUGS, START_MINDBUGS]            # setup.mindbugs
    for p in (0, 1):                                           # setup.hand
        s.hand[p] = s.deck[p][:HAND_SIZE]
        del s.deck[p][:HAND_SIZE]
    if prof.life_cards:                                        # setup.life-cards
        if life_piles is not None:
            if len(life_piles) != 2:
                raise SetupError("BAD_SETUP", "setup.life-cards",
                                 f"field life_cards: one pile of life cards per player (two piles), "
                                 f"not {len(life_piles)}")
            for p in (0, 1):
                if len(life_piles[p]) != START_LIFE:
                    raise SetupError("BAD_SETUP", "setup.life-cards",
                                     f"field life_cards[{p}]: player {p} starts with {START_LIFE} life cards, "
                                     f"not {len(life_piles[p])}")
        for p in (0, 1):
            pile = list(life_piles[p]) if life_piles is not None else s.unused[:START_LIFE]
            for c in pile:
                if c not in s.unused:
                    raise SetupError("BAD_SETUP", "setup.life-cards",
                                     f"field life_cards[{p}]: life card {c} is not in the unused pile")
                s.unused.remove(c)
            s.life_pile[p] = pile
    s.life = [START_LIFE, START_LIFE]                          # setup.life
    reveals = [tuple(pair) for pair in reveals or ()]
    if reveals:
        for pair in reveals:
            for c in pair:
                if c not in s.unused:
                    if c not in defs:
                        raise SetupError("BAD_SETUP", "setup.first-player",
                                         f"revealed card {c} is not in the unused pile")
                    # tolerated: a card revealed for the first player and dealt again (a tie
                    # shuffled back into the deal) stays where it was dealt
                    fault(SetupError("BAD_SETUP", "setup.first-player",
                                     f"revealed card {c} is not in the unused pile", {"actual": c}))
                    continue
                if prof.reveals_out:                           # setup.reveal-out
                    s.unused.remove(c)
                    s.out.append(c)
        try:
            by_reveal = first_from_reveals(defs, reveals)
        except SetupError as e:
            if first is None:
                raise
            fault(e)
            by_reveal = first
        if first is not None and first != by_reveal:
            fault(SetupError("WRONG_FIRST_PLAYER", "setup.first-player",
                             f"the reveals make player {by_reveal} the starting player, not player {first}",
                             {"expected": by_reveal, "actual": first}))
            by_reveal = first
        first = by_reveal
    if first not in (0, 1):
        raise SetupError("BAD_SETUP", "setup.first-player", "the starting player must be 0 or 1")
    s.stack = [("turn", first, False)]
    return prof, defs, owner, s, flags


def place_octonite(prof, s: State, pairs) -> None:
    """later.octonite: a position may hold Octonite counters on creatures in
    play, a whole number each; an edition without the later-set mechanics
    has no counters (BAD_SETUP, as for the cards that use them,
    `check_mechanics`). A count of 0 places nothing."""
    in_play = set(s.play[0]) | set(s.play[1])
    seen = set()
    for card, n in pairs:
        if type(n) is not int or n < 0:
            raise SetupError("BAD_POSITION", "later.octonite",
                             f"card {card}'s Octonite counters must be a whole number from 0, not {n!r}",
                             {"card": card, "actual": repr(n)})
        if card in seen:
            raise SetupError("BAD_POSITION", "later.octonite", f"card {card}'s Octonite counters are given twice",
                             {"card": card})
        seen.add(card)
        if card not in in_play:
            raise SetupError("BAD_POSITION", "later.octonite",
                             f"card {card} holds Octonite counters but is not in play "
                             "(only creatures in play hold them)", {"card": card})
        if n and not prof.later_sets:
            raise SetupError("BAD_SETUP", "later.octonite",
                             f"card {card} holds {n} Octonite counter{'s' * (n != 1)}, which the {prof.edition} rules "
                             "do not have (only en-revised)", {"card": card})
        set_counters(s, card, n)                               # later.octonite: the counters the position gives


def place_stages(s, defs: dict, stages) -> None:
    """later.evolve: each (creature, stage) evolved creature takes its line's
    double-sided card from the set-aside ones."""
    for card, n in stages:
        d = defs.get(card)
        aside = next((c for c in s.set_aside if d is not None and defs[c].stage == 2 and defs[c].line == d.name),
                     None)
        if card not in s.play[0] + s.play[1] or aside is None:
            raise SetupError("BAD_POSITION", "later.evolve",
                             f"card {card} cannot be at stage {n}: only a stage I creature in play whose line's "
                             "double-sided card is still aside can be", {"card": card})
        s.set_aside.remove(aside)
        s.stages = s.stages + ((card, aside, n),)


def place_boosts(s, boosts) -> None:
    """later.boost: each (creature, cards) pair puts those cards under a
    creature in play; a card under a creature is in no other zone."""
    inplay = set(s.play[0] + s.play[1])
    for card, under in boosts:
        if card not in inplay:
            raise SetupError("BAD_POSITION", "later.boost",
                             f"card {card} holds boost cards but is not in play: only a creature in play can",
                             {"card": card})
    s.boosts = tuple((card, tuple(under)) for card, under in boosts if under)


def _no_faces(defs: dict, cards, where: str, in_play: bool = False) -> None:
    """later.evolve.faces-in-play: a stage II or III face is aside or on its
    stage I creature in play (`stages`), never in a pile or a hand. In a
    play area only a face of no known line (Evilcat) stands on its own: no
    stage I card can show it."""
    for c in cards:
        d = defs.get(c)
        if d is not None and d.stage >= 2 and (d.line or not in_play):
            raise SetupError("BAD_POSITION", "later.evolve.faces-in-play",
                             f"card {c} ({d.name}) is a stage {'II' if d.stage == 2 else 'III'} face and cannot be "
                             f"in {where}: a face is aside, or shown by its stage I creature in play "
                             "(give that creature a stage)", {"card": c})


def position_state(edition, zones: dict, defs: dict, *, active=0, life=(3, 3), mindbugs=(2, 2),
             exhausted=(), unused=None, out=(), turn=1, octonite=(), stages=(), boosts=()):
    """The state of an arbitrary position, at the start of `active`'s turn
    (the start of the turn, then the turn action): (profile, owner by card
    id, state). `Game.position` builds the game.

    `zones` maps (zone, player) to card ids for deck, hand, play and discard.
    Cards of `defs` that are placed nowhere go to the unused pile unless
    `unused` is given; a double-sided card placed nowhere is set aside
    (setup.set-aside), and a stage face of no line (never dealt) is out of
    the game. `octonite`: (card, count) pairs, the Octonite counters on
    creatures in play (`place_octonite`). `stages`: (card, 2 or 3) pairs,
    stage I creatures in play evolved that far, each on its line's
    set-aside card (`place_stages`). `boosts`: (creature, cards) pairs, the
    boost cards under creatures in play (`place_boosts`).
    """
    prof = get_profile(edition)
    gone = set(out)
    check_mechanics(prof, {c: d for c, d in defs.items() if c not in gone})   # a card out of the game is not dealt
    s = State()
    placed = []
    for (zone, p), cards in zones.items():
        _no_faces(defs, cards, f"player {p}'s {ZONE_WORDS.get(zone, zone)}", zone == "play")
        getattr(s, zone)[p] = list(cards)
        placed += cards
    for card, under in boosts:
        _no_faces(defs, under, f"the boost cards under card {card}")
        placed += list(under)                                           # later.boost: under a creature
    _no_faces(defs, unused or (), "the unused pile")
    somewhere = set(placed) | set(unused or ()) | gone
    faces = [c for c, d in defs.items() if d.stage >= 2 and c not in somewhere]
    s.set_aside = [c for c in faces if defs[c].line]                    # setup.set-aside
    s.out = list(out) + [c for c in faces if not defs[c].line]          # a face of no line: never dealt
    placed += s.out + s.set_aside
    if unused is None:
        unused = [c for c in defs if c not in set(placed)]
    s.unused = list(unused)
    placed += s.unused
    if len(placed) != len(set(placed)):
        dup = sorted({c for c in placed if placed.count(c) > 1})
        raise SetupError("BAD_POSITION", "setup.components", f"cards placed twice: {dup}")
    s.life = list(life)
    if prof.life_cards:
        for p in (0, 1):
            take = s.life[p]
            if take > len(s.unused):
                raise SetupError("BAD_POSITION", "life.cards",
                                 f"player {p}'s {take} life needs {take} life cards; the unused pile holds {len(s.unused)}")
            s.life_pile[p] = s.unused[:take]
            del s.unused[:take]
    s.mindbugs = list(mindbugs)
    s.exhausted = set(exhausted)
    place_octonite(prof, s, octonite)
    place_stages(s, defs, stages)
    place_boosts(s, boosts)
    s.active = active
    s.turn = turn - 1
    owner = {}
    for (zone, p), cards in zones.items():
        for c in cards:
            owner[c] = p
    s.stack = [("turn", active, False)]
    return prof, owner, s
