//! # testbed: the simulator's link applied to real packets
//!
//! A second engine behind the same `SimConfig`: kernel TCP flows in a sender network namespace
//! cross a user-space emulator in a middle namespace to a receiver namespace. The emulator
//! forwards Ethernet frames between two AF_PACKET sockets and runs every forward frame through
//! the simulator's own bottleneck (`sim::link::Bottleneck`: netem loss, queue discipline, FIFO
//! limit, serialiser at the link's rate, schedule or Mahimahi trace, netem delay and jitter)
//! and every return frame through its return path (`sim::link::ReturnPath`), with the wall
//! clock as `now`. Each flow's base RTT is added half on the way out, half on the way back, as
//! in the simulator.
//!
//! ```text
//!  [sender ns]  s ──veth── e0  [emulator ns: forwarder]  e1 ──veth── r  [receiver ns]
//!  10.201.0.1/24                 (no addresses)                    10.201.0.2/24
//! ```
//!
//! The flows are sampled from `TCP_INFO` into the simulator's own `RunResult`, so everything
//! that reads `cclab run --out` reads a testbed run too. Needs root (CAP_NET_ADMIN); the host's
//! own namespace is never changed.

pub mod bench;
pub mod cpu_latency;
pub mod emulator;
pub mod ethtool;
pub mod frame;
pub mod kernel;
pub mod netns;
pub mod run;
pub mod tcpinfo;

pub use emulator::EmulatorReport;
pub use run::{run, FlowLimits, TestbedConfig, TestbedResult};
