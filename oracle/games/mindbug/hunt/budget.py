"""The hunt's budget: the number of situations it may examine (each probed
situation counts once, those Hypothesis generates and those it tries while
shrinking a finding alike).

The budget is split the same way whatever the number of jobs, so that the
hunt is the same with any: half to the search with real cards and half to
the search with changed cards (all of it to the first with
`--no-abstract`), and each half between the SHARES shares of the designs.
Within a share, each design's search generates a quarter of the share's
situations per design (EXAMPLES_SHARE; at least MIN_EXAMPLES); the rest
goes to shrinking and to the further searches its findings lead to, and
the share stops when its situations are spent. A hunt may end before its
budget is spent: when no search finds anything new.

The situations examined are also counted as they go, for the progress
display: in this process through a hook, in worker processes through a
shared counter the main process reads.
"""

from __future__ import annotations

SHARES = 2              # independent shares of the designs (the most jobs a phase can use): more shares, more
                        # findings made twice
EXAMPLES_SHARE = 4      # a design's examples per search: its part of the share, divided by this
MIN_EXAMPLES = 4        # and at least this many, however small the budget
DEFAULT = 2500          # `mb-oracle hunt` without --budget (the largest: oracle.hunt.command.MAX)


class BudgetSpent(BaseException):
    """A share has examined all the situations it may. A BaseException, so
    that Hypothesis lets it through instead of taking it for a failure."""


def phase_budgets(budget: int, abstract: bool) -> tuple[int, int]:
    """(real cards, changed cards): the situations of each phase."""
    if not abstract:
        return budget, 0
    return budget - budget // 2, budget // 2


def share_caps(total: int, shares: int) -> list[int]:
    """`total` split between `shares`, the first ones taking the remainder."""
    return [total // shares + (1 if k < total % shares else 0) for k in range(shares)]


def examples_per_design(cap: int, designs: int) -> int:
    """The examples one design's search generates, within a share of `cap` situations."""
    return max(cap // (max(designs, 1) * EXAMPLES_SHARE), MIN_EXAMPLES)


# -- counting, for the progress display --------------------------------------------

_shared = None      # in a worker process: a multiprocessing Value shared with the main process
_hook = None        # in this process: called with each count (the progress display)


def init_worker(counter) -> None:
    """ProcessPoolExecutor initializer: count into `counter`."""
    global _shared
    _shared = counter


def watch(hook) -> None:
    """Call `hook(n)` for the situations examined in this process (None: stop)."""
    global _hook
    _hook = hook


def count_one() -> None:
    if _shared is not None:
        with _shared.get_lock():
            _shared.value += 1
    if _hook is not None:
        _hook(1)


def in_processes(worker, args, jobs: int, progress) -> list:
    """`worker` on each of `args` in `jobs` fresh processes, their results in
    order; the situations they examine counted on a shared value, read here
    for `progress` while they run."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, wait

    ctx = multiprocessing.get_context("spawn")
    counter = ctx.Value("q", 0)
    shown = 0
    with ProcessPoolExecutor(jobs, mp_context=ctx, initializer=init_worker, initargs=(counter,)) as pool:
        futures = [pool.submit(worker, a) for a in args]
        while wait(futures, timeout=0.2).not_done or shown < counter.value:
            if progress is not None and counter.value > shown:
                progress(counter.value - shown)
            shown = counter.value
        return [f.result() for f in futures]
