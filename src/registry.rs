//! Every game once: its name, title, sides and capabilities, and what the
//! library offers for it beyond the generic code (its own policies, the
//! objectives of its exact solutions, a record format, an engine protocol).
//!
//! The command line, the conformance suite (`tests/all_games.rs`) and the
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

use crate::agents::{self, Agent};
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
    /// generic kinds of [`agents::build_agent`].
    ///
    /// # Errors
    /// An unknown kind, bad options, or a kind the game cannot be played by.
    fn build_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Self>>, ParseError> {
        agents::build_agent(spec, seed)
    }

    /// Whether the agent of `spec` reads information its player may not
    /// see: a reference, not a fair player, which reports must label.
    fn sees_hidden_information(_spec: &str) -> bool {
        false
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

    /// Replays a file of game records in the game's own record format, if it
    /// has one, checking every move (the library's own game logs replay for
    /// every game; see [`crate::arena::replay_log`]).
    fn replay_records(
        _text: &str,
        _rules: &Self::Rules,
    ) -> Option<Result<RecordsReplay, ParseError>> {
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
    /// Protocol (`htp:cmd=PROGRAM ARGUMENTS`).
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
}

impl Registered for KoomValley {
    const TITLE: &'static str = "Koom Valley Thud";
    const SIDES: &'static [&'static str] = &["dwarfs", "trolls"];
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

    fn sees_hidden_information(spec: &str) -> bool {
        agents::fenrir_cards::sees_hidden_cards(spec)
    }
}

impl Registered for Nibelungen {
    const TITLE: &'static str = "Nibelungen, the game of simultaneous secret choices";
    const SIDES: &'static [&'static str] = &["tod", "no"];
}

impl Registered for StealthChess {
    const TITLE: &'static str = "Stealth Chess: chess on 10x8 with Slurks and Assassins";
    const SIDES: &'static [&'static str] = &["white", "black"];
}
