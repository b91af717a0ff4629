"""The conformance harness: the reference engines as a service (`serve`),
lockstep differential testing of another engine (`conform`), and
decision-tree counts (`perft`). The core knows no game: the commands'
options, the frames of mb-oracle-rpc/1 and mb-engine/1, the service's loop
and its errors, the engine adapter's process and client; each game's part
is reached through the game registry (Mindbug's in
oracle.games.mindbug.harness, Mind Up!'s in oracle.games.mindup.harness)."""
