fn main() -> std::process::ExitCode {
    restore_default_sigpipe();
    share_one_allocation_arena_under_an_address_space_limit();
    norn::cli::run()
}

/// Rust ignores SIGPIPE, which turns `norn ... | head` into a panic on the
/// next print. Restoring the default makes the process end quietly when the
/// reader goes away, as other command-line tools do.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any other thread exists;
    // setting a signal's disposition to the default has no other effect.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// glibc gives each thread that allocates an arena of its own and reserves
/// 64 MB of address space for it. Resident memory does not grow by that,
/// but an address-space limit (`ulimit -v`) counts it, so a resume or a
/// page that reads its log on every core ran out of a 300 MB limit with
/// 170 MB resident. Under such a limit all threads share one arena: what
/// the limit then counts is what norn holds.
fn share_one_allocation_arena_under_an_address_space_limit() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if norn::core::address_space_limit().is_some() {
        // SAFETY: called in main before any other thread exists; mallopt
        // only sets a tunable of the allocator, which takes effect for the
        // arenas made after it.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
    }
}
