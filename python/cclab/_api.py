"""`cclab.run` and `cclab.algorithms`: the command line's `run` and `list` as Python calls."""

from __future__ import annotations

import json
import os
from typing import Any, Mapping, Sequence, Union

import pandas as pd

from . import _native
from ._result import Result

Scenario = Union[str, "os.PathLike[str]", Mapping[str, Any], None]

# Keyword arguments that take a value with a unit, as the CLI's flags do, with an example each.
_UNIT_KEYWORDS = {
    "rate": "'40mbit'",
    "rtt": "'100ms'",
    "duration": "'60s'",
    "loss": "'1%'",
    "netem": "'delay 10ms loss 0.1%'",
    "netem_reverse": "'delay 5ms'",
    "buffer": "'1bdp', '100pkts' or '150KB'",
    "queue": "'droptail', 'red', 'codel' or 'step'",
    "trace_down": "'traces/Verizon-LTE-short.down'",
    "stagger": "'10s'",
    "rwnd": "'64KB'",
    "min_rto": "'200ms'",
    "access_rate": "'100mbit'",
    "access_delay": "'25ms'",
    "send_overhead": "'40us'",
    "app_rate": "'10mbit'",
    "interval": "'100ms'",
    "cbr_rate": "'50mbit'",
}
_INT_KEYWORDS = ("flows", "seed", "mss", "iw")
# Keyword arguments that take a name (and for the receiver a number), as the CLI's flags do.
_NAME_KEYWORDS = {
    "startup": "'controller' or 'paced-chirping'",
    "receiver": "'ack-division:10', 'dup-ack-spoofing:1', 'optimistic-ack:20' or 'honest'",
    "defences": "'abc,nonce' (those on, the others off), ['abc', 'nonce'], 'none' or 'all'",
}


def _flags(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments as the CLI's flags (`RunArgs`), checked for type."""
    flags: dict[str, Any] = {}
    for name, value in kwargs.items():
        if value is None:
            continue
        if name == "cc":
            if isinstance(value, str):
                flags["cc"] = value
            elif isinstance(value, Sequence) and value and all(isinstance(v, str) for v in value):
                flags["cc"] = ",".join(value)
            else:
                raise ValueError("cc: give an algorithm name or a list of them, e.g. 'cubic' or ['cubic', 'bbr']")
        elif name in _UNIT_KEYWORDS:
            if isinstance(value, os.PathLike):
                value = os.fspath(value)
            if not isinstance(value, str):
                raise ValueError(f"{name}: give a string with its unit, e.g. {_UNIT_KEYWORDS[name]}")
            flags[name] = value
        elif name in _NAME_KEYWORDS:
            if name == "defences" and isinstance(value, Sequence) and not isinstance(value, str):
                if not value or not all(isinstance(v, str) for v in value):
                    raise ValueError(f"defences: give {_NAME_KEYWORDS[name]}")
                value = ",".join(value)
            if not isinstance(value, str):
                raise ValueError(f"{name}: give {_NAME_KEYWORDS[name]}")
            flags[name] = value
        elif name in _INT_KEYWORDS:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name}: give a non-negative integer")
            flags[name] = value
        elif name in ("sack", "prr", "tlp", "syn_rtt_sample"):
            flags["no_" + name] = not bool(value)
        else:
            flags[name] = bool(value)
    return flags


def run(
    scenario: Scenario = None,
    *,
    cc: str | Sequence[str] | None = None,
    flows: int | None = None,
    rate: str | None = None,
    rtt: str | None = None,
    duration: str | None = None,
    loss: str | None = None,
    netem: str | None = None,
    netem_reverse: str | None = None,
    buffer: str | None = None,
    queue: str | None = None,
    trace_down: str | os.PathLike[str] | None = None,
    ecn: bool = False,
    seed: int | None = None,
    stagger: str | None = None,
    mss: int | None = None,
    sack: bool = True,
    prr: bool = True,
    tlp: bool = True,
    delayed_ack: bool = False,
    handshake: bool = False,
    syn_rtt_sample: bool = True,
    pacing: bool = False,
    startup: str | None = None,
    receiver: str | None = None,
    defences: str | Sequence[str] | None = None,
    rwnd: str | None = None,
    iw: int | None = None,
    min_rto: str | None = None,
    access_rate: str | None = None,
    access_delay: str | None = None,
    send_overhead: str | None = None,
    app_rate: str | None = None,
    interval: str | None = None,
    cbr_rate: str | None = None,
    out: str | os.PathLike[str] | None = None,
) -> Result:
    """Simulate one scenario and return its results.

    ``scenario`` is a scenario file (TOML, as ``cclab run scenario.toml`` reads), a dict with
    the same keys (``{"link": {"rate": "10mbit"}, "flows": [{"cc": "reno"}]}``), or None. The
    keyword arguments are ``cclab run``'s flags (``--min-rto`` is ``min_rto``, ``--no-sack`` is
    ``sack=False``, ``--no-prr`` ``prr=False``, ``--no-tlp`` ``tlp=False``) and override what the scenario says, as the flags override a file:

    - ``cc``: the algorithms, a name or a list; flows take them in turn (``cclab.algorithms()``).
    - ``flows``: the number of flows (default one per algorithm given).
    - ``rate``, ``rtt``, ``duration``, ``buffer``, ``queue``, ``loss``, ``netem``, ...: strings
      with units, as on the command line (``"40mbit"``, ``"100ms"``, ``"1bdp"``, ``"1%"``).
    - ``seed``: the run's seed. The same scenario and seed give the same figures.
    - ``handshake``: TCP's three-way handshake, data starting one base RTT after each flow
      (as a kernel's ``connect()``; compare with the testbed with it on).
    - ``syn_rtt_sample``: the SYN exchange's RTT sample seeds each TCP sender's estimator
      (RFC 6298 §2.2; ``False`` is ``--no-syn-rtt-sample``: no sample, a 1 s initial RTO).
    - ``startup``: how window-based flows start, ``"controller"`` (their own slow start,
      HyStart or STARTUP) or ``"paced-chirping"`` (Misund & Briscoe 2019).
    - ``receiver``: a misbehaving receiver on every TCP flow (Savage et al. 1999),
      ``"ack-division:10"``, ``"dup-ack-spoofing:1"``, ``"optimistic-ack:20"`` or ``"honest"``;
      ``defences``: the sender's defences to turn on, the others off, ``"abc,nonce"`` or a list
      of ``abc``, ``new_data_only``, ``dupack_limit``, ``nonce``, or ``"none"``, ``"all"``.
    - ``app_rate``: each TCP flow's application writes at this rate, as iperf3's ``-b``
      (``"10mbit"``; default: it always has data).
    - ``send_overhead``: the senders' phase randomiser, a wait uniform on [0, T] before
      sending what an ACK releases (``"40us"``, about a Linux host's; default one packet time
      at the bottleneck; ``"0s"`` turns it off).
    - ``out``: also write ``summary.json``, ``timeseries.csv``, ``link.csv`` and
      ``scenario.toml`` there, as ``cclab run --out`` does (``cclab plot`` reads them).

    Raises ``ValueError`` naming the key and what it allows when the scenario is wrong. The
    simulation runs without the GIL, so threads can run several at once.
    """
    given = dict(locals())
    for key in ("scenario", "out"):
        given.pop(key)
    flags = _flags(given)
    scenario_file = scenario_json = None
    if isinstance(scenario, (str, os.PathLike)):
        scenario_file = os.fspath(scenario)
    elif isinstance(scenario, Mapping):
        scenario_json = json.dumps(scenario)
    elif scenario is not None:
        raise ValueError("scenario: give a scenario file's path or a dict of its keys")
    summary, scenario_toml, timeseries, link = _native.run_scenario(
        scenario_file, scenario_json, json.dumps(flags), None if out is None else os.fspath(out)
    )
    return Result(json.loads(summary), scenario_toml, timeseries, link)


def algorithms() -> pd.DataFrame:
    """Every algorithm and datagram protocol: name, family, transport (tcp or udp), source,
    summary, and its parameters with their defaults (a dict, settable in a scenario as
    ``{"cc": {"algorithm": "cubic", "beta": 0.8}}``). The same list as ``cclab list``."""
    return pd.DataFrame(json.loads(_native.algorithms_json()))
