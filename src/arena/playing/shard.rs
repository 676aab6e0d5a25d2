//! Shards: deterministic parts of a run (of a tournament's pairs of games,
//! of a win-rate run's deals) that separate processes or machines play,
//! and that a merge puts back together.

use super::build::Provenance;
use crate::core::ParseError;
use serde::{Deserialize, Serialize};

/// A deterministic part of a run: shard `index` (from 0) of `count` plays the
/// pairs whose index is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard's number, from 0 (written from 1 on the command line).
    pub index: usize,
    /// How many shards the run is split into.
    pub count: usize,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Reads `I/N` with `1 <= I <= N`, as written on the command line.
    pub fn parse(text: &str) -> Result<Shard, ParseError> {
        let bad = || {
            ParseError::new(
                "shard",
                text,
                "a shard is written I/N with 1 <= I <= N, e.g. 2/8",
            )
        };
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = index.trim().parse().map_err(|_| bad())?;
        let count: usize = count.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard {
            index: index - 1,
            count,
        })
    }

    /// Whether item `index` of a run (a pair of games, a deal) is this
    /// shard's.
    pub fn holds(&self, index: u64) -> bool {
        index % self.count as u64 == self.index as u64
    }

    /// How many of the items `0..total` are this shard's.
    pub fn share(&self, total: u64) -> u64 {
        total
            .saturating_sub(self.index as u64)
            .div_ceil(self.count as u64)
    }

    /// The index of this shard's `k`-th item.
    pub fn nth(&self, k: u64) -> u64 {
        self.index as u64 + k * self.count as u64
    }

    /// Whether this is the whole run.
    pub fn is_all(&self) -> bool {
        self.count == 1
    }

    /// Refuses a merge that lacks shards: `present[i]` tells whether shard
    /// `i` of `present.len()` is there.
    ///
    /// # Errors
    /// Naming every missing shard.
    pub fn require_all(present: &[bool]) -> Result<(), String> {
        let count = present.len();
        let missing: Vec<String> = (0..count)
            .filter(|&index| !present[index])
            .map(|index| Shard { index, count }.to_string())
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(format!(
            "{} {} missing: merge every shard of the run",
            if missing.len() == 1 {
                "shard"
            } else {
                "shards"
            },
            missing.join(", ")
        ))
    }

    /// Refuses a shard built by hand with no count or an index past it.
    pub fn validate(&self) -> Result<(), String> {
        if self.count == 0 || self.index >= self.count {
            return Err(format!(
                "shard index {} of {} is not a shard: the index must be below the count",
                self.index, self.count
            ));
        }
        Ok(())
    }
}

/// As written on the command line: `I/N`, counting from 1.
impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

impl Serialize for Shard {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Shard, D::Error> {
        let text = String::deserialize(deserializer)?;
        Shard::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// The provenance of one shard of a merged run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardProvenance {
    /// Which shard it is.
    pub shard: Shard,
    /// The build, agents and rules that played the shard's games.
    #[serde(flatten)]
    pub provenance: Provenance,
}
