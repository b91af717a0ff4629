"""The places a state claim gives a card, in order, each place object
worked out once however often the claim lists it (diff builds them,
attribution weighs them)."""

from __future__ import annotations


class Places(list):
    """The places a claim gives one card, as a list, with each place object
    once beside them (`distinct`, in the order each first comes): a claim
    may list one place a thousand times under each of hundreds of
    creatures, and what is worked out of the places is worked out of each
    once (`distinct_places`). Made by `sorted_places`."""

    __slots__ = ("distinct",)

    def __init__(self, places: list, distinct: list):
        super().__init__(places)
        self.distinct = distinct


def distinct_places(places: list) -> list:
    """`places` with each object once, in the order each first comes (the
    same place listed again adds nothing to what they say): kept by
    `Places`, else built in C, a step per place."""
    if type(places) is Places:
        return places.distinct
    return list(dict(zip(map(id, places), places)).values()) if len(places) > 1 else places


def sorted_places(pairs: list) -> list:
    """`sorted(places, key=repr)` of the places `pairs` gives, each (place,
    the times the log lists it there in a row): each place written out
    once, however often a claim lists it (a card under a creature a
    thousand times is one place, listed a thousand times), and a place
    listed again kept as a `Places`, with each place once beside them. The
    same objects in the same order as sorting the places one by one: a
    stable sort keeps each run of one place together."""
    if len(pairs) == 1 and pairs[0][1] == 1:
        return [pairs[0][0]]
    if len(pairs) > 1:
        pairs = sorted(pairs, key=_place_text)
    out: list = []
    for place, times in pairs:
        if times == 1:
            out.append(place)
        else:
            out.extend([place] * times)
    if len(out) == len(pairs):
        return out
    return Places(out, distinct_places([place for place, _ in pairs]))


def _place_text(pair: tuple) -> str:
    return repr(pair[0])
