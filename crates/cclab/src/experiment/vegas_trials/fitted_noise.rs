//! Cause A read under cause F: if the seed's Vegas column measured Reno and mVegas (see
//! [`super::columns`]), the seed has no Vegas run that host noise must leave at Reno's rate,
//! and the one objection to noise as what held mVegas down at 0.2 ms (it holds Vegas lower
//! still) falls away. Our evidence gives no noise level for the seed's host, so this one is
//! **fitted**: the level of the trial-1 sweep whose mVegas mean is nearest the seed's trial-1
//! mVegas. Every other trial's mVegas then runs at that level, as an out-of-sample check
//! against the seed's five runs (Welch's t-test); trial 1's mVegas is the fitted cell and is
//! never a check. Reno runs at that level too, to show what the noise does to it (its link rate
//! and receive window are themselves fitted, so its cells are not checks of the noise).

use super::{mbps, seed, testbed, ALGOS};
use crate::experiment::{run_one, Options, Table};
use crate::stats::{welch_p, Summary};
use crate::table::num;
use crate::verdict::{p_equals, ALPHA};
use crate::UserError;
use cc::Time;

/// The cells run at the fitted noise: Reno and mVegas (indices in `ALGOS`).
const CELLS: [usize; 2] = [0, 2];

/// One cell at the fitted noise: our runs and Welch's p against the seed's five.
pub struct Check {
    pub trial: u32,
    pub k: usize,
    pub mbps: Vec<f64>,
    pub p: f64,
}

impl Check {
    /// Trial 1's mVegas is what the noise was fitted on.
    pub fn fitted(&self) -> bool {
        self.trial == 1 && self.k == 2
    }
}

/// The noise level of `levels` (upper bounds) whose trial-1 mVegas mean, in `mvegas_means`,
/// lies nearest the seed's trial-1 mVegas mean.
pub fn fit(levels: &[Time], mvegas_means: &[f64]) -> Option<Time> {
    let target = seed::trial(1).cells[2].summary().mean;
    let k = (0..levels.len().min(mvegas_means.len())).min_by(|&a, &b| (mvegas_means[a] - target).abs().total_cmp(&(mvegas_means[b] - target).abs()))?;
    Some(levels[k])
}

/// Every trial's Reno and mVegas at `noise`, one run per seed.
pub fn run(noise: Time, runs: usize, opts: &Options) -> Result<Vec<Check>, UserError> {
    let mut checks = Vec::new();
    for trial in &seed::TRIALS {
        for k in CELLS {
            let cc = ALGOS[k].0;
            let mut xs = Vec::new();
            for run in 1..=runs {
                let cfg = testbed::config(cc, testbed::netem_of(trial), noise, run as u64, Time::from_millis(100))?;
                xs.push(mbps(&run_one(cfg, &opts.out.join(format!("fitted-noise/trial-{}/{cc}/run-{run}", trial.number)))?));
            }
            let p = Summary::of(&xs).and_then(|o| welch_p(&o, &trial.cells[k].summary())).unwrap_or(f64::NAN);
            checks.push(Check { trial: trial.number, k, mbps: xs, p });
        }
    }
    Ok(checks)
}

impl Check {
    /// An out-of-sample check of the fitted noise: mVegas outside trial 1.
    pub fn is_check(&self) -> bool {
        self.k == 2 && !self.fitted()
    }
}

/// How many of the out-of-sample checks agree with the seed, of how many.
pub fn agreeing(checks: &[Check]) -> (usize, usize) {
    let out_of_sample: Vec<&Check> = checks.iter().filter(|c| c.is_check()).collect();
    (out_of_sample.iter().filter(|c| c.p >= ALPHA).count(), out_of_sample.len())
}

pub fn table(noise: Time, checks: &[Check]) -> Table {
    let mut t = Table::new(
        &format!("cause A under cause F: Reno and mVegas with the host noise fitted on trial 1's mVegas (0 to {} ms per ACK), Mbit/s", num(noise.as_secs_f64() * 1e3)),
        &["trial", "cell", "ours (mean, min-max)", "seed (mean, min-max)", "Welch", "role"],
    );
    for c in checks {
        let s = seed::trial(c.trial).cells[c.k].summary();
        let o = Summary::of(&c.mbps);
        t.row(vec![
            c.trial.to_string(),
            ALGOS[c.k].1.into(),
            o.map_or(String::new(), |o| format!("{} ({}-{})", num(o.mean), num(o.min), num(o.max))),
            format!("{} ({}-{})", num(s.mean), num(s.min), num(s.max)),
            p_equals(c.p),
            if c.fitted() {
                "fitted".into()
            } else if !c.is_check() {
                "shown: not a check of the noise".into()
            } else if c.p >= ALPHA {
                "check: agrees".into()
            } else {
                "check: differs".into()
            },
        ]);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The level nearest the seed's 94.5 Mbit/s wins, whatever the order of the grid.
    #[test]
    fn the_fit_picks_the_level_nearest_the_seeds_mvegas() {
        let levels = [Time::ZERO, Time::from_micros(200), Time::from_micros(1000)];
        assert_eq!(fit(&levels, &[290.0, 243.0, 95.0]), Some(Time::from_micros(1000)));
        assert_eq!(fit(&levels, &[290.0, 94.0, 20.0]), Some(Time::from_micros(200)));
        let shuffled = [Time::from_micros(1000), Time::ZERO, Time::from_micros(200)];
        assert_eq!(fit(&shuffled, &[95.0, 290.0, 243.0]), Some(Time::from_micros(1000)));
        assert_eq!(fit(&[], &[]), None);
    }

    #[test]
    fn only_mvegas_outside_the_fitted_cell_counts_as_a_check() {
        let c = |trial, k, p| Check { trial, k, mbps: vec![1.0], p };
        let checks = [c(1, 2, 0.9), c(1, 0, 0.9), c(2, 0, 0.9), c(3, 2, 0.01), c(4, 2, 0.5)];
        assert_eq!(agreeing(&checks), (1, 2), "only mVegas outside trial 1 is checked");
    }
}
