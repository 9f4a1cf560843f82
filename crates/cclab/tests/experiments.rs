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
    for name in ["sharkfest", "mathis", "sackexp", "vegas-trials", "sabul-table1", "nmap-scaling", "twin", "attacks"] {
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

/// Seed 004, trial 3 (ACKs delayed 100 ms): mVegas leaves slow start for the window it has
/// after two round trips and then grows by one packet per round trip, the seed's own
/// explanation of its low figures. Its mean lies within three of the seed's standard
/// deviations of the seed's mean (7.37 ± 0.161 Mbit/s over five runs), and below Reno's on
/// every seed. The two Reno cells the model was fitted on are marked fitted, never held.
#[test]
fn vegas_trials_mvegas_trial_3_and_fitted_cells() {
    let dir = tempfile::tempdir().unwrap();
    run_experiment("vegas-trials", dir.path());
    let t = rows(&dir.path().join("trial-3-netem-delay-100ms-on-the-return-path-mbit-s.csv"));
    let ours = |col: usize| t.iter().take_while(|r| r[0] != "min").filter(|r| !r[col].is_empty()).map(|r| r[col].parse::<f64>().unwrap()).collect::<Vec<_>>();
    let (reno, mvegas) = (ours(1), ours(3));
    assert!(mvegas.len() >= 2);
    let mean = mvegas.iter().sum::<f64>() / mvegas.len() as f64;
    assert!((mean - 7.37).abs() <= 3.0 * 0.161, "trial 3 mVegas mean {mean}");
    assert!(reno.iter().zip(&mvegas).all(|(r, m)| r > m), "Reno {reno:?} vs mVegas {mvegas:?}");
    let verdicts = rows(&dir.path().join("verdicts.csv"));
    let verdict = |claim: &str| verdicts.iter().find(|r| r[0].starts_with(claim)).map(|r| r[4].clone()).unwrap();
    assert_eq!(verdict("trial 1 (none): Reno"), "fitted");
    assert_eq!(verdict("trial 3 (delay 100ms): Reno"), "fitted");
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
        assert!(r[11].starts_with("agrees"), "{r:?}");
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
