"""`cclab.run` and `cclab.algorithms`: the CLI's `run` and `list` as Python calls."""

from __future__ import annotations

import json
import subprocess
import threading
from pathlib import Path

import pandas as pd
import pytest

import cclab


def without_wall_clock(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k != "wall_time_s"}


def test_run_gives_summary_flows_and_series():
    r = cclab.run(cc=["cubic", "bbr"], rate="10mbit", rtt="40ms", duration="5s", seed=1)
    assert [f["cc"] for f in r.summary["flows"]] == ["cubic", "bbr"]
    assert list(r.flows["cc"]) == ["cubic", "bbr"]
    assert "rtt_ms.mean" in r.flows.columns
    # Two flows sharing 10 Mbit/s cannot deliver more than the link carries.
    assert r.flows["goodput_bps"].sum() <= 10e6
    # 5 s sampled every 100 ms: 50 samples per flow, 50 of the link.
    assert len(r.timeseries) == 2 * 50 and sorted(r.timeseries["flow"].unique()) == [0, 1]
    assert len(r.link) == 50
    assert {"time", "cwnd", "rtt", "goodput"} <= set(r.timeseries.columns)
    assert "seed = 1" in r.scenario_toml


def test_results_equal_the_cli_files(cclab_bin, tmp_path):
    """The same scenario and seed through the CLI and through Python: the same summary (but
    the wall-clock time), and DataFrames equal to the CLI's CSV files read by pandas."""
    out = tmp_path / "cli"
    args = ["run", "--cc", "reno,cubic", "--rate", "20mbit", "--rtt", "50ms", "--duration", "6s", "--seed", "3", "--loss", "0.5%", "--out", str(out), "-q"]
    subprocess.run([cclab_bin, *args], check=True, capture_output=True)
    r = cclab.run(cc=["reno", "cubic"], rate="20mbit", rtt="50ms", duration="6s", seed=3, loss="0.5%")
    cli_summary = json.loads((out / "summary.json").read_text())
    assert without_wall_clock(r.summary) == without_wall_clock(cli_summary)
    pd.testing.assert_frame_equal(r.timeseries, pd.read_csv(out / "timeseries.csv"))
    pd.testing.assert_frame_equal(r.link, pd.read_csv(out / "link.csv"))
    assert r.scenario_toml == (out / "scenario.toml").read_text()


def test_out_writes_the_cli_files_which_cclab_plot_reads(cclab_bin, tmp_path):
    out = tmp_path / "py"
    r = cclab.run(cc="reno", rate="10mbit", duration="3s", out=out)
    assert {p.name for p in out.iterdir()} >= {"summary.json", "timeseries.csv", "link.csv", "scenario.toml"}
    assert without_wall_clock(json.loads((out / "summary.json").read_text())) == without_wall_clock(r.summary)
    subprocess.run([cclab_bin, "plot", str(out)], check=True, capture_output=True)
    assert (out / "report.html").exists()


def test_same_seed_same_figures_other_seed_other_figures():
    kw = dict(cc="reno", rate="10mbit", rtt="30ms", duration="5s", loss="1%")
    a, b, c = cclab.run(seed=5, **kw), cclab.run(seed=5, **kw), cclab.run(seed=6, **kw)
    assert without_wall_clock(a.summary) == without_wall_clock(b.summary)
    pd.testing.assert_frame_equal(a.timeseries, b.timeseries)
    # 1 % random loss: the two seeds lose different packets.
    assert a.summary["flows"][0]["retransmits"] != c.summary["flows"][0]["retransmits"]


def test_scenario_from_a_dict_or_a_file_with_keywords_over_it(tmp_path):
    d = {"duration": "3s", "link": {"rate": "10mbit"}, "flows": [{"cc": "reno"}, {"cc": {"algorithm": "cubic", "beta": 0.8}}]}
    r = cclab.run(d)
    assert r.summary["link"]["capacity_bps"] == 10e6
    assert list(r.flows["cc"]) == ["reno", "cubic"]
    f = tmp_path / "s.toml"
    f.write_text('duration = "3s"\n[link]\nrate = "10mbit"\n[[flows]]\ncc = "reno"\n')
    assert cclab.run(f).summary["link"]["capacity_bps"] == 10e6
    # A keyword overrides the file, as a flag does on the command line.
    assert cclab.run(str(f), rate="20mbit").summary["link"]["capacity_bps"] == 20e6


@pytest.mark.parametrize(
    "call, names",
    [
        (lambda: cclab.run(cc="reno", rate="40furlongs"), "rate: "),
        (lambda: cclab.run(cc="reno", min_rto="soon"), "min_rto: "),
        (lambda: cclab.run(cc="nosuchcc"), "cc: "),
        (lambda: cclab.run(cc="reno", rate=40e6), "rate: "),
        (lambda: cclab.run(cc=[1, 2]), "cc: "),
        (lambda: cclab.run(rate="10mbit"), "cc: "),
        (lambda: cclab.run({"link": {"rat": "10mbit"}, "flows": [{"cc": "reno"}]}), "link.rat: unknown field `rat`"),
        (lambda: cclab.run({"flows": [{"cc": {"algorithm": "cubic", "beta": "x"}}]}), "flows[0].cc"),
        (lambda: cclab.run("/nonexistent/scenario.toml"), "cannot read the scenario"),
        (lambda: cclab.run(cc="reno", startup="fast"), "startup: unknown start-up"),
        (lambda: cclab.run(cc="bbr", startup="paced-chirping"), "startup: `paced-chirping` needs a window-based controller"),
        (lambda: cclab.run(cc="reno", receiver="ack-division"), "receiver: split: missing"),
        (lambda: cclab.run(cc="reno", defences=["abc", "magic"]), "defences: unknown defence `magic`"),
        (lambda: cclab.run(cc="reno", defences=3), "defences: give"),
        (lambda: cclab.run(cc="reno", app_rate=10), "app_rate: give a string with its unit"),
        (lambda: cclab.run(cc="udt", app_rate="1mbit"), "app_rate: only a TCP flow takes an application rate"),
        (lambda: cclab.run(cc="reno", rtt="40ms", access_delay="30ms"), "access_delay: 30ms is more than the forward half of the RTT"),
    ],
)
def test_bad_input_is_a_value_error_naming_the_key(call, names):
    with pytest.raises(ValueError) as e:
        call()
    assert names in str(e.value)
    assert "\n" not in str(e.value)


def test_a_run_releases_the_gil():
    """While a simulation runs in one thread, another keeps running Python: with the GIL held
    for the whole run, the counter below could not move until the run ended."""
    done = threading.Event()
    worker = threading.Thread(target=lambda: (cclab.run(cc="cubic", rate="200mbit", rtt="50ms", duration="20s"), done.set()))
    ticks = 0
    worker.start()
    while not done.is_set() and worker.is_alive():
        ticks += 1
    worker.join()
    assert done.is_set()
    # Python's switch interval is 5 ms; a run of this size takes far longer than a few of
    # them, so a released GIL lets this loop spin thousands of times.
    assert ticks > 1000


def test_algorithms_lists_every_algorithm_with_parameters():
    a = cclab.algorithms()
    assert {"name", "family", "transport", "source", "summary", "parameters"} <= set(a.columns)
    names = set(a["name"])
    # The seeds' algorithms and protocols (seed 002's TCP list, 001's SABUL, UDT, TFRC).
    assert {"tahoe", "reno", "newreno", "cubic", "bbr", "vegas", "sabul", "udt", "tfrc"} <= names
    cubic = a.set_index("name").loc["cubic"]
    assert cubic["transport"] == "tcp" and isinstance(cubic["parameters"], dict) and "beta" in cubic["parameters"]


def test_plot_draws_cwnd_throughput_and_queue():
    fig = cclab.run(cc=["reno", "bbr"], rate="10mbit", duration="3s").plot()
    axes = fig.get_axes()
    assert [ax.get_ylabel() for ax in axes] == ["cwnd (segments)", "goodput (Mbit/s)", "queueing delay (ms)"]
    assert len(axes[0].get_lines()) == 2


def test_startup_receiver_and_defences_keywords_are_the_cli_flags(cclab_bin, tmp_path):
    """The keywords give the same run as the CLI's --startup, --receiver, --defences,
    --handshake and --no-syn-rtt-sample."""
    kw = dict(cc="reno", rate="20mbit", rtt="40ms", duration="3s")
    flags = ["--cc", "reno", "--rate", "20mbit", "--rtt", "40ms", "--duration", "3s", "--quiet"]
    cases = [
        (dict(startup="paced-chirping"), ["--startup", "paced-chirping"]),
        (dict(receiver="ack-division:10", defences=["abc", "nonce"]), ["--receiver", "ack-division:10", "--defences", "abc,nonce"]),
        (dict(handshake=True), ["--handshake"]),
        (dict(syn_rtt_sample=False, loss="100%"), ["--no-syn-rtt-sample", "--loss", "100%"]),
        (dict(app_rate="5mbit"), ["--app-rate", "5mbit"]),
        (dict(access_delay="10ms"), ["--access-delay", "10ms"]),
        (dict(send_overhead="40us"), ["--send-overhead", "40us"]),
    ]
    for k, (keywords, cli_flags) in enumerate(cases):
        r = cclab.run(**kw, **keywords)
        out = tmp_path / f"cli-{k}"
        subprocess.run([cclab_bin, "run", *flags, *cli_flags, "--out", str(out)], check=True, capture_output=True)
        cli = json.loads((out / "summary.json").read_text())
        assert without_wall_clock(r.summary) == without_wall_clock(cli)
    assert "chirping" in set(cclab.run(**kw, startup="paced-chirping").timeseries["state"])
    # With the handshake the first data waits one 40 ms round trip: the first sample (100 ms)
    # has delivered a round's worth less.
    first = lambda r: r.timeseries["delivered_bytes"].iloc[0]
    assert first(cclab.run(**kw, handshake=True)) < first(cclab.run(**kw))
    assert "handshake = true" in cclab.run(**kw, handshake=True).scenario_toml
    # With no SYN sample and nothing answered, the first timeout waits RFC 6298's initial 1 s.
    rto = cclab.run(**kw, syn_rtt_sample=False, loss="100%").timeseries["rto"].iloc[0]
    assert rto == 1000.0
    # An application writing 5 Mbit/s on a 20 Mbit/s link: the flow delivers what it writes,
    # one 1448-byte segment every 2.3 ms, to within two segments over the last 2 s.
    ts = cclab.run(**kw, app_rate="5mbit").timeseries.set_index("time")["delivered_bytes"]
    assert abs((ts[3.0] - ts[1.0]) * 8 / 2.0 - 5e6) <= 2 * 1448 * 8 / 2.0


def test_experiment_verdicts_equal_the_cli_files(cclab_bin, tmp_path):
    """`cclab.experiment` runs what `cclab experiment run` runs: the same verdicts (read by
    pandas from the CLI's verdicts.csv) and tables, and the same files."""
    cli = tmp_path / "cli"
    subprocess.run([cclab_bin, "experiment", "run", "mathis", "--fast", "--quiet", "--out", str(cli)], check=True, capture_output=True)
    e = cclab.experiment("mathis", fast=True, out=tmp_path / "py")
    assert e.name == "mathis" and Path(e.report).is_file()
    want = pd.read_csv(cli / "verdicts.csv", dtype=str, keep_default_na=False)
    got = e.verdicts.astype(str)
    assert list(got.columns) == list(want.columns)
    assert got.to_dict("records") == want.to_dict("records")
    assert set(e.verdicts["verdict"]) <= set(cclab._experiment.VERDICTS)
    holds, judged = e.tally()
    assert 0 <= holds <= judged == int(e.verdicts["verdict"].isin(["holds", "does not hold", "not settled"]).sum())
    for title, frame in e.tables.items():
        assert len(frame) > 0, title
    assert "mathis" in set(cclab.experiments()["name"])


def test_experiment_errors_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match="unknown experiment `nope`; allowed: .*mathis"):
        cclab.experiment("nope", out=tmp_path / "x")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep")
    with pytest.raises(ValueError, match="out"):
        cclab.experiment("mathis", fast=True, out=tmp_path / "mine")
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep"
