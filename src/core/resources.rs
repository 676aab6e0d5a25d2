//! What a run may ask of the machine. Thread counts and memory budgets come
//! from users (command-line flags, agent specs); a value the machine cannot
//! give is refused with a message before any work starts, instead of
//! spawning a hundred thousand threads or aborting on a failed allocation.

use std::sync::OnceLock;

/// The most worker threads a run may ask for: sixteen per core of this
/// machine, and never fewer than 64. Results never depend on the thread
/// count, so the cap only stops requests that would swamp the machine.
pub fn thread_limit() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    cores.saturating_mul(16).max(64)
}

/// `Ok` for a thread count from 1 to [`thread_limit`], otherwise a message
/// naming `what` (e.g. `--threads`).
pub fn check_threads(what: &str, threads: usize) -> Result<(), String> {
    let limit = thread_limit();
    if threads == 0 {
        Err(format!("{what} must be at least 1"))
    } else if threads > limit {
        Err(format!(
            "{what} {threads} is more than this machine can use: at most {limit} (16 per core)"
        ))
    } else {
        Ok(())
    }
}

/// A pool of `threads` worker threads, refused beyond [`thread_limit`].
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    check_threads("the thread count", threads)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|error| format!("cannot start {threads} threads: {error}"))
}

/// The machine's physical memory in bytes (from `/proc/meminfo` on Linux;
/// 8 GiB where it cannot be read).
pub fn physical_memory() -> u64 {
    static MEMORY: OnceLock<u64> = OnceLock::new();
    *MEMORY.get_or_init(|| {
        const FALLBACK: u64 = 8 << 30;
        std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|text| total_memory_from_meminfo(&text))
            .unwrap_or(FALLBACK)
    })
}

/// The `MemTotal` line of a `/proc/meminfo` text, in bytes.
fn total_memory_from_meminfo(text: &str) -> Option<u64> {
    let line = text.lines().find(|line| line.starts_with("MemTotal:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kilobytes.checked_mul(1024)
}

/// The memory this process may use, in bytes, and what sets it: the
/// machine's memory, or less where the process is held to less: its
/// address-space limit (`ulimit -v`, `RLIMIT_AS`), its data-size limit
/// (`ulimit -d`, `RLIMIT_DATA`), both read from `/proc/self/limits`, or
/// the memory limit of its control group (`memory.max`). A table beyond
/// such a limit is not slow but fatal: the allocation fails.
pub fn usable_memory() -> (u64, &'static str) {
    static USABLE: OnceLock<(u64, &'static str)> = OnceLock::new();
    *USABLE.get_or_init(|| {
        let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
        let mut usable = (physical_memory(), "this machine's memory");
        let candidates = [
            (
                address_space_limit(),
                "the limit of its address space, ulimit -v",
            ),
            (
                soft_limit(&limits, "Max data size"),
                "the limit of its data, ulimit -d",
            ),
            (control_group_limit(), "its control group's memory limit"),
        ];
        for (limit, source) in candidates {
            if let Some(limit) = limit
                && limit < usable.0
            {
                usable = (limit, source);
            }
        }
        usable
    })
}

/// The soft limit of this process's address space (`ulimit -v`,
/// `RLIMIT_AS`) in bytes, read from `/proc/self/limits`; `None` if
/// unlimited or unreadable.
pub fn address_space_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    soft_limit(&limits, "Max address space")
}

/// The soft limit of the line of `/proc/self/limits` text that starts
/// with `name`, in bytes; `None` if unlimited or unreadable.
fn soft_limit(limits: &str, name: &str) -> Option<u64> {
    let line = limits.lines().find(|line| line.starts_with(name))?;
    line[name.len()..].split_whitespace().next()?.parse().ok()
}

/// The `memory.max` of this process's control group (version 2), if set.
fn control_group_limit() -> Option<u64> {
    let membership = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = membership
        .lines()
        .find_map(|line| line.strip_prefix("0::"))?;
    let text = std::fs::read_to_string(format!("/sys/fs/cgroup{path}/memory.max")).ok()?;
    text.trim().parse().ok()
}

/// The most memory one table or tree may take, and all the agents of a
/// run together: half of what this process may use ([`usable_memory`]),
/// which leaves room for the rest of the run and for the system.
pub fn memory_limit() -> u64 {
    usable_memory().0 / 2
}

/// `Ok` if `bytes` fits in [`memory_limit`], otherwise a message naming
/// `what` (e.g. "a transposition table of 65536 MB").
pub fn check_memory(what: &str, bytes: u64) -> Result<(), String> {
    let limit = memory_limit();
    if bytes > limit {
        let (usable, source) = usable_memory();
        Err(format!(
            "{what} needs {} MB, more than half of the {} MB this process may use ({source})",
            bytes >> 20,
            usable >> 20
        ))
    } else {
        Ok(())
    }
}

/// Checks that the agents of a run fit in memory together:
/// `games_at_once` games at a time, each holding two agents, whose tables
/// and trees may come to take `agent_bytes` each (the two largest in every
/// game, at worst). A table's pages are taken only as searches write
/// them, but over a run of many games they come to be written.
pub fn check_run_memory(agent_bytes: &[u64], games_at_once: usize) -> Result<(), String> {
    let mut largest = agent_bytes.to_vec();
    largest.sort_unstable_by(|a, b| b.cmp(a));
    let per_game = largest
        .iter()
        .take(2)
        .fold(0u64, |sum, &bytes| sum.saturating_add(bytes));
    let games = games_at_once.max(1) as u64;
    let what = format!(
        "{games} game{} at a time, each with two agents of up to {} MB of tables and trees,",
        if games == 1 { "" } else { "s" },
        per_game >> 20
    );
    check_memory(&what, per_game.saturating_mul(games))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_from_one_to_the_limit_are_accepted() {
        assert!(check_threads("--threads", 1).is_ok());
        assert!(check_threads("--threads", thread_limit()).is_ok());
        assert!(
            check_threads("--threads", 0)
                .unwrap_err()
                .contains("at least 1")
        );
        let error = check_threads("--threads", thread_limit() + 1).unwrap_err();
        assert!(
            error.contains(&format!("at most {}", thread_limit())),
            "{error}"
        );
    }

    #[test]
    fn the_total_memory_is_read_from_meminfo() {
        let text = "MemTotal:       24626772 kB\nMemFree:        1000 kB\n";
        assert_eq!(total_memory_from_meminfo(text), Some(24_626_772 * 1024));
        assert_eq!(total_memory_from_meminfo("MemFree: 1 kB\n"), None);
        assert_eq!(total_memory_from_meminfo("MemTotal: lots kB\n"), None);
    }

    #[test]
    fn soft_limits_are_read_from_proc_limits() {
        let text = "Limit                     Soft Limit           Hard Limit           Units     \n\
                    Max data size             unlimited            unlimited            bytes     \n\
                    Max address space         1073741824           unlimited            bytes     \n";
        assert_eq!(soft_limit(text, "Max address space"), Some(1 << 30));
        assert_eq!(soft_limit(text, "Max data size"), None);
        assert_eq!(soft_limit("", "Max data size"), None);
    }

    #[test]
    fn a_run_counts_two_agents_a_game_for_every_game_at_once() {
        let half = memory_limit();
        assert!(check_run_memory(&[half / 4, half / 4, half], 0).is_err());
        assert!(check_run_memory(&[half / 4, half / 4, 0], 2).is_ok());
        let error = check_run_memory(&[half / 4, half / 4 + 1 + (1 << 20), 0], 2).unwrap_err();
        assert!(error.starts_with("2 games at a time"), "{error}");
    }

    #[test]
    fn memory_beyond_half_the_machine_is_refused() {
        assert!(check_memory("a table", memory_limit()).is_ok());
        let error = check_memory("a table", memory_limit() + 1).unwrap_err();
        assert!(error.starts_with("a table needs"), "{error}");
    }
}
