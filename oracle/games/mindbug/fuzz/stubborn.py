"""An engine adapter with stubborn children, for fuzzing how `conform` ends:
`python -m oracle.games.mindbug.fuzz.stubborn CASE` (CASE: a JSON object,
see `surroundings.adapter_case`). Before it reads anything it starts the
children the case names, each a sleeping process whose command line
carries the case's tag:

- `hold-output`: a child that keeps the adapter's output open;
- `hold-input`: one that keeps its input open;
- `setsid`: one in a session of its own, its pipes closed;
- `setsid-output`: in a session of its own, holding the output;
- `ignore-term`: holding the output, deaf to SIGTERM;
- `orphan`: a grandchild in a session of its own, left to init when its
  parent exits at once, holding the output.

Then it answers `hello` as the case says (`answer`, `silent`: never,
`junk`: not a reply, `exit`: exits), every other message as the reference
engine (`faithful`), with an error (`error`) or not at all (`silent`), and
on `quit` it exits (`exit`), reads on until its input ends (`ignore`) or
sleeps deaf to SIGTERM (`deaf`).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

CHILDREN = ("hold-output", "hold-input", "setsid", "setsid-output", "ignore-term", "orphan")


def _sleeper(kind: str, tag: str) -> list[str]:
    code = ("import signal, sys, time\n"
            "if sys.argv[1] == 'ignore-term': signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
            "time.sleep(600)")
    return [sys.executable, "-c", code, kind, tag]


def _start(kind: str, tag: str) -> None:
    quiet = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    argv = _sleeper(kind, tag)
    if kind == "hold-output" or kind == "ignore-term":
        subprocess.Popen(argv, stdin=subprocess.DEVNULL)
    elif kind == "hold-input":
        subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    elif kind == "setsid":
        subprocess.Popen(argv, start_new_session=True, **quiet)
    elif kind == "setsid-output":
        subprocess.Popen(argv, start_new_session=True, stdin=subprocess.DEVNULL)
    elif kind == "orphan":
        if os.fork() == 0:
            try:
                os.setsid()
                subprocess.Popen(argv, stdin=subprocess.DEVNULL)
            finally:
                os._exit(0)


def main(argv: list[str]) -> None:
    case = json.loads(argv[0])
    tag = case["tag"]
    for kind in case.get("children", ()):
        _start(kind, tag)
    out = sys.stdout.buffer
    answers = None
    for line in sys.stdin.buffer:
        op = json.loads(line).get("op")
        if op == "quit":
            if case.get("quit") == "exit":
                return
            if case.get("quit") == "deaf":
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                time.sleep(600)
            continue
        how = case.get("hello", "answer") if op == "hello" else case.get("replies", "faithful")
        if how == "silent":
            continue
        if how == "exit":
            return
        if how == "junk":
            out.write(b"not a reply\n")
        elif how == "error":
            out.write(b'{"error": "this engine will not"}\n')
        else:
            if answers is None:
                from .engine import FuzzEngine

                answers = FuzzEngine({})
            out.write(answers._exchange(op or "?", line.strip()) + b"\n")
        out.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
