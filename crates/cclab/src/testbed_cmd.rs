//! `cclab testbed run` and `cclab twin`: a scenario on the kernel's TCP through the
//! simulator's link model (crate `testbed`), and the same scenario in both engines side by side.

use crate::output;
use crate::run::{load_scenario, simulate};
use crate::scenario::CcArg;
use crate::kernel_run::{faithful, TRIES};
use crate::twin_metrics::{accuracy_line, judge_kept, twin_table, Measure, MEASURES};
use crate::verdict::{claims_table, tally, ALPHA};
use crate::{RunArgs, UserError};
use crate::pcap::FrameFile;
use std::path::Path;
use std::sync::{Arc, Mutex};
use testbed::{TestbedConfig, TestbedResult};

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

/// A testbed run's own reports beside its run files: `emulator.json` (the emulator's measured
/// accuracy) and `kernel.json` (what the kernel says limited each flow).
fn write_testbed_reports(dir: &Path, t: &TestbedResult) -> Result<(), UserError> {
    let kernel = serde_json::json!({ "flows": t.limits, "time_series": t.sampling });
    for (name, json) in [("emulator.json", serde_json::to_value(&t.emulator).expect("the report serialises")), ("kernel.json", kernel)] {
        let p = dir.join(name);
        let text = serde_json::to_string_pretty(&json).expect("JSON values serialise");
        std::fs::write(&p, text + "\n").map_err(|e| UserError(format!("{}: {e}", p.display())))?;
    }
    Ok(())
}

/// `cclab testbed run`.
pub fn testbed_run(a: &RunArgs) -> Result<(), UserError> {
    let (scenario, tc) = testbed_config(a)?;
    crate::run::check_outputs(a, &scenario)?;
    let t = run_on_testbed(&tc, a.pcap.as_deref())?;
    if let Some(dir) = &a.out {
        output::prepare_out_dir(dir, a.force, "--out")?;
        output::write_run(dir, &scenario, &t.result)?;
        write_testbed_reports(dir, &t)?;
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&t.result.summary).expect("summary serialises"));
    } else {
        output::print_run(&tc.sim, &t.result, scenario.link.netem.as_deref());
        println!("{}", accuracy_line(&t.emulator));
        for l in &t.limits {
            println!("{}", l.line());
        }
        if let Some(l) = tc.sim.sample_interval.and_then(|iv| t.sampling.line(iv)) {
            println!("{l}");
        }
        if let Some(why) = t.emulator.fell_behind(&tc.sim) {
            println!("warning: {why}; this run measured the host as much as the model's link");
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

/// `cclab twin`'s flags: `cclab run`'s, and how many runs of each engine.
#[derive(clap::Args, Clone, Debug)]
pub struct TwinArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// Runs of each engine: the simulator on seeds SEED..SEED+N-1, the kernel N times (each
    /// with that seed's loss pattern). With 2 or more, every metric is judged by equivalence:
    /// ours the same as the kernel's where the 90 % interval of the difference of means lies
    /// within what two of the kernel's runs differ by. At most 50.
    #[arg(long, default_value_t = 1)]
    pub runs: u32,
}

/// `cclab twin`: the simulator and the testbed on one scenario, and the comparison.
pub fn twin(t: &TwinArgs) -> Result<(), UserError> {
    let a = &t.run;
    if !(1..=50).contains(&t.runs) {
        return Err(format!("--runs: {} is not allowed; give 1 to 50 runs of each engine", t.runs).into());
    }
    if t.runs > 1 && a.pcap.is_some() {
        return Err("--pcap: captures one kernel run; use it with --runs 1".into());
    }
    let (scenario, tc) = testbed_config(a)?;
    crate::run::check_outputs(a, &scenario)?;
    if t.runs == 1 {
        return twin_once(a, &scenario, &tc);
    }
    if let Some(dir) = &a.out {
        output::prepare_out_dir(dir, a.force, "--out")?;
    }
    let (mut ours, mut kernel, mut left_out) = (Vec::new(), Vec::new(), Vec::new());
    testbed::netns::install_signal_handlers();
    for k in 0..u64::from(t.runs) {
        let mut run = tc.clone();
        run.sim.seed = tc.sim.seed.wrapping_add(k);
        let r = simulate(run.sim.clone(), a.quiet || a.json, &format!("simulating, seed {}", run.sim.seed))?;
        // Only runs whose emulator kept up are the model's link (kernel_run::faithful).
        let kr = faithful(&run)?;
        if let Some(dir) = &a.out {
            output::write_run(&dir.join(format!("sim-seed-{}", run.sim.seed)), &scenario, &r)?;
            output::write_run(&dir.join(format!("kernel-run-{}", k + 1)), &scenario, &kr.result.result)?;
            write_testbed_reports(&dir.join(format!("kernel-run-{}", k + 1)), &kr.result)?;
        }
        if !a.quiet && !a.json {
            for why in &kr.set_aside {
                eprintln!("kernel run {}: an attempt set aside and run again: {why}", k + 1);
            }
            eprintln!("kernel run {}: {}", k + 1, accuracy_line(&kr.result.emulator));
            for l in &kr.result.limits {
                eprintln!("kernel run {}: {}", k + 1, l.line());
            }
        }
        ours.push(r);
        match kr.behind {
            Some(why) => {
                eprintln!("kernel run {}: left out of the comparison after {TRIES} attempts: {why}", k + 1);
                left_out.push(k + 1);
            }
            None => kernel.push(kr.result.result),
        }
    }
    let metrics: Vec<&Measure> = MEASURES.iter().collect();
    let claims = judge_kept(&format!("{} runs each", t.runs), &ours, &kernel, &left_out, u64::from(t.runs), TRIES, &metrics);
    let table = claims_table(&claims);
    if let Some(dir) = &a.out {
        let p = dir.join("twin.csv");
        std::fs::write(&p, table.to_csv()?).map_err(|e| UserError(format!("{}: {e}", p.display())))?;
    }
    print!("{}", table.render_text());
    let (holds, judged) = tally(&claims);
    println!(
        "{holds} of {judged} metrics shown the same as the kernel's (equivalence at α = {ALPHA}, within what two of the kernel's runs differ by in 95 % of pairs; the seed column is the kernel's {} runs that kept the emulator on time)",
        kernel.len()
    );
    if let Some(dir) = &a.out {
        println!("wrote {}/{{sim-seed-*,kernel-run-*,twin.csv}}", dir.display());
    }
    Ok(())
}

/// One run of each engine, side by side.
fn twin_once(a: &RunArgs, scenario: &crate::scenario::Scenario, tc: &TestbedConfig) -> Result<(), UserError> {
    let ours = simulate(tc.sim.clone(), a.quiet || a.json, "simulating")?;
    let kr = run_on_testbed(tc, a.pcap.as_deref())?;
    let kernel = &kr.result;
    let table = twin_table("simulator (ours) against the kernel", &ours, kernel);
    if let Some(dir) = &a.out {
        output::prepare_out_dir(dir, a.force, "--out")?;
        output::write_run(&dir.join("sim"), scenario, &ours)?;
        output::write_run(&dir.join("kernel"), scenario, kernel)?;
        write_testbed_reports(&dir.join("kernel"), &kr)?;
        let p = dir.join("twin.csv");
        std::fs::write(&p, table.to_csv()?).map_err(|e| UserError(format!("{}: {e}", p.display())))?;
    }
    print!("{}", table.render_text());
    if !a.quiet && !a.json {
        for l in &kr.limits {
            println!("{}", l.line());
        }
    }
    if let Some(why) = kr.emulator.fell_behind(&tc.sim) {
        println!("warning: {why}; this kernel run measured the host as much as the model's link (--runs N runs it again where it falls behind)");
    }
    if let Some(dir) = &a.out {
        println!("wrote {}/{{sim,kernel,twin.csv}}", dir.display());
    }
    Ok(())
}
