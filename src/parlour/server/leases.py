"""A table's lease in Redis (many processes: :mod:`parlour.server.cluster`): the scripts that
take, renew and give back leases, and a lease as its owner holds it.

A lease is ``<prefix>lease:<table>`` = ``<node>:<token>``, set with NX and an expiry; taking
one draws a fencing token (``<prefix>fence:<table>``) that every store write of the table
carries.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

ACQUIRE = """
local holder = redis.call('GET', KEYS[1])
if holder then return {0, holder, redis.call('PTTL', KEYS[1])} end
local n = redis.call('INCR', KEYS[2])
local t = redis.call('TIME')
local floor = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if n < floor then
  n = floor
  redis.call('SET', KEYS[2], string.format('%d', n))
end
redis.call('PEXPIRE', KEYS[2], 86400000)
local value = ARGV[1] .. ':' .. string.format('%d', n)
redis.call('SET', KEYS[1], value, 'PX', ARGV[2])
return {1, value}
"""
"""Take a free lease: ``{1, value}`` with a new fencing token, or ``{0, holder, ms}`` (``ms``:
how long the holder's lease has left). The token
counter is kept a day (a token is never below Redis's clock in ms, so it still grows after the
counter is gone)."""

RENEW = """
local out = {}
for i = 1, #KEYS / 2 do
  local key, value = KEYS[2 * i - 1], ARGV[i + 1]
  local cur = redis.call('GET', key)
  if cur == value then
    redis.call('PEXPIRE', key, ARGV[1])
    out[i] = 1
  elseif not cur then
    local drawn = redis.call('GET', KEYS[2 * i])
    local token = string.match(value, ':(%d+)$')
    if (not drawn) or drawn == token then
      redis.call('SET', key, value, 'PX', ARGV[1])
      if not drawn then
        redis.call('SET', KEYS[2 * i], token, 'PX', 86400000)
      end
      out[i] = 2
    else
      out[i] = 0
    end
  else
    out[i] = 0
  end
end
return out
"""
"""Renew the leases held as ``ARGV[2…]`` for ``ARGV[1]`` ms, in one command a renewal round;
``KEYS`` are each table's lease and fence keys, in pairs. For each: 1 if renewed, 2 if it had
lapsed and its token is still the latest drawn (taken back; also after Redis lost every key,
and then its token is the counter again, so the next one drawn is newer even within the same
millisecond), 0
if lost: held by another process, or lapsed after another drew a newer token (taking it back
then would point the others at a process whose writes the store refuses)."""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass
class Lease:
    """A lease this process holds: its value in Redis (``node:token``) and fencing token."""

    value: str

    @property
    def token(self) -> int:
        return int(self.value.rsplit(":", 1)[1])


def node_of(value: str) -> str:
    return value.rsplit(":", 1)[0]


def retry_in(left: list[Any], deadline: float) -> float:
    """Seconds to wait before trying again to take a lease whose holder is gone: until it
    lapses (``left``: what ACQUIRE said it has left, in ms), with a little jitter, and not past
    ``deadline`` (``time.monotonic()``). Not a poll every few ms: hundreds of a dead process's
    tables wait at once, and their polling filled the pool of Redis connections, which then
    refused every move for a while."""
    lapses = int(left[0]) / 1000 if left and int(left[0]) > 0 else 0.0
    wait = max(0.05, lapses + random.uniform(0.0, 0.05))
    return max(0.0, min(wait, deadline - time.monotonic()))
