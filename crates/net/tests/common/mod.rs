//! Shared by the end-to-end tests: a server in a thread on an ephemeral loopback port.

use net::server::{self, ServerConfig, ServerStats};
use std::sync::atomic::AtomicBool;

/// Serves one client on an ephemeral loopback port while `f` runs against it.
pub fn with_server<T>(cfg: ServerConfig, f: impl FnOnce(std::net::SocketAddr) -> T) -> (T, ServerStats) {
    let sock = server::bind(&cfg).unwrap();
    let addr = sock.local_addr().unwrap();
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        let h = s.spawn(|| server::serve(&cfg, &sock, &stop, &mut |_| {}).unwrap());
        let out = f(addr);
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        (out, h.join().unwrap())
    })
}

