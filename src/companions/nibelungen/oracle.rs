//! The oracle: an agent that plays Nibelungen perfectly from the retrograde
//! table ([`RetrogradeTable`]).

use super::retrograde::RetrogradeTable;
use crate::agents::sample_strategy;
use crate::agents::{Agent, AgentError, Decision, player_choices};
use crate::core::{
    Game, GameRng, MoveList, ParseError, Player, check_memory, parse_key_values, rng_from_seed,
    unknown_key,
};
use crate::games::nibelungen::{Nibelungen, NibelungenMove};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Where an oracle finds its table.
#[derive(Clone, Debug, PartialEq, Eq)]
enum TableSource {
    /// Computed for the game's rules at the first decision, in memory.
    Computed,
    /// Read from a file saved by `norn solve nibelungen --retrograde --out`.
    File(PathBuf),
}

/// Tables already computed or read in this process, shared by every oracle
/// (a tournament builds one agent per game).
static TABLES: Mutex<Vec<(String, Arc<RetrogradeTable>)>> = Mutex::new(Vec::new());

/// Plays Nibelungen perfectly from the retrograde table: an optimal mixed
/// strategy of the round's matrix game (sampled from its seed), and a move
/// of the best value where it moves alone.
///
/// Spec `oracle` computes the table for the game's round limit at its first
/// decision (the default 30 rounds: about 5 minutes and 4 GB); spec
/// `oracle:table=FILE` reads one saved by `norn solve nibelungen
/// --retrograde --out FILE`. Either is shared by every oracle of the
/// process.
pub struct OracleAgent {
    spec: String,
    source: TableSource,
    table: Option<Arc<RetrogradeTable>>,
    rng: GameRng,
}

impl OracleAgent {
    /// The agent of an `oracle` spec.
    ///
    /// # Errors
    /// An option other than `table`.
    pub fn from_spec(spec: &str, seed: u64) -> Result<OracleAgent, ParseError> {
        const WHAT: &str = "agent spec";
        let options = spec.strip_prefix("oracle").unwrap_or(spec);
        let options = options.strip_prefix(':').unwrap_or(options);
        let mut source = TableSource::Computed;
        for (key, value) in parse_key_values(options, WHAT)? {
            match key {
                "table" => {
                    let path = PathBuf::from(value);
                    // Read at the first decision; a missing file is a
                    // typing error better reported now.
                    if !path.is_file() {
                        return Err(ParseError::new(
                            WHAT,
                            spec,
                            format!("no table file at `{value}`"),
                        ));
                    }
                    source = TableSource::File(path);
                }
                _ => return Err(unknown_key(WHAT, spec, key, &["table"])),
            }
        }
        Ok(OracleAgent {
            spec: spec.to_string(),
            source,
            table: None,
            rng: rng_from_seed(seed),
        })
    }

    /// An oracle playing from `table`.
    pub fn with_table(table: Arc<RetrogradeTable>, seed: u64) -> OracleAgent {
        OracleAgent {
            spec: "oracle".to_string(),
            source: TableSource::Computed,
            table: Some(table),
            rng: rng_from_seed(seed),
        }
    }

    /// The key of the process's table for `state`'s rules.
    fn table_key(&self, state: &Nibelungen) -> String {
        match &self.source {
            TableSource::Computed => format!("rules {}", state.rules()),
            TableSource::File(path) => format!("file {}", path.display()),
        }
    }

    /// The rounds of the table computed for `state`'s rules.
    fn rounds_to_compute(state: &Nibelungen) -> Result<u32, String> {
        match state.rules().round_limit {
            Some(limit) => Ok(limit.get().saturating_sub(1)),
            None => Err(
                "the oracle needs a round limit to compute its table, or a saved table (oracle:table=FILE)"
                    .to_string(),
            ),
        }
    }

    /// The table for `state`'s rules: this agent's, the process's, or a
    /// new one.
    fn table(&mut self, state: &Nibelungen) -> Result<Arc<RetrogradeTable>, AgentError> {
        if let Some(table) = &self.table {
            return Ok(Arc::clone(table));
        }
        let key = self.table_key(state);
        // Held while a table is built, so that two oracles of one
        // tournament never build the same table twice.
        let mut tables = TABLES
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((_, table)) = tables.iter().find(|(known, _)| *known == key) {
            self.table = Some(Arc::clone(table));
            return Ok(Arc::clone(table));
        }
        let table = match &self.source {
            TableSource::File(path) => RetrogradeTable::load(path).map_err(AgentError::new)?,
            TableSource::Computed => {
                let rounds = Self::rounds_to_compute(state).map_err(AgentError::new)?;
                RetrogradeTable::solve(*state.rules(), rounds, true, &|_| {})
                    .map_err(AgentError::new)?
            }
        };
        let table = Arc::new(table);
        tables.push((key, Arc::clone(&table)));
        self.table = Some(Arc::clone(&table));
        Ok(table)
    }
}

impl Agent<Nibelungen> for OracleAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    /// The table the oracle will compute or read must fit in memory: the
    /// run checks it before it writes anything, as it checks other
    /// agents' tables, rather than at the first move. A table the process
    /// holds already costs nothing more.
    fn check_start(&self, state: &Nibelungen) -> Result<(), String> {
        let key = self.table_key(state);
        let held = TABLES
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .iter()
            .any(|(known, _)| *known == key);
        if self.table.is_some() || held {
            return Ok(());
        }
        match &self.source {
            TableSource::File(path) => {
                check_memory("the retrograde table", RetrogradeTable::file_bytes(path)?)
            }
            TableSource::Computed => check_memory(
                "the retrograde tables",
                RetrogradeTable::solve_bytes(Self::rounds_to_compute(state)?, true),
            ),
        }
    }

    fn decide(
        &mut self,
        state: &Nibelungen,
        player: Player,
    ) -> Result<Decision<NibelungenMove>, AgentError> {
        player_choices(state, player, &mut MoveList::new())?;
        let table = self.table(state)?;
        let solution = table
            .solve_state(state, RetrogradeTable::rounds_left(state, None))
            .map_err(|error| AgentError::new(error.to_string()))?;
        sample_strategy(&solution.strategies[player], &mut self.rng)
            .map(Decision::Play)
            .ok_or_else(|| AgentError::new("the table gave no choice"))
    }
}
