//! The three network namespaces of a run, their veth pairs and addresses, and their removal.
//!
//! Names are `cclab-<pid>-<n>-{snd,emu,rcv}`: unique per process and per run within it. They
//! are deleted when the `Namespaces` value is dropped (normal end, error, or unwinding after a
//! Ctrl-C turned into an error by `interrupted`). Namespaces left by a process that was killed
//! outright (SIGKILL) are deleted by the next run, which checks that their pid is gone.

use std::net::Ipv4Addr;
use std::os::fd::AsRawFd;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

pub const SENDER_ADDR: Ipv4Addr = Ipv4Addr::new(10, 201, 0, 1);
pub const RECEIVER_ADDR: Ipv4Addr = Ipv4Addr::new(10, 201, 0, 2);
/// The sender's interface (in the sender namespace).
pub const SENDER_IF: &str = "s";
/// The receiver's interface (in the receiver namespace).
pub const RECEIVER_IF: &str = "r";
/// The emulator's interfaces: towards the sender, towards the receiver.
pub const EMU_SENDER_SIDE: &str = "e0";
pub const EMU_RECEIVER_SIDE: &str = "e1";

const PREFIX: &str = "cclab-";

static RUNS: AtomicU32 = AtomicU32::new(0);
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether SIGINT or SIGTERM arrived (after `install_signal_handlers`). Every loop of a run
/// checks it and ends, so that the namespaces are removed on the way out.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

extern "C" fn on_signal(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// Turns SIGINT and SIGTERM into `interrupted() == true` (for the command line; tests don't).
pub fn install_signal_handlers() {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
        unsafe {
            libc::signal(sig, on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t);
        }
    }
}

/// Whether this process holds CAP_NET_ADMIN (bit 12 of CapEff).
pub fn has_net_admin() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("CapEff:"))
        .and_then(|h| u64::from_str_radix(h.trim(), 16).ok())
        .is_some_and(|caps| caps & (1 << 12) != 0)
}

fn ip(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip").args(args).output().map_err(|e| format!("testbed: cannot run `ip` (iproute2): {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        Err(format!("testbed: `ip {}` failed: {}", args.join(" "), err.lines().next().unwrap_or("").trim()))
    }
}

/// The namespaces of one run. Dropping it deletes them (and with them the veth pairs).
pub struct Namespaces {
    pub sender: String,
    pub emulator: String,
    pub receiver: String,
    created: Vec<String>,
}

impl Namespaces {
    /// Creates the three namespaces, the two veth pairs, the addresses, and turns segmentation
    /// and receive offloads and checksum offload off on every interface, so that one TCP
    /// segment is one frame (as in the simulator) and the frames the emulator copies carry
    /// complete checksums.
    pub fn create() -> Result<Namespaces, String> {
        if !has_net_admin() {
            return Err("testbed: needs root (CAP_NET_ADMIN) to create network namespaces; run it with sudo".into());
        }
        remove_stale();
        let n = RUNS.fetch_add(1, Ordering::Relaxed);
        let base = format!("{PREFIX}{}-{n}", std::process::id());
        let mut ns = Namespaces {
            sender: format!("{base}-snd"),
            emulator: format!("{base}-emu"),
            receiver: format!("{base}-rcv"),
            created: Vec::new(),
        };
        for name in [ns.sender.clone(), ns.emulator.clone(), ns.receiver.clone()] {
            ip(&["netns", "add", &name])?;
            ns.created.push(name);
        }
        let (s, e, r) = (ns.sender.as_str(), ns.emulator.as_str(), ns.receiver.as_str());
        ip(&["link", "add", SENDER_IF, "netns", s, "type", "veth", "peer", "name", EMU_SENDER_SIDE, "netns", e])?;
        ip(&["link", "add", EMU_RECEIVER_SIDE, "netns", e, "type", "veth", "peer", "name", RECEIVER_IF, "netns", r])?;
        for (name, dev) in [(s, SENDER_IF), (e, EMU_SENDER_SIDE), (e, EMU_RECEIVER_SIDE), (r, RECEIVER_IF)] {
            // No IPv6 link-local addresses: nothing but the run's own traffic crosses the link.
            ip(&["-n", name, "link", "set", dev, "addrgenmode", "none"])?;
        }
        ip(&["-n", s, "addr", "add", &format!("{SENDER_ADDR}/24"), "dev", SENDER_IF])?;
        ip(&["-n", r, "addr", "add", &format!("{RECEIVER_ADDR}/24"), "dev", RECEIVER_IF])?;
        for (name, dev) in [(s, SENDER_IF), (e, EMU_SENDER_SIDE), (e, EMU_RECEIVER_SIDE), (r, RECEIVER_IF)] {
            in_namespace(name, || crate::ethtool::offloads_off(dev))??;
            ip(&["-n", name, "link", "set", dev, "up"])?;
        }
        for name in [s, e, r] {
            ip(&["-n", name, "link", "set", "lo", "up"])?;
        }
        for dev in [EMU_SENDER_SIDE, EMU_RECEIVER_SIDE] {
            ip(&["-n", e, "link", "set", dev, "promisc", "on"])?;
        }
        Ok(ns)
    }

    /// Makes the receiver acknowledge every segment at once: the `quickack` metric on its route
    /// to the sender (`ip route ... quickack 1`, Linux 3.11 and later), which
    /// `tcp_in_quickack_mode` reads on every segment, so the kernel's receiver never delays an
    /// ACK, as the simulator's receiver without `delayed_ack`.
    pub fn ack_every_segment(&self) -> Result<(), String> {
        let (net, src) = (format!("{}/24", Ipv4Addr::from(u32::from(SENDER_ADDR) & 0xffff_ff00)), RECEIVER_ADDR.to_string());
        let r = self.receiver.as_str();
        ip(&["-n", r, "route", "replace", &net, "dev", RECEIVER_IF, "proto", "kernel", "scope", "link", "src", &src, "quickack", "1"])
    }
}

impl Drop for Namespaces {
    fn drop(&mut self) {
        for name in self.created.drain(..).rev() {
            if let Err(e) = ip(&["netns", "delete", &name]) {
                eprintln!("warning: {e}");
            }
        }
    }
}

/// Deletes `cclab-<pid>-...` namespaces whose process no longer exists.
fn remove_stale() {
    let Ok(dir) = std::fs::read_dir("/run/netns") else { return };
    for entry in dir.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.strip_prefix(PREFIX).and_then(|r| r.split('-').next()).and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if pid != std::process::id() && !process_alive(pid) {
            let _ = ip(&["netns", "delete", &name]);
        }
    }
}

/// Whether process `pid` exists and is not a zombie (killed, not yet reaped).
fn process_alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("State:")).map(|l| !l.contains("zombie")))
        .unwrap_or(false)
}

/// Moves the calling thread into namespace `name` (for good: call it in a thread of its own).
pub fn enter(name: &str) -> Result<(), String> {
    let path = format!("/run/netns/{name}");
    let f = std::fs::File::open(&path).map_err(|e| format!("testbed: cannot open {path}: {e}"))?;
    // SAFETY: a valid namespace fd; setns affects only the calling thread.
    if unsafe { libc::setns(f.as_raw_fd(), libc::CLONE_NEWNET) } != 0 {
        return Err(format!("testbed: setns into {name}: {}", std::io::Error::last_os_error()));
    }
    Ok(())
}

/// Runs `f` in a new thread inside namespace `name` and waits for it.
pub fn in_namespace<T: Send>(name: &str, f: impl FnOnce() -> T + Send) -> Result<T, String> {
    std::thread::scope(|sc| {
        sc.spawn(|| {
            enter(name)?;
            Ok(f())
        })
        .join()
        .map_err(|_| "testbed: a namespace thread panicked".to_string())?
    })
}
