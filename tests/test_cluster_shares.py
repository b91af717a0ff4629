"""How `--cluster` cuts its input and fetches its reports: shares sized for
the cluster's number of workers (2 MB to 8 MB: a Dask task costs about as
much as 30 to 40 games), and the reports fetched from the workers directly
when the scheduler is on this machine, through the scheduler elsewhere
(Dask's default), whatever Dask's own setting says first."""

from __future__ import annotations

import pytest
from conftest import ROOT

pytest.importorskip("distributed", reason="--cluster needs the [cluster] extra (Dask)")

import dask  # noqa: E402

from oracle.replay import shares as sh  # noqa: E402
from oracle.replay.cluster import cluster_reports, connect, direct_gather  # noqa: E402
from oracle.replay.jobs import Options  # noqa: E402

MB = 1024 * 1024
LOG = ROOT / "replays" / "conforming" / "en-first.jsonl"


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:8786", "127.0.0.1:8786", "localhost:8786", "tcp://[::1]:8786",
                                     "tcp://127.0.3.4:1"])
def test_a_scheduler_on_a_loopback_address_has_the_reports_fetched_from_its_workers(address):
    assert direct_gather(address) is True


@pytest.mark.parametrize("address", ["tcp://10.1.2.3:8786", "tcp://sched.example.org:8786", "192.168.0.7:8786",
                                     "tcp://[2001:db8::1]:8786"])
def test_a_scheduler_elsewhere_is_left_to_dask_which_fetches_through_it(address):
    assert direct_gather(address) is None


def test_dask_own_setting_comes_first_either_way():
    with dask.config.set({"distributed.client.direct-to-workers": False}):
        assert direct_gather("tcp://127.0.0.1:8786") is False
    with dask.config.set({"distributed.client.direct-to-workers": True}):
        assert direct_gather("tcp://10.1.2.3:8786") is True


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


def test_a_local_cluster_plans_its_shares_for_its_workers_and_fetches_from_them():
    asked: list[int] = []

    def planned(workers: int):
        asked.append(workers)
        return sh.plan([str(LOG)], sh.cluster_share_size([str(LOG)], workers), wait=False)

    reports = [rep for rep, _ in cluster_reports(planned, Options(), "local:1", [])]
    assert asked == [1]
    assert reports and all(rep.verdict == "conforms" for rep in reports)
    client, cluster = connect("local:1")
    try:
        assert client.direct_to_workers is True
    finally:
        client.close()
        cluster.close()
