//! Keeping the CPUs awake for a run: a PM QoS request for zero CPU wake-up latency
//! (`/dev/cpu_dma_latency`, Documentation/power/pm_qos_interface.rst), held while the run lasts
//! and dropped when it ends, as `cyclictest` holds one while it measures.
//!
//! The emulator sleeps between due times and the kernel's endpoints idle between packets. An
//! idle vCPU halts, and in a VM a halted vCPU waits for the hypervisor to schedule it again when
//! its timer or a packet wakes it. On this project's 2-core Firecracker VM (cpuidle driver
//! `haltpoll` with `guest_halt_poll_ns=0`, so no polling before the halt) those waits took the
//! forwarder's p99 lateness to 1.2-17 ms in most runs on 40 Mbit/s (2026-11-28), and a
//! thread sleeping 300 µs at a time was woken more than 1 ms late 110-179 times in 5 s, against
//! none for a thread that spun. With the request held, cpuidle keeps to states whose exit
//! latency is zero (polling), so a vCPU never halts during the run: the same sleeping thread
//! was late by 1 ms 11 times, and three 5 s testbed runs of Reno on 40 Mbit/s had a p99
//! lateness of 2-15 µs against 54 µs and 4.8 ms for two without (2026-11-29). The cost is that
//! every vCPU spins while idle for the run's length; closing the file (on any exit, the
//! process's included) withdraws the request.

use std::fs::File;
use std::io::Write;

const DEVICE: &str = "/dev/cpu_dma_latency";

/// A held request; dropping it withdraws the request.
pub struct AwakeCpus {
    _file: File,
}

/// Asks that no CPU take longer than 0 µs to wake for the life of the returned guard. `None`
/// where the device is missing or not writable (not root, a kernel without PM QoS): the run
/// goes on, and its report says the request was not held.
pub fn hold() -> Option<AwakeCpus> {
    let mut file = std::fs::OpenOptions::new().write(true).open(DEVICE).ok()?;
    // The request is a binary s32 in microseconds, taken while the file stays open.
    file.write_all(&0i32.to_ne_bytes()).ok()?;
    Some(AwakeCpus { _file: file })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// The system's current target, which reading the device returns (an s32, µs).
    fn target() -> i32 {
        let mut b = [0u8; 4];
        File::open(DEVICE).and_then(|mut f| f.read_exact(&mut b)).expect("readable where writable");
        i32::from_ne_bytes(b)
    }

    /// While the guard lives the system's target is 0 µs; once it is dropped it is what it was
    /// before (the kernel's default, 2000 s, unless another process holds a request).
    #[test]
    fn the_request_holds_for_the_guards_life_only() {
        let before = match std::fs::OpenOptions::new().write(true).open(DEVICE) {
            Ok(_) => target(),
            Err(_) => return eprintln!("skipped: {DEVICE} is not writable here (needs root)"),
        };
        let guard = hold().expect("writable, so the request is made");
        assert_eq!(target(), 0);
        drop(guard);
        assert_eq!(target(), before);
    }
}
