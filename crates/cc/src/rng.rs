//! The seeded random-number generator handed to controllers and simulator components.
//!
//! One generator per component, derived from `(run seed, component id)`, so that loss, jitter
//! and controller randomness stay independent and every run is reproducible. The algorithm is
//! fixed (xoshiro256++), so the same seed gives the same stream on every platform and release.

use rand::SeedableRng;
pub use rand::{Rng, RngCore};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator type used throughout cclab.
pub type CcRng = Xoshiro256PlusPlus;

/// Stable mixing of a run seed with a component id (SplitMix64 finaliser), so neighbouring ids
/// give unrelated streams.
pub fn derive_seed(run_seed: u64, component: u64) -> u64 {
    let mut z = run_seed ^ component.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A generator for component `component` of the run seeded with `run_seed`.
pub fn component_rng(run_seed: u64, component: u64) -> CcRng {
    CcRng::seed_from_u64(derive_seed(run_seed, component))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_different_component_different_stream() {
        let a: Vec<u64> = (0..4).map(|_| 0).scan(component_rng(7, 1), |r, _| Some(r.next_u64())).collect();
        let b: Vec<u64> = (0..4).map(|_| 0).scan(component_rng(7, 1), |r, _| Some(r.next_u64())).collect();
        let c: Vec<u64> = (0..4).map(|_| 0).scan(component_rng(7, 2), |r, _| Some(r.next_u64())).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
