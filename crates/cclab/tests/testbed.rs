//! `cclab testbed run` and `cclab twin` end to end (they need root; under CI, which runs as
//! root, they never skip). Each run makes its own namespaces and removes them.

use std::process::Command;

fn cclab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cclab"))
}

fn can_run() -> bool {
    if testbed::netns::has_net_admin() {
        return true;
    }
    assert!(std::env::var_os("CI").is_none(), "CI runs as root: the testbed tests must not skip there");
    eprintln!("skipped: the testbed tests need root (CAP_NET_ADMIN)");
    false
}

/// Reno on 20 Mbit/s, 40 ms, a one-BDP buffer, no random loss, 4 s, in both engines. Each
/// engine's goodput lies between 90 % and 100 % of the payload capacity (19.31 Mbit/s; the
/// bound is derived in the testbed crate's `kernel_reno_fills_a_lossless_link`), so their
/// ratio lies within 0.9..1.11 and the twin table must call goodput `agree` (10 %) or at
/// worst `close`; the table has every metric, and both runs' files are written.
#[test]
fn twin_compares_reno_in_both_engines() {
    if !can_run() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("twin");
    let o = cclab()
        .args(["twin", "--cc", "reno", "--rate", "20mbit", "--rtt", "40ms", "--buffer", "1bdp", "--duration", "4s", "--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{stdout}{}", String::from_utf8_lossy(&o.stderr));
    eprintln!("{stdout}");
    for engine in ["sim", "kernel"] {
        for f in ["summary.json", "timeseries.csv", "link.csv", "scenario.toml"] {
            assert!(out.join(engine).join(f).exists(), "{engine}/{f}");
        }
    }
    let csv = std::fs::read_to_string(out.join("twin.csv")).unwrap();
    for metric in ["throughput", "goodput", "retransmissions", "timeouts", "cwnd mean", "slow-start exit", "queueing delay mean"] {
        assert!(csv.lines().any(|l| l.starts_with(metric)), "{metric} missing: {csv}");
    }
    let goodput = csv.lines().find(|l| l.starts_with("goodput,")).unwrap();
    let ratio: f64 = goodput.split(',').nth(3).unwrap().parse().unwrap();
    assert!((0.9..=1.0 / 0.9).contains(&ratio), "{goodput}");
}

#[test]
fn testbed_run_rejects_what_the_kernel_cannot_do() {
    // These errors come before any namespace is made, so they need no root.
    let o = cclab().args(["testbed", "run", "--cc", "udt", "--duration", "1s"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("datagram") && err.lines().count() == 1, "{err}");
    let o = cclab().args(["testbed", "run"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    if testbed::netns::has_net_admin() {
        let o = cclab().args(["testbed", "run", "--cc", "no-such-cc", "--duration", "1s"]).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.code() == Some(2) && err.contains("available: ") && err.contains("reno"), "{err}");
    }
}
