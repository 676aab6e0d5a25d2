//! Which build of norn played a run's games: its version, the git commit it
//! was built from, and a digest of the running executable, which changes
//! with any change to the code (committed or not) and to the build options;
//! and a run's provenance: that build, the agents' full configurations and
//! the rules in force.

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

    /// A run's recorded build in messages; `None` is a run of a build too
    /// old to record itself.
    pub fn describe(build: Option<&Build>) -> String {
        build.map_or(
            "a build that did not record itself".to_string(),
            Build::to_string,
        )
    }

    /// Refuses to go on with the work of `what` (e.g. `the games in DIR`),
    /// which the build `played` did, unless it is this build; `advice` says
    /// how to go on knowingly.
    ///
    /// # Errors
    /// When `played` is another build or none.
    pub fn check_current(played: Option<&Build>, what: &str, advice: &str) -> Result<(), String> {
        let current = Build::current();
        if played == Some(current) {
            return Ok(());
        }
        Err(format!(
            "{what} were played by {}, and this is {current}; {advice}",
            Build::describe(played)
        ))
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

/// Where a run's games come from, as `config.json` and `summary.json`
/// record it. Each field is absent in the files of older builds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// The build of norn that started the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<Build>,
    /// Every agent's full configuration, defaults included
    /// ([`crate::agents::Agent::configuration`]), in the order of the agents.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agent_configurations: Vec<String>,
    /// The rules with every option written out, defaults included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_in_force: Option<String>,
}

impl Provenance {
    /// The provenance of a run this process starts.
    pub fn current(agent_configurations: Vec<String>, rules_in_force: String) -> Provenance {
        Provenance {
            build: Some(Build::current().clone()),
            agent_configurations,
            rules_in_force: Some(rules_in_force),
        }
    }
}
