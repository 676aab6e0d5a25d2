//! Opening sets and the openings of a run: a set of openings in play order
//! known by its digest, and where the games of a run start (the game's
//! start, one position, a set, or random plies).

use super::opening::{
    MAX_OPENING_PLIES, MAX_OPENINGS, Opening, check_playable, for_each_opening,
    for_each_playable_opening,
};
use crate::agents::player_choices;
use crate::core::{MoveList, Notation, Ply, Status, derive_seed, rng_from_seed, sha256_hex};
use rand::RngExt;
use serde::{Deserialize, Serialize};

/// How many times a random opening is drawn again when its plies end the
/// game, before the run gives up.
const RANDOM_OPENING_ATTEMPTS: u64 = 100;

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
    /// How many openings of the game's built-in set were left out because
    /// they cannot be played under the run's rules ([`OpeningSet::built_in`]);
    /// 0 for any other set.
    left_out: usize,
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
        let mut stored = serializer.serialize_struct("OpeningSet", 4)?;
        stored.serialize_field("order", &self.order)?;
        stored.serialize_field("count", &self.count)?;
        stored.serialize_field("sha256", &self.sha256)?;
        if self.left_out > 0 {
            stored.serialize_field("left_out", &self.left_out)?;
        } else {
            stored.skip_field("left_out")?;
        }
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
    #[serde(default)]
    left_out: usize,
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
                if stored.left_out > MAX_OPENINGS {
                    return Err(format!(
                        "an opening set that left out {} openings; a set holds at most {MAX_OPENINGS}",
                        stored.left_out
                    ));
                }
                Ok(OpeningSet {
                    order: stored.order,
                    count,
                    sha256: sha256.to_ascii_lowercase(),
                    lines: Vec::new(),
                    checked_under: None,
                    left_out: stored.left_out,
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

    /// Reads the set in the text of an openings file ([`parse_openings`](crate::arena::parse_openings))
    /// and takes it in `order` (shuffled from `seed` when random), keeping
    /// each opening as its line: a set at the limits is 64 MiB of text
    /// rather than gigabytes of parsed plies.
    ///
    /// # Errors
    /// As [`parse_openings`](crate::arena::parse_openings).
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

    /// The game's built-in opening set under the rules of `start`
    /// ([`Notation::openings_for`]), if it has one, without the openings that cannot be played under the
    /// rules of `start` (the set is made under the default rules, and
    /// under others, such as a shorter round limit, some of its plies may
    /// end the game or not be legal), taken in `order` as
    /// [`OpeningSet::read`] takes it; with the number of openings left out.
    ///
    /// # Errors
    /// If no opening of the set can be played under these rules.
    pub fn built_in<G: Notation>(
        start: &G,
        order: OpeningOrder,
        seed: u64,
    ) -> Result<Option<(OpeningSet, usize)>, String> {
        let Some(text) = G::openings_for(start.rules()) else {
            return Ok(None);
        };
        let mut lines = Vec::new();
        let dropped = for_each_playable_opening(text, start, |opening| lines.push(opening.line()))
            .map_err(|error| format!("the built-in openings of {}: {error}", G::NAME))?;
        let mut set = OpeningSet::in_play_order(shuffled(lines, order, seed), order);
        set.checked_under = Some(start.rules().to_string());
        set.left_out = dropped;
        Ok(Some((set, dropped)))
    }

    /// The set of `lines`, already in play order.
    fn in_play_order(lines: Vec<String>, order: OpeningOrder) -> OpeningSet {
        let mut set = OpeningSet {
            order,
            count: lines.len(),
            sha256: String::new(),
            lines,
            checked_under: None,
            left_out: 0,
        };
        set.sha256 = sha256_hex(set.file_text().as_bytes());
        set
    }

    /// The order in which pairs take the set's openings.
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

/// Where the games of a run start.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Openings {
    /// The game's built-in opening set ([`Notation::default_openings`]) in
    /// its order, or the game's start for a game without one: what the
    /// command line plays unless told otherwise, and so the default here
    /// too (deterministic agents that always start from the game's start
    /// play the same few games again and again). A run reads the set when
    /// it begins ([`Openings::resolve`]) and records it as a
    /// [`Openings::Set`], as the command line does.
    #[default]
    BuiltIn,
    /// Every game from the game's start.
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

    /// Every game from the game's start: what a configuration without
    /// openings (as older builds wrote it) means.
    pub fn start() -> Openings {
        Openings::Start
    }

    /// These openings for the game of `start`, with [`Openings::BuiltIn`]
    /// read: the game's built-in set in its order, without the openings
    /// the rules of `start` do not allow ([`OpeningSet::built_in`]), or
    /// [`Openings::Start`] for a game without one. Any other openings are
    /// returned as they are.
    ///
    /// # Errors
    /// If the built-in set does not read under the rules of `start`.
    pub fn resolve<G: Notation>(&self, start: &G) -> Result<Openings, String> {
        if *self != Openings::BuiltIn {
            return Ok(self.clone());
        }
        // A sequential set is not shuffled: the seed plays no part.
        match OpeningSet::built_in(start, OpeningOrder::Sequential, 0)? {
            Some((set, _)) => Ok(Openings::Set(set)),
            None => Ok(Openings::Start),
        }
    }

    /// Checks that every opening can be played from `start`.
    ///
    /// # Errors
    /// The first opening that cannot, by number, an empty set, or a count
    /// of random plies outside 1 to [`MAX_OPENING_PLIES`].
    pub fn validate<G: Notation>(&self, start: &G) -> Result<(), String> {
        match self {
            Openings::BuiltIn => self.resolve(start).map(drop),
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
            // Read at each call: a run reads it once, when it begins.
            Openings::BuiltIn => return self.resolve(start)?.opening(start, seed, round),
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
    /// own or, for [`Openings::BuiltIn`], until the set is read.
    pub fn cycle(&self) -> Option<usize> {
        match self {
            Openings::BuiltIn => None,
            Openings::Start | Openings::Position(_) => Some(1),
            Openings::Set(set) => Some(set.len()),
            Openings::RandomPlies(_) => None,
        }
    }

    /// One line for reports, e.g. `a set of 100 openings, sequential`.
    pub fn describe(&self) -> String {
        match self {
            Openings::BuiltIn => "the game's built-in opening set, if it has one".into(),
            Openings::Start => "every game from the game's start".into(),
            Openings::Position(text) => format!("every game from the position {text}"),
            Openings::Set(set) => format!(
                "a set of {} openings{} in {} order, one per colour-swapped pair",
                set.len(),
                match set.left_out {
                    0 => String::new(),
                    left_out => format!(
                        " ({left_out} of the game's built-in set left out: they cannot be played under the run's rules)"
                    ),
                },
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
