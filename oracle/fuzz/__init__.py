"""Fuzzing every input format: `mb-oracle fuzz` and tests/test_fuzz.py.

hypothesis generates broken replay lines, broken games (real ones mutated
line by line), broken scenario, expectation and card files, sessions of
service requests, engine adapters whose replies break, and the hostile
classes of Mindbug's hostile.py (terminal control strings in every field,
YAML values that fail to construct, names that collide with shipped cards,
files a service client may not have read) and names.py (card names that
look like a shipped card's or hold `#`, file names that forge a line in a
message); each input is checked in process (no exception escapes, a
verdict per game, no hang) and a sample of them through the command line.

Each game's targets are its own (its registry entry's FUZZ: Mindbug's in
oracle.games.mindbug.fuzz, Mind Up!'s in oracle.games.mindup.fuzz), with
its seed corpus and the vocabulary of its lines; the run, the checks, the
reading of seed files and the strategies they share, which know no game,
are here.
"""

from .run import run_fuzz

__all__ = ["run_fuzz"]
