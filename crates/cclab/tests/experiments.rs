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

/// Every main finding in `findings.csv` against `verdicts.csv`: the rows it names hold as
/// many times as it says, and its outcome follows (all → reproduced; none failing → not
/// settled; none holding → not reproduced; else partly).
/// Returns each finding's outcome and how many rows it picked (judged or not), in order: the
/// callers pin the counts, so that a claim reworded out of its finding's selection shows.
fn findings_agree_with_the_verdicts(dir: &Path) -> Vec<(String, usize)> {
    let (f, v) = (rows(&dir.join("findings.csv")), rows(&dir.join("verdicts.csv")));
    assert!(!f.is_empty());
    let numbers = |list: &str| -> Vec<usize> {
        list.split(", ")
            .flat_map(|part| match part.split_once('–') {
                Some((a, b)) => (a.parse::<usize>().unwrap()..=b.parse().unwrap()).collect::<Vec<_>>(),
                None => vec![part.parse().unwrap()],
            })
            .collect()
    };
    for r in &f {
        let (counts, list) = r[2].split_once(" hold (#").unwrap_or_else(|| panic!("a judged finding: {r:?}"));
        let (held, of) = counts.split_once(" of ").unwrap();
        let judged = numbers(list.split(')').next().unwrap());
        assert_eq!(judged.len(), of.parse::<usize>().unwrap(), "{r:?}");
        let holding = judged.iter().filter(|&&k| v[k - 1][4] == "holds").count();
        assert_eq!(holding, held.parse::<usize>().unwrap(), "{r:?}");
        assert!(judged.iter().all(|&k| ["holds", "does not hold", "not settled"].contains(&v[k - 1][4].as_str())), "{r:?}");
        let failing = judged.iter().filter(|&&k| v[k - 1][4] == "does not hold").count();
        let outcome = match (holding, failing) {
            (h, _) if h == judged.len() => "reproduced",
            (_, 0) => "not settled",
            (0, _) => "not reproduced",
            _ => "partly reproduced",
        };
        assert_eq!(r[1], outcome, "{r:?}");
    }
    let picked = |rows: &str| -> usize {
        rows.split('#').skip(1).map(|part| numbers(part.split([')', ';']).next().unwrap().trim()).len()).sum()
    };
    f.iter().map(|r| (r[1].clone(), picked(&r[2]))).collect()
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
/// TCP SACK (NewReno with SACK) halves its window at every loss episode; lossless, both fill
/// the 10 Mbit/s bottleneck (less headers) within the BDP-sized receiver window. Checked at
/// each RTT of fast mode (60 and 600 ms) on the mean over its seeds. Fast recovery: without
/// SACK only the segment at `snd_una` is known lost, one per partial ACK, so NewReno and
/// SACKEXP without SACK retransmit exactly one per round trip wherever they recover (RFC 6582);
/// with SACK every marked hole goes out as the pipe allows, so at p = 10 % (windows of a few
/// segments losing one in ten) both SACK senders retransmit more than one in some round trip.
/// And SACKEXP follows the capacity when the bottleneck halves, without loss; its window stays
/// the receiver's under loss (the seed's "static" window).
#[test]
fn sackexp_beats_tcp_sack_under_loss() {
    let dir = tempfile::tempdir().unwrap();
    run_experiment("sackexp", dir.path());
    let t = rows(&dir.path().join("sackexp-tcp-sack-and-sackexp-without-sack-alone.csv"));
    let goodput = |rtt: &str, p: &str, alg: &str| t.iter().find(|r| r[0] == rtt && r[1] == p && r[2] == alg).map(|r| mbit(&r[4])).unwrap();
    for rtt in ["60 ms", "600 ms"] {
        for p in ["0.1 %", "1 %", "20 %"] {
            assert!(goodput(rtt, p, "SACKEXP") > goodput(rtt, p, "TCP SACK"), "RTT {rtt}, p = {p}");
        }
    }
    assert!(goodput("60 ms", "0 %", "SACKEXP") > 9.0 && goodput("60 ms", "0 %", "TCP SACK") > 9.0);
    assert!(dir.path().join("plots/goodput-vs-loss-rtt-60ms.png").exists());
    // "SACK gives us control over the now 'static' window", win = min(snd_bwnd, snd_wnd): with
    // no congestion window SACKEXP keeps the receiver's window unacknowledged at any loss, less
    // at most the one segment an ACK has just released (median over samples, every seed).
    // Rows per finding, fast mode's two RTTs: the direction at three loss rates; the two
    // fractions, the two efficiencies and their likeness at 0.1 %; the ratio and the
    // efficiencies' likeness at 20 %; without SACK, three kinds at three loss rates.
    let counts: Vec<usize> = findings_agree_with_the_verdicts(dir.path()).iter().map(|f| f.1).collect();
    assert_eq!(counts, [6, 10, 4, 18]);
    let verdicts = rows(&dir.path().join("verdicts.csv"));
    for p in ["1 %", "20 %"] {
        let c = verdicts.iter().find(|c| c[0].starts_with("SACKEXP's window stays static") && c[0].contains(&format!("p = {p} (RTT 60 ms)"))).expect("the static-window row");
        // A check of our SACKEXP against the seed's design, not a measure of behaviour.
        assert_eq!(c[4], "conforms", "{c:?}");
    }
    // The per-link probe: p on each of three links both ways loses about 3p of the data, so
    // each algorithm keeps less of its lossless goodput than with p on the bottleneck alone.
    let name = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).find(|n| n.starts_with("probe-p") && n.ends_with(".csv")).expect("the probe's table");
    let probe = rows(&dir.path().join(name));
    let mean_of = |cell: &str| -> f64 { cell.split_whitespace().next().unwrap().parse().unwrap() };
    assert_eq!(probe.iter().map(|r| r[0].as_str()).collect::<Vec<_>>(), ["SACKEXP", "TCP SACK"]);
    for r in &probe {
        assert!(mean_of(&r[2]) < mean_of(&r[1]), "{r:?}");
    }
    let per_round = rows(&dir.path().join("fast-recovery-the-most-retransmissions-sent-in-one-round-trip-rtt-60-ms-mean-min-max-over-seeds.csv"));
    for r in &per_round {
        assert_eq!((r[2].as_str(), r[4].as_str()), ("1.0 (1-1)", "1.0 (1-1)"), "without SACK, one per round trip: {r:?}");
    }
    let ten = per_round.iter().find(|r| r[0] == "10 %").unwrap();
    for cell in [&ten[1], &ten[3]] {
        assert!(mean_of(cell) > 1.0, "SACK repairs several holes per round trip: {ten:?}");
    }
    // "Will adopt to the link capacity": when the bottleneck halves, SACKEXP's ACK clock sets
    // its rate to the new capacity (1 to 1 + W/(C·T) of it), and its BDP-sized window fits the
    // half-rate pipe plus the buffer, so nothing is lost.
    let verdicts = rows(&dir.path().join("verdicts.csv"));
    // At p = 0.1 % each sender retransmits about one packet in a thousand, so both
    // efficiencies are 1 − p to a few hundredths of a point: "identical" (one point apart at most).
    // Without SACK a loss leaves only duplicate ACKs, which tell one hole at a time: at
    // p = 10 % windows lose several segments and wait for the timer far more often.
    for claim in [
        "SACKEXP \"will adopt to the link capacity\"",
        "SACKEXP's and TCP SACK's efficiencies alike at p = 0.1 %",
        "without SACK, duplicate ACKs \"can lead to timeouts\": SACKEXP's retransmission timeouts without SACK above with it: p = 10 % (RTT 60 ms)",
    ] {
        let c = verdicts.iter().find(|c| c[0].starts_with(claim)).expect(claim);
        assert_eq!(c[4], "holds", "{c:?}");
    }
    // Losing nothing follows from the window's size by arithmetic: a check of our code.
    let c = verdicts.iter().find(|c| c[0].starts_with("SACKEXP loses nothing as it adapts")).expect("the no-loss row");
    assert_eq!(c[4], "conforms", "{c:?}");
    // The whole of ttcp's default transfer reaches the receiver in order at 20 % loss.
    let c = verdicts.iter().find(|c| c[0].starts_with("SACKEXP \"will still guarantee for in-order delivery\"")).expect("the in-order row");
    assert_eq!(c[4], "holds", "{c:?}");
}

/// Mathis et al. 1997: Reno's throughput is MSS/RTT·C/sqrt(p), p the rate of congestion
/// signals, with C between 1.22 (periodic loss) and 1.31 (random loss) for an ACK per segment
/// (their Table 1). SACK repairs several drops of one window in one recovery, so the signal
/// rate is below the drop rate at every p; at 0.2 % (about 60 loss episodes per run in fast
/// mode, 10 seeds) the 95 % confidence interval of our mean lies inside the law's band of C at
/// the signal rate, and the verdict table says so.
#[test]
fn mathis_law_holds_at_the_congestion_signal_rate() {
    let dir = tempfile::tempdir().unwrap();
    run_experiment("mathis", dir.path());
    let t = rows(&dir.path().join("reno-under-random-loss-rtt-100-ms.csv"));
    assert_eq!(t.len(), 3);
    let pct = |c: &str| c.trim_end_matches(" %").parse::<f64>().unwrap();
    // A cell `mean unit ± sd (n = k)`: its mean.
    let mean_of = |c: &str| c.split_whitespace().next().unwrap().parse::<f64>().unwrap();
    for r in &t {
        assert!(mean_of(&r[3]) < pct(&r[0]), "signal rate {} not below p = {}", r[3], r[0]);
        assert!(r[5].ends_with("(n = 10)"), "ten seeds: {}", r[5]);
    }
    let verdicts = rows(&dir.path().join("verdicts.csv"));
    let at = verdicts.iter().find(|r| r[0].starts_with("the Mathis law holds at p = 0.2 % (measured signal rate")).unwrap();
    assert_eq!(at[4], "holds", "{at:?}");
    assert!(dir.path().join("plots/goodput-vs-loss.png").is_file());
    // Padhye's sender, Reno without SACK, at 5 %: the model's timeout term expects a timeout
    // for Q̂ = 3/W ≈ 37 % of loss indications, random loss gives far fewer, so Padhye's model
    // falls further below ours than the Mathis law does (its "more accurate" does not hold).
    assert_eq!(rows(&dir.path().join("reno-without-sack-under-random-loss-rtt-100-ms-padhye-s-sender.csv")).len(), 3);
    let padhye = verdicts.iter().find(|r| r[0].starts_with("Padhye's model predicts Reno without SACK better than the Mathis law at p = 5 %")).unwrap();
    assert_eq!(padhye[4], "does not hold", "{padhye:?}");
}

/// Seed 004, trial 3 (ACKs delayed 100 ms): mVegas leaves slow start for the window it has
/// after two round trips and then grows by one packet per round trip, the seed's own
/// explanation of its low figures. Its mean lies within three of the seed's standard
/// deviations of the seed's mean (7.37 ± 0.161 Mbit/s over five runs), and below Reno's on
/// every seed. The two Reno cells the model was fitted on are marked fitted, never held. The
/// seed's control law on a clean link, one flow alone: Linux's Vegas keeps its estimate of the
/// packets queued, `cwnd·(rtt − base)/base`, between alpha = 2 and beta = 4 (growing below,
/// shrinking above, one segment per RTT), and with one flow that is the bottleneck's queue;
/// mVegas aims at beta = 6, so it queues more. mVegas leaves slow start at its first decision
/// with RTT samples, the end of the second round: two base RTTs plus its slow start's queue.
/// The seed's printed standard deviations are judged too, and its claim that trial 6's
/// difference is significant with the outlier does not hold on its own runs.
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
    // Rows per finding: mVegas below Vegas in trials 1, 2, 4 and the geometric mean; trial 6
    // above Vegas, trial 3 alike, trial 6 with Reno and the two delay trends; the jump's
    // deficit and "catastrophically" in trials 1, 2, 4 and the lasting cost; competing with Reno.
    let counts: Vec<usize> = findings_agree_with_the_verdicts(dir.path()).iter().map(|f| f.1).collect();
    assert_eq!(counts, [4, 5, 7, 3]);
    let verdicts = rows(&dir.path().join("verdicts.csv"));
    let verdict = |claim: &str| verdicts.iter().find(|r| r[0].starts_with(claim)).map(|r| r[4].clone()).unwrap();
    assert_eq!(verdict("trial 1 (none): Reno"), "fitted");
    assert_eq!(verdict("trial 3 (delay 100ms): Reno"), "fitted");
    // The equilibrium and the exit our control laws are written to make: checks of our code.
    assert_eq!(verdict("Vegas holds between alpha = 2 and beta = 4 packets"), "conforms");
    assert_eq!(verdict("mVegas holds more backlog than Vegas"), "conforms");
    assert_eq!(verdict("mVegas leaves slow start \"as soon as two round-trips"), "conforms");
    // The seed's explanation of trials 1, 2 and 4: the jump out of slow start brings no loss
    // at all on the model (the fitted receive window, 149.2 kB or about 103 segments, cannot fill the
    // 1000-packet queue, and netem drops only ACKs), and every verdict on the jump that does
    // not hold carries its cause.
    assert_eq!(verdict("trials 1, 2, 4: the other branch, \"massive packet loss"), "holds");
    let jump: Vec<_> = verdicts.iter().filter(|r| r[0].contains("mVegas's jump") || r[0].contains("the jump's lasting cost")).collect();
    assert_eq!(jump.len(), 4, "three trials and the lasting cost");
    assert!(jump.iter().all(|r| r[4] == "holds" || !r[5].is_empty()), "{jump:?}");
    // The seed's aim on a clean link: Reno alone overflows its one-BDP buffer every sawtooth,
    // mVegas alone holds about beta = 6 packets of a 17-packet buffer and loses none once slow
    // start is over; against Reno, mVegas's larger target backlog keeps more of the link than
    // Vegas's alpha-beta of 2-4.
    assert_eq!(verdict("mVegas does so \"without as recklessly courting packet loss"), "holds");
    assert_eq!(verdict("mVegas competes \"more favorably\" with Reno"), "holds");
    // Every cell's standard deviation has a row: the 13 the seed printed and the 5 its lost
    // text leaves to its five runs (trial 2's three, trial 6's Reno and mVegas). Our Reno at
    // the fitted link rate varies by thousandths of a Mbit/s (cause D), so against the seed's
    // 1.3 the F-test rejects equal variances in trial 1.
    let sds: Vec<_> = verdicts.iter().filter(|r| r[0].contains("standard deviation over runs")).collect();
    assert_eq!(sds.len(), 18, "{sds:?}");
    assert_eq!(sds.iter().filter(|r| r[0].contains("from its five runs")).count(), 5, "{sds:?}");
    assert_eq!(verdict("trial 1 (none): Reno's standard deviation"), "does not hold");
    // Its own reading of trial 6, checked on its own runs (Welch, p ≈ 0.42: see `columns`), in
    // a table of its own: no run of ours enters it, so it is not among our verdicts.
    let readings = rows(&dir.path().join("the-seed-s-statements-checked-on-its-own-data.csv"));
    let reading = |claim: &str| readings.iter().find(|r| r[0].starts_with(claim)).map(|r| r[4].clone()).unwrap();
    assert_eq!(reading("trial 6: mVegas above Vegas significantly with the outlier"), "does not hold");
    assert!(!verdicts.iter().any(|r| r[0].contains("the seed's own five runs per column")));
    // "After enough (usually 2) packets": the seed's "usually 2" names no constant and counts
    // packets, so it is not comparable; Vegas and mVegas act on their delay rule from the
    // third RTT sample of a round, as Linux's cntRTT <= 2 → Reno (checks of our code).
    assert_eq!(verdict("Vegas and mVegas act on their delay rule once \"enough (usually 2)"), "not comparable");
    for name in ["Vegas", "mVegas"] {
        let row = verdicts.iter().find(|r| r[0].starts_with(&format!("{name}: the fewest RTT samples in a round"))).expect("the samples row");
        assert_eq!((row[2].as_str(), row[4].as_str()), ("3 samples", "conforms"), "{row:?}");
    }
    // "The past two round-trip time units": Linux's minRTT covers the last round trip only, so
    // with the round before at the base RTT the judged round's queued samples still move the
    // window (the seed's two does not hold for the code it modified, nor for ours).
    for name in ["Vegas", "mVegas"] {
        let row = verdicts.iter().find(|r| r[0].starts_with(&format!("{name}: the round trips the smallest RTT is taken over"))).expect("the minimum row");
        assert!(row[2].starts_with("one round trip") && row[4] == "does not hold", "{row:?}");
    }
    // "Far from exceeds": our mVegas is about 0.9 of Vegas over the six trials, not near the
    // seed's own 0.51 (the bound: halfway to it from parity on a log scale, √0.509 = 0.71).
    assert_eq!(verdict("mVegas \"far from exceeds Vegas"), "does not hold");
    // Alpha and beta "at least two packets apart": on a clean link the round's smallest RTT is
    // the same every round once the window rests, and a step of one segment moves ⌊diff⌋ by at
    // least one, so with a band of two Linux's Vegas comes to rest (no change in congestion
    // avoidance after its first 10 s). The seed's testbed's host noise moves the estimate each
    // round, and the narrower the band, the more often it leaves it.
    let flux = rows(&dir.path().join("vegas-s-window-changes-per-round-trip-in-congestion-avoidance-by-beta-alpha-alpha-2-alone-mean-over-seeds-min-max.csv"));
    let at = |place: &str, col: usize| flux.iter().find(|r| r[0].starts_with(place)).map(|r| over_seeds(&r[col])).unwrap();
    assert_eq!(at("a clean link", 3), (0.0, 0.0, 0.0), "{flux:?}");
    assert_eq!(verdict("Vegas's window in more flux with alpha and beta 0 apart than 2 apart: changes per round trip in congestion avoidance, alone on the seed's testbed"), "holds");
    vegas_trials_probes_exclude_stalls(dir.path());
}

/// The probes of causes A, C and D. Cause A: mVegas as a public copy of the module has it
/// grows by a packet in every round up to beta where the table's law grows with probability
/// 2^(6−n)/63, so from any state its window is at least the table's, and at the 0.2 ms LAN,
/// where the window limits, its throughput is at least the table's. Causes C and D: vCPU
/// stalls of up to 3 ms on both guests. At 100 ms, Vegas
/// leaves slow start only if a round's smallest RTT rises by (gamma + 1)·base/cwnd, 10 ms at
/// the second round trip, so stalls leave it where it was, within iperf's resolution (three
/// significant figures: 0.1 Mbit/s at 11). At the link rate the queue the receive window keeps
/// standing holds about 4 ms of traffic, more than the longest stall, so stalls leave Reno's
/// runs spread by less than iperf's resolution at 290 (1 Mbit/s), where the seed's span 3.
/// Cause E: trial 6's netem jitter (±10 ms) reorders the ACKs, and the cumulative ACK advances
/// with the earliest of them, so without the jitter our window-held Reno is slower. The notes
/// say what was tested.
fn vegas_trials_probes_exclude_stalls(dir: &Path) {
    let name = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).find(|n| n.starts_with("causes-a-c-d-and-e-probed")).unwrap();
    let t = rows(&dir.join(name));
    let cell = |r: &Vec<String>, c: usize| over_seeds(&r[c].replace('-', "–"));
    let (c, d, a1, e) = (&t[0], &t[1], &t[2], &t[4]);
    assert_eq!((c[0].as_str(), d[0].as_str(), a1[0].as_str(), a1[1].as_str()), ("C", "D", "A", "trial 1 mVegas"));
    assert_eq!((e[0].as_str(), e[1].as_str()), ("E", "trial 6 Reno"));
    assert!(cell(e, 2).0 < cell(e, 3).0, "without the jitter below with it: {e:?}");
    assert!(cell(a1, 2).0 >= cell(a1, 3).0, "as built against the table's law: {a1:?}");
    assert!((cell(c, 2).0 - cell(c, 3).0).abs() < 0.1, "{c:?}");
    let (_, lo, hi) = cell(d, 2);
    assert!(hi - lo < 1.0, "{d:?}");
    let results = std::fs::read_to_string(dir.join("results.md")).unwrap();
    for needle in ["Tested and excluded", "vCPU stalls", "tcp_clean_rtx_queue", "Tested: vCPU stalls", "mVegas as built averages"] {
        assert!(results.contains(needle), "results.md lacks {needle:?}");
    }
}

/// Seed 001, Table 1: with one rate-control interval the three SABUL connections get similar
/// rates whatever their initial rates (row 1) and RTTs (rows 3-5: 23 ms, 57 ms, and 23 ms
/// against 57 ms). The seed's own "similar" reaches down to its least even such row (row 5,
/// 220/280/300 Mb/s, Jain's index 0.984): ours must be at least that, mean over the seeds.
/// Each of the 15 cells is judged as a share of its row.
/// Row 2's ordering (the shortest interval takes the most) does not reproduce under Gen-B on the
/// seed's LAN, and the verdicts say so with the cause. The ERR count: `sabul` counts each
/// reported number once, and the simulator reorders nothing, so a counted number was lost:
/// its count is at most the link's drops (ratio ≤ 1, up to the table's rounding). The 2003
/// code counts re-reports, which come where a repair can outlast RTT_est (rows 3-5), so there
/// its count exceeds the drops on every seed (the seed: "sometimes higher"), and some of its
/// intervals count more ERRs than packets sent (the seed: "sets the loss rate to one").
/// "A variant of Multiplicative Increase and Multiplicative Decrease": the exponent of a raising
/// interval's relative step against the rate is 0 for MI and −1 for AI; Gen-B's is nearer 0 on
/// every seed, while the 2003 code's Gen-C, a constant step within a decade of packets per
/// interval, is additive there. Figure 5's "climb up gradually": row 5's climbs outlast its
/// falls on every seed.
#[test]
fn sabul_table1_same_interval_rows_are_fair() {
    let dir = tempfile::tempdir().unwrap();
    run_experiment("sabul-table1", dir.path());
    let t = rows(&dir.path().join("table-1-average-sending-rate-of-three-sabul-connections-mb-s.csv"));
    assert_eq!(t.len(), 5);
    for r in [&t[0], &t[2], &t[3], &t[4]] {
        let jain: f64 = r[6].parse().unwrap();
        assert!(jain >= 0.984, "row {}: {} Mb/s, Jain {jain}", r[0], r[4]);
    }
    let v = rows(&dir.path().join("verdicts.csv"));
    let row2: Vec<_> = v.iter().filter(|c| c[0].starts_with("row 2:") && c[0].contains(" above ")).collect();
    assert_eq!(row2.len(), 2, "two orderings in row 2");
    for c in row2.iter().filter(|c| c[4] == "does not hold") {
        assert!(c[5].contains("V = 10"), "row 2 carries its cause: {c:?}");
    }
    // Where the row's intervals are the same the seed calls its rates "similar": no ordering
    // within its one run is judged (the Jain rows are).
    assert!(!v.iter().any(|c| ["row 1:", "row 3:", "row 4:", "row 5:"].iter().any(|r| c[0].starts_with(r)) && c[0].contains(" above ") && c[0].contains("SABUL, T =")));
    assert!(dir.path().join("plots/rates-row-2.png").exists());
    // Every cell of the table as a share of its row.
    let cells: Vec<_> = v.iter().filter(|c| c[0].contains("as a share of the three")).collect();
    assert_eq!(cells.len(), 15, "five rows of three cells");
    let verdict = |prefix: &str| v.iter().find(|c| c[0].starts_with(prefix)).map(|c| c[4].clone()).expect(prefix);
    // The seed's headline, a shorter interval takes more (row 2), is named first among its
    // main findings; it is reproduced only where both of row 2's orderings hold.
    let findings = findings_agree_with_the_verdicts(dir.path());
    let orderings_hold = row2.iter().all(|c| c[4] == "holds");
    assert_eq!(findings[0].0 == "reproduced", orderings_hold, "{findings:?}");
    // Rows per finding: row 2's two orderings and three shares; the Jain rows of the four
    // one-interval rows; the swing on each of the five rows and the two on SYNs handled back
    // to back; the ERR count where a repair can outlast RTT_est and its doubling on rows 3-5;
    // in phase on each of five rows, against RED on rows 3-5 and row 4 with mixed RTTs.
    assert_eq!(findings.iter().map(|f| f.1).collect::<Vec<_>>(), [5, 4, 7, 4, 9], "{findings:?}");
    // The seed's second cause of the swings: a sender busy for longer than T handles two SYNs
    // together, so the interval it measures is short and its ERRs outnumber the packets sent
    // in it (SENT' = max(SENT, LocalERR)): the logged rate leaps where the rate sent does not.
    assert_eq!(verdict("Random SYN intervals from stalled hosts: the swing they add is in the measured rate"), "holds");
    // Gen-B's increase is a multiple of the rate by construction: a check of our law.
    assert_eq!(verdict("the papers' law (sabul, Gen-B) increases multiplicatively"), "conforms");
    assert_eq!(verdict("the 2003 code's law (code-2003, Gen-C) increases multiplicatively"), "does not hold");
    assert_eq!(verdict("row 5 (figure 5): after a fall the sending rate climbs back gradually"), "holds");
    let errs = rows(&dir.path().join("the-2003-code-s-err-count-against-the-packets-really-lost-apparent-real-error-rate-mean-min-max-over-seeds.csv"));
    assert_eq!(errs.len(), 5);
    for r in &errs {
        let max: f64 = r[8].trim_end_matches(')').rsplit('-').next().unwrap().parse().unwrap();
        assert!(max <= 1.005, "row {}: sabul counts a number once: {}", r[0], r[8]);
    }
    let more = v.iter().find(|c| c[0].starts_with("where a repair can outlast RTT_est (rows 3, 4, 5)")).expect("the ERR direction");
    assert_eq!(more[4], "holds", "{more:?}");
    // Figures 3-5, "sources oscillate in phase": one drop-tail queue overflows for all three,
    // so they cut together whatever the phases of their rate-control timers: with the timers
    // together (the main runs) and T/3 apart. And where losses are re-reported (rows 3-5) the 2003 code meets intervals whose ERRs
    // outnumber the packets sent (loss rate 1, logged rate above the one sent) on every seed;
    // on the LAN rows, where nothing is re-reported, none (the table's control).
    for k in 3..=5 {
        for claim in [
            "the three flows oscillate in phase (",
            "the three flows oscillate in phase with their rate-control timers T/3 apart",
            "intervals where the ERRs outnumber the packets sent",
        ] {
            let c = v.iter().find(|c| c[0].starts_with(&format!("row {k}: {claim}"))).expect(claim);
            assert_eq!(c[4], "holds", "{c:?}");
        }
    }
    for r in &errs[..2] {
        assert!(r[9].starts_with("0 of "), "row {}: {}", r[0], r[9]);
    }
    // §3's two observations under one setting of the 2003 code's freeze (of one T, off, of its
    // own 10 ms). Without a freeze a flow sends thousands of packets in each 200 ms interval at
    // these rates, so its ERRs, about two per loss, could outnumber them only at a loss rate
    // near one half: on no row of three does an interval's ERR count exceed its packets.
    // One verdict on all the settings together (each part under the code's own setting has
    // its row above): none gives both.
    let both: Vec<_> = v.iter().filter(|c| c[0].contains("both of §3's observations at once")).collect();
    assert_eq!(both.len(), 1, "{both:?}");
    assert_eq!(both[0][4], "does not hold", "{:?}", both[0]);
    assert!(both[0][2].starts_with("off: does not hold"), "{:?}", both[0]);
    let sweep = rows(&dir.path().join("3-s-two-observations-against-the-length-of-the-2003-code-s-freeze-rows-3-4-5-mean-over-seeds-both-hold-at-once-where-every-row-has-1-5-to-2-5-reports-per-loss-and-at-least-one-interval-with-errs-sent-on-every-seed.csv"));
    let off = sweep.iter().find(|r| r[0] == "off").expect("the freeze-off row");
    assert!(off[2].split(" / ").all(|n| n.trim().parse::<f64>().unwrap() == 0.0), "no interval's ERRs outnumber its packets without the freeze: {off:?}");
    // "Not really a defect of the SABUL congestion control algorithm", judged on the rate each
    // sender logs, as the seed's code did. On the LAN rows the 2003 code's ERR rule drives
    // 18-25 decreases per flow in 60 s (the table's last column), and an epoch's first one
    // freezes the sender for one T = 200 ms: if most of them freeze, a share f ≈ 20·0.2/60 ≈
    // 0.07 of its intervals log about nothing, which alone gives σ/μ ≈ √(f/(1 − f)) ≈ 0.27,
    // against the few hundredths of the law alone. So there the code swings more on every seed,
    // by its freeze: its bookkeeping has nothing to act on where no loss is re-reported (the
    // table's "0 of" intervals above).
    for k in 1..=5 {
        let c = v.iter().find(|c| c[0].starts_with(&format!("row {k}: the swings are the implementation's"))).expect("the swing row");
        assert!(c[4] == "holds" || c[4] == "does not hold", "judged on the logged rate: {c:?}");
        assert!(c[5].contains("σ/μ of the logged rate"), "{c:?}");
    }
    for k in 1..=2 {
        let c = v.iter().find(|c| c[0].starts_with(&format!("row {k}: the swings are the implementation's"))).unwrap();
        assert_eq!(c[4], "holds", "{c:?}");
        assert!(c[5].contains("the freeze after an ERR-driven decrease does") || c[5].contains("and the freeze over the bookkeeping"), "the freeze raises it: {c:?}");
    }
    // The receiver's ERRs "periodically every 1.5 * RTT": where numbers stay missing past
    // RTT_est (rows 3-5, RTTs of 23-58 ms), each flow's mean interval between two reports of
    // one number lies above RTT_est = 1.5·RTT and at most one 20 ms ERR tick beyond it.
    let every: Vec<_> = v.iter().filter(|c| c[0].contains("re-reports a missing packet every 1.5·RTT") && c[0].contains(" ms): ")).collect();
    assert_eq!(every.len(), 9, "three flows on each of rows 3-5");
    // Our receiver's timer against the rule: a check of our code.
    assert!(every.iter().all(|c| c[4] == "conforms"), "{every:?}");
    // "SABUL can utilize network bandwidth efficiently": on rows 1-3 and 5 our flows fill the
    // link at least as well as the seed's totals over a gigabit (the best the seed can have had).
    for k in [1, 2, 3, 5] {
        let c = v.iter().find(|c| c[0].starts_with(&format!("row {k}: \"SABUL can utilize"))).expect("the efficiency row");
        assert_eq!(c[4], "holds", "{c:?}");
    }
}

/// A cell written as `mean (min–max)` over seeds: (mean, min, max).
fn over_seeds(cell: &str) -> (f64, f64, f64) {
    let (mean, range) = cell.trim_end_matches(')').split_once(" (").unwrap_or_else(|| panic!("{cell}"));
    let (lo, hi) = range.split_once('–').unwrap_or_else(|| panic!("{cell}"));
    (mean.parse().unwrap(), lo.parse().unwrap(), hi.parse().unwrap())
}

/// Seed 002, what the talk says and our runs bear out on three seeds each (every bound is the
/// talk's own figure or direction):
/// - Reno friendliness is judged against Reno's own share against Reno on the same seeds:
///   Scalable takes more than it on every seed ("Kills Reno easily", also against NewReno on
///   the talk's 20 Mbit/s, 100 ms link), Vegas less ("Gets beaten by any loss-based algorithm");
///   and Scalable's share lies above what one Linux Reno pair's takes in 95 % of runs (six
///   kernel runs, 0.52 ± 0.0607: 0.52 + t(0.975, 5)·0.0607·√(7/6) = 0.689);
/// - collateral damage in the 60 s run alone: NewReno "almost 3" and Illinois 2 overflows
///   (±1: where the run ends in the cycle), Vegas "almost unnoticeable" (at most one);
/// - the talk's total packets are twice our data + ACK count (its capture saw each packet
///   twice; ±5 %: the talk's own totals spread ±3 %);
/// - under random loss BBR keeps "full BW rate" at 1 %: at least 95 % of the most a flow can
///   deliver, 40 Mbit/s·1448/1500·(1 − 0.01) = 38.23 Mbit/s, less PROBE_RTT's 3 % (200 ms and a
///   100 ms round trip every 10 s) and Startup's 2 % (at most about a second of 60 s), and
///   never above it; it collapses by 20 % ("we went too far"); NewReno "can't go faster than
///   3Mbps" at 1 %;
/// - Scalable recovers from a loss in ln(8/7)/ln(1.01) = 13.42 RTTs (Kelly 2003), 2.68 s at
///   200 ms, the talk's "2,7 sec" (its rounding ±0.05 s; the 1 %-of-BDP buffer adds at most
///   2 ms per RTT);
/// - BBR's ProbeBW paces at 1.25 and 0.75 times its estimate and ProbeRTT holds cwnd at 4
///   segments (tcp_bbr.c's bbr_pacing_gain and bbr_cwnd_min_target, which the talk quotes);
/// - the window laws the slides state, measured in runs alone (`sharkfest::laws`): slow start's
///   one segment per ACKed segment, Reno's and Tahoe's a = 1/cwnd and b = 0.5, Scalable's 0.01
///   per ACK and 0.875, HighSpeed as Reno below 38 segments, Illinois's α of 10 and 0.3, Vegas's
///   at most one change per RTT and Westwood+'s half window on one BDP of buffer, each within
///   its derived tolerance; and that on three BDPs Westwood+ falls below the slide's cwnd/2;
/// - every claim that does not hold says why.
#[test]
fn sharkfest_reproduces_the_talks_orderings() {
    let dir = tempfile::tempdir().unwrap();
    run_experiment("sharkfest", dir.path());
    assert!(dir.path().join("report.html").exists());
    let friendly = rows(&dir.path().join("reno-friendliness-over-seeds-share-against-one-reno-flow-second-half.csv"));
    let share = |alg: &str, link: &str| friendly.iter().find(|r| r[0] == alg && r[1] == link).map(|r| (over_seeds(&r[2]), r[3].clone())).unwrap();
    let (reno, _) = share("Reno", "40 Mbit/s, 100 ms");
    let (scalable, _) = share("Scalable", "40 Mbit/s, 100 ms");
    let (vegas, _) = share("Vegas", "40 Mbit/s, 100 ms");
    assert!(scalable.1 > reno.2, "Scalable {scalable:?} against Reno's own {reno:?}");
    assert!(vegas.2 < reno.1, "Vegas {vegas:?} against Reno's own {reno:?}");
    let (scal20, base20) = share("Scalable against NewReno", "20 Mbit/s, 100 ms");
    let base20 = over_seeds(base20.trim_end_matches(" (NewReno against NewReno)"));
    assert!(scal20.1 > base20.2, "20 Mbit/s: Scalable {scal20:?} against NewReno's own {base20:?}");
    assert!(scalable.1 > 0.689, "Scalable {scalable:?} within one Linux Reno pair's range");

    let damage = rows(&dir.path().join("collateral-damage-the-talk-against-ours-60-s-alone.csv"));
    let episodes = |alg: &str| damage.iter().find(|r| r[0] == alg).map(|r| over_seeds(&r[2])).unwrap();
    assert!((2.0..=4.0).contains(&episodes("NewReno").0), "NewReno: {:?}", episodes("NewReno"));
    assert!((1.0..=3.0).contains(&episodes("Illinois").0), "Illinois: {:?}", episodes("Illinois"));
    assert!(episodes("Vegas").2 <= 1.0, "Vegas: {:?}", episodes("Vegas"));
    for r in &damage {
        let twice: f64 = r[5].parse().unwrap();
        assert!((1.9..=2.1).contains(&twice), "{}: the talk's total is {twice} times ours", r[0]);
    }

    let b = rows(&dir.path().join("bbr-under-random-loss-alone-60-s.csv"));
    let bbr = |p: &str| b.iter().find(|r| r[0] == p).map(|r| over_seeds(&r[1])).unwrap();
    let ceiling = 40.0 * 1448.0 / 1500.0 * (1.0 - 0.01);
    assert!(bbr("1 %").1 >= 0.95 * ceiling && bbr("1 %").2 <= ceiling, "BBR at 1 %: {:?} against the ceiling {ceiling}", bbr("1 %"));
    assert!(bbr("20 %").2 < bbr("10 %").1, "BBR at 20 % {:?} against 10 % {:?}", bbr("20 %"), bbr("10 %"));
    let t = rows(&dir.path().join("the-talk-s-tests-one-row-per-algorithm-40-mbit-s-100-ms-1-bdp.csv"));
    let lossy = |alg: &str| t.iter().find(|r| r[0] == alg).map(|r| r[10].parse::<f64>().unwrap()).unwrap();
    assert!(lossy("NewReno") < 3.0, "NewReno at 1 %: {}", lossy("NewReno"));

    let verdicts = rows(&dir.path().join("verdicts.csv"));
    for c in &verdicts {
        assert!(c[4] == "holds" || !c[5].is_empty(), "a claim that does not hold without a cause: {c:?}");
    }
    // Rows per finding: collateral damage's episodes and totals for six algorithms and
    // Westwood+'s "same as Reno"; BBR at 1, 5, 10 % and its fall to 20 %; friendliness for
    // Scalable, CUBIC (twice, on and off a long fat network, and against Scalable), Vegas,
    // Scalable on 20 Mbit/s and Compound off one; RTT fairness for four; Westwood+ twice and
    // NewReno at 1 %; "Late news" five ways; the BBR v2 slides' fifteen.
    let counts: Vec<usize> = findings_agree_with_the_verdicts(dir.path()).iter().map(|f| f.1).collect();
    assert_eq!(counts, [13, 4, 7, 4, 3, 5, 15]);
    let held = |start: &str| verdicts.iter().find(|c| c[0].starts_with(start)).map(|c| (c[4].clone(), c[2].clone())).unwrap_or_else(|| panic!("no claim {start}"));
    // The control laws at work: CUBIC keeps 0.7 of its window (Linux's beta = 717/1024),
    // Illinois 7/8 with no queue and 1/2 at a full one, each within 1 % (the window grows for
    // at most one 10 ms sample before the loss); BBR leaves Startup after three round trips
    // of less than 25 % growth, and not earlier. CUBIC regains 90 % of the way to Wmax at
    // K(1 − ∛0.1), within the lag of a window aimed at W(t + d_min) and reached over one RTT;
    // BBR's Drain leaves once inflight is down to one estimated BDP, so the queue Startup
    // built is gone but for the quantisation budget; the initial window is Linux's
    // TCP_INIT_CWND of 10 segments (RFC 6928); HighSpeed above 38 segments grows by
    // RFC 3649's a(w) and keeps 1 − b(w) at each loss, evaluated at the run's own windows;
    // Vegas queues a few packets where Reno
    // fills the buffer before each loss, and changes its window one segment at a time, down
    // and up. The talk's lists, measured (`sharkfest::qualities`):
    // every loss-based algorithm alone loses packets after its slow-start overshoot (the
    // "cliff") and Vegas none; the least oscillating loss-based window varies more than
    // Vegas's; at the loss rate where Scalable's equilibrium window is one BDP, Reno's Mathis
    // window is a small part of it, so Scalable's goodput is above Reno's; HighSpeed takes more
    // from Reno on the 333-segment testbed than on a 17-segment link, where it is Reno but for
    // Linux's cut to ⌈w/2⌉ (its share there "as Reno's own" is judged by equivalence, which three
    // seeds of a 17-segment link cannot show, so it is not asserted); BBR v1's
    // five flows on a tenth of a BDP of buffer lose more than CUBIC's and BBRv3's; without loss
    // Westwood+ grows as Reno does. Each direction holds on every seed and beyond the spread.
    // Illinois's 1 − β falls linearly between 10 % and 80 % of its largest delay: the law's
    // slope, −15/28, lies in the 95 % confidence interval of the one fitted to its cuts.
    // Five Vegas flows fill the link better than Reno's on a buffer of 5β packets, and lead
    // them by less on one of half the 5α packets they aim to queue; with the testbed host's timing noise Vegas
    // falls further short of Reno at a 0.2 ms RTT than at 100 ms. Against one flow of any
    // loss-based algorithm Vegas gets less than half. The BBR v2 slides
    // (`sharkfest::bbr_v2`): under DCTCP's step marking at K = ⌈BDP/7⌉ the marks take CUBIC's
    // (classic ECN, no drop left) and BBRv3's queue down by more than K and leave BBR v1's
    // within K either way; BBRv3 with ECN keeps the link fuller than CUBIC with classic ECN;
    // BBR v1's goodput at 5 % loss over at 1 % lies between (1 − 0.05)/(1 − 0.01) and 1, and
    // BBRv3's ratio falls below v1's (its 2 % target); BBRv3's ProbeRTT keeps half the BDP
    // (±1 segment) and delivers more than BBR v1's 4 packets. The talk's flowgrind sample, each column
    // exact: with no RTT sample the first flight times out at RFC 6298's 1 s, to cwnd 1
    // (RFC 5681's loss window), ssthresh 5 (Linux halves cwnd, not the one segment in flight)
    // and an RTO doubled to 2 s (one backoff), after one retransmission, still outstanding, with
    // the reordering degree at Linux's initial 3. Large buffers: Reno's mean RTT over
    // whole sawtooth cycles is (7/9)(B + BDP)/C within 1 % (the window spends time in
    // proportion to itself between W₂/2 and W₂), its goodput the link's on 1 and 4 BDPs, and a
    // 1 MB transfer finishes sooner on 4 BDPs than on a tenth of one, where slow start overflows.
    // CUBIC's TCP friendly region gives it far more at a 10 ms RTT, where its curve's K spans
    // hundreds of round trips, than without it; fast convergence
    // makes a CUBIC flow give up more to a newcomer. Westwood+ under random loss with no queue
    // keeps its window through a recovery, short of it only by its two filters' lag. Compound's
    // delay window, HighSpeed's growth while under γ packets are queued, outruns Reno where no
    // queue forms.
    for claim in [
        "Scalable's recovery time after a loss",
        "ProbeBW's up phase",
        "ProbeBW's down phase",
        "ProbeRTT's cwnd",
        "CUBIC: \"Reduce cwnd by 30%",
        "Illinois: \"If delay is small",
        "Illinois: \"If delay is up to 80%",
        "Tahoe: slow start",
        "Tahoe: \"a = 1/cwnd\"",
        "Tahoe: \"b = 0.5\"",
        "Reno: \"a = 1/cwnd\"",
        "Reno: \"b = 0.5\"",
        "Scalable: \"cwnd + 0.01",
        "Scalable: \"cwnd * 0,875\"",
        "HighSpeed: \"If cwnd is less than 38",
        "HighSpeed below 38",
        "Illinois: \"If average delay is at minimum",
        "Illinois: \"If average delay is at maximum",
        "Vegas: \"1 per RTT",
        "Westwood+: \"cwnd (on loss)",
        "CUBIC: W(t) = C(t − K)³ + Wmax",
        "\"Initial window size nowadays usually equals 10 packets\"",
        "HighSpeed above 38 segments: \"a(w)",
        "HighSpeed above 38 segments: \"cwnd − b(cwnd)",
        "Drain gets rid of the queue Startup formed",
        "Vegas keeps the RTT small",
        "Loss-based algorithms \"Often visit",
        "Vegas \"Doesn't act on Cliff zone\"",
        "Loss-based: \"1-Bit congestion indicator",
        "Scalable \"Much more efficient",
        "BBR v1 \"Ignores packet loss",
        "BBR v2 \"Addresses",
        "Illinois: \"In between is a linear function\"",
        "Vegas \"Doesn't like small buffers\"",
        "Vegas on a buffer of 5β",
        "Vegas \"Doesn't like small RTTs\"",
        "Vegas \"Gets beaten by any loss-based algorithm\": its largest share",
        "CUBIC: \"ECN: RFC3168 (Classic ECN)\"",
        "CUBIC with classic ECN loses no packet",
        "BBR v1: \"No ECN support\"",
        "BBR v2: \"DCTCP-inspired ECN\"",
        "BBRv3 with its \"DCTCP-inspired\" ECN keeps the link fuller",
        "BBR v1: \"Loss: N/A\"",
        "BBR v2: \"Explicit loss rate target\"",
        "Above its loss target BBR v2 backs off",
        "BBR v1's \"RTT probe is too aggressive\"",
        "BBRv3's ProbeRTT window: half the BDP",
        "Vegas: \"Switch to Reno if there are not enough RTT samples\"",
        "flowgrind sample: rto before any RTT sample",
        "flowgrind sample: the first timeout",
        "flowgrind sample: cwnd at the timeout",
        "flowgrind sample: ssthresh at the timeout",
        "flowgrind sample: rto after the timeout",
        "flowgrind sample: retransmissions outstanding after the timeout",
        "flowgrind sample: retransmissions in all",
        "flowgrind sample: RTO backoffs",
        "flowgrind sample: the reordering degree",
        "Large buffers \"Actually make things worse",
        "Large buffers \"Doesn't help",
        "Buffers are \"good for ... short-lived connections\"",
        "CUBIC's \"TCP friendly region\" is what keeps it there",
        "CUBIC's \"Fast convergence\"",
        "Westwood+: \"no change, if cwnd ≤ BWE × RTT_noLoad\"",
        "Compound: \"combine fairness of delay-based CA with aggressiveness",
    ] {
        let (verdict, ours) = held(claim);
        // Rows that check our code against a rule the talk or its source states conform.
        assert!(verdict == "holds" || verdict == "conforms", "{claim}: {verdict}, ours {ours}");
    }
    // The talk's own Vegas leaves slow start one doubling late and loses once (mVegas, seed
    // 004's, would not, but the talk does not show it).
    let (verdict, ours) = held("\"Transition to congestion avoidance state could be done with no observed packet loss at all\"");
    assert_eq!(verdict, "does not hold", "ours {ours}");
    // The rules the talk states, read off our controllers' own state, are checks of our code.
    let westwood: Vec<_> = verdicts.iter().filter(|c| c[0].starts_with("Westwood+: \"If no loss is observed")).collect();
    assert_eq!(westwood.len(), 2);
    assert!(westwood.iter().all(|c| c[4] == "conforms"), "{westwood:?}");
    // Vegas's AIAD, both halves: the testbed run settles down from slow start's overshoot,
    // the lossy one with no queue climbs back after each halving; every change one segment.
    let aiad: Vec<_> = verdicts.iter().filter(|c| c[0].starts_with("Vegas: \"Uses AIAD")).collect();
    assert_eq!(aiad.len(), 2);
    assert!(aiad.iter().all(|c| c[4] == "conforms"), "{aiad:?}");
    let count = |c: &[String], dir: &str| c[0].rsplit(": ").next().unwrap().split(", ").find_map(|x| x.strip_suffix(dir)).unwrap().trim().parse::<usize>().unwrap();
    assert!(aiad.iter().map(|c| count(c, " up")).sum::<usize>() > 0 && aiad.iter().map(|c| count(c, " down")).sum::<usize>() > 0, "{aiad:?}");
    let startup: Vec<_> = verdicts.iter().filter(|c| c[0].starts_with("BBR: Startup")).collect();
    assert_eq!(startup.len(), 2);
    assert!(startup.iter().all(|c| c[4] == "conforms"), "{startup:?}");
    assert_eq!(held("CUBIC: \"Set cnwnd").0, "does not hold", "the talk's β = 0.8 would keep a fifth of the window");
    // Our CUBIC falls short of Reno's share on 10 Mbit/s × 10 ms where Linux's does not (the
    // claim's why: the kernel's runs through the same link); the region still lifts it above
    // CUBIC without it (checked above). Reported, not asserted either way.
    // HighSpeed "Behaves less aggressive if a path is not LFN": its share against Reno on the
    // testbed (0.82, sd 0.001) above that on 2 Mbit/s, where it is Reno and the share swings
    // (sd 0.07-0.12 over three seeds): Welch's p was 0.024 and 0.063 in two builds, so three
    // seeds cannot settle it either way. Reported, not asserted.
    // Linux's Westwood+ sets cwnd to BWE·RTT_min when recovery ends, below the slide's cwnd/2
    // where the buffer holds more than a BDP.
    assert_eq!(held("Westwood+: the same law on 3 BDPs").0, "does not hold");
    // Where on the path a drop happens: the sender's timeline is the round trip's however it is
    // split, so a drop at the beginning is heard of later by the whole access delay (50 ms),
    // but slow start's episode drops the same packets wherever the queue is.
    assert_eq!(held("The news of a drop at the beginning of the path").0, "holds");
    assert_eq!(held("Late news from the beginning of the path costs more").0, "does not hold");
    // Slow start's overshoot grows with the RTT while it sends without a break (BDP + B: 25
    // against 200 ms, about 209 against 473 packets), and stops growing once its rounds are
    // bursts that leave the queue to empty (w + B − min(B, BDP − w): 320 at 400 ms).
    assert_eq!(held("Late news costs more at a longer RTT in slow start:").0, "holds");
    assert_eq!(held("Late news costs more at a longer RTT in slow start beyond").0, "does not hold");
}

/// Savage et al. (CCR 1999): against the undefended Reno sender, ACK division, one spoofed
/// duplicate per ACK and optimistic ACKs each win the attacker throughput over the honest flow
/// (the unit and simulator tests, `crates/sim/tests/attacks.rs`, derive by how much); with the
/// defences on no attacker on a Reno or CUBIC sender gains more than 10 points over the honest
/// pair on the same seeds (the bound; the mean effect over fast mode's 5 seeds of 600 s:
/// the defences leave the attacker the honest flow's behaviour, so its expected effect is 0, and
/// two honest flows' gains vary by a few points per seed over 600 s), and optimistic ACKing
/// costs the attacker data.
#[test]
fn attacks_win_against_undefended_reno_and_defences_remove_the_gain() {
    let dir = tempfile::tempdir().unwrap();
    run_experiment("attacks", dir.path());
    assert!(dir.path().join("report.html").exists());
    let t = rows(&dir.path().join("attacker-vs-honest-flow.csv"));
    let row = |cc: &str, attack: &str, d: &str| t.iter().find(|r| r[0] == cc && r[1] == attack && r[2] == d).unwrap().clone();
    let points = |cell: &str| cell.parse::<f64>().unwrap();
    let header = csv::Reader::from_path(dir.path().join("attacker-vs-honest-flow.csv")).unwrap().headers().unwrap().clone();
    assert_eq!((&header[7], &header[11]), ("effect (points)", "verdict"));
    for attack in ["ack-division 10", "dup-ack-spoofing 1", "optimistic-ack 20"] {
        let r = row("reno", attack, "off");
        assert!(points(&r[7]) > 10.0, "{attack}, undefended: {r:?}");
        assert_eq!(r[11], "holds", "{r:?}");
    }
    for cc in ["reno", "cubic"] {
        for r in t.iter().filter(|r| r[0] == cc && r[2] == "on") {
            assert!(points(&r[7]) <= 10.0, "{r:?}");
        }
    }
    assert_ne!(row("reno", "optimistic-ack 20", "off")[10], "0");
}

/// Seed 000, out of sample: the model's one fitted value (the share of dead addresses behind
/// answering routers) is fitted on the 5000-address speed-up over seeds 1-8, so only the other
/// two workloads on the check seeds are asserted. The seed's direction, scaled faster than
/// unscaled, holds there on every check seed at the fitted share (and is judged at every share
/// the fit admits, where it need not hold), as do its "many more drops" on the 10000-address
/// scan. The seed's growth arithmetic: unscaled, 1 % of probes answered, cwnd 100 grows by
/// 1/100 per round trip ("100 times slower"); scaled by the seed's rule (scaled-wiki, no cap),
/// one probe per round trip, as the seed argues (the merged code's cap of 50 would halve it,
/// which the row's why says). Every figure
/// touched by the fit is labelled fitted. The seed's shapes on the 10000-address scan ("here
/// you can really see the shallow square root shape"): unscaled congestion avoidance nearer a
/// square root than a line (half-time exponent below 0.75, halfway between 0.5 and 1) and still
/// bending after its first 5 % (see the row's comment), scaled nearer TCP's line. "If a probe gets no response, it's not counted as a drop as it would be
/// with TCP": with TCP's rule instead, where ~98 % of probes go unanswered every window of probes
/// has a drop and halves, so the scan is slower on every seed; and no host window ever holds a
/// send in host discovery (at most 6 probes per host against an initial host window of 10), so
/// the seed's "host congestion control is unchanged" is not comparable here.
#[test]
fn nmap_scaling_the_seeds_scaled_rule_is_faster_out_of_sample_and_the_fit_is_labelled() {
    let dir = tempfile::tempdir().unwrap();
    run_experiment("nmap-scaling", dir.path());
    let t = rows(&dir.path().join("scan-time-per-check-seed-out-of-sample.csv"));
    assert!(t.iter().all(|r| r[1].parse::<u64>().unwrap() > 8), "check seeds are not fit seeds: {t:?}");
    for r in t.iter().filter(|r| r[0] == "500" || r[0] == "10000") {
        let (u, sw): (f64, f64) = (r[2].parse().unwrap(), r[3].parse().unwrap());
        assert!(sw < u, "{} addresses, seed {}: scaled-wiki {sw} s, unscaled {u} s", r[0], r[1]);
        if r[0] == "10000" {
            assert!(r[8].parse::<u64>().unwrap() > r[7].parse::<u64>().unwrap(), "drops {r:?}");
        }
        assert!(!r[6].contains("fitted"), "{r:?}");
    }
    assert!(t.iter().filter(|r| r[0] == "5000").all(|r| r[6].ends_with("fitted")), "{t:?}");
    let v = rows(&dir.path().join("verdicts.csv"));
    let verdict = |claim: &str| v.iter().find(|r| r[0].starts_with(claim)).map(|r| r[4].clone()).unwrap();
    // The library's window update on the seed's arithmetic: checks of our code.
    assert_eq!(verdict("1 % answered, cwnd 100: unscaled growth"), "conforms");
    assert_eq!(verdict("1 % answered, cwnd 100: scaled growth"), "conforms");
    // "Here you can really see the shallow square root shape": over whole stretches the
    // unscaled window is nearer a square root than a line (k's interval below 0.75), and after
    // a stretch's first 5 % its mean exponent k' is still on the square root's side of the
    // midpoint 0.816 (a jump then a line would give 1); with four check seeds k''s interval may
    // reach across it, so the whole row may be "not settled", never "does not hold".
    let root = v.iter().find(|r| r[0].starts_with("10000 addresses, unscaled: congestion avoidance grows like a square root")).unwrap();
    assert!(root[2].starts_with("the whole stretch, k ≤ 0.75: holds"), "{root:?}");
    let after: f64 = root[2].split("k' ≤ 0.816: ").nth(1).and_then(|p| p.split(" (").nth(1)).and_then(|m| m.split_whitespace().next()).unwrap().parse().unwrap();
    assert!(after < 0.816 && root[4] != "does not hold", "{root:?}");
    // The seed's cap on scaled slow start: no slow-start step of scaled-wiki's group window
    // ends above ccthresh, in any check scan (the library's cap: a check of our code).
    assert_eq!(verdict("scaled (scaled-wiki): slow start's scaled increments capped at ccthresh"), "conforms");
    // Scaled, the seed's "as if we were getting cwnd responses per RTT" (a line, k = 1): the
    // mean k over the check seeds lies on the line's side of the midpoint 0.75 between a line
    // and a square root (with four seeds in fast mode its confidence interval may reach across).
    let line = v.iter().find(|r| r[0].starts_with("10000 addresses, scaled-wiki: congestion avoidance grows as a line")).unwrap();
    let k: f64 = line[2].split_whitespace().next().unwrap().parse().unwrap();
    assert!(k > 0.75, "{line:?}");
    for h in ["500", "5000"] {
        assert_eq!(verdict(&format!("{h} addresses: an unanswered probe is not a drop")), "holds");
    }
    let hosts = v.iter().find(|r| r[0].starts_with("host congestion control unchanged")).unwrap();
    assert!(hosts[2].starts_with("host windows held 0 sends") && hosts[4] == "not comparable", "{hosts:?}");
    assert!(v.iter().filter(|r| r[0].contains("(fitted)")).all(|r| r[4] == "fitted"), "{v:?}");
    assert!(v.iter().any(|r| r[4] == "fitted"));
    // The fit pins the share only to a range of the grid: the out-of-sample directions are
    // judged at every share of it too, one part per share, and that row's why names the shares
    // where the direction fails.
    for h in ["500", "10000"] {
        let r = v.iter().find(|r| r[0].starts_with(&format!("{h} addresses: scaled faster than unscaled at every router share the fit admits"))).unwrap();
        assert!(r[2].matches(" %: ").count() >= 2, "{r:?}");
        assert!(r[4] == "holds" || r[5].contains(" and not at "), "{r:?}");
    }
    // Rows per finding: scaled faster at the fitted share and across the fit's range on the
    // two workloads not fitted, and the fitted one's; each workload's two shapes; packet_ratio's
    // six statistics.
    let counts: Vec<usize> = findings_agree_with_the_verdicts(dir.path()).iter().map(|f| f.1).collect();
    assert_eq!(counts, [5, 6, 6]);
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
    // The talk's "Too slow": slow start reaches 90 % of the link ⌈log₂(0.9·BDP/IW)⌉ + 1.9 round
    // trips after it starts (the round whose window first passes 0.9 BDP is acknowledged at the
    // link's rate from a round trip later), read to one RTT/10 sample, on every link and seed.
    let too_slow = claims.iter().find(|r| r[0].starts_with("slow start is \"Too slow\"")).expect("the Too slow claim");
    // The law is the rule our slow start implements: a check of our code.
    assert_eq!(too_slow[4], "conforms", "{too_slow:?}");
    // The talk's other slow-start problems (`startup::problems`): the last round at twice the
    // link's rate overflows a one-BDP buffer ("Too fast") after filling it to its limit, a
    // largest queueing delay of at least (⌊L/w⌋ − 1) packet times ("Spikes"); a tenth of a
    // BDP of buffer and a drop of the 20th packet each end slow start early, cost time to 90 %
    // on every link and seed where they do, and Reno's one segment per round trip from there
    // gives that time within a round and a sample at each end plus a packet's time per round.
    let problems = [
        "slow start is \"Too fast\"",
        "slow start's \"Spikes in queuing delay\"",
        "slow start ended early (a tenth of a BDP of buffer)",
        "slow start ended early (one BDP, packet 20 dropped)",
        "…and Reno's climb explains the cost",
    ];
    for p in problems {
        let of: Vec<_> = claims.iter().filter(|r| r[0].starts_with(p)).collect();
        assert!(!of.is_empty() && of.iter().all(|r| r[4] == "holds"), "{p}: {of:?}");
    }
    let climbs = rows(&dir.path().join("slow-start-s-problems-3-and-5-the-talk-ended-early-then-reno-s-climb-means-over-seeds.csv"));
    assert_eq!(climbs.len(), 6, "both early ends on 10 Mbit/s × 50 ms and 100 Mbit/s × 20 and 50 ms");
}
