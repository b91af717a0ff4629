"""How `--cluster` cuts its input and fetches its reports: shares sized for
the cluster's number of workers (2 MB to 8 MB: a Dask task costs about as
much as 30 to 40 games), and the reports fetched from the workers directly
when the scheduler and its workers are all on loopback addresses, through
the scheduler otherwise (Dask's default); Dask's own setting first."""

from __future__ import annotations

import pytest
from conftest import ROOT

pytest.importorskip("distributed", reason="--cluster needs the [cluster] extra (Dask)")

import dask  # noqa: E402

from oracle.replay import shares as sh  # noqa: E402
from oracle.replay import cluster  # noqa: E402
from oracle.replay.cluster import direct_gather  # noqa: E402
from oracle.replay.jobs import Options  # noqa: E402

MB = 1024 * 1024
LOG = ROOT / "replays" / "conforming" / "en-first.jsonl"


LOCAL_WORKERS = ["tcp://127.0.0.1:40001", "tcp://127.0.0.1:40002"]


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:8786", "127.0.0.1:8786", "localhost:8786", "tcp://[::1]:8786",
                                     "tcp://127.0.3.4:1"])
def test_a_scheduler_and_workers_on_loopback_addresses_have_the_reports_fetched_from_the_workers(address):
    assert direct_gather(address, LOCAL_WORKERS) is True


@pytest.mark.parametrize("address", ["tcp://10.1.2.3:8786", "tcp://sched.example.org:8786", "192.168.0.7:8786",
                                     "tcp://[2001:db8::1]:8786"])
def test_a_scheduler_elsewhere_is_left_to_dask_which_fetches_through_it(address):
    assert direct_gather(address, LOCAL_WORKERS) is None


@pytest.mark.parametrize("workers", [
    ["tcp://127.0.0.1:40001", "tcp://172.17.0.2:40002"],    # a worker in a container behind a published port
    ["tcp://192.168.1.20:40001"],
    [],                                                    # none known yet
])
def test_a_loopback_scheduler_with_a_worker_elsewhere_or_none_known_is_left_to_dask(workers):
    assert direct_gather("tcp://127.0.0.1:8786", workers) is None


def test_dask_own_setting_comes_first_either_way():
    with dask.config.set({"distributed.client.direct-to-workers": False}):
        assert direct_gather("tcp://127.0.0.1:8786", LOCAL_WORKERS) is False
    with dask.config.set({"distributed.client.direct-to-workers": True}):
        assert direct_gather("tcp://10.1.2.3:8786", ["tcp://10.1.2.4:1"]) is True


def _file(tmp_path, size: int) -> str:
    path = tmp_path / f"games-{size}.jsonl"
    with open(path, "wb") as f:
        f.truncate(size)        # sparse: only its size is read
    return str(path)


@pytest.mark.parametrize("size,workers,expected", [
    (1 * MB, 2, 2 * MB),                    # a small input: the least a share holds
    (1024 * MB, 2, 8 * MB),                 # a large one on few workers: the most
    (1024 * MB, 100, 2 * MB),               # many workers: small shares, but never under 2 MB
    (300 * MB, 8, 300 * MB // 64 + 1),      # in between: about 8 shares a worker
    (300 * MB, 0, 8 * MB),                  # no worker known yet: sized as for one
])
def test_cluster_shares_are_sized_for_the_workers(tmp_path, size, workers, expected):
    assert sh.cluster_share_size([_file(tmp_path, size)], workers) == expected


def test_a_local_cluster_plans_its_shares_for_its_workers_and_fetches_from_them(monkeypatch):
    asked: list[int] = []
    chosen: list = []

    def planned(workers: int):
        asked.append(workers)
        return sh.plan([str(LOG)], sh.cluster_share_size([str(LOG)], workers), wait=False)

    def recorded(scheduler, workers):
        chosen.append((scheduler, list(workers), direct_gather(scheduler, workers)))
        return chosen[-1][2]

    monkeypatch.setattr(cluster, "direct_gather", recorded)
    reports = [rep for rep, _ in cluster.cluster_reports(planned, Options(), "local:1", [])]
    assert asked == [1]
    assert reports and all(rep.verdict == "conforms" for rep in reports)
    [(scheduler, workers, direct)] = chosen
    assert scheduler.startswith("tcp://127.0.0.1:") and len(workers) == 1 and direct is True
