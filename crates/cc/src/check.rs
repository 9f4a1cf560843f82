//! Allowed parameter ranges. Every configuration type implements [`Validate`], stating the
//! range of each of its fields with [`within`] (and [`ordered`] for pairs such as a minimum and
//! a maximum); the registries in [`crate::config`] and [`crate::protocols`] call it for every
//! algorithm, so an algorithm cannot be added without its ranges.
//!
//! An error is one line, `field: value is outside the allowed range`, which the layers above
//! prefix with where the field sits (`flows[2].cc.beta: 2 is outside the allowed 0 < x < 1`).
//! NaN lies in no range, so every float field rejects it.
//!
//! The ranges are of two kinds, and each `validate()` says which: what the control law itself
//! needs (a multiplicative decrease in (0, 1), a gain above zero) and what keeps a run within
//! the machine (timer periods of at least a microsecond, window and history lengths that bound
//! memory). The bounds of the second kind are far outside any published setting.

use crate::units::Time;
use std::ops::{Bound, RangeBounds};

/// A configuration whose fields have allowed ranges.
pub trait Validate {
    /// `Ok` if every field is in its range, else `field: what is allowed` for the first that
    /// is not.
    fn validate(&self) -> Result<(), String>;
}

/// The open interval `(lo, hi)`, for ranges such as a decrease factor in (0, 1).
pub fn open<T>(lo: T, hi: T) -> (Bound<T>, Bound<T>) {
    (Bound::Excluded(lo), Bound::Excluded(hi))
}

/// The half-open interval `(lo, hi]`, for ranges such as a gain above zero up to a limit.
pub fn above<T>(lo: T, hi: T) -> (Bound<T>, Bound<T>) {
    (Bound::Excluded(lo), Bound::Included(hi))
}

/// A value as an error message shows it: integers in full, floats in the shortest form that
/// reads back (`1e308`, not 309 digits), times with their unit (`100ms`).
pub trait Quantity {
    fn show(&self) -> String;
}

macro_rules! integer_quantity {
    ($($t:ty),*) => { $( impl Quantity for $t { fn show(&self) -> String { self.to_string() } } )* };
}
integer_quantity!(u8, u32, u64, usize, i64);

impl Quantity for f64 {
    fn show(&self) -> String {
        let a = self.abs();
        if a != 0.0 && a.is_finite() && !(1e-4..1e9).contains(&a) {
            format!("{self:e}")
        } else {
            self.to_string()
        }
    }
}

impl Quantity for Time {
    fn show(&self) -> String {
        self.to_string()
    }
}

/// `Ok` if `value` lies in `range`; else `name: value is outside the allowed ...`.
pub fn within<T: PartialOrd + Quantity>(name: &str, value: T, range: impl RangeBounds<T>) -> Result<(), String> {
    if range.contains(&value) {
        return Ok(());
    }
    Err(format!("{name}: {} is outside the allowed {}", value.show(), describe(&range)))
}

/// `Ok` if `lo <= hi` (a minimum and a maximum, say); else an error naming `hi_name`.
pub fn ordered<T: PartialOrd + Quantity>(lo_name: &str, lo: T, hi_name: &str, hi: T) -> Result<(), String> {
    if lo <= hi {
        return Ok(());
    }
    Err(format!("{hi_name}: {} is below {lo_name} ({}); must be at least {lo_name}", hi.show(), lo.show()))
}

/// A range in words: `0 < x <= 1`, `x >= 1`, `1 <= x <= 100`.
fn describe<T: Quantity>(r: &impl RangeBounds<T>) -> String {
    let lower = match r.start_bound() {
        Bound::Included(a) => Some((a.show(), "<=")),
        Bound::Excluded(a) => Some((a.show(), "<")),
        Bound::Unbounded => None,
    };
    let upper = match r.end_bound() {
        Bound::Included(b) => Some(("<=", b.show())),
        Bound::Excluded(b) => Some(("<", b.show())),
        Bound::Unbounded => None,
    };
    match (lower, upper) {
        (Some((a, op_a)), Some((op_b, b))) => format!("{a} {op_a} x {op_b} {b}"),
        // `x >= 1` reads better than `1 <= x`.
        (Some((a, op)), None) => format!("x {} {a}", if op == "<=" { ">=" } else { ">" }),
        (None, Some((op, b))) => format!("x {op} {b}"),
        (None, None) => "any value".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_in_words() {
        assert_eq!(within("beta", 2.0, open(0.0, 1.0)).unwrap_err(), "beta: 2 is outside the allowed 0 < x < 1");
        assert_eq!(within("g", 0.0, above(0.0, 1.0)).unwrap_err(), "g: 0 is outside the allowed 0 < x <= 1");
        assert_eq!(within("n", 0u32, 1..=100).unwrap_err(), "n: 0 is outside the allowed 1 <= x <= 100");
        assert_eq!(within("n", 0u64, 1..).unwrap_err(), "n: 0 is outside the allowed x >= 1");
        assert_eq!(within("c", -1.0, 0.0..).unwrap_err(), "c: -1 is outside the allowed x >= 0");
        assert!(within("c", 0.5, 0.0..=1.0).is_ok());
        assert_eq!(within("md", 1e308, open(0.0, 1.0)).unwrap_err(), "md: 1e308 is outside the allowed 0 < x < 1");
        assert_eq!(within("rtt", Time::ZERO, Time::from_micros(1)..=Time::from_secs(100)).unwrap_err(), "rtt: 0s is outside the allowed 1us <= x <= 100s");
    }

    #[test]
    fn nan_is_in_no_range() {
        assert!(within("c", f64::NAN, 0.0..=1.0).unwrap_err().contains("NaN"));
        assert!(within("c", f64::INFINITY, 0.0..=1e6).is_err());
    }

    #[test]
    fn pairs_in_order() {
        assert!(ordered("beta_min", 0.5, "beta_max", 0.8).is_ok());
        let e = ordered("beta_min", 0.9, "beta_max", 0.5).unwrap_err();
        assert!(e.starts_with("beta_max: 0.5 is below beta_min (0.9)"), "{e}");
    }
}
