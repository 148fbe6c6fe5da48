//! Transparent huge pages for large transposition tables, without `unsafe`.
//!
//! A TT of gigabytes is probed at random, one cache line per node; with 4 KiB pages nearly
//! every probe also misses the TLB. Linux backs memory with 2 MiB pages when the allocation is
//! advised so (`madvise(MADV_HUGEPAGE)`) and the machine's setting
//! (`/sys/kernel/mm/transparent_hugepage/enabled`) is `madvise`; under `always` it does so
//! anyway, under `never` not at all. The workspace forbids `unsafe`, so the advice cannot be
//! given here; glibc 2.35 and later give it for every large `malloc` when the process starts
//! with the tunable `glibc.malloc.hugetlb=1` in `GLIBC_TUNABLES`. So before a large TT is
//! allocated, [`reexec_for_table`] starts the same program again with that tunable added
//! (`execv`: the same process id, arguments, standard input and output; nothing has been read
//! or written yet). On 4x4 dots-and-boxes (two threads, a 2 GiB table) that cut the wall time
//! of the empty board by a fifth (90.2 s -> 71.7 s, `docs/results/dots-and-boxes-4x4-3x5.md`).
//!
//! glibc 2.36 (Debian 12) takes the tunable only some of the time: it reads the kernel's
//! setting (`always [madvise] never\n`, 23 bytes) into a buffer of 24 and compares it with
//! `strcmp` without ending it by a zero, so the answer depends on a stale byte of the stack,
//! which changes from start to start (address-space randomisation). Seen here: about half of
//! the starts got no advice at all (no `madvise` in `strace`, no `hg` flag in
//! `/proc/self/smaps`); so were the 4x5 solve's 16 GiB table and some 7 GiB ones, whose
//! runs took half as long again. Later glibc ends the buffer. So the started program checks
//! that its `malloc` advises ([`advised_at`] on a probe block) and, if not, starts itself
//! once more, up to [`MAX_STARTS`] times in all.
//!
//! A user's own `glibc.malloc.hugetlb` setting is kept as it is (`GLIBC_TUNABLES=
//! glibc.malloc.hugetlb=0` turns this off), as is everything else on other systems (not glibc,
//! not Linux, or a kernel setting other than `madvise`).

/// Tables at least this large (bytes, 64 MiB) get huge pages: the large boards' default TT
/// (1 GiB), the defaults of dots-and-boxes boards of 25 to 31 lines and of Othello, and each
/// worker's share of a distributed run's table memory (1 GiB among sixteen workers is 64 MiB
/// each), so that the workers search as fast as one process with the whole memory; smaller
/// tables (the other judges' defaults) stay as they are. Empty 4x4 dots-and-boxes, two MPI
/// workers of 512 MiB each against one process of 1 GiB (`cargo xtask dist-bench --workers 2`, three runs): 0.58 to
/// 0.63 of its wall time with huge pages for the workers too; 0.64 when only tables of 1 GiB
/// or more got them, each worker 10 % slower a node than the one process.
pub const MIN_TABLE_BYTES: u64 = 64 << 20;

/// The glibc tunable that makes `malloc` advise huge pages for its large allocations.
const TUNABLE: &str = "glibc.malloc.hugetlb";

/// Set in the environment of the program started again: how many times it has been started
/// with the tunable (1 the first time), so that it stops after [`MAX_STARTS`].
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIED: &str = "GAMES_CLI_HUGE_PAGES_TRIED";

/// Most starts with the tunable before the program goes on without huge pages (glibc older
/// than 2.35 ignores it; 2.36 takes it about every other start): 10 leaves about one chance in
/// a thousand of missing them on 2.36.
pub const MAX_STARTS: u32 = 10;

/// Size of the probe block of [`reexec_for_table`]'s check (bytes): above the largest
/// threshold (32 MiB) beyond which glibc always maps a block on its own, so that the block has
/// a mapping of its own, advised or not. Never written, so it takes no memory.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const PROBE_BYTES: usize = 64 << 20;

/// The value of `glibc.malloc.hugetlb` in `tunables` (the text of `GLIBC_TUNABLES`:
/// `name=value` pairs joined by `:`), or `None` where it is not set; a name without `=` counts
/// as set to the empty value.
#[must_use]
pub fn hugetlb_tunable(tunables: &str) -> Option<&str> {
    tunables.split(':').find_map(|t| {
        let (name, value) = t.split_once('=').unwrap_or((t, ""));
        (name == TUNABLE).then_some(value)
    })
}

/// The value `GLIBC_TUNABLES` needs for huge pages, given its current value (`None`: unset),
/// or `None` when it needs no change: it already sets `glibc.malloc.hugetlb` (to any value: the user's
/// choice). Tunables are `name=value` pairs joined by `:`; ours is appended.
#[must_use]
pub fn tunables_with_huge_pages(current: Option<&str>) -> Option<String> {
    match current {
        Some(c) if hugetlb_tunable(c).is_some() => None,
        Some(c) if !c.is_empty() => Some(format!("{c}:{TUNABLE}=1")),
        _ => Some(format!("{TUNABLE}=1")),
    }
}

/// Whether a kernel whose transparent-huge-page setting reads `setting` (the contents of
/// `/sys/kernel/mm/transparent_hugepage/enabled`, the chosen one in brackets, as
/// `always [madvise] never`) gives huge pages only where advised.
#[must_use]
pub fn advised_only(setting: &str) -> bool {
    setting.split_whitespace().any(|w| w == "[madvise]")
}

/// Whether the mapping that holds address `at` in `smaps` (the text of `/proc/self/smaps`:
/// a line `start-end perms ...` in hexadecimal for each mapping, then its fields, among them
/// `VmFlags:`) is advised for huge pages (the flag `hg`); `None` if no mapping holds `at` or
/// its flags are missing.
#[must_use]
pub fn advised_at(smaps: &str, at: usize) -> Option<bool> {
    let mut inside = false;
    for line in smaps.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        if let Some((start, end)) = first.split_once('-') {
            if let (Ok(start), Ok(end)) = (usize::from_str_radix(start, 16), usize::from_str_radix(end, 16)) {
                inside = (start..end).contains(&at);
                continue;
            }
        }
        if inside {
            if let Some(flags) = line.strip_prefix("VmFlags:") {
                return Some(flags.split_whitespace().any(|f| f == "hg"));
            }
        }
    }
    None
}

/// Whether this process's `malloc` advises huge pages: a probe block of [`PROBE_BYTES`]
/// looked up in `/proc/self/smaps` ([`advised_at`]); `None` if that cannot be read or the
/// block cannot be had.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn malloc_advises_huge_pages() -> Option<bool> {
    let mut probe: Vec<u8> = Vec::new();
    // Refused (a small address-space limit): no answer rather than an abort.
    probe.try_reserve_exact(PROBE_BYTES).ok()?;
    let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
    let advised = advised_at(&smaps, probe.as_ptr() as usize);
    drop(probe);
    advised
}

/// Starts this program again with huge pages for its `malloc` ([`tunables_with_huge_pages`])
/// when a TT of `table_bytes` is about to be allocated, it is at least [`MIN_TABLE_BYTES`], the
/// program runs on glibc under Linux, the kernel gives huge pages only where advised
/// ([`advised_only`]) and `GLIBC_TUNABLES` does not already decide. Started so, the program
/// checks that glibc took the tunable (a probe block looked up with [`advised_at`]) and
/// starts itself once more if not, up to [`MAX_STARTS`] starts (see the module
/// documentation). Returns (and the program goes on as it is) when any of these fails, or when
/// the program cannot be executed again. Call it before anything is read from standard input
/// or written to standard output.
pub fn reexec_for_table(table_bytes: u64) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::unix::process::CommandExt;
        if table_bytes < MIN_TABLE_BYTES {
            return;
        }
        let setting = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
        if !setting.is_ok_and(|s| advised_only(&s)) {
            return;
        }
        let (tunables, starts) = match std::env::var_os(TRIED) {
            // Started again by this function: go on unless glibc ignored the tunable.
            Some(starts) => {
                let starts = starts.to_str().and_then(|s| s.parse::<u32>().ok()).unwrap_or(MAX_STARTS);
                if starts >= MAX_STARTS || malloc_advises_huge_pages() != Some(false) {
                    return;
                }
                (None, starts + 1)
            }
            None => {
                let current = std::env::var_os("GLIBC_TUNABLES");
                let Some(current) = current.as_ref().map_or(Some(""), |c| c.to_str()) else { return };
                let Some(tunables) = tunables_with_huge_pages(Some(current)) else { return };
                (Some(tunables), 1)
            }
        };
        let Ok(exe) = std::env::current_exe() else { return };
        let mut command = std::process::Command::new(exe);
        command.args(std::env::args_os().skip(1)).env(TRIED, starts.to_string());
        if let Some(tunables) = tunables {
            command.env("GLIBC_TUNABLES", tunables);
        }
        // `exec` returns only on failure: then go on without huge pages.
        let _ = command.exec();
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = table_bytes;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tunable_is_added_once_and_a_users_choice_is_kept() {
        assert_eq!(tunables_with_huge_pages(None).as_deref(), Some("glibc.malloc.hugetlb=1"));
        assert_eq!(hugetlb_tunable("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2"), Some("2"));
        assert_eq!(hugetlb_tunable("glibc.malloc.hugetlb"), Some(""));
        assert_eq!(hugetlb_tunable("glibc.malloc.hugetlbx=1"), None);
        assert_eq!(hugetlb_tunable(""), None);
        assert_eq!(tunables_with_huge_pages(Some("")).as_deref(), Some("glibc.malloc.hugetlb=1"));
        assert_eq!(
            tunables_with_huge_pages(Some("glibc.malloc.arena_max=2")).as_deref(),
            Some("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1")
        );
        assert_eq!(tunables_with_huge_pages(Some("glibc.malloc.hugetlb=1")), None);
        assert_eq!(tunables_with_huge_pages(Some("glibc.malloc.hugetlb=0")), None);
        assert_eq!(tunables_with_huge_pages(Some("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=2")), None);
        // A longer name that merely starts like it is another tunable.
        assert_eq!(
            tunables_with_huge_pages(Some("glibc.malloc.hugetlbx=1")).as_deref(),
            Some("glibc.malloc.hugetlbx=1:glibc.malloc.hugetlb=1")
        );
    }

    #[test]
    fn the_flags_of_the_mapping_holding_the_address_are_read() {
        let smaps = "\
55e73c24000-55e73cfe000 r--p 00000000 fe:00 5809693    /work/games-cli
Size:                872 kB
VmFlags: rd mr mw me hg
7f8844757000-7f8c44769000 rw-p 00000000 00:00 0
Size:           16777288 kB
Rss:            16777288 kB
THPeligible:    1
VmFlags: rd wr mr mw me ac
7f8c44769000-7f8c4478f000 rw-p 00000000 00:00 0
Rss:                   4 kB
VmFlags: rd wr mr mw me ac sd hg
7f8c4478f000-7f8c44800000 rw-p 00000000 00:00 0
Rss:                   4 kB
";
        assert_eq!(advised_at(smaps, 0x55e73c24000), Some(true));
        assert_eq!(advised_at(smaps, 0x7f8844757000), Some(false));
        assert_eq!(advised_at(smaps, 0x7f8c44768fff), Some(false));
        // The end is outside; the next mapping holds it.
        assert_eq!(advised_at(smaps, 0x7f8c44769000), Some(true));
        // No flags line, an address in no mapping, an empty text.
        assert_eq!(advised_at(smaps, 0x7f8c4478f000), None);
        assert_eq!(advised_at(smaps, 0x1000), None);
        assert_eq!(advised_at("", 0x1000), None);
        // "hg" only as a whole flag.
        assert_eq!(advised_at("1000-2000 rw-p 0 0:0 0\nVmFlags: rd hgx\n", 0x1800), Some(false));
    }

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn the_probe_finds_its_own_mapping() {
        // Whether this test process's malloc advises depends on how it was started; that the
        // probe's block is found, advised or not, does not.
        assert!(malloc_advises_huge_pages().is_some());
    }

    #[test]
    fn only_the_madvise_setting_asks_for_advice() {
        assert!(advised_only("always [madvise] never\n"));
        assert!(!advised_only("[always] madvise never\n"));
        assert!(!advised_only("always madvise [never]\n"));
        assert!(!advised_only(""));
    }
}
