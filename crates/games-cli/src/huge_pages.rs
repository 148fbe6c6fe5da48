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
//! of the empty board by a fifth (90.2 s -> 71.7 s, crate README).
//!
//! A user's own `glibc.malloc.hugetlb` setting is kept as it is (`GLIBC_TUNABLES=
//! glibc.malloc.hugetlb=0` turns this off), as is everything else on other systems (not glibc,
//! not Linux, or a kernel setting other than `madvise`).

/// Tables at least this large (bytes) get huge pages: the large boards' default TT (2 GiB) and
/// larger `--tt-mib` / `--tt-bits`; the judges' tables stay as they are.
pub const MIN_TABLE_BYTES: u64 = 1 << 30;

/// The glibc tunable that makes `malloc` advise huge pages for its large allocations.
const TUNABLE: &str = "glibc.malloc.hugetlb";

/// Set in the environment of the program started again, so that it never starts itself a
/// third time.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIED: &str = "GAMES_CLI_HUGE_PAGES_TRIED";

/// The value `GLIBC_TUNABLES` needs for huge pages, given its current value (`None`: unset),
/// or `None` when it needs no change: it already sets `glibc.malloc.hugetlb` (to any value: the user's
/// choice). Tunables are `name=value` pairs joined by `:`; ours is appended.
#[must_use]
pub fn tunables_with_huge_pages(current: Option<&str>) -> Option<String> {
    match current {
        Some(c) if c.split(':').any(|t| t.split('=').next() == Some(TUNABLE)) => None,
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

/// Starts this program again with huge pages for its `malloc` ([`tunables_with_huge_pages`])
/// when a TT of `table_bytes` is about to be allocated, it is at least [`MIN_TABLE_BYTES`], the
/// program runs on glibc under Linux, the kernel gives huge pages only where advised
/// ([`advised_only`]) and `GLIBC_TUNABLES` does not already decide. Returns (and the program
/// goes on as it is) when any of these fails, or when the program cannot be executed again.
/// Call it before anything is read from standard input or written to standard output.
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
        // Once only, whatever glibc makes of the variable.
        if std::env::var_os(TRIED).is_some() {
            return;
        }
        let current = std::env::var_os("GLIBC_TUNABLES");
        let Some(current) = current.as_ref().map_or(Some(""), |c| c.to_str()) else { return };
        let Some(tunables) = tunables_with_huge_pages(Some(current)) else { return };
        let Ok(exe) = std::env::current_exe() else { return };
        // `exec` returns only on failure: then go on without huge pages.
        let _ = std::process::Command::new(exe)
            .args(std::env::args_os().skip(1))
            .env("GLIBC_TUNABLES", tunables)
            .env(TRIED, "1")
            .exec();
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
    fn only_the_madvise_setting_asks_for_advice() {
        assert!(advised_only("always [madvise] never\n"));
        assert!(!advised_only("[always] madvise never\n"));
        assert!(!advised_only("always madvise [never]\n"));
        assert!(!advised_only(""));
    }
}
