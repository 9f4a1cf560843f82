//! `struct tcp_info` (include/uapi/linux/tcp.h, as of Linux 6.7, which added the RTO counters)
//! read with getsockopt(TCP_INFO), and the congestion control set with TCP_CONGESTION.

use std::os::fd::RawFd;

/// Linux `struct tcp_info`, field for field (the ABI; kernels fill the prefix they know).
#[repr(C)]
#[derive(Copy, Clone, Debug, Default)]
pub struct TcpInfo {
    pub state: u8,
    pub ca_state: u8,
    pub retransmits: u8,
    pub probes: u8,
    pub backoff: u8,
    pub options: u8,
    pub wscale: u8,
    pub app_limited_fastopen: u8,
    pub rto: u32,
    pub ato: u32,
    pub snd_mss: u32,
    pub rcv_mss: u32,
    pub unacked: u32,
    pub sacked: u32,
    pub lost: u32,
    pub retrans: u32,
    pub fackets: u32,
    pub last_data_sent: u32,
    pub last_ack_sent: u32,
    pub last_data_recv: u32,
    pub last_ack_recv: u32,
    pub pmtu: u32,
    pub rcv_ssthresh: u32,
    /// Smoothed RTT, microseconds.
    pub rtt: u32,
    pub rttvar: u32,
    pub snd_ssthresh: u32,
    pub snd_cwnd: u32,
    pub advmss: u32,
    pub reordering: u32,
    pub rcv_rtt: u32,
    pub rcv_space: u32,
    pub total_retrans: u32,
    /// Bytes per second; `u64::MAX` when unlimited.
    pub pacing_rate: u64,
    pub max_pacing_rate: u64,
    pub bytes_acked: u64,
    pub bytes_received: u64,
    pub segs_out: u32,
    pub segs_in: u32,
    pub notsent_bytes: u32,
    pub min_rtt: u32,
    pub data_segs_in: u32,
    pub data_segs_out: u32,
    pub delivery_rate: u64,
    pub busy_time: u64,
    pub rwnd_limited: u64,
    pub sndbuf_limited: u64,
    pub delivered: u32,
    pub delivered_ce: u32,
    /// Payload bytes sent, retransmissions included.
    pub bytes_sent: u64,
    pub bytes_retrans: u64,
    pub dsack_dups: u32,
    pub reord_seen: u32,
    pub rcv_ooopack: u32,
    pub snd_wnd: u32,
    pub rcv_wnd: u32,
    pub rehash: u32,
    /// Retransmission timeouts, SYN timeouts included (Linux 6.7+).
    pub total_rto: u16,
    pub total_rto_recoveries: u16,
    pub total_rto_time: u32,
}

/// `snd_ssthresh` before the first loss (TCP_INFINITE_SSTHRESH).
pub const INFINITE_SSTHRESH: u32 = 0x7fff_ffff;

/// The kernel's congestion-avoidance states (enum tcp_ca_state), with Open split into slow
/// start and congestion avoidance.
pub fn ca_state_name(info: &TcpInfo) -> &'static str {
    match info.ca_state {
        0 if info.snd_cwnd < info.snd_ssthresh => "slow_start",
        0 => "cong_avoid",
        _ => ca_state(info),
    }
}

/// Linux's `tcp_ca_state` by name, flowgrind's "ca state" column.
pub fn ca_state(info: &TcpInfo) -> &'static str {
    match info.ca_state {
        0 => "open",
        1 => "disorder",
        2 => "cwr",
        3 => "recovery",
        4 => "loss",
        _ => "unknown",
    }
}

/// Reads TCP_INFO; also returns how many bytes the kernel filled (older kernels fill less).
pub fn tcp_info(fd: RawFd) -> std::io::Result<(TcpInfo, usize)> {
    let mut info = TcpInfo::default();
    let mut len = std::mem::size_of::<TcpInfo>() as libc::socklen_t;
    // SAFETY: `info` is a plain repr(C) struct of `len` bytes.
    let rc = unsafe { libc::getsockopt(fd, libc::IPPROTO_TCP, libc::TCP_INFO, &mut info as *mut _ as *mut libc::c_void, &mut len) };
    if rc != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok((info, len as usize))
}

/// Whether the kernel filled `total_rto` (Linux 6.7 and later).
pub fn has_rto_counter(filled: usize) -> bool {
    filled >= std::mem::offset_of!(TcpInfo, total_rto) + 2
}

/// The congestion controls this kernel offers (tcp_available_congestion_control).
pub fn available_congestion_controls() -> Vec<String> {
    std::fs::read_to_string("/proc/sys/net/ipv4/tcp_available_congestion_control")
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Checks that the kernel offers `name`, loading module `tcp_<name>` once if it does not yet;
/// an unknown one is an error listing the available ones.
pub fn ensure_congestion_control(name: &str) -> Result<(), String> {
    if available_congestion_controls().iter().any(|n| n == name) {
        return Ok(());
    }
    if name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        let _ = std::process::Command::new("modprobe").arg("-q").arg(format!("tcp_{name}")).status();
    }
    let available = available_congestion_controls();
    if available.iter().any(|n| n == name) {
        Ok(())
    } else {
        Err(format!("--cc: the kernel has no congestion control `{name}`; available: {}", available.join(", ")))
    }
}

/// Sets the socket's congestion control (TCP_CONGESTION).
pub fn set_congestion_control(fd: RawFd, name: &str) -> Result<(), String> {
    // SAFETY: a valid buffer of the length given.
    let rc = unsafe {
        libc::setsockopt(fd, libc::IPPROTO_TCP, libc::TCP_CONGESTION, name.as_ptr() as *const libc::c_void, name.len() as libc::socklen_t)
    };
    if rc != 0 {
        let available = available_congestion_controls();
        return Err(format!(
            "--cc: the kernel refused congestion control `{name}` ({}); available: {}",
            std::io::Error::last_os_error(),
            available.join(", ")
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_the_kernel_header() {
        // Offsets from include/uapi/linux/tcp.h: eight u8s, 24 u32s, then the u64 counters.
        assert_eq!(std::mem::offset_of!(TcpInfo, rto), 8);
        assert_eq!(std::mem::offset_of!(TcpInfo, pacing_rate), 104);
        assert_eq!(std::mem::offset_of!(TcpInfo, delivery_rate), 160);
        assert_eq!(std::mem::offset_of!(TcpInfo, bytes_sent), 200);
        assert_eq!(std::mem::offset_of!(TcpInfo, total_rto), 240);
        assert_eq!(std::mem::size_of::<TcpInfo>(), 248);
    }

    #[test]
    fn unknown_congestion_control_lists_the_available_ones() {
        let e = ensure_congestion_control("no-such-cc").unwrap_err();
        assert!(e.contains("no-such-cc") && e.contains("available: ") && e.contains("reno"), "{e}");
    }
}
