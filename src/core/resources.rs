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

/// The most memory one table or tree may take: half the machine's memory,
/// which leaves room for the other agents of a game and for the system.
pub fn memory_limit() -> u64 {
    physical_memory() / 2
}

/// `Ok` if `bytes` fits in [`memory_limit`], otherwise a message naming
/// `what` (e.g. "a transposition table of 65536 MB").
pub fn check_memory(what: &str, bytes: u64) -> Result<(), String> {
    let limit = memory_limit();
    if bytes > limit {
        Err(format!(
            "{what} needs {} MB, more than half of this machine's {} MB of memory",
            bytes >> 20,
            physical_memory() >> 20
        ))
    } else {
        Ok(())
    }
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
    fn memory_beyond_half_the_machine_is_refused() {
        assert!(check_memory("a table", memory_limit()).is_ok());
        let error = check_memory("a table", memory_limit() + 1).unwrap_err();
        assert!(error.starts_with("a table needs"), "{error}");
    }
}
