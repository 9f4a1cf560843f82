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
        .arg("--pcap")
        .arg(dir.path().join("kernel.pcap"))
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

    // The capture at the emulator's sender side holds every data segment the kernel sent:
    // TCP_INFO's data_segs_out, give or take what left between its last read and the close.
    let summary: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("kernel/summary.json")).unwrap()).unwrap();
    let segments = summary["flows"][0]["segments_sent"].as_u64().unwrap() as f64;
    let file = std::fs::File::open(dir.path().join("kernel.pcap")).unwrap();
    let mut reader = pcap_file::pcap::PcapReader::new(file).unwrap();
    let mut data = 0.0;
    while let Some(p) = reader.next_packet() {
        let p = p.unwrap();
        // Ethernet + IPv4 (20) + TCP with timestamps (32): longer frames carry payload.
        let f = &p.data;
        if f.len() >= 38 && f[23] == 6 && u16::from_be_bytes([f[36], f[37]]) == 50_000 && p.orig_len > 14 + 52 {
            data += 1.0;
        }
    }
    assert!((data - segments).abs() <= (0.01 * segments).max(10.0), "{data} frames vs {segments} segments");
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

/// Without CAP_NET_ADMIN (dropped with util-linux's setpriv) the command says so in one line.
#[test]
fn testbed_run_without_net_admin_says_so() {
    if !can_run() {
        return;
    }
    let o = Command::new("setpriv")
        .args(["--bounding-set", "-net_admin", "--inh-caps", "-net_admin", env!("CARGO_BIN_EXE_cclab")])
        .args(["testbed", "run", "--cc", "reno", "--duration", "1s"])
        .output()
        .expect("setpriv (util-linux) runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("CAP_NET_ADMIN") && err.trim().lines().count() == 1, "{err}");
}
