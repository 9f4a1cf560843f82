//! cclab's controllers on a real network: the same sans-I/O sender core (SACK scoreboard, RACK,
//! RTO, delivery-rate sampling, pacing) and controller that the simulator drives, here driven
//! by a real clock over UDP sockets, measured as iperf3 measures TCP.
//!
//! - [`wire`]: the datagram format and its parser (fuzzed; damaged datagrams are counted and
//!   dropped, never a panic).
//! - [`payload`]: the stream's bytes, their verification and in-order reassembly at the
//!   receiver, and the CRC-32 both ends compare.
//! - [`clock`]: time since a connection's start, and precise waits on a socket.
//! - [`send`] / [`recv`]: one stream's sending and receiving ends, sans-I/O over packets.
//! - [`client`] / [`server`]: `cclab send` and `cclab serve`, the I/O around them.
//! - [`report`]: per-interval and end-of-stream figures.
//! - [`transport`]: the controller or protocol a session runs, as its `Hello` carries it.
//!
//! Both ends hold the simulator's own `Endpoint` (the TCP sender core and receiver, or a
//! datagram protocol's sender and receiver), so every controller and protocol cclab simulates
//! runs here unchanged.

pub mod client;
pub mod clock;
pub mod payload;
pub mod recv;
pub mod report;
pub mod send;
pub mod server;
pub mod transport;
pub mod wire;
