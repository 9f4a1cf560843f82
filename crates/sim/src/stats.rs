//! Summary statistics: an HDR histogram for percentiles with an exact running mean, and
//! Jain's fairness index.

use hdrhistogram::Histogram as Hdr;

/// Records non-negative integer values (µs, packets); percentiles to 3 significant digits,
/// memory independent of the number of samples. The counts grow with the largest value seen
/// (about 28 KB for RTTs up to 130 ms, 86 KB at the 10⁹ cap) rather than being allocated for
/// the cap up front, which matters with thousands of flows. Values above 10⁹ (µs: about 17
/// minutes) are clamped for the percentiles; the mean stays exact.
#[derive(Clone, Debug)]
pub struct Histogram {
    hdr: Hdr<u32>,
    sum: f64,
}

const HIGHEST_TRACKABLE: u64 = 1_000_000_000;

impl Default for Histogram {
    fn default() -> Self {
        let mut hdr = Hdr::new_with_bounds(1, 2048, 3).expect("valid histogram bounds");
        hdr.auto(true);
        Histogram { hdr, sum: 0.0 }
    }
}

impl Histogram {
    #[inline]
    pub fn record(&mut self, v: u64) {
        self.hdr.record(v.min(HIGHEST_TRACKABLE)).expect("an auto-resizing histogram takes every value up to the cap");
        self.sum += v as f64;
    }
    pub fn count(&self) -> u64 {
        self.hdr.len()
    }
    pub fn mean(&self) -> f64 {
        if self.count() == 0 {
            0.0
        } else {
            self.sum / self.count() as f64
        }
    }
    pub fn min(&self) -> u64 {
        if self.count() == 0 {
            0
        } else {
            self.hdr.min()
        }
    }
    pub fn max(&self) -> u64 {
        self.hdr.max()
    }
    /// The `q`-quantile (0..=1).
    pub fn quantile(&self, q: f64) -> u64 {
        if self.count() == 0 {
            0
        } else {
            self.hdr.value_at_quantile(q)
        }
    }
}

/// Jain's fairness index `(Σx)² / (n·Σx²)`: 1 when all shares are equal, 1/n when one flow
/// takes everything (R. Jain, D. Chiu, W. Hawe, DEC-TR-301, 1984).
pub fn jain_index(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let sum: f64 = xs.iter().sum();
    let sq: f64 = xs.iter().map(|x| x * x).sum();
    if xs.is_empty() || sq == 0.0 {
        1.0
    } else {
        sum * sum / (n * sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jain_index_extremes() {
        assert!((jain_index(&[5.0, 5.0, 5.0, 5.0]) - 1.0).abs() < 1e-12);
        assert!((jain_index(&[1.0, 0.0, 0.0, 0.0]) - 0.25).abs() < 1e-12);
        // Two flows at 3:1 -> 16 / (2·10) = 0.8.
        assert!((jain_index(&[3.0, 1.0]) - 0.8).abs() < 1e-12);
    }

    #[test]
    fn histogram_percentiles() {
        let mut h = Histogram::default();
        for v in 1..=1000 {
            h.record(v);
        }
        assert_eq!(h.mean(), 500.5);
        assert_eq!(h.min(), 1);
        let p95 = h.quantile(0.95);
        assert!((949..=951).contains(&p95), "{p95}");
        // Large values keep three significant digits.
        let mut h = Histogram::default();
        for v in [100_000u64, 150_000, 200_000] {
            h.record(v);
        }
        assert!((199_800..=200_200).contains(&h.quantile(0.95)), "{}", h.quantile(0.95));
    }
}
