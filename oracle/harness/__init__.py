"""The conformance harness: the reference engine as a service (`serve`),
lockstep differential testing of another engine (`conform`, with shrinking),
and decision-tree counts (`perft`)."""
