//! The seeds' experiments in fast mode: each must reproduce the qualitative result its seed
//! reports (who wins, which way a figure moves).

use std::path::Path;
use std::process::Command;

fn run_experiment(name: &str, dir: &Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_cclab"))
        .args(["experiment", "run", name, "--fast", "--quiet", "--out", dir.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(dir.join("results.md").exists());
    String::from_utf8(o.stdout).unwrap()
}

/// Rows of a CSV table written by an experiment.
fn rows(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    r.records().map(|x| x.unwrap().iter().map(String::from).collect()).collect()
}

fn mbit(cell: &str) -> f64 {
    cell.trim_end_matches(" Mbit/s").parse().unwrap()
}

#[test]
fn experiment_list_names_them_all() {
    let o = Command::new(env!("CARGO_BIN_EXE_cclab")).args(["experiment", "list"]).output().unwrap();
    let out = String::from_utf8(o.stdout).unwrap();
    for name in ["sharkfest", "mathis", "sackexp", "vegas-trials", "sabul-table1", "nmap-scaling", "twin", "attacks", "startup"] {
        assert!(out.contains(name), "{out}");
    }
    let bad = Command::new(env!("CARGO_BIN_EXE_cclab")).args(["experiment", "run", "nope"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// Seed 003: without congestion control, SACK keeps the goodput up under random loss where
/// NewReno+SACK halves its window at every loss.
#[test]
fn sackexp_beats_tcp_sack_under_loss() {
    let dir = tempfile::tempdir().unwrap();
    run_experiment("sackexp", dir.path());
    let t = rows(&dir.path().join("sackexp-vs-newreno-sack.csv"));
    let goodput = |p: &str, alg: &str| t.iter().find(|r| r[1] == p && r[2] == alg).map(|r| mbit(&r[4])).unwrap();
    for p in ["0.1 %", "1 %", "20 %"] {
        assert!(goodput(p, "SACKEXP") > goodput(p, "NewReno+SACK"), "p = {p}");
    }
    // Lossless, both fill the 10 Mbit/s bottleneck.
    assert!(goodput("0 %", "SACKEXP") > 9.0 && goodput("0 %", "NewReno+SACK") > 9.0);
}

/// Mathis et al.: Reno's throughput follows MSS/RTT·sqrt(3/2)/sqrt(p) while timeouts are rare.
#[test]
fn mathis_law_holds_at_moderate_loss() {
    let dir = tempfile::tempdir().unwrap();
    run_experiment("mathis", dir.path());
    let t = rows(&dir.path().join("reno-under-random-loss-rtt-100-ms.csv"));
    for r in t.iter().filter(|r| r[0] == "0.2 %" || r[0] == "1 %") {
        let ratio: f64 = r[6].parse().unwrap();
        assert!((0.6..=1.5).contains(&ratio), "{r:?}");
    }
}

/// Seed 004, trial 3 (ACKs delayed 100 ms): every algorithm is far below trial 1's line rate,
/// and mVegas, which leaves slow start for Vegas' predicted window, trails Reno.
#[test]
fn vegas_trials_reproduce_the_seeds_ordering_in_trial_3() {
    let dir = tempfile::tempdir().unwrap();
    run_experiment("vegas-trials", dir.path());
    let mean = |trial: &str, col: usize| {
        let t = rows(&dir.path().join(format!("trial-{trial}.csv")));
        t.iter().find(|r| r[0] == "ave").map(|r| r[col].parse::<f64>().unwrap()).unwrap()
    };
    let (reno1, reno3, mvegas3) = (mean("1-netem-none", 1), mean("3-netem-delay-100ms", 1), mean("3-netem-delay-100ms", 3));
    assert!(reno1 > 250.0, "trial 1 Reno {reno1}");
    assert!(reno3 < 0.1 * reno1, "trial 3 Reno {reno3}");
    assert!(mvegas3 < reno3, "trial 3: mVegas {mvegas3} vs Reno {reno3}");
}

/// Seed 001, Table 1: with one rate-control interval the three SABUL connections get similar
/// rates whatever their RTTs (rows 3-5: 23 ms, 57 ms, and 23 ms against 57 ms); the seed's
/// least even such row has Jain's index 0.98, we ask 0.95.
#[test]
fn sabul_table1_same_interval_rows_are_fair() {
    let dir = tempfile::tempdir().unwrap();
    run_experiment("sabul-table1", dir.path());
    let t = rows(&dir.path().join("table-1-average-sending-rate-of-three-sabul-connections-mb-s.csv"));
    assert_eq!(t.len(), 5);
    for r in &t[2..5] {
        let jain: f64 = r[6].parse().unwrap();
        assert!(jain >= 0.95, "row {}: {} Mb/s, Jain {jain}", r[0], r[4]);
    }
}

/// Seed 002, the talk's qualitative results on its 40 Mbit/s, 100 ms link: Scalable takes more
/// than its share against Reno and Vegas less ("when Vegas is not alone"); under 1 % random loss
/// CUBIC and Reno collapse while BBR keeps most of the link, and at 5 % BBR still gets well over
/// half of it (the talk: 30 Mbit/s).
#[test]
fn sharkfest_reproduces_the_talks_orderings() {
    let dir = tempfile::tempdir().unwrap();
    run_experiment("sharkfest", dir.path());
    assert!(dir.path().join("report.html").exists());
    let t = rows(&dir.path().join("the-talk-s-tests-one-row-per-algorithm-40-mbit-s-100-ms-1-bdp.csv"));
    let cell = |alg: &str, col: usize| t.iter().find(|r| r[0] == alg).map(|r| r[col].clone()).unwrap();
    let share = |alg: &str| cell(alg, 5).parse::<f64>().unwrap();
    assert!(share("scalable") > 0.5, "Scalable vs Reno: {}", share("scalable"));
    assert!(share("vegas") < 0.5, "Vegas vs Reno: {}", share("vegas"));
    let lossy = |alg: &str| mbit(&cell(alg, 7));
    for loser in ["reno", "cubic"] {
        assert!(lossy("bbr") > 5.0 * lossy(loser), "1 % loss: BBR {} vs {loser} {}", lossy("bbr"), lossy(loser));
    }
    assert!(lossy("bbr") > 0.6 * 40.0, "BBR at 1 %: {}", lossy("bbr"));
    let b = rows(&dir.path().join("bbr-under-random-loss-alone-60-s.csv"));
    let at5 = b.iter().find(|r| r[0] == "5 %").map(|r| mbit(&r[1])).unwrap();
    assert!(at5 > 20.0, "BBR at 5 %: {at5} Mbit/s");
}

/// Savage et al. (CCR 1999): against the undefended Reno sender, ACK division, one spoofed
/// duplicate per ACK and optimistic ACKs each win the attacker throughput over the honest flow
/// (the unit and simulator tests, `crates/sim/tests/attacks.rs`, derive by how much); with the
/// defences on no attacker on a Reno or CUBIC sender gains more than 10 % over the honest
/// baseline (the bound), and optimistic ACKing costs the attacker data.
#[test]
fn attacks_win_against_undefended_reno_and_defences_remove_the_gain() {
    let dir = tempfile::tempdir().unwrap();
    run_experiment("attacks", dir.path());
    assert!(dir.path().join("report.html").exists());
    let t = rows(&dir.path().join("attacker-vs-honest-flow.csv"));
    let row = |cc: &str, attack: &str, d: &str| t.iter().find(|r| r[0] == cc && r[1] == attack && r[2] == d).unwrap().clone();
    let pct = |cell: &str| cell.trim_end_matches(" %").parse::<f64>().unwrap() / 100.0;
    for attack in ["ack-division 10", "dup-ack-spoofing 1", "optimistic-ack 20"] {
        let r = row("reno", attack, "off");
        assert!(pct(&r[7]) > 0.10, "{attack}, undefended: {r:?}");
        assert_eq!(r[11], "holds", "{r:?}");
    }
    for cc in ["reno", "cubic"] {
        for r in t.iter().filter(|r| r[0] == cc && r[2] == "on") {
            assert!(pct(&r[7]) <= 0.10, "{r:?}");
        }
    }
    assert_ne!(row("reno", "optimistic-ack 20", "off")[10], "0");
}

/// Seed 000: the response-rate-scaled group window (scaled-2007) makes each of the three scans
/// faster than the unscaled one, the 500-address scan by the largest margin (the seed: 1.98×,
/// 1.16×, 1.25×); `crates/sim/tests/scan.rs` checks the same on the model and says which of it
/// was fitted. Here: the experiment's table says so.
#[test]
fn nmap_scaling_makes_every_scan_faster_and_the_smallest_the_most() {
    let dir = tempfile::tempdir().unwrap();
    run_experiment("nmap-scaling", dir.path());
    let t = rows(&dir.path().join("scan-time-ours-beside-the-seed-s.csv"));
    assert_eq!(t.len(), 3);
    let secs = |c: &str| c.trim_end_matches(" s").parse::<f64>().unwrap();
    let speedup = |r: &Vec<String>| secs(&r[3]) / secs(&r[4]);
    for r in &t {
        assert!(speedup(r) > 1.0, "{} addresses: scaled-2007 {} vs unscaled {}", r[0], r[4], r[3]);
    }
    assert!(speedup(&t[0]) > speedup(&t[1]) && speedup(&t[0]) > speedup(&t[2]), "{t:?}");
}

/// Misund & Briscoe 2019: paced chirping overshoots the queue less than slow start. Theory: in
/// the round after slow start fills the pipe it sends up to a BDP more, at the access link's rate,
/// so a one-BDP buffer fills (about one RTT of queueing delay, with drops); a chirp leaves only
/// after a guard interval has drained the queue and adds fewer than its 16 packets, and the
/// transition after the chirps paces at the estimate. Where the buffer (one BDP) holds several
/// chirps (100 Mbit/s: 166 and 416 packets at 20 and 50 ms), chirping's largest queueing delay
/// must be below slow start's, by more than the 16 packets (1.9 ms) a chirp may add, and it
/// must drop nothing while slow start drops. At 10 Mbit/s a BDP (17, 41 packets) is about a
/// chirp, so theory gives no direction there. Both reach 90 % of the link, chirping within 4
/// RTTs of slow start (its first three rounds hold two chirps each).
#[test]
fn paced_chirping_overshoots_the_queue_less_than_slow_start() {
    let dir = tempfile::tempdir().unwrap();
    run_experiment("startup", dir.path());
    assert!(dir.path().join("report.html").exists());
    let t = rows(&dir.path().join("start-up-alone-on-a-one-bdp-buffer.csv"));
    let row = |rtt: &str, s: &str| t.iter().find(|r| r[0] == "100 Mbit/s" && r[1] == rtt && r[2] == s).unwrap().clone();
    let ms = |c: &str| c.trim_end_matches(" ms").parse::<f64>().unwrap();
    for rtt in ["20 ms", "50 ms"] {
        let (ss, pc) = (row(rtt, "slow start"), row(rtt, "paced chirping"));
        assert!(ms(&pc[5]) + 16.0 * 1500.0 * 8.0 / 100e6 * 1e3 < ms(&ss[5]), "{rtt}: chirping {pc:?} vs slow start {ss:?}");
        assert_eq!(pc[7], "0", "{pc:?}");
        assert_ne!(ss[7], "0", "{ss:?}");
        let rtts = |r: &Vec<String>| r[4].parse::<f64>().unwrap();
        assert!(rtts(&pc) <= rtts(&ss) + 4.0, "{rtt}: {pc:?} vs {ss:?}");
    }
    let claims = rows(&dir.path().join("verdicts.csv"));
    assert!(claims.iter().any(|r| r[0].starts_with("paced chirping escapes slow start") && !r[4].is_empty()));
}
