//! The seed's tables (`seeds/004`, "Results": Trials 1-6): five iperf runs per cell in
//! Mbit/s, sorted ascending as the seed prints them, and the mean and standard deviation where
//! the seed prints them. The seed's text lost trial 2's "ave" and "stddev" rows and trial 6's
//! for Reno and mVegas (the extraction interleaved them with trial 5's); for those cells the
//! summary is computed from the five runs. iperf reports three significant figures.

use crate::stats::Summary;

/// One cell of a seed table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cell {
    pub runs: [f64; 5],
    /// The seed's printed `(ave, stddev)`, if the text kept them.
    pub printed: Option<(f64, f64)>,
}

impl Cell {
    /// The seed's summary: its printed mean and standard deviation where it has them (with
    /// the range of its runs), else the summary of its five runs.
    pub fn summary(&self) -> Summary {
        let of_runs = Summary::of(&self.runs).expect("five runs");
        match self.printed {
            Some((mean, sd)) => Summary { mean, sd, ..of_runs },
            None => of_runs,
        }
    }
}

/// The run of `runs` that Grubbs' test at [`crate::verdict::ALPHA`] takes for an outlier, if
/// any ([`crate::stats::grubbs_outlier`]): the seed's 18.1 in trial 6, which it calls "the most
/// extreme of the entire dataset".
pub fn outlier(runs: &[f64]) -> Option<f64> {
    crate::stats::grubbs_outlier(runs, crate::verdict::ALPHA)
}

/// One trial: its netem options (trial 2's were lost) and the Reno, Vegas and mVegas cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trial {
    pub number: u32,
    /// What the seed's table says after "netem options"; `None` where the text lost it.
    pub netem: Option<&'static str>,
    pub cells: [Cell; 3],
}

const fn cell(runs: [f64; 5], printed: Option<(f64, f64)>) -> Cell {
    Cell { runs, printed }
}

pub const TRIALS: [Trial; 6] = [
    Trial {
        number: 1,
        netem: Some(""),
        cells: [
            cell([288.0, 290.0, 291.0, 291.0, 291.0], Some((290.0, 1.300))),
            cell([285.0, 287.0, 289.0, 291.0, 291.0], Some((289.0, 2.610))),
            cell([91.0, 92.3, 95.6, 96.4, 97.2], Some((94.5, 2.700))),
        ],
    },
    Trial {
        number: 2,
        netem: None,
        cells: [
            cell([296.0, 299.0, 300.0, 302.0, 302.0], None),
            cell([297.0, 298.0, 300.0, 302.0, 304.0], None),
            cell([35.3, 37.5, 38.2, 44.1, 47.0], None),
        ],
    },
    Trial {
        number: 3,
        netem: Some("delay 100ms"),
        cells: [
            cell([11.2, 11.2, 11.4, 11.4, 11.7], Some((11.4, 0.204))),
            cell([7.24, 7.42, 7.43, 7.45, 7.53], Some((7.41, 0.106))),
            cell([7.10, 7.35, 7.46, 7.46, 7.49], Some((7.37, 0.161))),
        ],
    },
    Trial {
        number: 4,
        netem: Some("loss 0.1%"),
        cells: [
            cell([286.0, 288.0, 288.0, 289.0, 290.0], Some((288.0, 1.480))),
            cell([286.0, 287.0, 288.0, 289.0, 291.0], Some((288.0, 1.920))),
            cell([90.3, 91.9, 91.9, 92.4, 102.0], Some((93.7, 4.710))),
        ],
    },
    Trial {
        number: 5,
        netem: Some("loss 1%"),
        cells: [
            cell([286.0, 286.0, 288.0, 290.0, 290.0], Some((288.0, 2.000))),
            cell([87.6, 90.3, 93.4, 95.9, 96.5], Some((92.7, 3.770))),
            cell([90.0, 90.3, 91.5, 91.7, 103.0], Some((93.3, 5.470))),
        ],
    },
    Trial {
        number: 6,
        netem: Some("delay 100ms 10ms 25% loss 0.1%"),
        cells: [
            cell([10.1, 10.7, 10.8, 10.8, 10.9], None),
            cell([7.06, 7.55, 8.08, 9.04, 10.50], Some((8.45, 1.360))),
            cell([7.62, 7.80, 7.98, 9.86, 18.10], None),
        ],
    },
];

pub fn trial(number: u32) -> &'static Trial {
    &TRIALS[number as usize - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Grubbs' G = max|x − mean|/sd against G(5, 0.05) = 1.715: trial 6's mVegas (mean 10.27,
    /// sd 4.47) has 18.1 at G = 1.75, an outlier; trial 1's Reno (mean 290.2, sd 1.30) has 288
    /// at G = 1.69, none.
    #[test]
    fn the_seeds_outliers() {
        assert_eq!(outlier(&trial(6).cells[2].runs), Some(18.1));
        assert_eq!(outlier(&trial(1).cells[0].runs), None);
    }


    /// The printed means and standard deviations agree with the printed runs to the seed's
    /// three significant figures (trial 1 Vegas: the runs give 288.6, printed 289).
    #[test]
    fn printed_summaries_match_the_runs() {
        for t in &TRIALS {
            for c in &t.cells {
                let s = Summary::of(&c.runs).unwrap();
                assert!(s.min <= s.median && s.median <= s.max);
                if let Some((mean, sd)) = c.printed {
                    assert!((s.mean - mean).abs() / mean < 0.005, "trial {}: {} vs {mean}", t.number, s.mean);
                    assert!((s.sd - sd).abs() < 0.06 * sd + 0.01, "trial {}: sd {} vs {sd}", t.number, s.sd);
                }
            }
        }
    }
}
