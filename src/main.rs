fn main() -> std::process::ExitCode {
    restore_default_sigpipe();
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
