//! How much memory this process may still use (read from the OS), and byte counts in words.

/// The memory this process may still use, in bytes: the least of `MemAvailable`
/// (`/proc/meminfo`), the address-space limit (`ulimit -v`, from `/proc/self/limits`) and the
/// cgroup v2 limit less current usage (`/sys/fs/cgroup/memory.{max,current}`). `None` if none
/// of them is known.
///
/// Pages reserved for `hugetlbfs` are not in `MemAvailable`; when `GLIBC_TUNABLES` makes
/// `malloc` map its large blocks from them (`glibc.malloc.hugetlb=2` for the default size, or
/// a page size in bytes, such as `1073741824`), the free ones of that size are added to it.
pub fn mem_available() -> Option<u128> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let meminfo = read("/proc/meminfo").and_then(|info| {
        let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?.to_string();
        let available = line.split_whitespace().nth(1)?.parse::<u128>().ok()? * 1024;
        let tunables = std::env::var("GLIBC_TUNABLES").ok()?;
        let Some(page) = hugetlb_page_bytes(&tunables, &info) else { return Some(available) };
        let free = read(&format!("/sys/kernel/mm/hugepages/hugepages-{}kB/free_hugepages", page >> 10))
            .and_then(|f| f.trim().parse::<u128>().ok())
            .unwrap_or(0);
        Some(available + free * u128::from(page))
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

/// The size of the `hugetlbfs` pages (bytes) that `malloc` maps its large blocks from under
/// the glibc tunables `tunables` (`GLIBC_TUNABLES`: `name=value` pairs joined by `:`):
/// `glibc.malloc.hugetlb=2` is the default huge page size (`Hugepagesize:` in `meminfo`, the
/// text of `/proc/meminfo`), a larger value the page size itself; `None` for `0` and `1`
/// (none, or transparent huge pages), no such tunable, or a value that is not a number.
pub fn hugetlb_page_bytes(tunables: &str, meminfo: &str) -> Option<u64> {
    let value = tunables.split(':').find_map(|t| t.strip_prefix("glibc.malloc.hugetlb="))?;
    match value.parse::<u64>().ok()? {
        0 | 1 => None,
        2 => {
            let line = meminfo.lines().find(|l| l.starts_with("Hugepagesize:"))?;
            Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? << 10)
        }
        size => Some(size),
    }
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

    #[test]
    fn hugetlb_pages_are_named_by_the_malloc_tunable() {
        let meminfo = "MemTotal: 100 kB\nHugepagesize:       2048 kB\n";
        assert_eq!(hugetlb_page_bytes("glibc.malloc.hugetlb=1073741824", meminfo), Some(1 << 30));
        assert_eq!(
            hugetlb_page_bytes("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2", meminfo),
            Some(2 << 20)
        );
        assert_eq!(hugetlb_page_bytes("glibc.malloc.hugetlb=2", "MemTotal: 100 kB\n"), None);
        for none in [
            "",
            "glibc.malloc.hugetlb=0",
            "glibc.malloc.hugetlb=1",
            "glibc.malloc.hugetlbx=2",
            "glibc.malloc.hugetlb=x",
        ] {
            assert_eq!(hugetlb_page_bytes(none, meminfo), None, "{none}");
        }
    }
}
