//! Offloads off, as `ethtool -K DEV tx off sg off tso off gso off gro off` does, through the
//! SIOCETHTOOL ioctl (the legacy single-feature commands of linux/ethtool.h), so that no
//! Debian package is needed. Call it inside the interface's namespace.

const SIOCETHTOOL: libc::c_ulong = 0x8946;
/// (set, get) command pairs: TX checksum, scatter-gather, TSO, GSO, GRO.
const FEATURES: [(&str, u32, u32); 5] =
    [("tx-checksumming", 0x17, 0x16), ("scatter-gather", 0x19, 0x18), ("tso", 0x1f, 0x1e), ("gso", 0x24, 0x23), ("gro", 0x2c, 0x2b)];

#[repr(C)]
struct EthtoolValue {
    cmd: u32,
    data: u32,
}

#[repr(C)]
struct IfReq {
    name: [libc::c_char; libc::IFNAMSIZ],
    data: *mut EthtoolValue,
    _pad: [u8; 16],
}

fn ioctl(fd: libc::c_int, dev: &str, v: &mut EthtoolValue) -> std::io::Result<()> {
    let mut req = IfReq { name: [0; libc::IFNAMSIZ], data: v, _pad: [0; 16] };
    for (d, s) in req.name.iter_mut().zip(dev.bytes().take(libc::IFNAMSIZ - 1)) {
        *d = s as libc::c_char;
    }
    // SAFETY: `req` is a valid ifreq whose data points at a live ethtool_value.
    if unsafe { libc::ioctl(fd, SIOCETHTOOL as _, &mut req) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Turns the offloads off on `dev` and checks that they read back off.
pub fn offloads_off(dev: &str) -> Result<(), String> {
    // SAFETY: plain socket call; the fd is closed below.
    let fd = unsafe { libc::socket(libc::AF_INET, libc::SOCK_DGRAM, 0) };
    if fd < 0 {
        return Err(format!("testbed: socket for ethtool: {}", std::io::Error::last_os_error()));
    }
    let result = (|| {
        for (name, set, get) in FEATURES {
            ioctl(fd, dev, &mut EthtoolValue { cmd: set, data: 0 }).map_err(|e| format!("testbed: ethtool {dev} {name} off: {e}"))?;
            let mut v = EthtoolValue { cmd: get, data: 1 };
            ioctl(fd, dev, &mut v).map_err(|e| format!("testbed: ethtool {dev} {name}: {e}"))?;
            if v.data != 0 {
                return Err(format!("testbed: {dev}: {name} stayed on"));
            }
        }
        Ok(())
    })();
    // SAFETY: our own fd.
    unsafe { libc::close(fd) };
    result
}

/// Whether every offload is off on `dev` (for tests).
pub fn offloads_are_off(dev: &str) -> Result<bool, String> {
    // SAFETY: as above.
    let fd = unsafe { libc::socket(libc::AF_INET, libc::SOCK_DGRAM, 0) };
    let mut all_off = true;
    for (name, _, get) in FEATURES {
        let mut v = EthtoolValue { cmd: get, data: 1 };
        ioctl(fd, dev, &mut v).map_err(|e| format!("testbed: ethtool {dev} {name}: {e}"))?;
        all_off &= v.data == 0;
    }
    // SAFETY: our own fd.
    unsafe { libc::close(fd) };
    Ok(all_off)
}
