//! `cclab sweep` as a user runs it: plans, the tidy CSV, parallel determinism, resuming.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cclab(args: &[&str], threads: Option<&str>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cclab"));
    c.args(args);
    if let Some(n) = threads {
        c.env("RAYON_NUM_THREADS", n);
    }
    c.output().expect("cclab runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn sweep(plan: &Path, extra: &[&str], threads: Option<&str>) -> Output {
    let mut args = vec!["sweep", plan.to_str().unwrap()];
    args.extend_from_slice(extra);
    let o = cclab(&args, threads);
    assert!(o.status.success(), "{}", stderr(&o));
    o
}

/// Checks that `o` is a user error (exit code 2, one `error:` line on stderr) mentioning each
/// of `must_contain`.
fn assert_user_error(o: &Output, must_contain: &[&str]) {
    let err = stderr(o);
    let lines: Vec<&str> = err.lines().collect();
    assert!(o.status.code() == Some(2) && lines.len() == 1 && lines[0].starts_with("error: "), "{:?}: {err}", o.status);
    let missing: Vec<&&str> = must_contain.iter().filter(|m| !err.contains(**m)).collect();
    assert!(missing.is_empty(), "{missing:?} missing from: {err}");
}

/// 2 rates x 2 algorithms x 2 seeds, two flows each: 8 runs, 16 rows.
const GRID: &str = r#"
duration = "5s"
seeds = 2
out = "results.csv"

[defaults]
rtt = "20ms"

[[flows]]
cc = "reno"
[[flows]]
cc = "cubic"

[grid]
"link.rate" = ["10mbit", "40mbit"]
"flows[0].cc" = ["reno", "bbr"]
"#;

fn plan(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("plan.toml");
    std::fs::write(&p, text).unwrap();
    p
}

fn read_csv(p: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(p).unwrap();
    let header = r.headers().unwrap().iter().map(str::to_string).collect();
    let rows = r.records().map(|r| r.unwrap().iter().map(str::to_string).collect()).collect();
    (header, rows)
}

#[test]
fn a_grid_gives_one_row_per_run_and_flow_with_tidy_columns() {
    let dir = tempfile::tempdir().unwrap();
    let p = plan(dir.path(), GRID);
    let o = sweep(&p, &[], None);
    assert!(stderr(&o).contains("8 runs (4 parameter combinations x 2 seeds): 0 done, 8 to run"), "{}", stderr(&o));
    assert!(stdout(&o).contains("8 runs, 16 rows"), "{}", stdout(&o));
    let (header, rows) = read_csv(&dir.path().join("results.csv"));
    let want = "run link.rate flows[0].cc seed flow cc throughput_bps goodput_bps bytes_delivered retransmits timeouts \
                rtt_mean_ms rtt_p95_ms utilization drops overflow_events queue_delay_mean_ms queue_delay_p95_ms jain_index";
    assert_eq!(header.join(" "), want);
    assert_eq!(rows.len(), 16);
    // Plan order: the first grid key slowest, then the second, then seeds, then flows.
    let keys: Vec<String> = rows.iter().map(|r| format!("{} {} {} {} {}", r[1], r[2], r[3], r[4], r[5])).collect();
    assert_eq!(keys[0], "10mbit reno 1 0 reno");
    assert_eq!(keys[1], "10mbit reno 1 1 cubic");
    assert_eq!(keys[2], "10mbit reno 2 0 reno");
    assert_eq!(keys[4], "10mbit bbr 1 0 bbr");
    assert_eq!(keys[15], "40mbit bbr 2 1 cubic");
    // A run id names the parameter combination: the same for both seeds and flows.
    assert_eq!(rows[0][0], rows[3][0]);
    assert_ne!(rows[0][0], rows[4][0]);
    for r in &rows {
        let goodput: f64 = r[7].parse().unwrap();
        assert!(goodput > 0.0, "{r:?}");
        let jain: f64 = r[18].parse().unwrap();
        assert!((0.5..=1.0).contains(&jain), "{r:?}");
    }
}

#[test]
fn output_is_byte_identical_whatever_the_number_of_threads() {
    let one = tempfile::tempdir().unwrap();
    let two = tempfile::tempdir().unwrap();
    sweep(&plan(one.path(), GRID), &["--quiet"], Some("1"));
    let o = sweep(&plan(two.path(), GRID), &[], Some("2"));
    assert!(stderr(&o).contains("on 2 threads"), "{}", stderr(&o));
    let a = std::fs::read(one.path().join("results.csv")).unwrap();
    let b = std::fs::read(two.path().join("results.csv")).unwrap();
    assert!(a == b, "1 thread and 2 threads differ");
    // --threads says the same as RAYON_NUM_THREADS.
    let o = sweep(&plan(two.path(), GRID), &["--fresh", "--threads", "1"], Some("2"));
    assert!(stderr(&o).contains("8 to run on 1 thread\n"), "{}", stderr(&o));
    assert!(std::fs::read(two.path().join("results.csv")).unwrap() == a);
}

#[test]
fn a_rerun_resumes_skipping_finished_runs_and_restoring_missing_rows() {
    let dir = tempfile::tempdir().unwrap();
    let p = plan(dir.path(), GRID);
    let csv = dir.path().join("results.csv");
    sweep(&p, &[], None);
    let full = std::fs::read_to_string(&csv).unwrap();

    // Nothing left to do: the file stays as it was.
    let o = sweep(&p, &[], None);
    assert!(stderr(&o).contains("8 done, 0 to run"), "{}", stderr(&o));
    assert!(stdout(&o).contains("(0 run now, 8 from before)"), "{}", stdout(&o));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), full);

    // The last three rows gone, the last one cut mid-line (an interrupted write): the last
    // run (two rows) and the one before it (one row of two left) run again.
    let lines: Vec<&str> = full.lines().collect();
    let mut cut = lines[..lines.len() - 3].join("\n");
    cut.push('\n');
    cut.push_str(&lines[lines.len() - 3][..20]);
    std::fs::write(&csv, cut).unwrap();
    let o = sweep(&p, &[], None);
    assert!(stderr(&o).contains("6 done, 2 to run"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), full);

    // Rows in any order (as written while running, or edited) come back in plan order.
    let mut shuffled: Vec<&str> = full.lines().collect();
    shuffled[1..].reverse();
    std::fs::write(&csv, shuffled.join("\n") + "\n").unwrap();
    let o = sweep(&p, &["--dry-run"], None);
    assert!(stdout(&o).contains("8 done, 0 to run"), "{}", stdout(&o));
    sweep(&p, &[], None);
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), full);
}

#[test]
fn more_seeds_extend_a_finished_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let small = GRID.replace("seeds = 2", "seeds = [1]");
    sweep(&plan(dir.path(), &small), &[], None);
    let o = sweep(&plan(dir.path(), GRID), &[], None);
    assert!(stderr(&o).contains("4 done, 4 to run"), "{}", stderr(&o));
    let extended = std::fs::read(dir.path().join("results.csv")).unwrap();
    let fresh = tempfile::tempdir().unwrap();
    sweep(&plan(fresh.path(), GRID), &[], None);
    assert!(std::fs::read(fresh.path().join("results.csv")).unwrap() == extended);
    // Fewer seeds than the file holds: refused, not silently dropped.
    let o = cclab(&["sweep", plan(dir.path(), &small).to_str().unwrap()], None);
    assert_user_error(&o, &["seed 2", "--fresh"]);
}

#[test]
fn a_changed_plan_is_refused_unless_fresh() {
    let dir = tempfile::tempdir().unwrap();
    sweep(&plan(dir.path(), GRID), &["--quiet"], None);
    let changed = GRID.replace("\"40mbit\"]", "\"20mbit\"]");
    let p = plan(dir.path(), &changed);
    let o = cclab(&["sweep", p.to_str().unwrap()], None);
    assert_user_error(&o, &["results.csv", "different plan", "--fresh"]);
    let o = cclab(&["sweep", p.to_str().unwrap(), "--dry-run"], None);
    assert_user_error(&o, &["different plan"]);
    // The base scenario counts too.
    let o = cclab(&["sweep", plan(dir.path(), &GRID.replace("\"5s\"", "\"6s\"")).to_str().unwrap()], None);
    assert_user_error(&o, &["different plan"]);
    let p = plan(dir.path(), &changed);
    let o = sweep(&p, &["--fresh"], None);
    assert!(stderr(&o).contains("0 done, 8 to run"), "{}", stderr(&o));
    let (_, rows) = read_csv(&dir.path().join("results.csv"));
    assert!(rows.iter().all(|r| r[1] == "10mbit" || r[1] == "20mbit"));
    // A results file without its fingerprint file is not trusted either.
    std::fs::remove_file(dir.path().join("results.csv.fingerprint")).unwrap();
    let o = cclab(&["sweep", p.to_str().unwrap()], None);
    assert_user_error(&o, &["results.csv.fingerprint", "--fresh"]);
}

#[test]
fn bad_key_paths_and_values_are_one_line_errors_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &[&str])] = &[
        ("\"link.rate\" = [\"10mbit\", \"40mbit\"]", "\"link.rat\" = [\"10mbit\"]", &["plan.toml:", "grid.\"link.rat\"", "unknown field `rat`"]),
        ("\"link.rate\" = [\"10mbit\", \"40mbit\"]", "\"link.rate\" = [\"10mbit\", \"40 parsecs\"]", &["plan.toml:15:", "grid.\"link.rate\"", "parsecs", "40mbit"]),
        ("\"flows[0].cc\" = [\"reno\", \"bbr\"]", "\"flows[5].cc\" = [\"reno\"]", &["grid.\"flows[5].cc\"", "has 2 entries"]),
        ("\"flows[0].cc\" = [\"reno\", \"bbr\"]", "\"flows[0].cc\" = [\"reno\", \"vegaz\"]", &["grid.\"flows[0].cc\"", "vegaz", "newreno"]),
        ("\"flows[0].cc\" = [\"reno\", \"bbr\"]", "\"link..rate\" = [\"reno\"]", &["grid.\"link..rate\"", "not a key path"]),
        ("\"flows[0].cc\" = [\"reno\", \"bbr\"]", "\"link.netem\" = [\"loss 1%\", \"lose 2%\"]", &["grid.\"link.netem\"", "lose"]),
        ("\"flows[0].cc\" = [\"reno\", \"bbr\"]", "\"seed\" = [1, 2]", &["grid.\"seed\"", "seeds ="]),
        ("\"flows[0].cc\" = [\"reno\", \"bbr\"]", "\"link.buffer\" = []", &["grid.\"link.buffer\"", "at least one value"]),
        ("seeds = 2", "seeds = 0", &["plan.toml:3:", "seeds"]),
        ("seeds = 2", "seeds = 2\ngrids = 1", &["base scenario", "grids", "base, grid, list, seeds, out"]),
        ("[defaults]", "[[list]]\n\"flows[0].stop\" = \"0s\"\n[defaults]", &["list[0].\"flows[0].stop\"", "must be after start"]),
    ];
    for (from, to, want) in cases {
        let text = GRID.replacen(from, to, 1);
        assert_ne!(text, GRID, "{from}");
        let o = cclab(&["sweep", plan(dir.path(), &text).to_str().unwrap()], None);
        assert_user_error(&o, want);
        assert!(!dir.path().join("results.csv").exists(), "nothing runs for {to}");
    }
}

#[test]
fn lists_base_files_and_dry_runs() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("scen")).unwrap();
    std::fs::write(
        dir.path().join("scen/base.toml"),
        "duration = \"60s\"\n[link]\nrate = \"20mbit\"\n[defaults]\nrtt = \"20ms\"\n[[flows]]\ncc = \"reno\"\n",
    )
    .unwrap();
    let text = r#"
base = "scen/base.toml"
duration = "3s"
[[list]]
"link.netem" = "loss 0.1%"
[[list]]
"link.netem" = "loss 2%"
"flows[0].cc" = { algorithm = "cubic", beta = 0.8 }
[grid]
"defaults.rtt" = ["20ms", "60ms"]
"#;
    let p = plan(dir.path(), text);
    let o = sweep(&p, &["--dry-run"], None);
    let out = stdout(&o);
    assert!(out.contains("4 runs (4 parameter combinations x 1 seed): 0 done, 4 to run"), "{out}");
    assert!(out.contains("seed 1: defaults.rtt = 60ms, link.netem = loss 2%, flows[0].cc = { algorithm = \"cubic\", beta = 0.8 }"), "{out}");
    assert_eq!(out.lines().count(), 5, "{out}");
    assert!(!dir.path().join("plan.csv").exists(), "a dry run writes nothing");

    sweep(&p, &["--quiet"], None);
    let (header, rows) = read_csv(&dir.path().join("plan.csv"));
    assert_eq!(&header[..5], ["run", "defaults.rtt", "link.netem", "flows[0].cc", "seed"]);
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0][3], "", "left as the base has it");
    assert_eq!(rows[3][6], "cubic");
    // 2 % loss costs goodput against 0.1 %.
    let goodput = |r: &Vec<String>| r[8].parse::<f64>().unwrap();
    assert!(goodput(&rows[0]) > goodput(&rows[2]), "{rows:?}");
}

#[test]
fn a_faster_link_carries_more() {
    let dir = tempfile::tempdir().unwrap();
    sweep(&plan(dir.path(), GRID), &["--quiet"], None);
    let (_, rows) = read_csv(&dir.path().join("results.csv"));
    let total = |rate: &str, cc: &str, seed: &str| -> f64 {
        rows.iter().filter(|r| r[1] == rate && r[2] == cc && r[3] == seed).map(|r| r[7].parse::<f64>().unwrap()).sum()
    };
    for cc in ["reno", "bbr"] {
        for seed in ["1", "2"] {
            let (slow, fast) = (total("10mbit", cc, seed), total("40mbit", cc, seed));
            assert!(slow < 10e6 && slow > 5e6, "{cc} seed {seed}: {slow} on 10 Mbit/s");
            assert!(fast > 1.5 * slow && fast < 40e6, "{cc} seed {seed}: {fast} on 40 Mbit/s against {slow}");
        }
    }
    // The link figures repeat on both flows' rows of a run.
    for pair in rows.chunks(2) {
        assert_eq!(pair[0][13..], pair[1][13..]);
    }
}

/// A sweep's run travels to a worker (a thread, a Ray task, another machine) as its scenario's
/// TOML text: that text must read back as the very same scenario, for every kind of value a
/// plan can set (units, algorithm parameters, netem, schedules, traces, per-flow settings).
#[test]
fn each_runs_scenario_survives_its_toml_text() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.down"), "1\n2\n3\n").unwrap();
    let plan = dir.path().join("p.toml");
    std::fs::write(
        &plan,
        r#"duration = "3s"
seeds = [1, 9]
[link]
buffer = "0.5bdp"
netem = "delay 5ms 1ms 25% loss 0.1%"
[defaults]
rtt = "30ms"
delayed_ack = true
[[flows]]
cc = { algorithm = "cubic", beta = 0.8 }
start = "250ms"
[[flows]]
cc = "bbr"
size = "1MB"
count = 2
[grid]
"link.queue" = ["droptail", "codel"]
"flows[0].cc.beta" = [0.6, 0.75]
[[list]]
"link.trace" = "t.down"
[[list]]
"defaults.mss" = 1200
"link.rate" = "12.5mbit"
"link.schedule" = [{ at = "1s", rate = "2mbit" }]
"#,
    )
    .unwrap();
    let plan = cclab::sweep::plan::Plan::load(&plan).map_err(|e| e.0).unwrap();
    assert_eq!(plan.runs.len(), 2 * 2 * 2 * 2);
    for run in &plan.runs {
        let text = toml::to_string(&run.scenario).unwrap();
        let back = cclab::scenario::Scenario::from_toml(&text, "run").unwrap();
        assert_eq!(back, run.scenario, "{text}");
        assert_eq!(format!("{:?}", back.resolve().unwrap()), format!("{:?}", run.scenario.resolve().unwrap()));
    }
}
