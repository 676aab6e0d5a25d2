//! Every game once: its name, title, sides and capabilities, and what the
//! library offers for it beyond the generic code (its own policies, the
//! objectives of its exact solutions, record formats read and written, an
//! engine protocol).
//!
//! The command line, the conformance suite (`tests/suite/all_games.rs`) and the
//! benches iterate over this list, so a game cannot opt out of any of them,
//! and commands refuse a game by what it lacks, never by its name. Adding a
//! game is one folder under `src/games/`, its `impl Registered` in its
//! companion (`src/companions/`, beside whatever else it adds above the
//! game layer) and one name in the [`BuiltIn`] list here.
//!
//! The registry sits above the games and the agents rather than in
//! `games/`: a game never names an agent. A program's own games join the
//! built-in ones through a [`GameList`] of its own ([`crate::game_list!`]).
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
use crate::arena::RecordedGame;
use crate::arena::solutions::EquilibriumReport;
use crate::core::{
    Capabilities, Encoding, Evaluate, Game, Notation, Objective, ParseError, escape_control,
};
use crate::engine::EngineSession;
use crate::games::fenrir_cards::FenrirCards;
use crate::games::fenrir_path::FenrirPath;
use crate::games::hnefatafl::Hnefatafl;
use crate::games::nibelungen::Nibelungen;
use crate::games::stealth_chess::StealthChess;
use crate::games::tafl::Tafl;
use crate::games::thud::{KoomValley, Thud};
use serde::Serialize;
use std::fmt;
use std::path::Path;

/// Builds an agent of game `G` from `spec` ([`Registered::build_agent`]),
/// after taking out the option `name=`, which only names the agent in
/// reports ([`agents::named_spec`]), and replacing the option `preset=best`
/// by the game's best settings for the spec's kind
/// ([`agents::expand_preset`]), for the game's own kinds as well as the
/// common ones.
///
/// # Errors
/// What [`Registered::build_agent`] refuses, a bad name, a preset other
/// than `best`, and a preset for a kind that has none on this game.
pub fn build_agent<G: Registered>(spec: &str, seed: u64) -> Result<Box<dyn Agent<G>>, ParseError> {
    let named = agents::named_spec(spec)?;
    G::build_agent(&agents::expand_preset::<G>(&named.spec)?, seed)
}

/// A game the library knows, with what it offers beyond the generic code.
/// Every method has a default: a game overrides only what it has. A
/// registered game also has an [`Encoding`], so that learning code (and
/// the Python package) reaches every game of the list.
pub trait Registered: Notation + Encoding + Evaluate + PartialEq + std::fmt::Debug {
    /// A one-line description, e.g. `"Copenhagen Hnefatafl 11x11"`.
    const TITLE: &'static str;

    /// The sides' names, player 0 first, as [`Game::player_name`] gives
    /// them; empty when players are only numbered (their count depends on
    /// the rules). Command-line flags such as `--attackers` come from here.
    const SIDES: &'static [&'static str];

    /// Builds an agent from a spec string: the game's own policies and the
    /// generic kinds of [`agents::build_encoded_agent`]. This is the game's hook;
    /// callers use [`build_agent`], which also reads `preset=best` for the
    /// game's own kinds.
    ///
    /// # Errors
    /// An unknown kind, bad options, or a kind the game cannot be played by.
    fn build_agent(spec: &str, seed: u64) -> Result<Box<dyn Agent<Self>>, ParseError> {
        agents::build_encoded_agent(spec, seed)
    }

    /// The measures of winning lines that the exact cooperative solver
    /// bounds, beyond whether a deal can be won.
    fn objectives() -> Vec<Box<dyn Objective<Self>>> {
        Vec::new()
    }

    /// The engine protocols spoken for this game on standard input and
    /// output (`norn engine`), the default first.
    fn engine_protocols() -> Vec<EngineProtocol<Self>> {
        Vec::new()
    }

    /// The game's own record formats that `norn replay` reads, checking
    /// every move, the default first (the library's own game logs replay
    /// for every game; see [`crate::arena::replay_log`]).
    fn record_formats() -> Vec<RecordFormat<Self>> {
        Vec::new()
    }

    /// The formats other programs read that `norn replay --export` writes
    /// the game's records in, beyond the text every game has (the plies in
    /// the game's own notation, [`RecordedGame::text`]).
    fn export_formats() -> Vec<ExportFormat<Self>> {
        Vec::new()
    }

    /// The formats of other programs' records that `norn replay --import`
    /// reads into records of the game, to be written again in any export
    /// format.
    fn import_formats() -> Vec<ImportFormat<Self>> {
        Vec::new()
    }

    /// The game's own exact solvers of simultaneous-move positions, beyond
    /// the generic depth-first one (`norn solve --method NAME`).
    fn equilibrium_solvers() -> Vec<EquilibriumSolver<Self>> {
        Vec::new()
    }

    /// The game's named variants: names that stand for the game under
    /// rules of their own, taken wherever a game's name is ([`resolve_in`]).
    fn variants() -> Vec<Variant> {
        Vec::new()
    }
}

/// A name that stands for a registered game under rules of its own (the
/// tafl family's `brandub`, `tablut`, ...). The command line and the
/// Python package take it wherever they take a game's name: the game is
/// played under the variant's rules, with the rules given beside the name
/// read onto them ([`RulesOptions::read_onto`](crate::core::RulesOptions::read_onto)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Variant {
    /// The variant's name, e.g. `brandub`.
    pub name: &'static str,
    /// A one-line description.
    pub title: &'static str,
    /// The game's rules text the name stands for, e.g. `variant=brandub`.
    pub rules: &'static str,
}

/// An engine protocol of a game: a line protocol on standard input and
/// output in which `agent` answers for the engine.
pub struct EngineProtocol<G: Game> {
    /// What `norn engine --protocol` calls it.
    pub name: &'static str,
    /// A one-line description, e.g. `the Hnefatafl Text Protocol`.
    pub title: &'static str,
    /// Starts a session of the protocol.
    pub session: StartSession<G>,
}

/// Starts a protocol session under the rules, with the agent answering.
pub type StartSession<G> = fn(<G as Game>::Rules, Box<dyn Agent<G>>) -> Box<dyn EngineSession>;

/// A record format of a game: a file of games in another program's format,
/// replayed move by move under the given rules.
pub struct RecordFormat<G: Game> {
    /// A short name for the format, e.g. `csv`.
    pub name: &'static str,
    /// A one-line description of the files it reads.
    pub title: &'static str,
    /// Replays a file's whole text under the rules; refuses text that is
    /// not in the format.
    pub replay: fn(&str, &G::Rules) -> Result<RecordsReplay, ParseError>,
}

/// A format that a game's records are written in for other programs
/// (chess tools read PGN, tafl programs OpenTafl's records).
pub struct ExportFormat<G: Game> {
    /// What `norn replay --export` calls it, e.g. `pgn`.
    pub name: &'static str,
    /// A one-line description of what it writes.
    pub title: &'static str,
    /// Writes one game; the games of a file follow one another. Refuses a
    /// game the format cannot hold.
    pub write: fn(&RecordedGame<G>) -> Result<String, String>,
}

/// A format of other programs' records that a game reads.
pub struct ImportFormat<G: Game> {
    /// What `norn replay --import` calls it, e.g. `opentafl`.
    pub name: &'static str,
    /// A one-line description of the files it reads.
    pub title: &'static str,
    /// Reads a file's whole text under the rules into its games; refuses
    /// text that is not in the format.
    pub read: ReadRecords<G>,
}

/// Reads a file's whole text under the rules into its games
/// ([`ImportFormat::read`]).
pub type ReadRecords<G> = fn(&str, &<G as Game>::Rules) -> Result<Vec<RecordedGame<G>>, ParseError>;

/// An exact solver of a game's simultaneous-move positions: it solves a
/// state over at most `rounds` rounds (the game's own round limit
/// otherwise), saving its tables to `out` when given and calling
/// `on_progress` with a line of text after each step.
pub struct EquilibriumSolver<G> {
    /// What `norn solve --method` calls it.
    pub name: &'static str,
    /// A one-line description of how it solves.
    pub title: &'static str,
    /// Runs the solver.
    pub solve: SolveEquilibrium<G>,
}

/// Solves a state over at most so many rounds, saving tables to a file
/// and reporting progress by lines of text ([`EquilibriumSolver`]).
pub type SolveEquilibrium<G> =
    fn(&G, Option<u32>, Option<&Path>, &(dyn Fn(&str) + Sync)) -> Result<EquilibriumReport, String>;

/// The replay of a file of game records: the summary as JSON and as text.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordsReplay {
    /// The summary for `--json`, in the format's own shape.
    pub json: serde_json::Value,
    /// The summary as lines of text for a terminal.
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
    /// [`Registered::TITLE`]: the game's help line on the command line.
    pub title: &'static str,
    /// See [`Registered::SIDES`].
    pub sides: &'static [&'static str],
    /// What the game has beyond turns in full view (chance, simultaneous
    /// moves, hidden information, ...), which commands check before running.
    pub capabilities: Capabilities,
    /// The game the name plays: [`Game::NAME`], the name itself unless it
    /// is a variant's.
    pub game: &'static str,
    /// The rules text a variant's name stands for; empty for a game's own
    /// name (its default rules).
    pub rules: &'static str,
}

impl GameInfo {
    /// The entry of game `G`.
    pub fn of<G: Registered>() -> GameInfo {
        GameInfo {
            name: G::NAME,
            title: G::TITLE,
            sides: G::SIDES,
            capabilities: Capabilities::of::<G>(),
            game: G::NAME,
            rules: "",
        }
    }

    /// The entry of `variant` of game `G`.
    pub fn variant<G: Registered>(variant: &Variant) -> GameInfo {
        GameInfo {
            name: variant.name,
            title: variant.title,
            rules: variant.rules,
            ..GameInfo::of::<G>()
        }
    }

    /// Whether the name is a variant's.
    pub fn is_variant(&self) -> bool {
        self.name != self.game
    }
}

/// Code generic over the game, run for a game chosen at run time.
pub trait GameVisitor {
    /// What the code returns for one game.
    type Output;
    /// Runs the code for game `G`.
    fn visit<G: Registered>(&mut self) -> Self::Output;
}

/// A list of games to run generic code over: the built-in games
/// ([`BuiltIn`]), a user's own (made by [`game_list!`](crate::game_list)),
/// or both as a pair `(BuiltIn, Mine)`, which
/// [`crate::cli::run_with`] turns into a command line.
pub trait GameList {
    /// Every game of the list, in order, each followed by its variants.
    fn games() -> Vec<GameInfo>;

    /// Runs `visitor` for the game named `name` (a variant's name runs it
    /// for the variant's game: see [`resolve_in`] for its rules), if the
    /// list has it.
    fn visit<V: GameVisitor>(name: &str, visitor: &mut V) -> Option<V::Output>;

    /// Runs `visitor` for every game (not every variant), in order.
    fn visit_all<V: GameVisitor>(visitor: &mut V) -> Vec<V::Output>;
}

/// Two lists as one: the first's games, then the second's (a name in both
/// is the first's game).
impl<A: GameList, B: GameList> GameList for (A, B) {
    fn games() -> Vec<GameInfo> {
        let mut games = A::games();
        games.extend(B::games());
        games
    }

    fn visit<V: GameVisitor>(name: &str, visitor: &mut V) -> Option<V::Output> {
        A::visit(name, visitor).or_else(|| B::visit(name, visitor))
    }

    fn visit_all<V: GameVisitor>(visitor: &mut V) -> Vec<V::Output> {
        let mut outputs = A::visit_all(visitor);
        outputs.extend(B::visit_all(visitor));
        outputs
    }
}

/// Declares a [`GameList`] type of the listed games, each a type that
/// implements [`Registered`]:
/// `norn::game_list!(pub struct MyGames: ConnectFour, Nim);`
#[macro_export]
macro_rules! game_list {
    ($(#[$meta:meta])* $vis:vis struct $list:ident: $($game:ty),+ $(,)?) => {
        $(#[$meta])*
        $vis struct $list;

        impl $crate::registry::GameList for $list {
            fn games() -> Vec<$crate::registry::GameInfo> {
                let mut games = Vec::new();
                $(
                    games.push($crate::registry::GameInfo::of::<$game>());
                    for variant in <$game as $crate::registry::Registered>::variants() {
                        games.push($crate::registry::GameInfo::variant::<$game>(&variant));
                    }
                )+
                games
            }

            fn visit<V: $crate::registry::GameVisitor>(
                name: &str,
                visitor: &mut V,
            ) -> Option<V::Output> {
                $(
                    if name == <$game as $crate::core::Game>::NAME
                        || <$game as $crate::registry::Registered>::variants()
                            .iter()
                            .any(|variant| variant.name == name)
                    {
                        return Some(visitor.visit::<$game>());
                    }
                )+
                None
            }

            fn visit_all<V: $crate::registry::GameVisitor>(visitor: &mut V) -> Vec<V::Output> {
                vec![$(visitor.visit::<$game>()),+]
            }
        }
    };
}

crate::game_list!(
    /// The games built into norn.
    pub struct BuiltIn:
    Hnefatafl,
    Thud,
    KoomValley,
    FenrirPath,
    FenrirCards,
    Nibelungen,
    StealthChess,
    Tafl
);

/// A name that is not one of the games of a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame {
    /// The name asked for.
    pub name: String,
    /// The names the list has.
    pub known: Vec<&'static str>,
}

impl UnknownGame {
    /// `name`, which is not a game of list `L`.
    pub fn of<L: GameList>(name: &str) -> UnknownGame {
        UnknownGame {
            name: name.to_string(),
            known: L::games().iter().map(|game| game.name).collect(),
        }
    }
}

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = escape_control(&self.name);
        write!(
            f,
            "unknown game `{name}` (games: {})",
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownGame {}

/// Every built-in game, in the registry's order.
pub fn games() -> Vec<GameInfo> {
    BuiltIn::games()
}

/// The entry of the built-in game named `name`.
///
/// # Errors
/// If no game has that name.
pub fn find(name: &str) -> Result<GameInfo, UnknownGame> {
    find_in::<BuiltIn>(name)
}

/// The entry of the game of list `L` named `name`.
///
/// # Errors
/// If no game of the list has that name.
pub fn find_in<L: GameList>(name: &str) -> Result<GameInfo, UnknownGame> {
    L::games()
        .into_iter()
        .find(|game| game.name == name)
        .ok_or_else(|| UnknownGame::of::<L>(name))
}

/// Runs `visitor` for the built-in game named `name`.
///
/// # Errors
/// If no game has that name.
pub fn visit<V: GameVisitor>(name: &str, visitor: &mut V) -> Result<V::Output, UnknownGame> {
    visit_in::<BuiltIn, V>(name, visitor)
}

/// Runs `visitor` for the game of list `L` named `name`.
///
/// # Errors
/// If no game of the list has that name.
pub fn visit_in<L: GameList, V: GameVisitor>(
    name: &str,
    visitor: &mut V,
) -> Result<V::Output, UnknownGame> {
    L::visit(name, visitor).ok_or_else(|| UnknownGame::of::<L>(name))
}

/// Runs `visitor` for every built-in game, in the registry's order.
pub fn visit_all<V: GameVisitor>(visitor: &mut V) -> Vec<V::Output> {
    BuiltIn::visit_all(visitor)
}

/// The game and rules text a name stands for: `None` for a game's own
/// name (its rules are `given` as they are); for a variant's name, its
/// game's name and the variant's rules with `given` read onto them
/// ([`RulesOptions::read_onto`](crate::core::RulesOptions::read_onto)),
/// written out in full.
///
/// # Errors
/// An unknown name, or rules that do not read onto the variant's.
pub fn resolve_in<L: GameList>(
    name: &str,
    given: Option<&str>,
) -> Result<Option<(&'static str, String)>, String> {
    let info = find_in::<L>(name).map_err(|error| error.to_string())?;
    if !info.is_variant() {
        return Ok(None);
    }
    struct ReadOnto<'a> {
        preset: &'a str,
        given: &'a str,
    }
    impl GameVisitor for ReadOnto<'_> {
        type Output = Result<String, String>;
        fn visit<G: Registered>(&mut self) -> Self::Output {
            use crate::core::RulesOptions;
            let preset: G::Rules = self.preset.parse().map_err(|e: ParseError| e.to_string())?;
            let rules = preset.read_onto(self.given).map_err(|e| e.to_string())?;
            Ok(rules.to_string())
        }
    }
    let text = visit_in::<L, _>(
        name,
        &mut ReadOnto {
            preset: info.rules,
            given: given.unwrap_or_default(),
        },
    )
    .map_err(|error| error.to_string())??;
    Ok(Some((info.game, text)))
}
