"""A tune on a real Dask cluster (a scheduler and a worker started here on 127.0.0.1): the bot's folder shipped
with its command's placeholders, the filled-in commands run from the worker's copy, the local trajectory."""

from __future__ import annotations

import shutil
import sys
from dataclasses import replace

import pytest

pytestmark = pytest.mark.slow

pytest.importorskip("distributed", reason="needs the distributed extra: pip install -e '.[distributed]'")

from distributed import Client  # noqa: E402

from referee.cluster.executor import ClusterOptions, cluster_factory  # noqa: E402
from referee.tune.run import run_tune  # noqa: E402
from tests.arena.test_cluster import Cluster  # noqa: E402
from tests.tune.test_run import rows  # noqa: E402
from tests.tune.tunebot import PEAKED, ROOT, peaked, settings  # noqa: E402


def test_a_tune_on_the_cluster_follows_the_local_trajectory(tmp_path, monkeypatch):
    folder = tmp_path / "bots" / "peaked"
    folder.mkdir(parents=True)
    shutil.copy(PEAKED, folder / "peaked.py")
    shutil.copy(ROOT / "sample_bots" / "python" / "botkit.py", folder / "botkit.py")
    monkeypatch.chdir(tmp_path)  # the run's base folder: only bots/peaked travels
    bot = replace(peaked(), command=f"{sys.executable} bots/peaked/peaked.py --x {{x}} --y 70 --z {{z}}",
                  cwd=str(tmp_path))  # as the command line gives it (cli/tune.py): the folder it was run in
    local = run_tune(settings(iterations=2, bot=bot), out=str(tmp_path / "local"))
    (tmp_path / "dask").mkdir()
    cluster = Cluster(tmp_path / "dask")
    try:
        cluster.add_worker("w1")
        with Client(cluster.address, set_as_default=False) as client:
            cluster.wait_for(client, 1)
        remote = run_tune(settings(iterations=2, bot=bot), out=str(tmp_path / "remote"),
                          executor_factory=cluster_factory(ClusterOptions(cluster.address)))
    finally:
        cluster.stop()
    assert remote.complete and not remote.never_started
    assert rows(tmp_path / "remote") == rows(tmp_path / "local")
    assert [s.theta for s in remote.steps] == [s.theta for s in local.steps]
