//! Openings: where the games of a tournament or match start.
//!
//! Deterministic agents (alpha-beta at a fixed depth, a greedy player) play
//! the same game every time they meet from the same position, and a repeated
//! game is no new evidence. As engine testers do (cutechess, fastchess),
//! each colour-swapped pair of games therefore starts from an opening: a
//! position, or a few plies played from the game's start. Both games of a
//! pair play the same opening, so the only difference between them is who
//! plays which side, and pair `j` of every pairing plays the same opening as
//! pair `j` of every other pairing, so every pairing meets the same openings.
//!
//! An opening set is read from text, one opening per line:
//! - a position in the game's notation ([`Notation::position_text`]), or
//! - plies from the game's start in its move notation, separated by spaces
//!   (`h1-h3 f8-i8`); a ply of simultaneous choices is written as every
//!   player's move joined by `&` (`GK&GS`).
//!
//! A line that reads as a position is a position; any other line must be
//! plies. Blank lines and lines starting with `#` are skipped.

use crate::agents::player_choices;
use crate::core::{
    Game, MoveList, Notation, ParseError, Ply, PlyText, Status, derive_seed, rng_from_seed,
};
use rand::RngExt;
use serde::{Deserialize, Serialize};

/// The start of one game: a position, or plies played from the game's
/// start (which keeps the game's history, such as repetitions).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Opening {
    /// A position in the game's notation.
    Position(String),
    /// Plies from the game's start, each in the notation of the state it is
    /// played in.
    Moves(Vec<PlyText>),
}

/// The most openings a set may hold: the set is kept in every run's
/// `config.json`, so a larger one is a mistake rather than a plan.
pub const MAX_OPENINGS: usize = 100_000;

/// The most plies of an opening, given or random: openings are the first
/// few moves of a game, and a long random walk mostly ends the game.
pub const MAX_OPENING_PLIES: usize = 200;

/// How many times a random opening is drawn again when its plies end the
/// game, before the run gives up.
const RANDOM_OPENING_ATTEMPTS: u64 = 100;

/// Separates the players' moves of a ply of simultaneous choices on an
/// opening's line.
const JOINT_SEPARATOR: char = '&';

impl Opening {
    /// Reads one opening: a position if `text` reads as one under the rules
    /// of `start`, and otherwise plies from `start`.
    ///
    /// # Errors
    /// If the text is neither, or its plies end the game or reach a chance
    /// event; the message says why the text is not a position and why it
    /// is not plies from the start.
    pub fn parse<G: Notation>(text: &str, start: &G) -> Result<Opening, String> {
        let text = text.trim();
        let position_error = match G::from_position_text(text, start.rules().clone()) {
            Ok(_) => {
                let opening = Opening::Position(text.to_string());
                opening.apply(start)?;
                return Ok(opening);
            }
            Err(error) => error,
        };
        let plies: Vec<PlyText> = text
            .split_whitespace()
            .map(|ply| {
                if ply.contains(JOINT_SEPARATOR) {
                    PlyText::Joint(ply.split(JOINT_SEPARATOR).map(str::to_string).collect())
                } else {
                    PlyText::Move(ply.to_string())
                }
            })
            .collect();
        let opening = Opening::Moves(plies);
        match opening.apply(start) {
            Ok(_) => Ok(opening),
            Err(moves_error) => Err(format!(
                "neither a position ({position_error}) nor plies from the start ({moves_error})"
            )),
        }
    }

    /// The state this opening leads to from `start` (whose rules apply),
    /// checking every ply.
    ///
    /// # Errors
    /// If a position does not read, a ply is not legal, or the opening
    /// ends the game or reaches a chance event (openings are played
    /// without chance).
    pub fn apply<G: Notation>(&self, start: &G) -> Result<G, String> {
        let OpeningPlies { mut from, plies } = self.plies(start)?;
        for ply in &plies {
            from.play_ply(ply);
        }
        Ok(from)
    }

    /// Where a game with this opening begins and the plies played from
    /// there before the agents choose: a position and no plies, or `start`
    /// and the opening's plies (so that agents can be told them, as
    /// [`crate::arena::play_game_after`] does). Checked as
    /// [`Opening::apply`].
    ///
    /// # Errors
    /// As [`Opening::apply`].
    pub fn plies<G: Notation>(&self, start: &G) -> Result<OpeningPlies<G>, String> {
        match self {
            Opening::Position(text) => {
                let state = G::from_position_text(text, start.rules().clone())
                    .map_err(|error| error.to_string())?;
                check_playable(&state)?;
                Ok(OpeningPlies {
                    from: state,
                    plies: Vec::new(),
                })
            }
            Opening::Moves(texts) => {
                if texts.is_empty() {
                    return Err("no plies".into());
                }
                if texts.len() > MAX_OPENING_PLIES {
                    return Err(format!(
                        "{} plies, more than the {MAX_OPENING_PLIES} an opening may have",
                        texts.len()
                    ));
                }
                let mut state = start.clone();
                let mut plies = Vec::with_capacity(texts.len());
                for (number, text) in texts.iter().enumerate() {
                    check_playable(&state)
                        .map_err(|problem| format!("before ply {}: {problem}", number + 1))?;
                    let ply = state
                        .parse_ply(text)
                        .map_err(|error: ParseError| format!("ply {}: {error}", number + 1))?;
                    state
                        .try_play_ply(&ply)
                        .map_err(|illegal| format!("ply {}: {illegal}", number + 1))?;
                    plies.push(ply);
                }
                check_playable(&state)?;
                Ok(OpeningPlies {
                    from: start.clone(),
                    plies,
                })
            }
        }
    }

    /// The opening as a line of an openings file.
    pub fn line(&self) -> String {
        match self {
            Opening::Position(text) => text.clone(),
            Opening::Moves(plies) => plies
                .iter()
                .map(|ply| match ply {
                    PlyText::Move(text) => text.clone(),
                    PlyText::Joint(texts) => texts.join(&JOINT_SEPARATOR.to_string()),
                })
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// Where a game with an opening begins, and the opening's plies from there
/// ([`Opening::plies`]).
pub struct OpeningPlies<G: Game> {
    pub from: G,
    pub plies: Vec<Ply<G::Move>>,
}

/// Refuses a state a game cannot start from: one whose game is over, or
/// one waiting for a chance event.
fn check_playable<G: Game>(state: &G) -> Result<(), String> {
    match state.status() {
        Status::Over(outcome) => Err(format!("the game is over ({})", outcome.reason)),
        Status::Chance => Err("the game waits for a chance event".into()),
        Status::ToMove(_) | Status::Simultaneous => Ok(()),
    }
}

/// Reads an opening set: one opening per line ([`Opening::parse`]), blank
/// lines and `#` comments skipped.
///
/// # Errors
/// The first bad line, by number, and a text with no opening or more than
/// [`MAX_OPENINGS`].
pub fn parse_openings<G: Notation>(text: &str, start: &G) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for_each_opening(text, start, |opening| openings.push(opening))?;
    Ok(openings)
}

/// Reads the openings of `text` one at a time, as [`parse_openings`]
/// describes, and hands each to `each`, so that a large set is never held
/// whole as parsed openings.
fn for_each_opening<G: Notation>(
    text: &str,
    start: &G,
    mut each: impl FnMut(Opening),
) -> Result<(), String> {
    let mut count = 0;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if count == MAX_OPENINGS {
            return Err(format!(
                "more than {MAX_OPENINGS} openings; use a smaller set"
            ));
        }
        let opening =
            Opening::parse(line, start).map_err(|error| format!("line {}: {error}", number + 1))?;
        each(opening);
        count += 1;
    }
    if count == 0 {
        return Err("no openings (every line is blank or a # comment)".into());
    }
    Ok(())
}

/// The order in which the pairs of a pairing take the openings of a set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum OpeningOrder {
    /// In the set's order, starting again at its end.
    #[default]
    Sequential,
    /// In an order shuffled once from the run's seed, starting again at
    /// its end.
    Random,
}

impl std::fmt::Display for OpeningOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            OpeningOrder::Sequential => "sequential",
            OpeningOrder::Random => "random",
        })
    }
}

/// A set of openings in the order the pairs take them.
///
/// A set is known by its order, its size and the SHA-256 digest of its
/// lines in play order (each [`Opening::line`] and a line break: the bytes
/// of [`OpeningSet::file_text`]). That is all a run's `config.json`
/// records of it ([`OPENINGS_FILE`] beside it holds the lines once): a set
/// may hold [`MAX_OPENINGS`] openings of [`MAX_OPENING_PLIES`] plies, and
/// a configuration holding them all was hundreds of megabytes, written,
/// read and compared whole at every resume. The lines are read into
/// openings only when a pair plays them.
#[derive(Clone, Debug, Deserialize)]
#[serde(try_from = "StoredSet")]
pub struct OpeningSet {
    order: OpeningOrder,
    count: usize,
    sha256: String,
    /// In play order: for [`OpeningOrder::Random`], already shuffled.
    /// Empty for a set read from a configuration and not yet
    /// [loaded](OpeningSet::load).
    lines: Vec<String>,
    /// The rules (as text) every line was checked under when the set was
    /// read ([`OpeningSet::read`]), so that [`Openings::validate`] need not
    /// play them all again.
    #[serde(skip)]
    checked_under: Option<String>,
}

/// The file of a run directory that holds its opening set's lines
/// ([`OpeningSet::file_text`]).
pub const OPENINGS_FILE: &str = "openings.txt";

/// Two sets are the same set when they take the same openings in the same
/// order, whether or not their lines are loaded.
impl PartialEq for OpeningSet {
    fn eq(&self, other: &OpeningSet) -> bool {
        self.order == other.order && self.count == other.count && self.sha256 == other.sha256
    }
}

impl Eq for OpeningSet {}

impl Serialize for OpeningSet {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut stored = serializer.serialize_struct("OpeningSet", 3)?;
        stored.serialize_field("order", &self.order)?;
        stored.serialize_field("count", &self.count)?;
        stored.serialize_field("sha256", &self.sha256)?;
        stored.end()
    }
}

/// A set as configurations store it: by digest, or, as builds before the
/// digest stored it, with every opening.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredSet {
    order: OpeningOrder,
    count: Option<usize>,
    sha256: Option<String>,
    openings: Option<Vec<Opening>>,
}

impl TryFrom<StoredSet> for OpeningSet {
    type Error = String;

    fn try_from(stored: StoredSet) -> Result<OpeningSet, String> {
        match (stored.openings, stored.count, stored.sha256) {
            (Some(openings), None, None) => Ok(OpeningSet::in_play_order(
                openings.iter().map(Opening::line).collect(),
                stored.order,
            )),
            (None, Some(count), Some(sha256)) => {
                if count == 0 || count > MAX_OPENINGS {
                    return Err(format!(
                        "an opening set of {count} openings; a set holds 1 to {MAX_OPENINGS}"
                    ));
                }
                if sha256.len() != 64 || !sha256.bytes().all(|byte| byte.is_ascii_hexdigit()) {
                    return Err("an opening set's sha256 must be 64 hexadecimal digits".into());
                }
                Ok(OpeningSet {
                    order: stored.order,
                    count,
                    sha256: sha256.to_ascii_lowercase(),
                    lines: Vec::new(),
                    checked_under: None,
                })
            }
            _ => Err("an opening set needs its count and sha256 (or, as older runs stored it, its openings)".into()),
        }
    }
}

impl OpeningSet {
    /// The set `openings` taken in `order`; a random order is shuffled
    /// from `seed` (the run's seed), so the same run takes the same order.
    pub fn new(openings: Vec<Opening>, order: OpeningOrder, seed: u64) -> OpeningSet {
        let lines = openings.iter().map(Opening::line).collect();
        OpeningSet::in_play_order(shuffled(lines, order, seed), order)
    }

    /// Reads the set in the text of an openings file ([`parse_openings`])
    /// and takes it in `order` (shuffled from `seed` when random), keeping
    /// each opening as its line: a set at the limits is 64 MiB of text
    /// rather than gigabytes of parsed plies.
    ///
    /// # Errors
    /// As [`parse_openings`].
    pub fn read<G: Notation>(
        text: &str,
        start: &G,
        order: OpeningOrder,
        seed: u64,
    ) -> Result<OpeningSet, String> {
        let mut lines = Vec::new();
        for_each_opening(text, start, |opening| lines.push(opening.line()))?;
        let mut set = OpeningSet::in_play_order(shuffled(lines, order, seed), order);
        set.checked_under = Some(start.rules().to_string());
        Ok(set)
    }

    /// The set of `lines`, already in play order.
    fn in_play_order(lines: Vec<String>, order: OpeningOrder) -> OpeningSet {
        let mut set = OpeningSet {
            order,
            count: lines.len(),
            sha256: String::new(),
            lines,
            checked_under: None,
        };
        set.sha256 = sha256_hex(set.file_text().as_bytes());
        set
    }

    pub fn order(&self) -> OpeningOrder {
        self.order
    }

    /// How many openings the set holds.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether the set holds no opening (only a set built from none).
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The SHA-256 digest of the set's lines in play order, in hex.
    pub fn sha256(&self) -> &str {
        &self.sha256
    }

    /// The openings in play order, each as its line ([`Opening::line`]);
    /// empty for a set whose lines are not loaded.
    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// Whether the set's lines are at hand (a set read from a
    /// configuration has only its digest until [`OpeningSet::load`]).
    pub fn is_loaded(&self) -> bool {
        self.lines.len() == self.count
    }

    /// The lines in play order, each ending with a line break: the text of
    /// a run directory's [`OPENINGS_FILE`], whose digest is the set's.
    pub fn file_text(&self) -> String {
        let mut text = String::with_capacity(self.lines.iter().map(|line| line.len() + 1).sum());
        for line in &self.lines {
            text.push_str(line);
            text.push('\n');
        }
        text
    }

    /// Loads the lines of a set known by its digest from `text` (an
    /// [`OPENINGS_FILE`]).
    ///
    /// # Errors
    /// If the text holds another number of lines or another set (its
    /// digest differs).
    pub fn load(&mut self, text: &str) -> Result<(), String> {
        let digest = sha256_hex(text.as_bytes());
        if digest != self.sha256 {
            return Err(format!(
                "its digest is {digest}, and the set's is {}: it holds other openings",
                self.sha256
            ));
        }
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        if lines.len() != self.count {
            return Err(format!(
                "it holds {} lines, and the set {} openings",
                lines.len(),
                self.count
            ));
        }
        self.lines = lines;
        Ok(())
    }
}

/// `lines` in play order: as they are, or shuffled once from `seed`.
fn shuffled(mut lines: Vec<String>, order: OpeningOrder, seed: u64) -> Vec<String> {
    if order == OpeningOrder::Random {
        let mut rng = rng_from_seed(derive_seed(seed, SHUFFLE_STREAM));
        for last in (1..lines.len()).rev() {
            lines.swap(last, rng.random_range(0..=last));
        }
    }
    lines
}

/// The SHA-256 digest of `bytes` in lower-case hex.
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// Where the games of a run start.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Openings {
    /// Every game from the game's start.
    #[default]
    Start,
    /// Every game from this position, in the game's notation.
    Position(String),
    /// Pair `j` of each pairing plays opening `j` of the set (modulo its
    /// size).
    Set(OpeningSet),
    /// Pair `j` of each pairing starts after this many uniformly random
    /// plies from the game's start, drawn from the run's seed and `j`.
    RandomPlies(usize),
}

/// Streams of the run's seed kept apart from the games' own seeds.
const SHUFFLE_STREAM: u64 = u64::MAX - 1;
const RANDOM_PLIES_STREAM: u64 = u64::MAX - 2;

impl Openings {
    /// Whether every game starts from the game's start (written as no
    /// field at all in `config.json`, as runs of older builds were).
    pub fn is_start(&self) -> bool {
        *self == Openings::Start
    }

    /// Checks that every opening can be played from `start`.
    ///
    /// # Errors
    /// The first opening that cannot, by number, an empty set, or a count
    /// of random plies outside 1 to [`MAX_OPENING_PLIES`].
    pub fn validate<G: Notation>(&self, start: &G) -> Result<(), String> {
        match self {
            Openings::Start => Ok(()),
            Openings::Position(text) => Opening::Position(text.clone())
                .apply(start)
                .map(drop)
                .map_err(|error| format!("the start position: {error}")),
            Openings::Set(set) => {
                if set.is_empty() {
                    return Err("the opening set is empty".into());
                }
                if set.len() > MAX_OPENINGS {
                    return Err(format!(
                        "{} openings, more than the {MAX_OPENINGS} a set may hold",
                        set.len()
                    ));
                }
                if !set.is_loaded() {
                    return Err(format!(
                        "only the digest of the set is at hand, not its openings (the run directory's {OPENINGS_FILE})"
                    ));
                }
                let rules = start.rules().to_string();
                if set.checked_under.as_ref() == Some(&rules) {
                    return Ok(());
                }
                set.lines.iter().enumerate().try_for_each(|(number, line)| {
                    Opening::parse(line, start)
                        .map(drop)
                        .map_err(|error| format!("opening {} of the set: {error}", number + 1))
                })
            }
            Openings::RandomPlies(plies) => check_random_plies(*plies),
        }
    }

    /// The opening of pair `round` of each pairing in a run with master
    /// seed `seed`; `None` for the game's start.
    ///
    /// # Errors
    /// If the set is empty, or the count of random plies is out of range
    /// or they end the game in every one of 100 draws (settings read from
    /// a file may not have been validated).
    pub fn opening<G: Notation>(
        &self,
        start: &G,
        seed: u64,
        round: u64,
    ) -> Result<Option<Opening>, String> {
        Ok(match self {
            Openings::Start => None,
            Openings::Position(text) => Some(Opening::Position(text.clone())),
            Openings::Set(set) => {
                let count = (set.lines.len() as u64).max(1);
                let line = set.lines.get((round % count) as usize);
                let line = line.ok_or("the opening set is empty or not loaded")?;
                Some(Opening::parse(line, start)?)
            }
            Openings::RandomPlies(plies) => {
                check_random_plies(*plies)?;
                Some(random_opening(
                    start,
                    *plies,
                    derive_seed(derive_seed(seed, RANDOM_PLIES_STREAM), round),
                )?)
            }
        })
    }

    /// How many pairs of a pairing play before the openings repeat: the
    /// set's size, 1 for a single start, `None` when every pair draws its
    /// own.
    pub fn cycle(&self) -> Option<usize> {
        match self {
            Openings::Start | Openings::Position(_) => Some(1),
            Openings::Set(set) => Some(set.len()),
            Openings::RandomPlies(_) => None,
        }
    }

    /// One line for reports, e.g. `a set of 100 openings, sequential`.
    pub fn describe(&self) -> String {
        match self {
            Openings::Start => "every game from the game's start".into(),
            Openings::Position(text) => format!("every game from the position {text}"),
            Openings::Set(set) => format!(
                "a set of {} openings in {} order, one per colour-swapped pair",
                set.len(),
                set.order
            ),
            Openings::RandomPlies(plies) => {
                format!("{plies} random plies from the start, drawn per colour-swapped pair")
            }
        }
    }
}

/// Refuses a count of random plies outside 1 to [`MAX_OPENING_PLIES`].
fn check_random_plies(plies: usize) -> Result<(), String> {
    if (1..=MAX_OPENING_PLIES).contains(&plies) {
        Ok(())
    } else {
        Err(format!(
            "random plies must be from 1 to {MAX_OPENING_PLIES}, got {plies}"
        ))
    }
}

/// `plies` uniformly random plies from `start`, drawn from `seed`; drawn
/// again (from the same generator) while they end the game.
fn random_opening<G: Notation>(start: &G, plies: usize, seed: u64) -> Result<Opening, String> {
    let mut rng = rng_from_seed(seed);
    let mut moves = MoveList::new();
    'attempts: for _ in 0..RANDOM_OPENING_ATTEMPTS {
        let mut state = start.clone();
        let mut texts = Vec::with_capacity(plies);
        for _ in 0..plies {
            let ply = match state.status() {
                Status::ToMove(player) => {
                    // The same list as the simultaneous case, so that a
                    // state without moves is an error, not a panic.
                    player_choices(&state, player, &mut moves)
                        .map_err(|error| error.to_string())?;
                    Ply::Move(moves[rng.random_range(0..moves.len())])
                }
                Status::Simultaneous => {
                    let mut joint = Vec::with_capacity(state.num_players());
                    for player in 0..state.num_players() {
                        player_choices(&state, player, &mut moves)
                            .map_err(|error| error.to_string())?;
                        joint.push(moves[rng.random_range(0..moves.len())]);
                    }
                    Ply::Joint(joint)
                }
                Status::Over(_) => continue 'attempts,
                Status::Chance => {
                    return Err("random openings are played without chance events, and the game reached one".into());
                }
            };
            texts.push(state.ply_text(&ply));
            state.play_ply(&ply);
        }
        if check_playable(&state).is_ok() {
            return Ok(Opening::Moves(texts));
        }
    }
    Err(format!(
        "{plies} random plies ended the game in each of {RANDOM_OPENING_ATTEMPTS} draws; use fewer"
    ))
}
