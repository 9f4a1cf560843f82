//! Trial 2's delay, lost from the seed's text and assumed ([`testbed::TRIAL_2_DELAY`]): every
//! verdict on trial 2's cells rests on it, so its three cells run again at other delays the
//! seed allows, and a table shows whether any verdict changes. Its Reno reached 300 Mbit/s,
//! which a window-held sender does only while the round trip stays under `W/G` (the fitted
//! receive window over the seed's Reno goodput, less the base round trip:
//! [`largest_delay`]), so the delays tried run from half the assumed one to just under that.

use super::{mbps, seed, testbed, ALGOS};
use crate::experiment::{run_one, Options, Table};
use crate::stats::Summary;
use crate::table::num;
use crate::verdict::Claim;
use crate::UserError;
use cc::Time;

/// The assumed delay as the table prints delays ("1 ms").
fn assumed_label() -> String {
    testbed::TRIAL_2_DELAY.trim_start_matches("delay ").replace("ms", " ms")
}

/// The delays tried besides the assumed 1 ms (ms).
pub const DELAYS_MS: [f64; 3] = [0.5, 2.0, 3.5];

/// The largest netem delay with which the fitted receive window still carries trial 2's Reno
/// mean: `W·8/G − (FIXED_RTT + HOST_NOISE/2)`.
pub fn largest_delay() -> Time {
    let goodput = seed::trial(2).cells[0].summary().mean * 1e6;
    let rtt = testbed::fitted_rwnd() as f64 * 8.0 / goodput;
    let base = testbed::FIXED_RTT.as_secs_f64() + testbed::HOST_NOISE.as_secs_f64() / 2.0;
    Time::from_secs_f64((rtt - base).max(0.0))
}

/// Trial 2's three cells at each of [`DELAYS_MS`], Mbit/s per seed, in `ALGOS` order.
pub fn run(runs: usize, opts: &Options) -> Result<Vec<(f64, [Vec<f64>; 3])>, UserError> {
    let mut out = Vec::new();
    for ms in DELAYS_MS {
        let netem = format!("delay {}ms", num(ms));
        let mut cells: [Vec<f64>; 3] = Default::default();
        for (k, (cc, _)) in ALGOS.iter().enumerate() {
            for run in 1..=runs {
                let cfg = testbed::config(cc, &netem, testbed::HOST_NOISE, run as u64, Time::from_millis(100))?;
                cells[k].push(mbps(&run_one(cfg, &opts.out.join(format!("trial-2-delay/{}ms/{cc}/run-{run}", num(ms))))?));
            }
        }
        out.push((ms, cells));
    }
    Ok(out)
}

/// The verdict of each of trial 2's cells against the seed's runs, as the main table judges
/// them ([`Claim::matches`]).
fn verdicts(cells: &[Vec<f64>; 3]) -> [&'static str; 3] {
    let t = seed::trial(2);
    [0, 1, 2].map(|k| Claim::matches("", &cells[k], t.cells[k].summary(), "Mbit/s").verdict.label())
}

/// The table (the assumed delay's row from the main runs first) and a note saying whether any
/// verdict changes with the delay.
pub fn table(assumed: &[Vec<f64>; 3], others: &[(f64, [Vec<f64>; 3])]) -> (Table, String) {
    let mut t = Table::new(
        &format!("trial 2 at other delays (the seed lost its own; {} assumed): Mbit/s, mean (min-max), and the verdict against the seed's runs", testbed::TRIAL_2_DELAY),
        &["netem delay", "Reno", "Vegas", "mVegas"],
    );
    let cell = |xs: &[f64], verdict: &str| Summary::of(xs).map_or(String::new(), |s| format!("{} ({}-{}): {verdict}", num(s.mean), num(s.min), num(s.max)));
    let base = verdicts(assumed);
    let row = |label: String, cells: &[Vec<f64>; 3], v: [&str; 3]| vec![label, cell(&cells[0], v[0]), cell(&cells[1], v[1]), cell(&cells[2], v[2])];
    t.row(row(format!("{} (assumed)", assumed_label()), assumed, base));
    let mut changed = Vec::new();
    for (ms, cells) in others {
        let v = verdicts(cells);
        for k in 0..3 {
            if v[k] != base[k] {
                changed.push(format!("{}'s at {} ms ({})", ALGOS[k].1, num(*ms), v[k]));
            }
        }
        t.row(row(format!("{} ms", num(*ms)), cells, v));
    }
    let range = format!(
        "Trial 2's delay was lost from the seed's text; its Reno's 300 Mbit/s bounds it below {} ms with our receive window, and we assume {}.",
        num(largest_delay().as_secs_f64() * 1e3),
        assumed_label()
    );
    let note = if changed.is_empty() {
        format!("{range} Run again at {} ms, no verdict on trial 2's cells changes, so they do not rest on the assumption.", DELAYS_MS.map(num).join(", "))
    } else {
        format!("{range} Run again at {} ms, verdicts on trial 2's cells change ({}), so those rest on the assumed delay.", DELAYS_MS.map(num).join(", "), changed.join("; "))
    };
    (t, note)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The steady-state window, 142.8 kB, carries trial 2's 299.8 Mbit/s over at most
    /// 142.8e3·8/299.8e6 = 3.81 ms, less the 0.2 ms base, 3.61 ms; the fitted window lies
    /// between it and half as much again, so the bound lies above 3.61 ms and every delay
    /// tried below it.
    #[test]
    fn the_delays_tried_lie_under_the_bound_the_window_sets() {
        let d = largest_delay().as_secs_f64() * 1e3;
        assert!(d > 3.61 && d < 1.5 * 3.81, "{d}");
        assert!(DELAYS_MS.iter().all(|&ms| ms < d));
    }
}
