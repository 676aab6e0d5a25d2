//! Records the git commit norn is built from (when built from a checkout),
//! so that runs can say which build played their games.

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs");
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .map(|text| text.trim().to_string())
        .filter(|text| !text.is_empty());
    if let Some(commit) = commit {
        println!("cargo:rustc-env=NORN_GIT_COMMIT={commit}");
    }
}
