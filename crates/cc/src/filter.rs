//! Windowed max and min filters: Kathleen Nichols' algorithm, as in Linux `lib/win_minmax.c`.
//!
//! The filter tracks the best (largest or smallest) value of a stream over a sliding window of
//! "time", which may be wall-clock time, a count of round trips, or any other monotonic counter
//! (BBR keys its bandwidth filter by packet-timed rounds, BBRv3 by ProbeBW cycles, and its
//! min-RTT filter by nanoseconds). It keeps only three samples:
//!
//! - `s[0]`, the best value in the window (the estimate);
//! - `s[1]`, the best value seen after `s[0]`;
//! - `s[2]`, the best value seen after `s[1]`.
//!
//! A new sample that is at least as good as `s[0]`, or one that arrives when even `s[2]` has left
//! the window, resets all three. Otherwise it replaces the 2nd and/or 3rd choice if it beats
//! them. When `s[0]` ages out of the window, the 2nd and 3rd choices move up. To keep the
//! choices spread over the window, a sample that arrives after a quarter of the window without
//! a new 2nd choice becomes the 2nd (and 3rd) choice, and one that arrives after half of the
//! window without a new 3rd choice becomes the 3rd. The estimate is therefore exact when the
//! best sample is recent and otherwise within the window's last three quarters.
//!
//! Like the Linux filter, the window is checked only when a sample is added; [`get`] returns
//! the current estimate without ageing it.
//!
//! [`get`]: WindowedFilter::get

/// One timestamped sample.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sample<V> {
    pub t: u64,
    pub v: V,
}

/// Whether the filter keeps the largest or the smallest value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Extremum {
    Max,
    Min,
}

/// A windowed max (or min) filter over samples `(t, v)` with `t` non-decreasing.
#[derive(Clone, Debug, PartialEq)]
pub struct WindowedFilter<V> {
    s: [Sample<V>; 3],
    window: u64,
    kind: Extremum,
}

impl<V: Copy + PartialOrd> WindowedFilter<V> {
    /// A max filter over `window` units of time, starting from the sample `(t, v)`.
    pub fn max(window: u64, t: u64, v: V) -> Self {
        Self::new(Extremum::Max, window, t, v)
    }

    /// A min filter over `window` units of time, starting from the sample `(t, v)`.
    pub fn min(window: u64, t: u64, v: V) -> Self {
        Self::new(Extremum::Min, window, t, v)
    }

    pub fn new(kind: Extremum, window: u64, t: u64, v: V) -> Self {
        let s = Sample { t, v };
        WindowedFilter {
            s: [s; 3],
            window,
            kind,
        }
    }

    /// The best value in the window.
    pub fn get(&self) -> V {
        self.s[0].v
    }

    /// The three choices, best first (for tests and traces).
    pub fn samples(&self) -> [Sample<V>; 3] {
        self.s
    }

    pub fn window(&self) -> u64 {
        self.window
    }

    /// Changes the window length; it applies from the next sample on.
    pub fn set_window(&mut self, window: u64) {
        self.window = window;
    }

    /// Forgets everything and starts again from `(t, v)`.
    pub fn reset(&mut self, t: u64, v: V) -> V {
        self.s = [Sample { t, v }; 3];
        v
    }

    /// `a` is at least as good as `b`.
    fn at_least(&self, a: V, b: V) -> bool {
        match self.kind {
            Extremum::Max => a >= b,
            Extremum::Min => a <= b,
        }
    }

    /// Adds the sample `(t, v)` and returns the new estimate.
    pub fn update(&mut self, t: u64, v: V) -> V {
        let new = Sample { t, v };
        let win = self.window;
        if self.at_least(v, self.s[0].v) || t.saturating_sub(self.s[2].t) > win {
            // A new best, or nothing left in the window: forget earlier samples.
            return self.reset(t, v);
        }
        if self.at_least(v, self.s[1].v) {
            self.s[1] = new;
            self.s[2] = new;
        } else if self.at_least(v, self.s[2].v) {
            self.s[2] = new;
        }
        self.age(new)
    }

    /// Moves the choices up as the best one leaves the window, and keeps them spread out.
    fn age(&mut self, new: Sample<V>) -> V {
        let win = self.window;
        let dt = new.t.saturating_sub(self.s[0].t);
        if dt > win {
            // The best sample left the window: promote the 2nd and 3rd choices. The 2nd may be
            // out of the window too (the 3rd was checked on entry), so this may happen twice.
            self.s = [self.s[1], self.s[2], new];
            if new.t.saturating_sub(self.s[0].t) > win {
                self.s = [self.s[1], self.s[2], new];
            }
        } else if self.s[1].t == self.s[0].t && dt > win / 4 {
            // A quarter of the window without a 2nd choice: take one from the 2nd quarter.
            self.s[1] = new;
            self.s[2] = new;
        } else if self.s[2].t == self.s[1].t && dt > win / 2 {
            // Half of the window without a 3rd choice: take one from the second half.
            self.s[2] = new;
        }
        self.s[0].v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_filter_keeps_the_largest_sample_in_the_window() {
        let mut f = WindowedFilter::max(10, 0, 0u64);
        assert_eq!(f.update(1, 5), 5);
        assert_eq!(f.update(2, 3), 5);
        assert_eq!(f.update(3, 7), 7);
        // Smaller samples do not displace the max while it is in the window.
        for t in 4..=13 {
            assert_eq!(f.update(t, 4), 7, "t = {t}");
        }
    }

    #[test]
    fn max_expires_after_the_window_and_the_runner_up_takes_over() {
        // Window of 10 rounds, as BBR's bandwidth filter.
        let mut f = WindowedFilter::max(10, 0, 0u64);
        f.update(0, 100);
        // 90 at round 3 (after a quarter of the window: becomes the 2nd choice), then 80s.
        f.update(3, 90);
        for t in 4..=10 {
            assert_eq!(f.update(t, 80), 100, "t = {t}");
        }
        // Round 11: 100 (round 0) is 11 rounds old, out of a 10-round window; 90 takes over.
        assert_eq!(f.update(11, 80), 90);
        // Round 14: 90 (round 3) is out too; the 3rd choice (an 80) remains.
        assert_eq!(f.update(14, 70), 80);
    }

    #[test]
    fn a_sample_after_an_empty_window_resets_the_filter() {
        let mut f = WindowedFilter::max(10, 0, 0u64);
        f.update(0, 100);
        // Nothing for 20 rounds: the old max and its runners-up are all stale.
        assert_eq!(f.update(20, 10), 10);
        assert_eq!(f.samples(), [Sample { t: 20, v: 10 }; 3]);
    }

    #[test]
    fn subwindow_choices_spread_over_the_window() {
        let mut f = WindowedFilter::max(8, 0, 0u64);
        f.update(0, 50);
        // After a quarter (dt > 2) with no 2nd choice, a lower sample becomes 2nd and 3rd.
        f.update(3, 10);
        assert_eq!(f.samples()[1], Sample { t: 3, v: 10 });
        assert_eq!(f.samples()[2], Sample { t: 3, v: 10 });
        // After half (dt > 4) with no distinct 3rd choice, a later one becomes the 3rd.
        f.update(5, 9);
        assert_eq!(f.samples()[2], Sample { t: 5, v: 9 });
        assert_eq!(f.get(), 50);
    }

    #[test]
    fn min_filter_over_nanoseconds_tracks_min_rtt() {
        // 10 s window over times in nanoseconds, values in ms.
        let s = 1_000_000_000u64;
        let mut f = WindowedFilter::min(10 * s, 0, u64::MAX);
        assert_eq!(f.update(0, 120), 120);
        assert_eq!(f.update(s, 100), 100);
        assert_eq!(f.update(2 * s, 130), 100);
        assert_eq!(f.update(5 * s, 110), 100);
        // 100 (at 1 s) expires after 11 s; the best later sample (110 at 5 s) takes over.
        assert_eq!(f.update(11 * s + 1, 140), 110);
        // A new minimum takes over at once.
        assert_eq!(f.update(12 * s, 90), 90);
    }

    #[test]
    fn equal_samples_refresh_the_estimate() {
        let mut f = WindowedFilter::min(10, 0, 5u64);
        f.update(8, 5);
        // The refresh at t = 8 keeps 5 in the window until t = 18.
        assert_eq!(f.update(15, 9), 5);
        assert_eq!(f.update(19, 9), 9);
    }
}
