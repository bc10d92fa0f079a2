"""``--live [HOST:]PORT`` read at the boundary: what it accepts, and the message for what it refuses."""

from __future__ import annotations

import pytest

from referee.live.address import LiveAddress, LiveAddressError, url


@pytest.mark.parametrize(("text", "host", "port"), [
    pytest.param("8000", "127.0.0.1", 8000, id="port-only-is-this-machine"),
    pytest.param("0.0.0.0:8000", "0.0.0.0", 8000, id="every-interface"),
    pytest.param("localhost:0", "localhost", 0, id="any-free-port"),
    pytest.param("[::1]:9000", "::1", 9000, id="ipv6-in-brackets"),
])
def test_accepted(text: str, host: str, port: int) -> None:
    assert LiveAddress.parse(text) == LiveAddress(host, port)


@pytest.mark.parametrize(("text", "words"), [
    pytest.param("http", "'http' is not a whole number", id="not-a-number"),
    pytest.param("70000", "out of range", id="too-big"),
    pytest.param(":8000", "no host", id="empty-host"),
])
def test_refused_with_the_value_and_the_fix(text: str, words: str) -> None:
    with pytest.raises(LiveAddressError) as err:
        LiveAddress.parse(text)
    assert words in str(err.value)
    assert "give" in str(err.value)
    assert err.value.cli_message().startswith("--live")


@pytest.mark.slow
def test_every_interface_prints_an_address_a_browser_can_open() -> None:
    opened = url("0.0.0.0", 8000)
    assert opened.startswith("http://") and opened.endswith(":8000/")
    assert "0.0.0.0" not in opened
    assert url("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
