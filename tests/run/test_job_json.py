"""A message's jobs share their seats' JSON objects: pickle sends each seat once and the worker reads it once, and the
jobs read back are the jobs sent."""

from __future__ import annotations

import pickle

from referee.bots.spec import TimeLimits, parse_bot
from referee.engine.rules import get_ruleset
from referee.run import jobs as jobs_module
from referee.run.jobs import GameJob


def _jobs() -> list[GameJob]:
    specs = [parse_bot(f"b{i}=python3 bot{i}.py", TimeLimits(move_ms=50 + i)) for i in range(3)]
    rules = get_ruleset("family", {"target": "round"})
    return [GameJob(f"g{k}", k, rules, tuple(specs[(k + i) % 3] for i in range(3)), record=True, faults_only=True)
            for k in range(6)]


def test_a_message_s_jobs_read_back_equal_with_each_seat_sent_and_read_once(monkeypatch):
    jobs = _jobs()
    message = pickle.loads(pickle.dumps([job.to_json() for job in jobs]))
    seats = {id(seat) for data in message for seat in data["seats"]}
    assert len(seats) == 3  # three bots: three objects in the whole message
    read_specs = []
    real = jobs_module.BotSpec.from_json

    def counting(data):
        read_specs.append(data["name"])
        return real(data)

    monkeypatch.setattr(jobs_module.BotSpec, "from_json", staticmethod(counting))
    read: dict = {}
    assert [GameJob.from_json(data, read) for data in message] == jobs
    assert sorted(read_specs) == ["b0", "b1", "b2"]  # each read once
    assert [GameJob.from_json(data) for data in message] == jobs  # without the message's memo too


def test_a_spec_is_never_given_another_spec_s_json(monkeypatch):
    one, other = parse_bot("a=python3 a.py"), parse_bot("b=python3 b.py")
    # as if ``other`` had the id of a spec listed before it (ids are reused once an object is gone)
    monkeypatch.setitem(jobs_module._SPEC_JSON, id(other), (one, one.to_json()))
    assert jobs_module._spec_json(other) == other.to_json()
    assert jobs_module._spec_json(other)["name"] == "b"
