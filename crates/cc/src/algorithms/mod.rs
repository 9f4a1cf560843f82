//! One file per algorithm.

pub mod reno;
pub mod sackexp;
pub mod tahoe;

pub use reno::{Reno, RenoConfig};
pub use sackexp::{NoneConfig, Sackexp};
pub use tahoe::{Tahoe, TahoeConfig};
