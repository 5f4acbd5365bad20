"""shards on a Dask LocalCluster of two worker processes (docs/scale.md's
recipe) equal the single run."""

import pytest

import pgnmill
from conftest import INPUTS
from test_shards import check_equal_to_the_single_run, single_run

distributed = pytest.importorskip("dask.distributed")


def test_a_dask_cluster_of_two_workers_is_the_single_run(cli_report, tmp_path):
    out = tmp_path / "shards"
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        paths = pgnmill.shards(client, INPUTS, out, tags="lichess", threads=1)
    check_equal_to_the_single_run(out, paths, single_run(cli_report))
