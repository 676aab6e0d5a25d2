//! Every game once: its name, title, sides and capabilities, and what the
//! library offers for it beyond the generic code (its own policies, the
//! objectives of its exact solutions, a record format, an engine protocol).
//!
//! The command line, the conformance suite (`tests/suite/all_games.rs`) and the
//! benches iterate over this list, so a game cannot opt out of any of them,
//! and commands refuse a game by what it lacks, never by its name. Adding a
//! game is one folder under `src/games/` plus one entry here: a line in
//! `register!` and an `impl Registered` block.
//!
//! The registry sits above the games and the agents rather than in
//! `games/`: it records which agents and protocols each game has, and a game
//! never names an agent.
//!
//! ```
//! use norn::registry::{self, GameVisitor, Registered};
//!
//! /// The number of players of a game's standard setup.
//! struct Players;
//!
//! impl GameVisitor for Players {
//!     type Output = usize;
//!     fn visit<G: Registered>(&mut self) -> usize {
//!         G::new(G::Rules::default()).num_players()
//!     }
//! }
//!
//! assert_eq!(registry::visit("thud", &mut Players).unwrap(), 2);
//! let names: Vec<&str> = registry::games().iter().map(|game| game.name).collect();
//! assert!(names.contains(&"fenrir-cards"));
//! ```

use crate::agents::nibelungen_retrograde::{
    LAYER_STATES, LayerReport, OracleAgent, RetrogradeTable,
};
use crate::agents::{self, Agent};
use crate::arena::equilibrium::{EquilibriumReport, ForcedShares};
use crate::core::{Capabilities, Evaluate, Game, Notation, Objective, ParseError, escape_control};
use crate::engine::{EngineSession, HtpSession};
use crate::games::fenrir_cards::FenrirCards;
use crate::games::fenrir_path::{FenrirPath, SafetyMargin, ShortestWin};
use crate::games::hnefatafl::{Hnefatafl, replay_records};
use crate::games::nibelungen::Nibelungen;
use crate::games::stealth_chess::StealthChess;
use crate::games::thud::{KoomValley, Thud};
use serde::Serialize;
use std::fmt;
use std::path::Path;
use std::time::Instant;

/// Builds an agent of game `G` from `spec` ([`Registered::build_agent`]),
/// after replacing the option `preset=best` by the game's best settings
/// for the spec's kind ([`agents::expand_preset`]), for the game's own
/// kinds as well as the common ones.
///
/// # Errors
/// What [`Registered::build_agent`] refuses, a preset other than `best`,
/// and a preset for a kind that has none on this game.
pub fn build_agent<G: Registered>(spec: &str, seed: u64) -> Result<Box<dyn Agent<G>>, ParseError> {
    G::build_agent(&agents::expand_preset::<G>(spec)?, seed)
}

/// A game the library knows, with what it offers beyond the generic code.
/// Every method has a default: a game overrides only what it has.
pub trait Registered: Notation + Evaluate + PartialEq + std::fmt::Debug {
    /// A one-line description, e.g. `"Copenhagen Hnefatafl 11x11"`.
    const TITLE: &'static str;

    /// The sides' names, player 0 first, as [`Game::player_name`] gives
    /// them; empty when players are only numbered (their count depends on
    /// the rules). Command-line flags such as `--attackers` come from here.
    const SIDES: &'static [&'static str];

    /// Builds an agent from a spec string: the game's own policies and the
    /// generic kinds of [`agents::build_agent`]. This is the game's hook;
    /// callers use [`build_agent`], which also reads `preset=best` for the
    /// game's own kinds.
    ///
    /// # Errors
    /// An unknown kind, bad options, or a kind the game cannot be played by.
    fn build_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Self>>, ParseError> {
        agents::build_agent(spec, seed)
    }

    /// The measures of winning lines that the exact cooperative solver
    /// bounds, beyond whether a deal can be won.
    fn objectives() -> Vec<Box<dyn Objective<Self>>> {
        Vec::new()
    }

    /// The engine protocol spoken for this game on standard input and
    /// output, if one is defined, with `agent` answering for the engine.
    fn engine_session(
        _rules: Self::Rules,
        _agent: Box<dyn Agent<Self>>,
    ) -> Option<Box<dyn EngineSession>> {
        None
    }

    /// The built-in opening set of a game of two competing sides, as the
    /// text of an openings file ([`crate::arena::parse_openings`]): where
    /// tournaments and matches start their colour-swapped pairs unless told
    /// otherwise. The sets are files under `openings/`, made by the
    /// procedure in `tests/suite/openings.rs`.
    fn default_openings() -> Option<&'static str> {
        None
    }

    /// Replays a file of game records in the game's own record format, if it
    /// has one, checking every move (the library's own game logs replay for
    /// every game; see [`crate::arena::replay_log`]).
    fn replay_records(
        _text: &str,
        _rules: &Self::Rules,
    ) -> Option<Result<RecordsReplay, ParseError>> {
        None
    }

    /// Solves `state` exactly by the game's own retrograde analysis, if it
    /// has one: over at most `rounds` rounds from `state` (the game's own
    /// round limit otherwise), saving the tables to `out` when given and
    /// calling `on_progress` with a line of text after each step.
    fn solve_by_retrograde(
        _state: &Self,
        _rounds: Option<u32>,
        _out: Option<&Path>,
        _on_progress: &(dyn Fn(&str) + Sync),
    ) -> Option<Result<EquilibriumReport, String>> {
        None
    }
}

/// The replay of a file of game records: the summary as JSON and as text.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordsReplay {
    pub json: serde_json::Value,
    pub text: String,
    /// Every record replayed as recorded (legal moves, the recorded
    /// captures and result).
    pub all_agree: bool,
}

/// What the registry says about one game.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct GameInfo {
    /// The name on the command line, [`Game::NAME`].
    pub name: &'static str,
    pub title: &'static str,
    /// See [`Registered::SIDES`].
    pub sides: &'static [&'static str],
    pub capabilities: Capabilities,
}

impl GameInfo {
    /// The entry of game `G`.
    pub fn of<G: Registered>() -> GameInfo {
        GameInfo {
            name: G::NAME,
            title: G::TITLE,
            sides: G::SIDES,
            capabilities: Capabilities::of::<G>(),
        }
    }
}

/// Code generic over the game, run for a game chosen at run time.
pub trait GameVisitor {
    type Output;
    fn visit<G: Registered>(&mut self) -> Self::Output;
}

/// A name that is not a registered game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = games().iter().map(|game| game.name).collect();
        let name = escape_control(&self.0);
        write!(f, "unknown game `{name}` (games: {})", names.join(", "))
    }
}

impl std::error::Error for UnknownGame {}

/// The entry of the game named `name`.
///
/// # Errors
/// If no game has that name.
pub fn find(name: &str) -> Result<GameInfo, UnknownGame> {
    games()
        .into_iter()
        .find(|game| game.name == name)
        .ok_or_else(|| UnknownGame(name.to_string()))
}

/// Writes the registry's functions for the listed games.
macro_rules! register {
    ($($game:ty),+ $(,)?) => {
        /// Every registered game, in the registry's order.
        pub fn games() -> Vec<GameInfo> {
            vec![$(GameInfo::of::<$game>()),+]
        }

        /// Runs `visitor` for the game named `name`.
        ///
        /// # Errors
        /// If no game has that name.
        pub fn visit<V: GameVisitor>(name: &str, visitor: &mut V) -> Result<V::Output, UnknownGame> {
            $(
                if name == <$game as Game>::NAME {
                    return Ok(visitor.visit::<$game>());
                }
            )+
            Err(UnknownGame(name.to_string()))
        }

        /// Runs `visitor` for every game, in the registry's order.
        pub fn visit_all<V: GameVisitor>(visitor: &mut V) -> Vec<V::Output> {
            vec![$(visitor.visit::<$game>()),+]
        }
    };
}

register!(
    Hnefatafl,
    Thud,
    KoomValley,
    FenrirPath,
    FenrirCards,
    Nibelungen,
    StealthChess
);

impl Registered for Hnefatafl {
    const TITLE: &'static str = "Copenhagen Hnefatafl 11x11";
    const SIDES: &'static [&'static str] = &["attackers", "defenders"];

    /// The common agents, and outside engines that speak the Hnefatafl Text
    /// Protocol (`htp:[reply-ms=N,][ms=N,]cmd=PROGRAM ARGUMENTS`, see
    /// [`agents::htp_engine`]).
    fn build_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Self>>, ParseError> {
        if spec.starts_with(agents::htp_engine::HTP_PREFIX) {
            return Ok(Box::new(agents::htp_engine::HtpEngineAgent::from_spec(
                spec,
            )?));
        }
        agents::build_agent(spec, seed)
    }

    fn engine_session(
        rules: Self::Rules,
        agent: Box<dyn Agent<Self>>,
    ) -> Option<Box<dyn EngineSession>> {
        Some(Box::new(HtpSession::new(rules, agent)))
    }

    fn default_openings() -> Option<&'static str> {
        Some(include_str!("../openings/hnefatafl.txt"))
    }

    fn replay_records(
        text: &str,
        rules: &Self::Rules,
    ) -> Option<Result<RecordsReplay, ParseError>> {
        Some(replay_records(text, *rules).map(|summary| RecordsReplay {
            json: serde_json::to_value(&summary).expect("replay summaries serialise"),
            text: summary.text(),
            all_agree: summary.all_agree(),
        }))
    }
}

impl Registered for Thud {
    const TITLE: &'static str = "Classic Thud: one battle, scored by its margin";
    const SIDES: &'static [&'static str] = &["dwarfs", "trolls"];

    fn default_openings() -> Option<&'static str> {
        Some(include_str!("../openings/thud.txt"))
    }
}

impl Registered for KoomValley {
    const TITLE: &'static str = "Koom Valley Thud";
    const SIDES: &'static [&'static str] = &["dwarfs", "trolls"];

    fn default_openings() -> Option<&'static str> {
        Some(include_str!("../openings/koom-valley.txt"))
    }
}

impl Registered for FenrirPath {
    const TITLE: &'static str = "Fenrir's Path, the cooperative tile game";
    const SIDES: &'static [&'static str] = &["gods"];

    fn build_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Self>>, ParseError> {
        agents::fenrir_path::build_agent(spec, seed)
    }

    fn objectives() -> Vec<Box<dyn Objective<Self>>> {
        vec![Box::new(SafetyMargin), Box::new(ShortestWin)]
    }
}

impl Registered for FenrirCards {
    const TITLE: &'static str = "Fetters of Fenrir, the cooperative card game of hidden hands";
    const SIDES: &'static [&'static str] = &[];

    fn build_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Self>>, ParseError> {
        agents::fenrir_cards::build_agent(spec, seed)
    }
}

impl Registered for Nibelungen {
    const TITLE: &'static str = "Nibelungen, the game of simultaneous secret choices";
    const SIDES: &'static [&'static str] = &["tod", "no"];

    fn default_openings() -> Option<&'static str> {
        Some(include_str!("../openings/nibelungen.txt"))
    }

    /// The common agents, and the oracle of the retrograde table
    /// (`oracle`, `oracle:table=FILE`).
    fn build_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Self>>, ParseError> {
        let kind = spec.trim().split(':').next().unwrap_or_default();
        if kind == "oracle" {
            return Ok(Box::new(OracleAgent::from_spec(spec.trim(), seed)?));
        }
        agents::build_agent(spec, seed)
    }

    fn solve_by_retrograde(
        state: &Self,
        rounds: Option<u32>,
        out: Option<&Path>,
        on_progress: &(dyn Fn(&str) + Sync),
    ) -> Option<Result<EquilibriumReport, String>> {
        Some(nibelungen_by_retrograde(state, rounds, out, on_progress))
    }
}

/// [`Registered::solve_by_retrograde`] for Nibelungen: the layers up to the
/// rounds the position has left (without a round limit, until they stop
/// changing), then the rest of the position's round solved on them.
fn nibelungen_by_retrograde(
    state: &Nibelungen,
    rounds: Option<u32>,
    out: Option<&Path>,
    on_progress: &(dyn Fn(&str) + Sync),
) -> Result<EquilibriumReport, String> {
    let started = Instant::now();
    let rounds_left = RetrogradeTable::rounds_left(state, rounds);
    let layers = rounds_left
        .saturating_sub(1)
        .min(RetrogradeTable::MAX_LAYERS);
    let on_layer = |layer: &LayerReport| on_progress(&layer.line());
    let table = RetrogradeTable::solve(*state.rules(), layers, out.is_some(), &on_layer)?;
    if rounds_left == u32::MAX && !table.converged() {
        return Err(format!(
            "without a round limit the layers had not stopped changing after {layers}: give --rounds R"
        ));
    }
    let solution = table
        .solve_state(state, rounds_left)
        .map_err(|error| error.to_string())?;
    if let Some(path) = out {
        table.save(path)?;
    }
    let horizon = (rounds_left != u32::MAX).then_some(rounds_left);
    let mut report = EquilibriumReport::new(state, "retrograde", horizon, &solution);
    report.states = (u64::from(layers)) * LAYER_STATES as u64;
    report.seconds = started.elapsed().as_secs_f64();
    report.memory_bytes = Some(table.bytes());
    report.forced = table
        .outcome_shares(table.last_rounds_left())
        .map(|[tod, no, neither]| ForcedShares {
            rounds_left: table.last_rounds_left(),
            first_player_wins: tod,
            second_player_wins: no,
            neither,
        });
    Ok(report)
}

impl Registered for StealthChess {
    const TITLE: &'static str = "Stealth Chess: chess on 10x8 with Slurks and Assassins";
    const SIDES: &'static [&'static str] = &["white", "black"];

    fn default_openings() -> Option<&'static str> {
        Some(include_str!("../openings/stealth-chess.txt"))
    }
}
