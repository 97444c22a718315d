"""Relayed connections (many processes): the round trip credited to a seat (N9) is the one
measured where its socket is, never the hops between the processes, and a relayed input is dated
when it reached the process holding the socket."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import Any

from parlour.core.race import measured_rtt
from parlour.server.protocol import ProtocolError
from parlour.server.relay import RemoteSocket
from parlour.server.rooms import Connection
from parlour.server.roundtrip import RoundTrips
from parlour.server.settings import Settings


def test_N9_a_relayed_seat_is_credited_the_round_trip_measured_where_its_socket_is() -> None:
    settings = Settings()
    trips = RoundTrips(settings)
    conn = Connection(0)
    conn.relay = SimpleNamespace(rtts={}, kernel_ms=(12.0, 15.0))

    async def main() -> None:
        trips.ping(conn, 1)
        probe = conn.queue.get_nowait()
        assert probe is not None
        conn.relay.rtts[probe["nonce"]] = 40.0  # measured by the process holding the socket
        await asyncio.sleep(0.2)  # the hops between the processes: never credited
        trips.pong(conn, probe["nonce"])

    asyncio.run(main())
    assert trips.rtt[0] == 40.0
    assert trips.kernel([conn]) == 12.0
    assert trips.measured(0, [conn]) == measured_rtt(40.0, 12.0, settings.rtt_default_ms)


def test_a_relayed_message_is_dated_when_it_reached_the_holding_process() -> None:
    remote = RemoteSocket(hub=None, node="n", cid="c", table_id="t")  # type: ignore[arg-type]

    async def main() -> dict[str, Any]:
        remote.put({"x": '{"v":1,"type":"pong","nonce":3}', "at": time.time() - 0.5, "n": 3,
                    "rtt": 20.0, "kr": [5.0, 6.0]})  # fmt: skip
        return await remote.receive()

    got = asyncio.run(main())
    assert got["type"] == "websocket.receive" and got["text"].startswith('{"v":1')
    assert 0.45 < time.monotonic() - got["received"] < 1.5
    assert remote.rtts == {3: 20.0} and remote.kernel_ms == (5.0, 6.0)
    assert remote.path_params == {"table_id": "t"}


def test_N9_probes_nonces_cannot_be_guessed_and_a_guessed_answer_is_refused() -> None:
    """A probe's nonce starts at random per table (not at 1), so a client cannot answer a probe
    it never received; an answer to no probe is refused."""
    firsts = []
    for _ in range(3):
        trips, conn = RoundTrips(Settings()), Connection(0)
        trips.ping(conn, 1)
        trips.ping(conn, 1)
        nonces = [conn.queue.get_nowait()["nonce"] for _ in range(2)]
        assert nonces[1] == nonces[0] + 1 and 2**32 <= nonces[0] < 2**52
        firsts.append(nonces[0])
        for guess in (1, 2, nonces[1] + 1):
            try:
                trips.pong(conn, guess)
            except ProtocolError as exc:
                assert exc.code == "bad_message"
            else:
                raise AssertionError(f"the made-up nonce {guess} was taken")
    assert len(set(firsts)) == 3
