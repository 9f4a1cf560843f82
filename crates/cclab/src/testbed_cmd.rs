//! `cclab testbed run` and `cclab twin`: a scenario on the kernel's TCP through the
//! simulator's link model (crate `testbed`), and the same scenario in both engines side by side.

use crate::output;
use crate::run::{load_scenario, simulate};
use crate::scenario::CcArg;
use crate::table::Table;
use crate::{RunArgs, UserError};
use sim::RunResult;
use crate::pcap::FrameFile;
use std::path::Path;
use std::sync::{Arc, Mutex};
use testbed::{EmulatorReport, TestbedConfig, TestbedResult};

/// The scenario of a testbed run, and each flow's kernel congestion control. `--cc` takes the
/// kernel's names, which need not be algorithms of ours (`htcp`, `vegas`...): those flows
/// appear as `reno` in the simulator's scenario, the kernel runs the name given.
fn testbed_config(a: &RunArgs) -> Result<(crate::scenario::Scenario, TestbedConfig), UserError> {
    if a.scenario.is_none() && a.cc.is_none() {
        return Err("testbed: give a scenario file or --cc (e.g. --cc cubic)".into());
    }
    let kernel_names: Option<Vec<String>> = a.cc.as_ref().map(|l| l.split(',').map(|n| n.trim().to_string()).collect());
    let mut args = a.clone();
    if let Some(names) = &kernel_names {
        let ours: Vec<&str> = names.iter().map(|n| if n.parse::<CcArg>().is_ok() { n.as_str() } else { "reno" }).collect();
        args.cc = Some(ours.join(","));
    }
    let scenario = load_scenario(&args)?;
    let cfg = crate::run::resolve(&args, &scenario)?;
    let mut tc = TestbedConfig::from_sim(cfg);
    if let Some(names) = kernel_names {
        tc.cc = (0..tc.sim.flows.len()).map(|i| names[i % names.len()].clone()).collect();
    }
    Ok((scenario, tc))
}

/// Runs on the testbed; with `pcap`, every frame the sender's host sees (captured at the
/// emulator's sender side) goes to that file.
fn run_on_testbed(tc: &TestbedConfig, pcap: Option<&Path>) -> Result<TestbedResult, UserError> {
    testbed::netns::install_signal_handlers();
    let Some(path) = pcap else { return testbed::run(tc).map_err(UserError) };
    let file = Arc::new(Mutex::new(Some(FrameFile::create(path)?)));
    let sink = Arc::clone(&file);
    let capture: testbed::emulator::Capture = Box::new(move |now, frame| {
        if let Some(f) = sink.lock().expect("the capture lock").as_mut() {
            f.write(now, frame);
        }
    });
    let result = testbed::run::run_with_capture(tc, Some(capture)).map_err(UserError)?;
    let file = file.lock().expect("the capture lock").take().expect("the file stays until closed");
    file.close()?;
    Ok(result)
}

fn write_emulator_report(dir: &Path, r: &EmulatorReport) -> Result<(), UserError> {
    let p = dir.join("emulator.json");
    let json = serde_json::to_string_pretty(r).expect("the report serialises");
    std::fs::write(&p, json + "\n").map_err(|e| UserError(format!("{}: {e}", p.display())))
}

/// One line on how faithfully the emulator applied the link.
pub fn accuracy_line(r: &EmulatorReport) -> String {
    // The rate is measured over frames that leave in the order they were served (one base
    // RTT for every flow, no jitter).
    let rate = if r.busy_frames > 0 {
        format!("rate error {:+.3} % over {} back-to-back frames", r.rate_error * 100.0, r.busy_frames)
    } else {
        "rate error not measured (frames overtake in the delay line)".to_string()
    };
    format!(
        "emulator: {rate}, timing error p50 {:.1} us p99 {:.1} us max {:.0} us, {} socket drops, {:.0} frames per CPU second",
        r.timing_error_p50_us,
        r.timing_error_p99_us,
        r.timing_error_max_us,
        r.socket_drops,
        r.frames_per_cpu_s
    )
}

/// `cclab testbed run`.
pub fn testbed_run(a: &RunArgs) -> Result<(), UserError> {
    let (scenario, tc) = testbed_config(a)?;
    crate::run::check_outputs(a, &scenario)?;
    let t = run_on_testbed(&tc, a.pcap.as_deref())?;
    if let Some(dir) = &a.out {
        output::prepare_out_dir(dir, a.force, "--out")?;
        output::write_run(dir, &scenario, &t.result)?;
        write_emulator_report(dir, &t.emulator)?;
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&t.result.summary).expect("summary serialises"));
    } else {
        output::print_run(&tc.sim, &t.result, scenario.link.netem.as_deref());
        println!("{}", accuracy_line(&t.emulator));
        if t.emulator.socket_drops > 0 {
            println!("warning: the emulator's sockets dropped frames: the run is not the model's");
        }
        if let Some(dir) = &a.out {
            println!("wrote {}", dir.display());
        }
    }
    Ok(())
}

/// `cclab testbed bench`.
pub fn bench(datagrams: u64, payload: usize) -> Result<(), UserError> {
    if !(1..=1472).contains(&payload) {
        return Err("--payload: must be between 1 and 1472 bytes (one frame)".into());
    }
    testbed::netns::install_signal_handlers();
    let r = testbed::bench::packet_rate(datagrams, payload).map_err(UserError)?;
    println!("{}", serde_json::to_string_pretty(&r).expect("the result serialises"));
    Ok(())
}

/// `cclab twin`: the simulator and the testbed on one scenario, and the comparison.
pub fn twin(a: &RunArgs) -> Result<(), UserError> {
    let (scenario, tc) = testbed_config(a)?;
    crate::run::check_outputs(a, &scenario)?;
    let ours = simulate(tc.sim.clone(), a.quiet || a.json, "simulating")?;
    let kernel = run_on_testbed(&tc, a.pcap.as_deref())?.result;
    let table = twin_table("simulator (ours) against the kernel", &ours, &kernel);
    if let Some(dir) = &a.out {
        output::prepare_out_dir(dir, a.force, "--out")?;
        output::write_run(&dir.join("sim"), &scenario, &ours)?;
        output::write_run(&dir.join("kernel"), &scenario, &kernel)?;
        let p = dir.join("twin.csv");
        std::fs::write(&p, table.to_csv()?).map_err(|e| UserError(format!("{}: {e}", p.display())))?;
    }
    print!("{}", table.render_text());
    if let Some(dir) = &a.out {
        println!("wrote {}/{{sim,kernel,twin.csv}}", dir.display());
    }
    Ok(())
}

/// One metric of both engines.
#[derive(Clone, Debug, PartialEq)]
pub struct TwinMetric {
    pub metric: &'static str,
    pub unit: &'static str,
    pub ours: Option<f64>,
    pub kernel: Option<f64>,
    /// What the metric can resolve (a time read off the samples: one interval); closer than
    /// this agrees.
    pub resolution: f64,
}

impl TwinMetric {
    pub fn ratio(&self) -> Option<f64> {
        match (self.ours, self.kernel) {
            (Some(o), Some(k)) if o != 0.0 => Some(k / o),
            _ => None,
        }
    }

    /// `agree` within 10 % (or within the metric's resolution), `close` within 30 %, else
    /// `differ`; counts of three or fewer on both sides (retransmissions, timeouts) agree
    /// whatever their ratio.
    pub fn verdict(&self) -> &'static str {
        match (self.ours, self.kernel) {
            (None, None) => "agree (neither)",
            (None, Some(_)) | (Some(_), None) => "differ",
            (Some(o), Some(k)) if self.unit == "count" && o <= 3.0 && k <= 3.0 => "agree",
            (Some(o), Some(k)) if (k - o).abs() <= self.resolution * (1.0 + 1e-9) => "agree",
            _ => match self.ratio() {
                Some(r) if (r - 1.0).abs() <= 0.10 => "agree",
                Some(r) if (r - 1.0).abs() <= 0.30 => "close",
                _ => "differ",
            },
        }
    }
}

/// Segments of cwnd averaged over every sample of every flow.
fn cwnd_mean(r: &RunResult) -> Option<f64> {
    let s = r.series.as_ref()?;
    let xs: Vec<f64> = s.flows.iter().filter_map(|f| f.cwnd).collect();
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// When flow 0 first had a finite ssthresh (left slow start).
fn slow_start_exit(r: &RunResult) -> Option<f64> {
    let s = r.series.as_ref()?;
    s.flows.iter().find(|f| f.flow == 0 && f.ssthresh.is_some_and(|x| x < 1e6)).map(|f| f.time)
}

pub fn twin_metrics(ours: &RunResult, kernel: &RunResult) -> Vec<TwinMetric> {
    let sum = |r: &RunResult, f: fn(&sim::FlowSummary) -> f64| r.summary.flows.iter().map(f).sum::<f64>();
    let interval = ours.series.as_ref().and_then(|s| s.flows.first()).map_or(0.0, |f| f.time);
    let both = |metric, unit, f: &dyn Fn(&RunResult) -> Option<f64>| {
        let resolution = if metric == "slow-start exit" { interval } else { 0.0 };
        TwinMetric { metric, unit, ours: f(ours), kernel: f(kernel), resolution }
    };
    vec![
        both("throughput", "Mbit/s", &|r| Some(sum(r, |f| f.throughput_bps) / 1e6)),
        both("goodput", "Mbit/s", &|r| Some(sum(r, |f| f.goodput_bps) / 1e6)),
        both("retransmissions", "count", &|r| Some(sum(r, |f| f.retransmits as f64))),
        both("timeouts", "count", &|r| Some(sum(r, |f| f.timeouts as f64))),
        both("cwnd mean", "segments", &cwnd_mean),
        both("slow-start exit", "s", &slow_start_exit),
        both("queueing delay mean", "ms", &|r| Some(r.summary.link.queue_delay_ms.mean)),
        both("link utilisation", "%", &|r| Some(r.summary.link.utilization * 100.0)),
    ]
}

pub fn twin_table(title: &str, ours: &RunResult, kernel: &RunResult) -> Table {
    let mut t = Table::new(title, &["metric", "ours (simulator)", "kernel (testbed)", "kernel / ours", "verdict"]);
    let cell = |v: Option<f64>, unit: &str| v.map_or("-".to_string(), |x| format!("{x:.3} {unit}"));
    for m in twin_metrics(ours, kernel) {
        t.row(vec![
            m.metric.to_string(),
            cell(m.ours, m.unit),
            cell(m.kernel, m.unit),
            m.ratio().map_or("-".into(), |r| format!("{r:.3}")),
            m.verdict().to_string(),
        ]);
    }
    t
}
