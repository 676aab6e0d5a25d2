//! Which build of norn played a run's games: its version, the git commit it
//! was built from, and a digest of the running executable, which changes
//! with any change to the code (committed or not) and to the build options.

use serde::{Deserialize, Serialize};
use std::hash::Hasher;
use std::sync::OnceLock;

/// The build of the running program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    /// norn's version.
    pub version: String,
    /// The git commit, when built from a checkout.
    pub commit: Option<String>,
    /// A digest of the executable's bytes (`unknown` if it cannot be read).
    pub executable: String,
}

impl Build {
    /// The build of this process (worked out once).
    pub fn current() -> &'static Build {
        static CURRENT: OnceLock<Build> = OnceLock::new();
        CURRENT.get_or_init(|| Build {
            version: env!("CARGO_PKG_VERSION").to_string(),
            commit: option_env!("NORN_GIT_COMMIT").map(str::to_string),
            executable: executable_digest().unwrap_or_else(|| "unknown".to_string()),
        })
    }
}

impl std::fmt::Display for Build {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "norn {}, commit {}, executable {}",
            self.version,
            self.commit.as_deref().unwrap_or("unknown"),
            self.executable
        )
    }
}

/// A 64-bit digest of the running executable's bytes, in hex.
fn executable_digest() -> Option<String> {
    let bytes = std::fs::read(std::env::current_exe().ok()?).ok()?;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    hasher.write(&bytes);
    Some(format!("{:016x}", hasher.finish()))
}
