//! `cclab scan` as a user runs it: the JSON shape, and one-line errors for bad flags.

use std::process::{Command, Output};

fn cclab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cclab")).args(args).output().expect("cclab runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn scan_json_has_one_entry_per_variant_with_the_seeds_figures() {
    let o = cclab(&["scan", "--hosts", "500", "--up", "34", "--variant", "unscaled,scaled-2007,scaled", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON on stdout");
    let variants = v["variants"].as_array().expect("variants");
    let names: Vec<&str> = variants.iter().map(|x| x["variant"].as_str().expect("variant name")).collect();
    assert_eq!(names, ["unscaled", "scaled-2007", "scaled"]);
    for x in variants {
        for k in ["scan_time_s", "probes_sent", "hosts_found"] {
            assert!(x[k].is_number(), "{k} in {x}");
        }
        assert!(x["scan_time_s"].as_f64().unwrap() > 0.0);
        assert!(x["hosts_found"].as_u64().unwrap() <= 34);
        let r = &x["packet_ratio"];
        let q: Vec<f64> = ["min", "q1", "median", "q3", "max"].iter().map(|k| r[*k].as_f64().expect(k)).collect();
        assert!(q.windows(2).all(|w| w[0] <= w[1]), "quartiles in order: {q:?}");
        let mean = r["mean"].as_f64().expect("mean");
        assert!(q[0] <= mean && mean <= q[4]);
    }
}

#[test]
fn bad_scan_flags_exit_2_with_one_line_naming_the_flag() {
    for (args, flag) in [
        (&["scan", "--variant", "foo"][..], "--variant"),
        (&["scan", "--up", "600", "--hosts", "500"][..], "--up"),
        (&["scan", "--loss", "200%"][..], "--loss"),
    ] {
        let o = cclab(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.starts_with("error: "), "{err}");
        assert!(err.contains(flag), "{args:?}: `{flag}` missing from {err}");
    }
}
