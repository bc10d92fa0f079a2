"""BotPool: one process per bot kept between games, idle ones evicted, all ended on the way out."""

from __future__ import annotations

from referee.bots.pipes.transport import FakeTransport, PipeTransport, Transport
from referee.bots.pool import BotPool
from referee.bots.spec import TimeLimits, parse_bot
from referee.protocol.wire import encode


def _ready(msg: dict) -> list:
    return [encode({"type": "ready", "name": "fake"})] if msg["type"] == "hello" else []


def _pool() -> tuple[BotPool, dict[str, FakeTransport]]:
    made: dict[str, FakeTransport] = {}

    def factory(spec):
        made[spec.name] = FakeTransport(_ready)
        return made[spec.name]
    return BotPool(transport_factory=factory), made


SPECS = {name: parse_bot(f"{name}=./{name}", TimeLimits(startup_ms=1000)) for name in "abc"}


def test_evict_idle_quits_the_least_recently_used():
    pool, made = _pool()
    with pool:
        for name in "abca":  # b is now the one used longest ago
            pool.client(SPECS[name]).start()
        assert pool.evict_idle(2) == [SPECS["b"]]
        assert list(pool.clients) == [SPECS["c"], SPECS["a"]]
        assert made["b"].sent[-1]["type"] == "quit" and not made["b"].alive
        assert made["a"].alive and made["c"].alive
        assert pool.evict_idle(5) == []


def test_kill_all_ends_every_process_without_the_quit_handshake():
    pool, made = _pool()
    for name in "ab":
        pool.client(SPECS[name]).start()
    pool.kill_all()
    assert pool.clients == {}
    assert all(not t.alive and t.sent[-1]["type"] == "hello" for t in made.values())


def test_close_quits_every_process():
    pool, made = _pool()
    with pool:
        for name in "ab":
            pool.client(SPECS[name]).start()
    assert pool.clients == {}
    assert all(not t.alive and t.sent[-1]["type"] == "quit" for t in made.values())


def test_both_transports_have_the_whole_declared_interface():
    members = {name for name in vars(Transport) if not name.startswith("_")}
    assert {"write", "write_some", "read_line", "pending", "close", "alive", "pid"} <= members
    for cls in (PipeTransport, FakeTransport):
        missing = [name for name in members if not hasattr(cls, name)]
        assert not missing, f"{cls.__name__} lacks {missing}"
