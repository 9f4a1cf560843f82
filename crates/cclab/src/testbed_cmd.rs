//! `cclab testbed run` and `cclab twin`: a scenario on the kernel's TCP through the
//! simulator's link model (crate `testbed`), and the same scenario in both engines side by side.

use crate::output;
use crate::run::{load_scenario, simulate};
use crate::scenario::CcArg;
use crate::twin_metrics::{accuracy_line, twin_table};
use crate::{RunArgs, UserError};
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
