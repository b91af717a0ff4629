"""The places a state claim gives a card, each place object worked out
once however often the claim lists it (diff builds them, attribution
weighs them)."""

from __future__ import annotations


class Places(list):
    """The places a claim gives one card, as a list, with each place object
    once beside them (`distinct`, in the order each first comes): a claim
    may list one place a thousand times under each of hundreds of
    creatures, and what is worked out of the places is worked out of each
    once (`distinct_places`). Made by diff.card_diff."""

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
