"""Rules hunting, the part both games share: the command `mb-oracle hunt`
(`command`), which hands a game to its registry entry's HUNT with the
budget, seed, out folder, force and format, and the options only some
games take (Mindbug's --edition, --cards, --sets, --no-abstract, --jobs,
--progress), each game refusing those it does not.

Each game's hunt lives in its folder: Mindbug's in
oracle/games/mindbug/hunt (the rules read as constraints, the search of
situations, the hunts of declared cards and of the later sets), Mind Up!'s
in oracle/games/mindup/hunt.

    mb-oracle hunt --all --budget 2500 --seed 0 --out findings/
    mb-oracle scenarios findings/
"""
