"""Per-client-address rate limits (token buckets), kept in a bounded map.

The address is the socket's peer (``request.client.host``); uvicorn rewrites it from
``X-Forwarded-For`` only for proxies listed in ``Settings.trusted_proxies``
(:func:`parlour.server.run.uvicorn_options`).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict


class AddressLimiter:
    """A token bucket per address: ``per_min`` tokens a minute, at most ``burst`` saved up.

    At most ``most`` addresses are remembered (least recently seen forgotten first: an address
    not seen for ``burst / per_min`` minutes has a full bucket anyway, so forgetting it changes
    nothing unless ``most`` addresses were seen in that time).

    >>> limiter = AddressLimiter(per_min=60, burst=2)
    >>> [limiter.take("192.0.2.1") == 0 for _ in range(3)]
    [True, True, False]
    >>> limiter.take("192.0.2.2")
    0.0
    """

    def __init__(self, per_min: float, burst: int, most: int = 100_000) -> None:
        self.rate = per_min / 60
        self.burst = burst
        self.most = most
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when

    def take(self, address: str) -> float:
        """Spend one of ``address``'s tokens: 0.0 if there was one, else the seconds until
        there is one (nothing is spent)."""
        now = time.monotonic()
        tokens, at = self._buckets.pop(address, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) * self.rate)
        wait = 0.0
        if tokens >= 1:
            tokens -= 1
        else:
            wait = (1 - tokens) / self.rate
        self._buckets[address] = (tokens, now)
        while len(self._buckets) > self.most:
            self._buckets.popitem(last=False)
        return wait

    @staticmethod
    def retry_after(wait_s: float) -> str:
        """A ``Retry-After`` value (whole seconds, at least 1) for a wait of ``wait_s``.

        >>> AddressLimiter.retry_after(0.2)
        '1'
        """
        return str(max(1, math.ceil(wait_s)))
