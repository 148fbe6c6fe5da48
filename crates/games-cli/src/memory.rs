//! How much memory this process may still use (read from the OS), and byte counts in words.

/// The memory this process may still use, in bytes: the least of `MemAvailable`
/// (`/proc/meminfo`), the address-space limit (`ulimit -v`, from `/proc/self/limits`) and the
/// cgroup v2 limit less current usage (`/sys/fs/cgroup/memory.{max,current}`). `None` if none
/// of them is known.
pub fn mem_available() -> Option<u128> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let meminfo = read("/proc/meminfo").and_then(|info| {
        let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?.to_string();
        Some(line.split_whitespace().nth(1)?.parse::<u128>().ok()? * 1024)
    });
    let rlimit = read("/proc/self/limits").and_then(|limits| {
        let line = limits.lines().find(|l| l.starts_with("Max address space"))?.to_string();
        line.split_whitespace().nth(3)?.parse::<u128>().ok()
    });
    let cgroup = read("/sys/fs/cgroup/memory.max").and_then(|max| {
        let max: u128 = max.trim().parse().ok()?;
        let current: u128 = read("/sys/fs/cgroup/memory.current")?.trim().parse().ok()?;
        Some(max.saturating_sub(current))
    });
    [meminfo, rlimit, cgroup].into_iter().flatten().min()
}

/// `b` bytes in the largest binary unit that keeps a number of at least 1 (`1.5 GiB`).
pub fn human_bytes(b: u128) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut x = b as f64;
    let mut u = 0;
    while x >= 1024.0 && u + 1 < UNITS.len() {
        x /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{x:.1} {}", UNITS[u])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_sizes() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(3 << 29), "1.5 GiB");
    }
}
