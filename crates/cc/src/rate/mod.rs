//! Rate-based datagram transports: SABUL and UDT, each a sender/receiver pair behind
//! [`DatagramSender`](crate::datagram::DatagramSender) and
//! [`DatagramReceiver`](crate::datagram::DatagramReceiver).
//!
//! | name | constructor | config |
//! | --- | --- | --- |
//! | `sabul` | [`sabul::new_pair`] | [`SabulConfig`] |
//! | `sabul-2003` | [`sabul::v2003::new_pair`] | [`Sabul2003Config`] |
//! | `udt` | [`udt::new_pair`] | [`UdtConfig`] |
//!
//! Both protocols pace data packets by an inter-packet time (SABUL's IPT, UDT's
//! `PktSndPeriod`, in µs), change it once per constant rate-control interval "SYN" and on
//! loss reports, keep a loss list on each side, retransmit reported losses before new data and
//! fall back to an EXP timeout, so delivery is reliable. The receiver sends ACK, ERR/NAK and
//! (SABUL) SYN messages over the control path.
//!
//! Sources (tags as in `specs/sabul-udt-cc.md` §0): \[RC\] Gu, Hong, Mazzucco, Grossman, "Rate
//! Based Congestion Control over High Bandwidth/Delay Links"; \[SP\] "SABUL: A High Performance
//! Data Transfer Protocol"; \[TR2002\] SABUL technical report; \[S-code\] SABUL v2.0 `sender.cpp`,
//! `recver.cpp`; \[OVV04\] the seed, Oothongsap, Viniotis & Vouk, NETWORKING 2004; \[U4\] UDT 4.11
//! `ccc.cpp` (`CUDTCC::init`, `onACK`, `onLoss`, `onTimeout`), `core.cpp` (`processCtrl`,
//! `processData`, `sendCtrl`, `packData`, `checkTimers`), `window.cpp` (`CPktTimeWindow`);
//! \[D03\] draft-gg-udt-03.
//!
//! Files, one concept each:
//!
//! - [`sabul`]: the SABUL sender, the two configs and `sabul`'s constructor;
//!   [`sabul::v2003`]: the `sabul-2003` preset; [`sabul::receiver`]: the receiver;
//!   [`sabul::loss`]: per-interval counting, paper formulation and 2003 flaws;
//!   [`sabul::law`]: the pluggable rate law; [`sabul::rc`]: Gen-B (\[RC\]); [`sabul::gen_c`]:
//!   Gen-C (the 2003 code); [`sabul::gen_a`]: Gen-A (the 2002 report).
//! - [`udt`]: the UDT sender, config and constructor; [`udt::receiver`]: the receiver with its
//!   arrival-speed and packet-pair estimates; [`udt::cudtcc`]: CUDTCC, the rate and window law;
//!   [`udt::rtt`]: the RTT estimator both ends keep.
//! - Shared: [`send_state`], [`recv_state`], [`loss_list`], [`median`], [`timer`].

pub mod loss_list;
pub mod median;
pub mod recv_state;
pub mod sabul;
pub mod send_state;
pub mod timer;
pub mod udt;

pub use sabul::law::SabulLawConfig;
pub use sabul::loss::SabulInterval;
pub use sabul::receiver::SabulReceiver;
pub use sabul::{Sabul2003Config, SabulConfig, SabulSender};
pub use udt::receiver::UdtReceiver;
pub use udt::{UdtConfig, UdtSender};

use crate::units::Time;

/// A duration given in (fractional) microseconds, rounded to the nanosecond.
pub fn us_to_time(us: f64) -> Time {
    Time::from_secs_f64(us * 1e-6)
}
