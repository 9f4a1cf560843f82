//! Units used everywhere in cclab: time in integer nanoseconds, sizes in bytes, rates in
//! bytes per second.

use serde::{Deserialize, Serialize};
use std::ops::{Add, AddAssign, Sub};

/// A time as a scenario file writes it: `100ms`, `1.5s`, `250us`, `20ns` (the coarsest unit
/// that shows it exactly, up to three decimals).
impl std::fmt::Display for Time {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ns = self.0;
        if ns == 0 {
            return f.write_str("0s");
        }
        for (unit, scale) in [("s", 1_000_000_000u64), ("ms", 1_000_000), ("us", 1_000)] {
            if ns >= scale && ns % (scale / 1000) == 0 {
                return write!(f, "{}{unit}", ns as f64 / scale as f64);
            }
        }
        write!(f, "{ns}ns")
    }
}

/// Bytes. A plain `u64`: windows, sequence offsets and sizes are all counted in bytes.
pub type Bytes = u64;

/// A point in simulated (or real) time, or a span of it, in nanoseconds.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Time(pub u64);

impl Time {
    pub const ZERO: Time = Time(0);
    pub const MAX: Time = Time(u64::MAX);

    pub const fn from_nanos(ns: u64) -> Time {
        Time(ns)
    }
    pub const fn from_micros(us: u64) -> Time {
        Time(us * 1_000)
    }
    pub const fn from_millis(ms: u64) -> Time {
        Time(ms * 1_000_000)
    }
    pub const fn from_secs(s: u64) -> Time {
        Time(s * 1_000_000_000)
    }
    /// Rounds to the nearest nanosecond; negative or NaN inputs give zero.
    pub fn from_secs_f64(s: f64) -> Time {
        if s.is_finite() && s > 0.0 {
            Time((s * 1e9).round() as u64)
        } else if s.is_infinite() && s > 0.0 {
            Time::MAX
        } else {
            Time::ZERO
        }
    }
    pub const fn as_nanos(self) -> u64 {
        self.0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }
    pub fn as_millis_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
    pub fn saturating_sub(self, other: Time) -> Time {
        Time(self.0.saturating_sub(other.0))
    }
    pub fn mul_f64(self, k: f64) -> Time {
        Time::from_secs_f64(self.as_secs_f64() * k)
    }
}

impl Add for Time {
    type Output = Time;
    fn add(self, o: Time) -> Time {
        Time(self.0.saturating_add(o.0))
    }
}
impl AddAssign for Time {
    fn add_assign(&mut self, o: Time) {
        self.0 = self.0.saturating_add(o.0);
    }
}
impl Sub for Time {
    type Output = Time;
    fn sub(self, o: Time) -> Time {
        Time(self.0.saturating_sub(o.0))
    }
}

/// A data rate in bytes per second.
#[derive(Copy, Clone, Debug, Default, PartialEq, PartialOrd, Serialize, Deserialize)]
pub struct Rate(pub f64);

impl Rate {
    pub const ZERO: Rate = Rate(0.0);

    pub fn from_bits_per_sec(bps: f64) -> Rate {
        Rate(bps / 8.0)
    }
    pub fn from_bytes_per_sec(bytes_per_sec: f64) -> Rate {
        Rate(bytes_per_sec)
    }
    /// `bytes` delivered over `interval`; zero if the interval is empty.
    pub fn from_delivery(bytes: Bytes, interval: Time) -> Rate {
        if interval.0 == 0 {
            Rate::ZERO
        } else {
            Rate(bytes as f64 / interval.as_secs_f64())
        }
    }
    pub fn bytes_per_sec(self) -> f64 {
        self.0
    }
    pub fn bits_per_sec(self) -> f64 {
        self.0 * 8.0
    }
    /// Serialisation time of `bytes` at this rate (`Time::MAX` for a zero rate).
    pub fn tx_time(self, bytes: Bytes) -> Time {
        if self.0 <= 0.0 {
            Time::MAX
        } else {
            Time::from_secs_f64(bytes as f64 / self.0)
        }
    }
    /// Bytes that cross in `t` at this rate: the bandwidth-delay product when `t` is an RTT.
    pub fn bytes_in(self, t: Time) -> f64 {
        self.0 * t.as_secs_f64()
    }
    pub fn scale(self, k: f64) -> Rate {
        Rate(self.0 * k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bdp_of_40mbit_100ms_is_500kb() {
        let r = Rate::from_bits_per_sec(40e6);
        assert_eq!(r.bytes_in(Time::from_millis(100)), 500_000.0);
        assert_eq!(r.tx_time(1500), Time::from_micros(300));
    }

    #[test]
    fn time_arithmetic_saturates() {
        assert_eq!(Time(5) - Time(7), Time::ZERO);
        assert_eq!(Time::MAX + Time(1), Time::MAX);
        assert_eq!(Time::from_secs_f64(-1.0), Time::ZERO);
        assert_eq!(Time::from_secs_f64(1.5), Time::from_millis(1500));
    }
}
