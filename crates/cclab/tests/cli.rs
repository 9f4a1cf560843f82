//! The `cclab` command as a user runs it.

use std::path::Path;
use std::process::{Command, Output};

fn cclab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cclab")).args(args).output().expect("cclab runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A user error: exit code 2 and one line on stderr that says what is wrong.
fn assert_user_error(o: &Output, must_contain: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "exit status for {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    for m in must_contain {
        assert!(err.contains(m), "`{m}` missing from: {err}");
    }
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn run_with_flags_prints_the_table() {
    let o = cclab(&["run", "--cc", "reno", "--rate", "40mbit", "--rtt", "100ms", "--duration", "10s"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for want in ["reno", "goodput", "utilisation", "Jain", "rtt min/mean/p95"] {
        assert!(out.contains(want), "`{want}` missing:\n{out}");
    }
}

/// `--drop-packets`: the listed packets and no others are lost on a buffer Reno never fills,
/// each retransmitted once, and the summary counts them as listed drops.
#[test]
fn listed_drops_are_the_only_losses() {
    let o = cclab(&["run", "--cc", "reno", "--rate", "10mbit", "--buffer", "100bdp", "--duration", "5s", "--drop-packets", "20,35", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    assert_eq!((v["link"]["drops"].as_u64(), v["link"]["listed_drops"].as_u64()), (Some(2), Some(2)), "{}", v["link"]);
    assert_eq!(v["flows"][0]["retransmits"].as_u64(), Some(2));
}

#[test]
fn default_run_compares_every_algorithm() {
    let o = cclab(&["run", "--duration", "5s"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for a in cc::algorithm_names() {
        assert!(out.lines().any(|l| l.starts_with(a)), "no row for {a}:\n{out}");
    }
}

#[test]
fn json_summary_has_the_documented_fields() {
    let o = cclab(&["run", "--cc", "newreno,none", "--flows", "2", "--rate", "10mbit", "--rtt", "60ms", "--loss", "1%", "--duration", "5s", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    for k in ["jain_index", "seed", "sim_time_s", "wall_time_s", "events", "packets"] {
        assert!(v[k].is_number(), "{k}");
    }
    let flows = v["flows"].as_array().unwrap();
    assert_eq!(flows.len(), 2);
    assert_eq!(flows[1]["cc"], "none");
    for k in ["id", "throughput_bps", "goodput_bps", "bytes_delivered", "retransmits", "timeouts"] {
        assert!(flows[0][k].is_number(), "flows[].{k}");
    }
    for k in ["min", "mean", "p95"] {
        assert!(flows[0]["rtt_ms"][k].is_number(), "rtt_ms.{k}");
        assert!(v["link"]["queue_delay_ms"][k].is_number(), "queue_delay_ms.{k}");
    }
    for k in ["utilization", "drops", "overflow_events"] {
        assert!(v["link"][k].is_number(), "link.{k}");
    }
}

#[test]
fn same_seed_same_bytes_different_seed_different_run() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write(
        dir.path(),
        "s.toml",
        r#"
duration = "20s"
[link]
rate = "10mbit"
netem = "delay 10ms 5ms 25% loss 0.5%"
[[flows]]
cc = "newreno"
count = 2
rtt = "60ms"
[[flows]]
cc = "reno"
start = "3s"
"#,
    );
    let run = |seed: &str, out: &str| {
        let o = cclab(&["run", &scenario, "--seed", seed, "--out", out, "--quiet"]);
        assert!(o.status.success(), "{}", stderr(&o));
    };
    let (a, b, c) = (dir.path().join("a"), dir.path().join("b"), dir.path().join("c"));
    run("7", a.to_str().unwrap());
    run("7", b.to_str().unwrap());
    run("8", c.to_str().unwrap());
    let read = |d: &Path, f: &str| std::fs::read(d.join(f)).unwrap();
    assert_eq!(read(&a, "timeseries.csv"), read(&b, "timeseries.csv"));
    assert_eq!(read(&a, "link.csv"), read(&b, "link.csv"));
    let summary = |d: &Path| {
        let mut v: serde_json::Value = serde_json::from_slice(&read(d, "summary.json")).unwrap();
        v["wall_time_s"] = serde_json::Value::Null;
        v
    };
    assert_eq!(summary(&a), summary(&b));
    assert_ne!(read(&a, "timeseries.csv"), read(&c, "timeseries.csv"));
    let header = String::from_utf8(read(&a, "timeseries.csv")).unwrap();
    assert!(header.starts_with("time,flow,cwnd,ssthresh,inflight,sacked,lost,retr,rtt,rttvar,rto,state,pacing_rate,throughput"), "{}", &header[..120]);
    // The resolved scenario is written next to the results and runs again.
    let again = cclab(&["run", a.join("scenario.toml").to_str().unwrap(), "--seed", "7", "--json"]);
    assert!(again.status.success(), "{}", stderr(&again));
}

/// A run on a Mahimahi trace writes a scenario.toml that names the trace (absolute) and no rate
/// (a trace sets the capacity, and a file giving both is refused), and runs again to the same
/// figures.
#[test]
fn a_trace_runs_scenario_runs_again() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("steps.down");
    std::fs::write(&trace, (1..=100).map(|ms| format!("{ms}\n{ms}\n")).collect::<String>()).unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let o = cclab(&["run", "--cc", "cubic", "--trace-down", trace.to_str().unwrap(), "--duration", "3s", "--out", a.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let written = std::fs::read_to_string(a.join("scenario.toml")).unwrap();
    assert!(!written.contains("rate ="), "no rate beside the trace:\n{written}");
    let o = cclab(&["run", a.join("scenario.toml").to_str().unwrap(), "--out", b.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(a.join("link.csv")).unwrap(), std::fs::read(b.join("link.csv")).unwrap());
}

#[test]
fn malformed_scenarios_are_one_line_errors_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let flows = "[[flows]]\ncc = \"reno\"\n";
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        ("unknown key", format!("[link]\nrat = \"40mbit\"\n{flows}"), vec!["link", "unknown field `rat`", "`rate`"]),
        ("wrong unit", format!("[link]\nrate = \"40 parsecs\"\n{flows}"), vec!["link.rate", "parsecs", "40mbit"]),
        ("negative duration", format!("duration = \"-5s\"\n{flows}"), vec!["duration", "negative"]),
        ("empty flow list", "flows = []\n".to_string(), vec!["flows"]),
        ("unknown algorithm", "[[flows]]\ncc = \"vegaz\"\n".to_string(), vec!["flows[0].cc", "vegaz", "newreno"]),
        ("unknown parameter", "[[flows]]\ncc = { algorithm = \"reno\", beta = 0.7 }\n".to_string(), vec!["beta"]),
        ("bad netem", format!("[link]\nnetem = \"delay 10ms reorder 5%\"\n{flows}"), vec!["link.netem", "reorder"]),
        ("toml syntax", "duration = \n".to_string(), vec!["s.toml"]),
        ("number for a time", format!("duration = 60\n{flows}"), vec!["duration", "a time like"]),
        ("unknown queue", format!("[link]\nqueue = \"wred\"\n{flows}"), vec!["link.queue", "wred", "codel"]),
        ("unknown queue parameter", format!("[link]\nqueue = {{ type = \"red\", min_thresh = 5 }}\n{flows}"), vec!["min_thresh", "min_th"]),
    ];
    for (what, text, want) in cases {
        let p = write(dir.path(), "s.toml", &text);
        let o = cclab(&["run", &p]);
        assert!(o.status.code() == Some(2), "{what}: {}", stderr(&o));
        assert_user_error(&o, &want);
    }
}

#[test]
fn malformed_flags_are_one_line_errors_with_exit_code_2() {
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (vec!["--cc", "vegaz"], vec!["--cc", "vegaz"]),
        (vec!["--cc", "reno", "--rate", "40parsecs"], vec!["--rate", "parsecs"]),
        (vec!["--cc", "reno", "--duration", "-1s"], vec!["--duration", "negative"]),
        (vec!["--cc", "reno", "--loss", "2"], vec!["--loss", "percentage"]),
        (vec!["--cc", "reno", "--netem", "slot 1ms"], vec!["--netem", "slot"]),
        (vec!["--cc", "reno", "--buffer", "lots"], vec!["--buffer", "1bdp"]),
        (vec!["--flows", "3"], vec!["--flows", "--cc"]),
        (vec!["--cc", "reno", "--queue", "wred"], vec!["--queue", "wred", "codel"]),
        (vec!["--cc", "reno", "--trace-down", "/no/such.trace"], vec!["--trace-down", "/no/such.trace"]),
        (vec!["--cc", "reno", "--trace-down", "Cargo.toml"], vec!["--trace-down", "Cargo.toml:1", "milliseconds"]),
        (vec!["/no/such/scenario.toml"], vec!["/no/such/scenario.toml"]),
        (vec!["--cc", "reno", "--drop-packets", "30,20"], vec!["--drop-packets", "increasing"]),
        (vec!["--cc", "reno", "--drop-packets", "20,x"], vec!["--drop-packets", "x"]),
        (vec!["--cc", "bbr", "--policer", "rate 10mbit"], vec!["--policer", "`burst B` is required"]),
        (vec!["--cc", "bbr", "--policer", "rate 10mbit burst 100B"], vec!["--policer.burst", "1500 bytes"]),
    ];
    for (args, want) in cases {
        let mut all = vec!["run"];
        all.extend(args.iter());
        let o = cclab(&all);
        assert_user_error(&o, &want);
    }
    // clap's own errors (unknown flags, a missing value) are one line too.
    assert_user_error(&cclab(&["run", "--bogus"]), &["--bogus", "--help"]);
    assert_user_error(&cclab(&["run", "--cc"]), &["--cc"]);
    assert_user_error(&cclab(&["bench", "--only"]), &["--only"]);
}

/// Every TCP algorithm and datagram protocol, each with its family, source and parameters.
#[test]
fn list_shows_every_algorithm() {
    let o = cclab(&["list"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let protocols: Vec<&str> = cc::protocols::PROTOCOLS.iter().map(|p| p.name).collect();
    for a in cc::algorithm_names().into_iter().chain(protocols.iter().copied()) {
        assert!(out.lines().any(|l| l.split_whitespace().next() == Some(a)), "{a} missing:\n{out}");
    }
    assert!(out.contains("source: RFC 9438") && out.contains("beta=0.7"), "CUBIC's source and parameters:\n{out}");
    let v: serde_json::Value = serde_json::from_slice(&cclab(&["list", "--json"]).stdout).unwrap();
    let all = v.as_array().unwrap();
    assert_eq!(all.len(), cc::algorithm_names().len() + protocols.len());
    for e in all {
        assert!(e["family"].is_string() && e["source"].is_string() && e["parameters"].is_object(), "{e}");
    }
    let udt = all.iter().find(|e| e["name"] == "udt").unwrap();
    assert_eq!((udt["family"].as_str(), udt["transport"].as_str()), (Some("rate"), Some("udp")));
}

/// Datagram protocols run from flags like TCP algorithms, and `--cbr-rate` needs a cbr flow.
#[test]
fn datagram_protocols_run_from_flags() {
    let o = cclab(&["run", "--cc", "cbr,tfrc", "--cbr-rate", "5mbit", "--rate", "20mbit", "--duration", "5s", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let flows = v["flows"].as_array().unwrap();
    assert_eq!((flows[0]["cc"].as_str(), flows[1]["cc"].as_str()), (Some("cbr"), Some("tfrc")));
    let cbr = flows[0]["throughput_bps"].as_f64().unwrap();
    assert!((cbr - 5e6).abs() < 0.05e6, "CBR sends its rate: {cbr}");
    assert_user_error(&cclab(&["run", "--cc", "reno", "--cbr-rate", "5mbit"]), &["--cbr-rate", "cbr"]);
    assert_user_error(&cclab(&["run", "--cc", "cbr", "--cbr-rate", "5 parsecs"]), &["--cbr-rate"]);
}

#[test]
fn bench_json_reports_each_case() {
    for (only, name, keys) in [
        ("a-reno", "a-reno-40m", ["packets", "wall_s", "packets_per_s", "peak_rss_bytes"]),
        ("scan-10000-tcp", "scan-10000-tcp", ["probes_sent", "sim_s", "wall_s", "probes_per_s"]),
    ] {
        let o = cclab(&["bench", "--json", "--only", only]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let r = &v.as_array().unwrap()[0];
        assert_eq!(r["name"], name);
        for k in keys {
            assert!(r[k].as_f64().unwrap() > 0.0, "{name}: {k}");
        }
    }
}

/// Issue 14's reproducers of panics, hangs and aborts: each is now a one-line error with exit
/// code 2, before anything runs.
#[test]
fn inputs_that_panicked_hung_or_aborted_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = |name: &str, cc: &str| write(dir.path(), name, &format!("duration = \"2s\"\n[[flows]]\ncc = {cc}\n"));
    // Panics: clamp with min > max, or NaN.
    for (name, cc, key) in [
        ("h1.toml", r#"{ algorithm = "htcp", beta_min = 0.9, beta_max = 0.5 }"#, "flows[0].cc.beta_max"),
        ("h2.toml", r#"{ algorithm = "htcp", beta_min = 1e308 }"#, "flows[0].cc.beta_min"),
        ("s1.toml", r#"{ algorithm = "sabul", max_ipt_us = 5.0 }"#, "flows[0].cc.max_ipt_us"),
        ("s2.toml", r#"{ algorithm = "sabul", min_ipt_us = 2000.0 }"#, "flows[0].cc.max_ipt_us: 1000 is below min_ipt_us (2000)"),
        ("s3.toml", r#"{ algorithm = "sabul", min_ipt_us = nan }"#, "flows[0].cc.min_ipt_us"),
        ("c1.toml", r#"{ algorithm = "cubic", beta = nan }"#, "flows[0].cc.beta: NaN is outside"),
        ("c2.toml", r#"{ algorithm = "cubic", c = inf }"#, "flows[0].cc.c: inf is outside"),
    ] {
        assert_user_error(&cclab(&["run", &scenario(name, cc)]), &[key]);
    }
    // Hangs: zero timer intervals, absurd durations, thousands of sweep threads.
    for field in ["ack_ms", "err_ms", "exp_ms", "syn_ms"] {
        let f = scenario(&format!("{field}.toml"), &format!("{{ algorithm = \"sabul\", {field} = 0 }}"));
        assert_user_error(&cclab(&["run", &f]), &[&format!("flows[0].cc.{field}")]);
    }
    assert_user_error(&cclab(&["run", "--cc", "reno", "--duration", "1e9s"]), &["duration"]);
    assert_user_error(&cclab(&["run", "--cc", "reno", "--duration", "1e308s"]), &["duration"]);
    let plan = write(dir.path(), "plan.toml", "duration = \"1s\"\n[[flows]]\ncc = \"reno\"\n");
    assert_user_error(&cclab(&["sweep", &plan, "--threads", "10000"]), &["--threads"]);
    // Aborts: allocations far beyond the machine.
    assert_user_error(&cclab(&["run", "--cc", "reno", "--interval", "1ns"]), &["interval"]);
    assert_user_error(&cclab(&["run", "--cc", "reno", "--flows", "1000000000"]), &["--flows"]);
    let many = write(dir.path(), "many.toml", "[[flows]]\ncc = \"reno\"\ncount = 100000000\n");
    assert_user_error(&cclab(&["run", &many]), &["flows[0].count"]);
}

#[test]
fn a_full_stdout_is_a_one_line_error() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("Linux has /dev/full");
    let o = Command::new(env!("CARGO_BIN_EXE_cclab")).args(["list"]).stdout(full).output().unwrap();
    assert_user_error(&o, &["stdout"]);
}

/// Issue 14's "accepted silently" inputs: each is refused with a one-line error that names the
/// flag or key and the allowed range.
#[test]
fn nonsense_values_are_refused_with_their_range() {
    let flags: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (vec!["--rtt", "0ms"], vec!["--rtt", "1us <= x <= 100s"]),
        (vec!["--buffer", "1B"], vec!["--buffer", "not even one"]),
        (vec!["--buffer", "7"], vec!["--buffer", "needs a unit"]),
        (vec!["--rate", "150KB"], vec!["--rate", "bytes", "1200000bit"]),
        (vec!["--mss", "1"], vec!["--mss", "88 <= x"]),
        (vec!["--min-rto", "0ms"], vec!["--min-rto", "1us <= x"]),
        (vec!["--trace-down", "../../traces/README.mahimahi", "--rate", "10mbit"], vec!["--rate", "--trace-down"]),
        (vec!["--netem", "delay 5ms delay 10ms"], vec!["--netem", "`delay` is given twice"]),
        (vec!["--netem", "loss 100% loss 0%"], vec!["--netem", "`loss` is given twice"]),
        (vec!["--duration", "1e308s"], vec!["--duration"]),
        (vec!["--duration", "10s", "--stagger", "20s", "--flows", "2"], vec!["flows[1].start", "not before the run's end"]),
        (vec!["--duration", "1s", "--interval", "2s"], vec!["--interval", "longer than the run"]),
    ];
    for (args, want) in flags {
        let mut all = vec!["run", "--cc", "reno"];
        all.extend(args.iter());
        assert_user_error(&cclab(&all), &want);
    }
    let dir = tempfile::tempdir().unwrap();
    let flows = "[[flows]]\ncc = \"reno\"\n";
    for (what, text, want) in [
        ("RED thresholds", format!("[link]\nqueue = {{ type = \"red\", min_th = 50, max_th = 20 }}\n{flows}"), "link.queue.max_th: 20 must be above min_th (50)"),
        ("RED max_p", format!("[link]\nqueue = {{ type = \"red\", max_p = 2.0 }}\n{flows}"), "link.queue.max_p: 2 is outside the allowed 0 < x <= 1"),
        ("RED w_q", format!("[link]\nqueue = {{ type = \"red\", w_q = 5.0 }}\n{flows}"), "link.queue.w_q: 5 is outside"),
        ("CoDel target", format!("[link]\nqueue = {{ type = \"codel\", target_ms = -1.0 }}\n{flows}"), "link.queue.target_ms: -1 is outside"),
        ("CUBIC beta", "[[flows]]\ncc = { algorithm = \"cubic\", beta = 2.0 }\n".to_string(), "flows[0].cc.beta: 2 is outside the allowed 0 < x < 1"),
        ("CUBIC c", "[[flows]]\ncc = { algorithm = \"cubic\", c = -1.0 }\n".to_string(), "flows[0].cc.c: -1 is outside"),
        ("DCTCP g", "[[flows]]\ncc = { algorithm = \"dctcp\", g = 2.0 }\n".to_string(), "flows[0].cc.g: 2 is outside"),
        ("Scalable md", "[[flows]]\ncc = { algorithm = \"scalable\", md = 1e308 }\n".to_string(), "flows[0].cc.md: 1e308 is outside"),
        ("CDG window", "[[flows]]\ncc = { algorithm = \"cdg\", window = 100000000000 }\n".to_string(), "flows[0].cc.window"),
        ("rtt", "[[flows]]\ncc = \"reno\"\nrtt = \"0ms\"\n".to_string(), "flows[0].rtt: 0s is outside"),
    ] {
        let p = write(dir.path(), "s.toml", &text);
        let o = cclab(&["run", &p]);
        assert!(o.status.code() == Some(2), "{what}: {}", stderr(&o));
        assert_user_error(&o, &[want]);
    }
}

/// An error quoting a user's input stays one short, printable line: a trace's 100 KB line
/// and its NUL bytes are cut and escaped.
#[test]
fn error_lines_are_bounded_and_printable() {
    let dir = tempfile::tempdir().unwrap();
    let long = write(dir.path(), "long.trace", &format!("1\n{}\n", "x".repeat(100_000)));
    let nul = write(dir.path(), "nul.trace", "1\n2\0\u{7}3\n");
    for t in [long, nul] {
        let o = cclab(&["run", "--cc", "reno", "--trace-down", &t]);
        assert_user_error(&o, &["--trace-down"]);
        let err = stderr(&o);
        assert!(err.len() < 400, "{} bytes: {err}", err.len());
        assert!(!err.trim_end().chars().any(char::is_control), "{err:?}");
    }
}

/// `--out` never overwrites a user's files, replaces a previous output whole (no stale plot
/// survives), and `--pcap` refuses an existing file or an input without `--force`.
#[test]
fn outputs_never_overwrite_a_users_files() {
    let dir = tempfile::tempdir().unwrap();
    let theirs = dir.path().join("theirs");
    std::fs::create_dir(&theirs).unwrap();
    std::fs::write(theirs.join("thesis.tex"), "mine").unwrap();
    let t = theirs.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut a = vec!["run", "--cc", "reno", "--duration", "1s", "--quiet"];
        a.extend(extra);
        cclab(&a)
    };
    assert_user_error(&run(&["--out", t]), &["--out", "thesis.tex", "--force"]);
    assert!(run(&["--out", t, "--force"]).status.success());
    assert_eq!(std::fs::read_to_string(theirs.join("thesis.tex")).unwrap(), "mine");
    assert!(theirs.join("summary.json").exists());

    // A previous output is replaced whole: a stale plot from an earlier `cclab plot` goes.
    let ours = dir.path().join("ours");
    let o = ours.to_str().unwrap();
    assert!(run(&["--out", o]).status.success());
    std::fs::create_dir(ours.join("plots")).unwrap();
    std::fs::write(ours.join("plots/old.svg"), "stale").unwrap();
    assert!(run(&["--out", o]).status.success());
    assert!(!ours.join("plots").exists() && ours.join("summary.json").exists());

    // --pcap: an existing file needs --force; an input file never goes.
    let pcap = write(dir.path(), "x.pcap", "old");
    assert_user_error(&run(&["--pcap", &pcap]), &["--pcap", "exists", "--force"]);
    assert!(run(&["--pcap", &pcap, "--force"]).status.success());
    let scenario = write(dir.path(), "s.toml", "duration = \"1s\"\n[[flows]]\ncc = \"reno\"\n");
    assert_user_error(&cclab(&["run", &scenario, "--pcap", &scenario, "--force"]), &["--pcap", "input"]);
    assert!(std::fs::read_to_string(&scenario).unwrap().contains("reno"));

    // Plans: a key of the wrong type named plainly, an empty or directory `out`.
    let p = write(dir.path(), "p1.toml", "base = 5\nduration = \"1s\"\n[[flows]]\ncc = \"reno\"\n");
    assert_user_error(&cclab(&["sweep", &p]), &["base: invalid type"]);
    assert!(!stderr(&cclab(&["sweep", &p])).contains("serde"));
    let p = write(dir.path(), "p2.toml", "out = \"\"\nduration = \"1s\"\n[[flows]]\ncc = \"reno\"\n");
    assert_user_error(&cclab(&["sweep", &p]), &["out: empty"]);
    let p = write(dir.path(), "p3.toml", "out = \".\"\nduration = \"1s\"\n[[flows]]\ncc = \"reno\"\n");
    assert_user_error(&cclab(&["sweep", &p]), &["out:", "is a directory"]);

    // A sweep whose results would overwrite its own plan.
    let plan = write(dir.path(), "plan.toml", "out = \"plan.toml\"\nduration = \"1s\"\n[[flows]]\ncc = \"reno\"\n");
    assert_user_error(&cclab(&["sweep", &plan, "--fresh"]), &["out", "plan file"]);
    assert!(std::fs::read_to_string(&plan).unwrap().contains("reno"));
}
