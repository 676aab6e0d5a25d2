fn main() -> std::process::ExitCode {
    norn::cli::run()
}
