"""Domain errors carry their exit status, and the command line's one boundary turns any of them into it."""

from __future__ import annotations

import importlib

import click
import pytest
from click.testing import CliRunner

from referee.cli.common import FAILURES, LastcardGroup
from referee.errors import BAD_INPUT, RUN_FAILED, LastcardError, OptionError

#: Every domain error the command line reports, with its status (README, "Exit status").
DOMAIN_ERRORS = [
    ("referee.inputs.problems", "ArenaFileError", BAD_INPUT),
    ("referee.store.run_store", "StoreError", BAD_INPUT),
    ("referee.ladder.store", "LadderError", BAD_INPUT),
    ("referee.ladder.store", "LadderBusy", BAD_INPUT),
    ("referee.engine.rules", "RulesetError", BAD_INPUT),
    ("referee.engine.notation", "InvalidReplayError", BAD_INPUT),
    ("referee.builds.shipping", "ShippingError", BAD_INPUT),
    ("referee.html_report.page", "ReportError", BAD_INPUT),
    ("referee.compare.twins", "CompareError", BAD_INPUT),
    ("referee.compare.sprt", "SprtError", BAD_INPUT),
    ("referee.bots.sandbox", "SandboxUnavailable", BAD_INPUT),
    ("referee.run.executor", "ExecutorError", RUN_FAILED),
    ("referee.replay.verify", "ReplayMismatch", RUN_FAILED),
]


@pytest.mark.parametrize("module, name, status", DOMAIN_ERRORS, ids=[name for _, name, _ in DOMAIN_ERRORS])
def test_each_domain_error_carries_its_status(module: str, name: str, status: int) -> None:
    cls = getattr(importlib.import_module(module), name)
    assert issubclass(cls, LastcardError)
    assert cls.exit_code == status and status in FAILURES


def _group_raising(error: Exception) -> LastcardGroup:
    @click.group(cls=LastcardGroup)
    def group() -> None:
        pass

    @group.command()
    def go() -> None:
        raise error

    return group


@pytest.mark.parametrize("error, status, message", [
    (LastcardError("the workers died"), RUN_FAILED, "the workers died"),
    (OptionError("must be positive", "games"), BAD_INPUT, "--games: must be positive"),
    (OptionError("--games must be positive", "games"), BAD_INPUT, "--games must be positive"),
], ids=["run-failed", "option-named", "option-already-named"])
def test_the_boundary_prints_the_message_and_exits_with_the_status(error: Exception, status: int,
                                                                   message: str) -> None:
    run = CliRunner().invoke(_group_raising(error), ["go"])
    assert run.exit_code == status
    assert run.output == f"Error: {message}\n"
    assert "Traceback" not in run.output


def test_the_executor_and_replay_errors_add_what_the_user_does_next() -> None:
    from referee.replay.verify import ReplayMismatch
    from referee.run.executor import ExecutorError

    run = CliRunner().invoke(_group_raising(ExecutorError("worker 3 died")), ["go"])
    assert (run.exit_code, run.output) == (1, "Error: worker 3 died\nthe games finished so far are saved; "
                                              "--resume continues\n")
    run = CliRunner().invoke(_group_raising(ReplayMismatch("turn 4")), ["go"])
    assert (run.exit_code, run.output) == (1, "Error: the replay differs from the record: turn 4\n")
