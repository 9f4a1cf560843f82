//! A bounded fuzz run over every input family a user can hand cclab (issue 14): algorithm
//! parameters, scenario files, `cclab run`'s flags, netem strings, Mahimahi traces and sweep
//! plans. Each generated
//! input must give either an error (one line naming what is wrong) or, when accepted, a run that
//! finishes: never a panic, a hang or an abort. Values are drawn both from the edges that broke
//! cclab before (0, -1, NaN, ±inf, 1e308, u64::MAX, bytes where bits belong) and at random.
//!
//! The case counts are set per family below (`FUZZ_CASES` multiplies them: `FUZZ_CASES=10
//! cargo test --test fuzz -- --nocapture` for a longer run that prints its counts). The inputs
//! come from a fixed seed, so a run repeats exactly; a failure prints the shrunk input, which
//! then becomes a case in `tests/cli.rs`.

use cclab::scenario::Scenario;
use cclab::sweep::plan::Plan;
use proptest::prelude::*;
use proptest::strategy::Strategy;
use serde_json::{Number, Value};
use sim::{FlowConfig, Netem, SimConfig, Simulation, Trace};
use std::path::Path;

/// Cases per property: `base` times the `FUZZ_CASES` factor (default 1).
fn cases(base: u32) -> ProptestConfig {
    let factor = std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse::<u32>().ok()).unwrap_or(1).max(1);
    ProptestConfig { cases: base * factor, failure_persistence: None, ..ProptestConfig::default() }
}

/// The line an error prints as: one line, bounded, printable.
fn assert_error_line(e: &str) {
    let line = cclab::UserError(e.to_string()).line();
    assert!(!line.is_empty() && line.chars().count() <= cclab::MAX_ERROR_CHARS + 3, "{line}");
    assert!(!line.chars().any(char::is_control), "{line:?}");
}

/// Simulates an accepted configuration for a short, bounded time: it must end.
fn run_briefly(mut cfg: SimConfig) {
    cfg.duration = cfg.duration.min(cc::Time::from_millis(300));
    cfg.flows.retain(|f| f.start < cfg.duration);
    if cfg.flows.is_empty() || cfg.initial_rate().bits_per_sec() > 1e9 {
        return;
    }
    let sim = Simulation::new(cfg).expect("a validated configuration builds");
    let r = sim.run(|_| {});
    assert!(r.summary.sim_time_s > 0.0);
    PACKETS_SIMULATED.fetch_add(r.summary.packets, std::sync::atomic::Ordering::Relaxed);
}

/// Bottleneck packets simulated by the accepted inputs, for the report each family prints.
static PACKETS_SIMULATED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A number at an edge that broke cclab before, or an ordinary one.
fn edge_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::from(0)),
        Just(Value::from(-1)),
        Just(Value::from(1)),
        Just(Value::from(2)),
        Just(Value::from(u64::MAX)),
        Just(Value::from(0.5)),
        Just(Value::from(1e308)),
        Just(Value::from(-1e308)),
        (-10.0f64..1e6).prop_map(|v| Value::Number(Number::from_f64(v).expect("finite"))),
        (0u64..2000).prop_map(Value::from),
    ]
}

/// An algorithm's default parameters with some replaced by edge values, NaN or infinity.
fn mutated_transport() -> impl Strategy<Value = Value> {
    let names: Vec<&'static str> =
        cc::ALGORITHMS.iter().map(|a| a.name).chain(cc::protocols::PROTOCOLS.iter().map(|p| p.name)).collect();
    (prop::sample::select(names), prop::collection::vec((any::<usize>(), 0u8..3), 1..4), prop::collection::vec(edge_number(), 4)).prop_map(
        |(name, picks, values)| {
            let mut v = match cc::CcConfig::from_name(name) {
                Ok(c) => serde_json::to_value(c).unwrap(),
                Err(_) => serde_json::to_value(cc::protocols::DatagramConfig::from_name(name).unwrap()).unwrap(),
            };
            let obj = v.as_object_mut().unwrap();
            let keys: Vec<String> = obj.iter().filter(|(_, x)| x.is_number()).map(|(k, _)| k.clone()).collect();
            for (n, (pick, kind)) in picks.iter().enumerate() {
                if keys.is_empty() {
                    break;
                }
                let k = &keys[pick % keys.len()];
                // 0: an edge number; 1: NaN; 2: infinity (as TOML writes them).
                obj[k] = match kind {
                    0 => values[n].clone(),
                    1 => Value::String("nan".into()),
                    _ => Value::String("inf".into()),
                };
            }
            v
        },
    )
}

/// A TOML inline table from a JSON object whose "nan"/"inf" strings are TOML's bare floats.
fn inline_table(v: &Value) -> String {
    let fields: Vec<String> = v
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, x)| !x.is_object() && !x.is_array())
        .map(|(k, x)| match x {
            Value::String(s) if s == "nan" || s == "inf" => format!("{k} = {s}"),
            other => format!("{k} = {other}"),
        })
        .collect();
    format!("{{ {} }}", fields.join(", "))
}

/// A netem string from netem's words, numbers with and without units, repeats and garbage.
fn netem_text() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("delay".to_string()),
        Just("loss".to_string()),
        Just("drop".to_string()),
        Just("random".to_string()),
        Just("gemodel".to_string()),
        Just("rate".to_string()),
        Just("limit".to_string()),
        Just("distribution".to_string()),
        Just("normal".to_string()),
        Just("reorder".to_string()),
        (0u32..300).prop_map(|v| format!("{v}ms")),
        (0.0f64..150.0).prop_map(|v| format!("{v}%")),
        (0u32..100).prop_map(|v| format!("{v}mbit")),
        Just("1e308s".to_string()),
        Just("-5ms".to_string()),
        Just("nan%".to_string()),
        Just("150KB".to_string()),
        (0u64..u64::MAX).prop_map(|v| v.to_string()),
        "[ -~]{0,6}",
    ];
    prop::collection::vec(word, 0..8).prop_map(|w| w.join(" "))
}

/// A value for a scenario key: the right kind, the wrong kind, or an edge.
fn scenario_value(kind: &'static str) -> BoxedStrategy<String> {
    let quoted = |v: Vec<&'static str>| prop::sample::select(v).prop_map(|s| format!("\"{s}\"")).boxed();
    match kind {
        "time" => prop_oneof![quoted(vec!["0.2s", "0s", "-1s", "1e308s", "1ns", "100ms", "1e9s", "5", "abc", "nan s"]), Just("60".to_string())].boxed(),
        "host_noise" => quoted(vec!["testbed", "vm stall 6ms every 20ms", "nic", "off", "latency", "latency 2s", "stall 1ms", "irq_gap -1us", "every 0s stall 1ms"]),
        "rate" => quoted(vec!["10mbit", "0mbit", "150KB", "1e20gbit", "7", "-5mbit", "1bit", "5MBps", "40Mbps"]),
        "buffer" => quoted(vec!["1bdp", "0bdp", "1B", "7", "1e308bdp", "100pkts", "0.5pkts", "150KB", "nanbdp"]),
        "size" => quoted(vec!["1MB", "0B", "1B", "1e30GB", "-1KB", "64KiB"]),
        "percent" => quoted(vec!["1%", "100%", "101%", "-1%", "nan%", "0%"]),
        "count" => prop::sample::select(vec!["0", "1", "2", "100000000", "-1", "1.5", "\"x\""]).prop_map(String::from).boxed(),
        "int" => prop::sample::select(vec!["0", "1", "88", "1448", "65000", "100000", "-1", "18446744073709551615"]).prop_map(String::from).boxed(),
        "bool" => prop::sample::select(vec!["true", "false", "1", "\"yes\""]).prop_map(String::from).boxed(),
        "queue" => quoted(vec!["droptail", "red", "codel", "step", "wred"])
            .prop_union(
                prop::sample::select(vec![
                    "{ type = \"red\", min_th = 50, max_th = 20 }",
                    "{ type = \"red\", max_p = 2.0, w_q = 0.0 }",
                    "{ type = \"codel\", target_ms = -1.0 }",
                    "{ type = \"codel\", target_ms = nan, interval_ms = inf }",
                    "{ type = \"step\", k = 0 }",
                    "{ type = \"red\", min_thresh = 5 }",
                ])
                .prop_map(String::from)
                .boxed(),
            )
            .boxed(),
        "receiver" => prop::sample::select(vec![
            "{ attack = \"honest\" }",
            "{ attack = \"ack-division\", split = 10 }",
            "{ attack = \"ack-division\", split = 0 }",
            "{ attack = \"ack-division\", split = 100000000 }",
            "{ attack = \"dup-ack-spoofing\", count = 3 }",
            "{ attack = \"dup-ack-spoofing\", count = -1 }",
            "{ attack = \"optimistic-ack\", lead = 20 }",
            "{ attack = \"optimistic-ack\", lead = 18446744073709551615 }",
            "{ attack = \"bogus\" }",
        ])
        .prop_map(String::from)
        .boxed(),
        "defences" => prop::sample::select(vec![
            "{ abc = true, new_data_only = true, dupack_limit = true, nonce = true }",
            "{ abc = false, new_data_only = false, dupack_limit = false, nonce = false }",
            "{ abc = 1 }",
            "{ shields = true }",
        ])
        .prop_map(String::from)
        .boxed(),
        _ => netem_text().prop_map(|n| format!("{n:?}")).boxed(),
    }
}

/// A scenario file: some of the top-level, link and flow keys, each with a drawn value.
fn scenario_text() -> impl Strategy<Value = String> {
    let top = prop::collection::vec(
        prop::sample::select(vec![("duration", "time"), ("interval", "time"), ("seed", "int")]).prop_flat_map(|(k, kind)| scenario_value(kind).prop_map(move |v| format!("{k} = {v}"))),
        0..3,
    );
    let link = prop::collection::vec(
        prop::sample::select(vec![
            ("rate", "rate"),
            ("buffer", "buffer"),
            ("queue", "queue"),
            ("netem", "netem"),
            ("netem_reverse", "netem"),
            ("loss", "percent"),
            ("host_jitter", "time"),
            ("send_overhead", "time"),
            ("host_noise", "host_noise"),
            ("bogus", "int"),
        ])
        .prop_flat_map(|(k, kind)| scenario_value(kind).prop_map(move |v| format!("{k} = {v}"))),
        0..3,
    );
    let names: Vec<String> = cc::algorithm_names().into_iter().chain(["udt", "sabul", "tfrc", "cbr", "vegaz"]).map(String::from).collect();
    let flow = (
        prop::sample::select(names),
        prop::collection::vec(
            prop::sample::select(vec![
                ("count", "count"),
                ("rtt", "time"),
                ("start", "time"),
                ("stop", "time"),
                ("size", "size"),
                ("mss", "int"),
                ("initial_window", "int"),
                ("rwnd", "size"),
                ("min_rto", "time"),
                ("sack", "bool"),
                ("delayed_ack", "bool"),
                ("access_rate", "rate"),
                ("receiver", "receiver"),
                ("defences", "defences"),
            ])
            .prop_flat_map(|(k, kind)| scenario_value(kind).prop_map(move |v| format!("{k} = {v}"))),
            0..3,
        ),
    )
        .prop_map(|(cc, keys)| format!("[[flows]]\ncc = \"{cc}\"\n{}\n", keys.join("\n")));
    (top, link, prop::collection::vec(flow, 1..3)).prop_map(|(top, link, flows)| {
        format!("{}\n[link]\n{}\n{}", top.join("\n"), link.join("\n"), flows.concat())
    })
}

/// What became of one input.
#[derive(PartialEq)]
enum Outcome {
    /// Refused with a one-line error.
    Refused,
    /// Accepted, and (where it configures a run) the run ended.
    Accepted,
}

/// Runs `check` on `cases` inputs drawn from `strategy` (times `FUZZ_CASES`), prints the counts,
/// and requires both outcomes: a family whose inputs were all refused (or all accepted) tested
/// only half of what it claims.
fn fuzz<S: Strategy>(name: &str, base: u32, strategy: S, check: impl Fn(S::Value) -> Outcome) {
    use std::sync::atomic::{AtomicU32, Ordering};
    let refused = AtomicU32::new(0);
    let accepted = AtomicU32::new(0);
    let mut runner = proptest::test_runner::TestRunner::new_with_rng(cases(base), proptest::test_runner::TestRng::deterministic_rng(proptest::test_runner::RngAlgorithm::ChaCha));
    runner
        .run(&strategy, |v| {
            match check(v) {
                Outcome::Refused => refused.fetch_add(1, Ordering::Relaxed),
                Outcome::Accepted => accepted.fetch_add(1, Ordering::Relaxed),
            };
            Ok(())
        })
        .unwrap_or_else(|e| panic!("fuzz {name}: {e}"));
    let (r, a) = (refused.into_inner(), accepted.into_inner());
    eprintln!(
        "fuzz {name}: {} inputs, {a} accepted (and run where they configure one), {r} refused with a one-line error; {} packets simulated so far in this process",
        a + r,
        PACKETS_SIMULATED.load(Ordering::Relaxed)
    );
    assert!(r > 0 && a > 0, "fuzz {name}: {a} accepted, {r} refused: the generator misses one side");
}

/// A configuration refused with a one-line error, or accepted and run briefly.
fn outcome(resolved: Result<SimConfig, String>) -> Outcome {
    match resolved {
        Err(e) => {
            assert_error_line(&e);
            Outcome::Refused
        }
        Ok(cfg) => {
            run_briefly(cfg);
            Outcome::Accepted
        }
    }
}

fn scenario_outcome(text: &str) -> Outcome {
    outcome(Scenario::from_toml(text, "f.toml").and_then(|s| s.resolve()))
}

/// Any algorithm's or protocol's parameters, any of them at an edge or non-finite: refused in
/// one line, or a run that ends.
#[test]
fn algorithm_parameters() {
    fuzz("algorithm parameters", 600, mutated_transport(), |params| {
        let text = format!("duration = \"0.3s\"\n[link]\nrate = \"10mbit\"\n[[flows]]\ncc = {}\nrtt = \"20ms\"\n", inline_table(&params));
        scenario_outcome(&text)
    });
}

/// Whole scenario files from the keys a user writes, with values right, wrong and extreme.
#[test]
fn scenario_files() {
    fuzz("scenario files", 600, scenario_text(), |text| scenario_outcome(&text));
}

/// netem strings: parsed and range-checked (and run on a small link), or refused.
#[test]
fn netem_strings() {
    fuzz("netem strings", 1000, netem_text(), |text| {
        let n = match Netem::parse(&text).and_then(|n| cc::check::Validate::validate(&n).map(|()| n)) {
            Err(e) => {
                assert_error_line(&e);
                return Outcome::Refused;
            }
            Ok(n) => n,
        };
        let mut cfg = SimConfig {
            seed: 1,
            duration: cc::Time::from_millis(200),
            sample_interval: None,
            link: Default::default(),
            flows: vec![FlowConfig::new(cc::CcConfig::from_name("reno").unwrap(), cc::Time::from_millis(20))],
        };
        cfg.link.rate = cc::Rate::from_bits_per_sec(10e6);
        cfg.link.netem = n;
        outcome(cfg.validate().map(|()| cfg))
    });
}

/// Mahimahi traces: any lines, any bytes.
#[test]
fn traces() {
    let line = prop_oneof![(0u64..10_000).prop_map(|v| v.to_string()), "[ -~\\t\\x00]{0,12}", Just("18446744073709551616".to_string())];
    let sorted = prop::collection::vec(0u64..10_000, 1..20).prop_map(|mut v| {
        v.sort_unstable();
        v.iter().map(u64::to_string).collect::<Vec<_>>()
    });
    fuzz("traces", 1000, prop_oneof![prop::collection::vec(line, 0..20), sorted], |lines| {
        let text = lines.join("\n");
        match Trace::parse("t.trace", &text) {
            Err(e) => {
                assert_error_line(&e);
                Outcome::Refused
            }
            Ok(t) => {
                assert!(t.mean_rate().bits_per_sec() > 0.0);
                Outcome::Accepted
            }
        }
    });
}

/// Sweep plans: the plan's own keys with right and wrong values over a small scenario.
#[test]
fn plans() {
    let parts = (
        prop::sample::select(vec!["", "seeds = 2", "seeds = 0", "seeds = -1", "seeds = [1, 1]", "seeds = 100000000", "seeds = \"x\""]),
        prop::sample::select(vec!["", "", "base = 5", "base = \"/no/such.toml\"", "base = \"\""]),
        prop::sample::select(vec!["", "out = \"\"", "out = 5", "out = \"r.csv\""]),
        prop::sample::select(vec![
            "",
            "[grid]\n\"link.rate\" = [\"10mbit\", \"20mbit\"]",
            "[grid]\n\"link.rate\" = []",
            "[grid]\n\"link.rate\" = \"10mbit\"",
            "[grid]\n\"flows[0].cc\" = [\"reno\", \"cubic\"]",
            "[grid]\n\"nope.key\" = [1, 2]",
            "[grid]\n\"link.rate\" = [\"0mbit\", \"150KB\"]",
            "[grid]\n\"link.rate\" = [\"10mbit\", \"20mbit\", \"30mbit\", \"40mbit\"]\n\"defaults.rtt\" = [\"10ms\", \"20ms\", \"30ms\", \"40ms\"]",
        ]),
    );
    fuzz("sweep plans", 500, parts, |(seeds, base, out, grid)| {
        let text = format!("{seeds}\n{base}\n{out}\nduration = \"1s\"\n[[flows]]\ncc = \"reno\"\n{grid}\n");
        let dir = Path::new("/nonexistent-cclab-fuzz");
        match Plan::from_text(&text, "p.toml", dir, dir.join("p.csv")) {
            Err(e) => {
                assert_error_line(&e.0);
                Outcome::Refused
            }
            Ok(p) => {
                assert!(!p.runs.is_empty());
                Outcome::Accepted
            }
        }
    });
}

/// `cclab run`'s flags, each drawn from right, wrong and extreme values, resolved as the CLI
/// resolves them (flags over the defaults).
#[test]
fn run_flags() {
    // Each flag is given with probability 0.3, so that some runs get through every check.
    let pick = |v: Vec<&'static str>| prop::option::weighted(0.3, prop::sample::select(v).prop_map(String::from));
    let time = || pick(vec!["0.2s", "0s", "-1s", "1e308s", "1ns", "100ms", "1e9s", "5", "abc", "2s"]);
    let flags = (
        prop::sample::select(vec!["reno", "cubic,bbr", "udt", "vegaz", "", ",", "cbr"]).prop_map(|c| Some(c.to_string())),
        pick(vec!["10mbit", "0mbit", "150KB", "1e20gbit", "7", "-5mbit", "1bit"]),
        time(),
        time(),
        pick(vec!["1bdp", "0bdp", "1B", "7", "100pkts", "1e308bdp"]),
        pick(vec!["1%", "100%", "101%", "-1%", "2"]),
        (prop::option::weighted(0.3, prop::sample::select(vec![0u64, 1, 88, 1448, 65_483, 65_484, u64::MAX])), prop::option::weighted(0.3, prop::sample::select(vec![0u32, 1, 10, 100_001]))),
        (time(), pick(vec!["64KB", "0B", "1B", "1e30GB"]), prop::option::weighted(0.3, prop::sample::select(vec![0u32, 1, 3, 20_000]))),
    );
    fuzz("run flags", 600, flags, |(cc, rate, rtt, duration, buffer, loss, (mss, iw), (min_rto, rwnd, n))| {
        let a = cclab::RunArgs { cc, rate, rtt, duration, buffer, loss, mss, iw, min_rto, rwnd, flows: n, ..Default::default() };
        let resolved = cclab::run::flags_scenario(&a).map_err(|e| e.0).and_then(|s| {
            if s.flows.is_none() {
                return Err("no --cc".to_string());
            }
            cclab::run::resolve(&a, &Scenario::default().overlay(&s)).map_err(|e| e.0)
        });
        outcome(resolved)
    });
}
