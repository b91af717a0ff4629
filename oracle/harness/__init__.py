"""The conformance harness: the reference engine as a service (`serve`),
lockstep differential testing of another engine (`conform`), and
decision-tree counts (`perft`), each game's part reached through the game
registry (Mindbug's in oracle.games.mindbug.harness, Mind Up!'s in
oracle.games.mindup.harness)."""
