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
    let tunables = std::env::var("GLIBC_TUNABLES").unwrap_or_default();
    let meminfo = read("/proc/meminfo").and_then(|info| {
        meminfo_available(&info, &tunables, |kib| {
            read(&format!("/sys/kernel/mm/hugepages/hugepages-{kib}kB/free_hugepages"))?.trim().parse().ok()
        })
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

/// `MemAvailable` of `meminfo` (the text of `/proc/meminfo`) in bytes, plus the free
/// `hugetlbfs` pages that the glibc tunables `tunables` make `malloc` use
/// ([`hugetlb_page_bytes`]), counted by `free_pages(page size in KiB)`; `None` without a
/// `MemAvailable` line.
pub fn meminfo_available(
    meminfo: &str,
    tunables: &str,
    free_pages: impl Fn(u64) -> Option<u128>,
) -> Option<u128> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let available = line.split_whitespace().nth(1)?.parse::<u128>().ok()? * 1024;
    let reserved = hugetlb_page_bytes(tunables, meminfo)
        .map_or(0, |page| free_pages(page >> 10).unwrap_or(0) * u128::from(page));
    Some(available + reserved)
}

/// The size of the `hugetlbfs` pages (bytes) that `malloc` maps its large blocks from under
/// the glibc tunables `tunables` (`GLIBC_TUNABLES`: `name=value` pairs joined by `:`):
/// `glibc.malloc.hugetlb=2` is the default huge page size (`Hugepagesize:` in `meminfo`, the
/// text of `/proc/meminfo`), a larger value the page size itself; `None` for `0` and `1`
/// (none, or transparent huge pages), no such tunable, or a value that is not a number.
pub fn hugetlb_page_bytes(tunables: &str, meminfo: &str) -> Option<u64> {
    let value = crate::huge_pages::hugetlb_tunable(tunables)?;
    match value.parse::<u64>().ok()? {
        0 | 1 => None,
        2 => {
            let line = meminfo.lines().find(|l| l.starts_with("Hugepagesize:"))?;
            Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? << 10)
        }
        size => Some(size),
    }
}

pub use judge_text::human_bytes;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_reserved_pages_count_only_under_the_tunable() {
        let meminfo = "MemAvailable:    1024 kB\nHugepagesize:       2048 kB\n";
        let free = |kib: u64| (kib == 1 << 20).then_some(3);
        assert_eq!(meminfo_available(meminfo, "", free), Some(1 << 20));
        assert_eq!(meminfo_available(meminfo, "glibc.malloc.hugetlb=1", free), Some(1 << 20));
        assert_eq!(
            meminfo_available(meminfo, "glibc.malloc.hugetlb=1073741824", free),
            Some((1 << 20) + (3 << 30))
        );
        // No pages of the default size are reserved.
        assert_eq!(meminfo_available(meminfo, "glibc.malloc.hugetlb=2", free), Some(1 << 20));
        assert_eq!(meminfo_available("MemTotal: 5 kB\n", "", free), None);
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
