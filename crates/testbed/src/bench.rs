//! The emulator's packet rate on one core: the sender namespace sends small UDP datagrams as
//! fast as one thread can through an emulated 10 Gbit/s link without delay (so the model never
//! holds them back), and the forwarder thread's CPU time is measured. A benchmark, not a test.

use crate::emulator::{Emulator, EmulatorReport};
use crate::netns::{self, Namespaces, RECEIVER_ADDR};
use crate::run::PORT_BASE;
use cc::{CcConfig, Rate, Time};
use serde::Serialize;
use sim::{FlowConfig, QueueLimit, SimConfig};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The longest the sender may take.
const SEND_LIMIT: Duration = Duration::from_secs(30);

#[derive(Clone, Debug, Serialize)]
pub struct BenchResult {
    pub datagrams_sent: u64,
    pub payload_bytes: usize,
    pub send_seconds: f64,
    /// Frames the forwarder carried per second of wall time while the sender ran.
    pub forwarded_per_s: f64,
    pub emulator: EmulatorReport,
}

pub fn packet_rate(datagrams: u64, payload_bytes: usize) -> Result<BenchResult, String> {
    let mut cfg = SimConfig {
        seed: 1,
        duration: Time::from_secs(60),
        sample_interval: None,
        link: Default::default(),
        flows: vec![FlowConfig::new(CcConfig::from_name("reno")?, Time::ZERO)],
    };
    cfg.link.rate = Rate::from_bits_per_sec(10e9);
    cfg.link.buffer = QueueLimit::Packets(100_000);
    let ns = Namespaces::create()?;
    let ready = AtomicBool::new(false);
    let stop = AtomicBool::new(false);
    let origin = Instant::now();
    std::thread::scope(|sc| {
        let emu = sc.spawn(|| {
            netns::enter(&ns.emulator)?;
            Emulator::new(&cfg, PORT_BASE).run(origin, Time::from_secs(60), &ready, &stop)
        });
        let t0 = Instant::now();
        while !ready.load(Ordering::Acquire) && t0.elapsed() < Duration::from_secs(5) && !emu.is_finished() {
            std::thread::sleep(Duration::from_millis(1));
        }
        let _rx = netns::in_namespace(&ns.receiver, || std::net::UdpSocket::bind((RECEIVER_ADDR, PORT_BASE)))?
            .map_err(|e| format!("bench: receiver socket: {e}"))?;
        let sent = sc
            .spawn(|| -> Result<(u64, f64), String> {
                netns::enter(&ns.sender)?;
                let tx = std::net::UdpSocket::bind(("0.0.0.0", 0)).map_err(|e| format!("bench: {e}"))?;
                let buf = vec![0u8; payload_bytes];
                let t0 = Instant::now();
                let mut n = 0;
                while n < datagrams && t0.elapsed() < SEND_LIMIT {
                    if tx.send_to(&buf, (RECEIVER_ADDR, PORT_BASE)).is_ok() {
                        n += 1;
                    }
                }
                Ok((n, t0.elapsed().as_secs_f64()))
            })
            .join()
            .map_err(|_| "bench: the sender panicked".to_string());
        std::thread::sleep(Duration::from_millis(200));
        stop.store(true, Ordering::Relaxed);
        let out = emu.join().map_err(|_| "bench: the emulator panicked".to_string())??;
        let (n, secs) = sent??;
        Ok(BenchResult {
            datagrams_sent: n,
            payload_bytes,
            send_seconds: secs,
            forwarded_per_s: out.report.forward_frames as f64 / secs,
            emulator: out.report,
        })
    })
}
