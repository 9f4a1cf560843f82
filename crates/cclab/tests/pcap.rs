//! `cclab run --pcap FILE`: Wireshark's own reader and TCP analysis (`tshark`, Debian's package
//! of that name) open the file and count what the summary counts. These tests fail if tshark is
//! missing; set CCLAB_NO_TSHARK to skip the ones that need it.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

/// Every retransmission, whichever name Wireshark gives it. In a capture on the sender, a data
/// segment below the highest sequence number sent so far is a retransmission: Wireshark calls
/// it a fast retransmission (after two duplicate ACKs), a spurious one (its data was already
/// acknowledged), out-of-order (sent less than the initial RTT after the highest segment: at a
/// sender that can only be a retransmission, as new data leaves in order), or else plainly a
/// retransmission. A packet matches once however many of these it carries.
const RETRANSMISSIONS: &str = "tcp.analysis.retransmission || tcp.analysis.fast_retransmission \
     || tcp.analysis.spurious_retransmission || tcp.analysis.out_of_order";

/// Flow k's sender port (see `cclab::pcap`).
const FIRST_SENDER_PORT: u64 = 40000;

fn cclab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cclab")).args(args).output().expect("cclab runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs cclab with `--pcap FILE --json`; returns each flow's summary.
fn run_with_pcap(args: &[&str], pcap: &Path) -> Vec<serde_json::Value> {
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    all.extend(["--pcap", pcap.to_str().expect("UTF-8 path"), "--json"]);
    let o = cclab(&all);
    assert!(o.status.success(), "cclab {all:?}: {}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    v["flows"].as_array().expect("flows[]").clone()
}

/// Whether to run the tests that need tshark: yes, unless CCLAB_NO_TSHARK is set.
fn want_tshark() -> bool {
    if std::env::var_os("CCLAB_NO_TSHARK").is_some() {
        eprintln!("skipped: CCLAB_NO_TSHARK is set");
        return false;
    }
    true
}

/// tshark's output, after checking that it read the file cleanly.
fn tshark(file: &Path, args: &[&str]) -> String {
    let o = Command::new("tshark").arg("-r").arg(file).args(args).output().unwrap_or_else(|e| {
        panic!("tshark could not run ({e}): install Debian's `tshark` package, or set CCLAB_NO_TSHARK=1 to skip this test")
    });
    let err = stderr(&o);
    assert!(o.status.success(), "tshark {args:?} failed: {err}");
    // tshark's complaints about a file: "appears to be damaged or corrupt", "appears to have
    // been cut short", "isn't a capture file in a format TShark understands".
    assert!(!err.contains("appears") && !err.contains("isn't a capture file"), "tshark: {err}");
    String::from_utf8(o.stdout).expect("tshark prints UTF-8")
}

/// How many packets match `filter`, per flow (by TCP source port).
fn count_by_flow(file: &Path, filter: &str) -> BTreeMap<u64, u64> {
    let mut counts = BTreeMap::new();
    for line in tshark(file, &["-Y", filter, "-T", "fields", "-e", "tcp.srcport"]).lines() {
        let port: u64 = line.trim().parse().unwrap_or_else(|_| panic!("a port: {line:?}"));
        *counts.entry(port - FIRST_SENDER_PORT).or_insert(0) += 1;
    }
    counts
}

/// What the summary says of each flow under `key`, by flow id (zeros left out, as tshark
/// prints nothing for them).
fn ours_by_flow(flows: &[serde_json::Value], key: &str) -> BTreeMap<u64, u64> {
    flows
        .iter()
        .map(|f| (f["id"].as_u64().expect("id"), f[key].as_u64().unwrap_or_else(|| panic!("{key}"))))
        .filter(|&(_, n)| n > 0)
        .collect()
}

#[test]
fn tshark_sees_the_retransmissions_we_count() {
    if !want_tshark() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cases: [&[&str]; 2] = [
        &["--cc", "newreno,cubic", "--flows", "2", "--rate", "10mbit", "--rtt", "60ms", "--loss", "1%", "--duration", "20s"],
        // Cumulative ACKs only and heavy loss: NewReno recovery and retransmission timeouts.
        &["--cc", "reno,cubic", "--flows", "2", "--rate", "10mbit", "--rtt", "60ms", "--loss", "5%", "--duration", "20s", "--no-sack"],
    ];
    for (k, args) in cases.iter().enumerate() {
        let file = dir.path().join(format!("lossy{k}.pcap"));
        let flows = run_with_pcap(args, &file);
        let ours = ours_by_flow(&flows, "retransmits");
        assert!(ours.values().sum::<u64>() > 20, "a lossy run retransmits: {ours:?}");
        if k == 1 {
            assert!(ours_by_flow(&flows, "timeouts").values().sum::<u64>() > 0, "{args:?} has timeouts");
        }
        assert_eq!(count_by_flow(&file, RETRANSMISSIONS), ours, "retransmissions per flow, tshark's vs ours, {args:?}");
        assert_eq!(count_by_flow(&file, "tcp.len > 0"), ours_by_flow(&flows, "segments_sent"), "data packets per flow, {args:?}");
    }
}

#[test]
fn tshark_reads_every_packet_of_a_lossless_run() {
    if !want_tshark() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("clean.pcap");
    let flows = run_with_pcap(&["--cc", "cubic,bbr", "--flows", "2", "--rate", "20mbit", "--rtt", "40ms", "--rwnd", "64KB", "--duration", "5s"], &file);
    assert_eq!(ours_by_flow(&flows, "retransmits"), BTreeMap::new(), "a lossless run");
    assert_eq!(count_by_flow(&file, "tcp.len > 0"), ours_by_flow(&flows, "segments_sent"), "data packets per flow");
    assert_eq!(count_by_flow(&file, RETRANSMISSIONS), BTreeMap::new());
    // One handshake per flow, with the options Wireshark needs.
    let syns = tshark(&file, &["-Y", "tcp.flags.syn == 1", "-T", "fields", "-e", "tcp.options.mss_val", "-e", "tcp.options.wscale.shift", "-e", "tcp.options.sack_perm"]);
    assert_eq!(syns.lines().count(), 4, "SYN and SYN-ACK of two flows:\n{syns}");
    assert!(syns.lines().all(|l| l.starts_with("1448\t14\t")), "MSS 1448, window scale 14, SACK permitted:\n{syns}");
    // IPv4 header checksums and the checksums of the (fully captured) ACKs are right.
    let bad = tshark(&file, &["-o", "ip.check_checksum:TRUE", "-o", "tcp.check_checksum:TRUE", "-Y", "ip.checksum.status == 0 || tcp.checksum.status == 0"]);
    assert_eq!(bad, "", "bad checksums");
    let good_acks = tshark(&file, &["-o", "tcp.check_checksum:TRUE", "-Y", "tcp.srcport == 5201 && tcp.checksum.status == 1"]);
    assert!(good_acks.lines().count() > 100, "ACK checksums verified");
}

/// With `--handshake` the SYN leaves at the flow's start and the SYN-ACK comes back one base RTT
/// later, with the first data: Wireshark's initial RTT (SYN to the ACK of the SYN-ACK) is the
/// path's base RTT, 60 ms, and the first data follows that ACK at once.
#[test]
fn a_handshake_takes_one_base_rtt_in_the_capture() {
    if !want_tshark() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("handshake.pcap");
    run_with_pcap(&["--cc", "cubic", "--rate", "10mbit", "--rtt", "60ms", "--duration", "1s", "--handshake"], &file);
    let first = tshark(&file, &["-c", "4", "-T", "fields", "-e", "frame.time_relative", "-e", "tcp.flags.str", "-e", "tcp.len"]);
    let rows: Vec<Vec<&str>> = first.lines().map(|l| l.split('\t').collect()).collect();
    let at = |k: usize| rows[k][0].parse::<f64>().unwrap_or_else(|_| panic!("a time: {first}"));
    let flags = |k: usize| rows[k][1].replace('\u{b7}', "");
    assert_eq!((flags(0), flags(1), flags(2)), ("S".to_string(), "AS".to_string(), "A".to_string()), "SYN, SYN-ACK, ACK:\n{first}");
    assert_eq!((at(0), at(1), at(2), at(3)), (0.0, 0.06, 0.06, 0.06), "SYN at 0, the rest one RTT later:\n{first}");
    assert_ne!(rows[3][2], "0", "data after the handshake:\n{first}");
    let irtt = tshark(&file, &["-c", "4", "-Y", "tcp.len > 0", "-T", "fields", "-e", "tcp.analysis.initial_rtt"]);
    assert_eq!(irtt.lines().next().map(str::trim), Some("0.060000000"), "Wireshark's initial RTT:\n{irtt}");
}

#[test]
fn a_sized_transfer_ends_at_its_size() {
    if !want_tshark() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let scenario = dir.path().join("sized.toml");
    std::fs::write(&scenario, "duration = \"10s\"\n[link]\nrate = \"10mbit\"\nloss = \"2%\"\n[[flows]]\ncc = \"newreno\"\nsize = \"100000B\"\n").unwrap();
    let file = dir.path().join("sized.pcap");
    let flows = run_with_pcap(&[scenario.to_str().unwrap()], &file);
    assert_eq!(flows[0]["bytes_delivered"].as_u64(), Some(100_000), "{:?}", flows[0]);
    // Relative sequence numbers: the SYN takes 0, data bytes 1..=100000.
    let ends = tshark(&file, &["-Y", "tcp.len > 0", "-T", "fields", "-e", "tcp.nxtseq"]);
    let last_byte = ends.lines().map(|l| l.trim().parse::<u64>().unwrap()).max();
    assert_eq!(last_byte, Some(100_001), "the data ends after 100000 bytes");
    let acks = tshark(&file, &["-Y", "tcp.srcport == 5201", "-T", "fields", "-e", "tcp.ack"]);
    assert_eq!(acks.lines().last(), Some("100001"), "the last ACK covers everything");
    assert_eq!(count_by_flow(&file, RETRANSMISSIONS), ours_by_flow(&flows, "retransmits"));
}

#[test]
fn same_run_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--cc", "newreno", "--rate", "10mbit", "--rtt", "30ms", "--loss", "1%", "--duration", "3s", "--ecn"];
    let (a, b) = (dir.path().join("a.pcap"), dir.path().join("b.pcap"));
    run_with_pcap(&args, &a);
    run_with_pcap(&args, &b);
    let (a, b) = (std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
    assert!(a.len() > 10_000, "{} bytes", a.len());
    assert!(a == b, "two runs of the same scenario wrote different captures");
    // A nanosecond-resolution pcap, little-endian, snap length 65535 in the header (frames are
    // cut at 128 bytes), Ethernet.
    assert_eq!(a[..4], 0xA1B2_3C4Du32.to_le_bytes());
    assert_eq!(a[16..24], [255, 255, 0, 0, 1, 0, 0, 0]);
}

#[test]
fn pcap_problems_are_user_errors() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/dir/x.pcap");
    let o = cclab(&["run", "--cc", "reno", "--duration", "1s", "--pcap", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.starts_with("error: ") && err.contains("x.pcap") && err.trim_end().lines().count() == 1, "{err}");
    let o = cclab(&["run", "--duration", "1s", "--pcap", dir.path().join("y.pcap").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--pcap"), "{}", stderr(&o));
}
