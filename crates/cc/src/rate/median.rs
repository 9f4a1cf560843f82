//! UDT's median filters over a window of interval samples (\[U4\] `window.cpp`,
//! `CPktTimeWindow`; spec §2.3). Samples are intervals in µs; the window starts full of an
//! initial value and each new sample replaces the oldest.
//!
//! With `M` the median (the element at index ⌊n/2⌋ of the sorted window):
//!
//! - **arrival speed**: `AS = ⌈10⁶ / mean{x : M/8 < x < 8M}⌉` pkt/s if more than n/2 samples
//!   lie in that band, otherwise 0 (`getPktRcvSpeed`);
//! - **link capacity**: `B = ⌈10⁶ / mean({M} ∪ {x : M/8 < x < 8M})⌉` pkt/s, the median counted
//!   once more (`getBandwidth`).

/// A ring of the last `n` interval samples (µs).
#[derive(Clone, Debug, PartialEq)]
pub struct MedianWindow {
    samples: Vec<f64>,
    next: usize,
}

impl MedianWindow {
    /// A window of `n` samples (at least 1), all `initial_us` at first.
    pub fn new(n: usize, initial_us: f64) -> MedianWindow {
        MedianWindow { samples: vec![initial_us; n.max(1)], next: 0 }
    }

    pub fn push(&mut self, us: f64) {
        self.samples[self.next] = us;
        self.next = (self.next + 1) % self.samples.len();
    }

    pub fn median(&self) -> f64 {
        let mut v = self.samples.clone();
        let mid = v.len() / 2;
        *v.select_nth_unstable_by(mid, f64::total_cmp).1
    }

    /// The samples strictly inside (M/8, 8M): their sum and count.
    fn band(&self, m: f64) -> (f64, usize) {
        self.samples.iter().filter(|&&x| x > m / 8.0 && x < m * 8.0).fold((0.0, 0), |(s, c), &x| (s + x, c + 1))
    }

    /// UDT's arrival speed (pkt/s), 0 when too few samples agree with the median.
    pub fn arrival_speed(&self) -> f64 {
        let (sum, count) = self.band(self.median());
        if count > self.samples.len() / 2 {
            per_second(sum / count as f64)
        } else {
            0.0
        }
    }

    /// UDT's packet-pair capacity (pkt/s): the median counted once more than the band.
    pub fn pair_capacity(&self) -> f64 {
        let m = self.median();
        let (sum, count) = self.band(m);
        per_second((sum + m) / (count + 1) as f64)
    }
}

/// `⌈10⁶ / interval_us⌉`, a rate in packets per second (0 for a non-positive interval).
fn per_second(interval_us: f64) -> f64 {
    if interval_us > 0.0 {
        (1e6 / interval_us).ceil()
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrival_speed_needs_a_majority_inside_the_band() {
        let mut w = MedianWindow::new(16, 1e6);
        for _ in 0..8 {
            w.push(12.0);
        }
        // 8 of 16 samples at 12 µs, 8 at 1 s: M = 1 s, only the 1 s entries are in the band,
        // 8 is not more than half.
        assert_eq!(w.arrival_speed(), 0.0);
        w.push(12.0);
        // Now M = 12 µs and nine samples agree: 10⁶/12 = 83 333.3 → 83 334.
        assert_eq!(w.arrival_speed(), 83_334.0);
    }

    #[test]
    fn pair_capacity_counts_the_median_twice_and_ignores_outliers() {
        let mut w = MedianWindow::new(4, 1000.0);
        for x in [10.0, 12.0, 14.0, 500.0] {
            w.push(x);
        }
        // Sorted 10, 12, 14, 500: M = 14 (index 2); band (1.75, 112) holds 10, 12, 14:
        // mean of 14, 10, 12, 14 = 12.5 µs → 80 000 pkt/s.
        assert_eq!(w.pair_capacity(), 80_000.0);
    }
}
