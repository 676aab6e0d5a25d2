//! The whole game solved by retrograde analysis.
//!
//! After round 1, a state at the start of a round is the five characters'
//! points and the pairs in front of the two screens (both set): 360,360
//! placements times 100 pairs of screens. Its value with `L` rounds left is
//! the value of a 3x3 matrix game (each player picks one of the three pairs
//! its screen allows) whose entries are the values of the movement phase,
//! which in turn end on states with `L - 1` rounds left. Starting from zero
//! rounds left (an unfinished game is a draw), each layer is computed from
//! the one before, over every state at once:
//!
//! 1. for each of the 100 joint choices, the movement phase over every
//!    placement by dynamic programming, one character at a time in reverse
//!    sequence order (each a maximum or minimum over its end points, or the
//!    win it reaches);
//! 2. for each state, the value of its 3x3 game ([`value_3x3`]).
//!
//! A layer's values are kept as `f32` (seven significant digits), which
//! halves the memory of the table; every sum and matrix game is worked out
//! in `f64`. States inside a round, and round 1 (whose screens may be
//! empty), are solved from the table by [`SimultaneousSolver`] over the
//! rest of their round.

use crate::core::{Game, Notation, Status, rng_from_seed};
use crate::core::{ParseError, check_memory};
use crate::games::nibelungen::{
    Character, Nibelungen, NibelungenMove, NibelungenRules, POINTS, Pair, Side, WinCheck, bit,
    condition_of, point_name, reachable,
};
use crate::search::{SimultaneousSolveError, SimultaneousSolver, StageSolution, value_3x3};
use rand::RngExt;
use rayon::prelude::*;
use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, Write};
use std::path::Path;

/// The first line of a saved table.
const FORMAT: &str = "norn nibelungen retrograde table 1";

/// The placements of the five characters on distinct points.
pub const PLACEMENTS: usize = 15 * 14 * 13 * 12 * 11;
/// The pairs of player pieces.
const PAIRS: usize = 10;
/// The pairs in front of the two screens, Tod's first.
const SCREENS: usize = PAIRS * PAIRS;
/// The states of one layer: every placement with every pair of screens.
pub const LAYER_STATES: usize = SCREENS * PLACEMENTS;
/// The states of a loaded table whose value is solved again, in each of
/// its last two layers: a table damaged or made up by hand shows within a
/// few, and each takes about a millisecond.
const SAMPLED_STATES: usize = 16;
/// Base-15 keys of five points: `sum(point_i * 15^i)`.
const KEYS: usize = 15usize.pow(5);
const POWERS: [u32; 5] = [1, 15, 225, 3375, 50625];

/// What a retrograde solve reports after each layer.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerReport {
    /// The rounds left in the states of the layer just solved.
    pub rounds_left: u32,
    /// The largest change of a state's value from the layer before.
    pub largest_change: f64,
    /// The shares of round-start states (those not already won) from which
    /// Tod forces a win, NO forces a win, and neither does.
    pub forced: [f64; 3],
}

impl LayerReport {
    /// One line for a progress log.
    pub fn line(&self) -> String {
        let [tod, no, neither] = self.forced.map(|share| 100.0 * share);
        format!(
            "{} rounds left: tod forces a win from {tod:.2}% of states, no from {no:.2}%, neither from {neither:.2}%; largest change {:.6}",
            self.rounds_left, self.largest_change
        )
    }
}

/// Why the retrograde table cannot answer.
#[derive(Clone, Debug, PartialEq)]
pub enum RetrogradeError {
    /// The table was computed under other rules.
    OtherRules,
    /// The state has more rounds left than the table has layers.
    TooFewLayers {
        /// The rounds left of the layer the position needs.
        needed: u32,
        /// The rounds left of the table's first layer.
        first: u32,
        /// The rounds left of its last layer.
        last: u32,
    },
    /// Solving the rest of a round failed.
    Solve(SimultaneousSolveError),
}

impl fmt::Display for RetrogradeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetrogradeError::OtherRules => {
                f.write_str("the retrograde table was computed under other rules")
            }
            RetrogradeError::TooFewLayers {
                needed,
                first,
                last,
            } => write!(
                f,
                "the position needs the values with {needed} rounds left, and the table holds {first} to {last}"
            ),
            RetrogradeError::Solve(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for RetrogradeError {}

/// Placements as compact indices, and what each placement decides.
struct Indexing {
    /// The index of each base-15 key of five distinct points
    /// (`u32::MAX` where two points repeat).
    index_of_key: Vec<u32>,
    /// The points of each placement, in sequence order.
    points: Vec<[u8; 5]>,
    /// The winner on each placement: +1 Tod, -1 NO, 0 nobody.
    winner: Vec<i8>,
}

impl Indexing {
    fn new() -> Indexing {
        let mut index_of_key = vec![u32::MAX; KEYS];
        let mut points = Vec::with_capacity(PLACEMENTS);
        for (key, slot) in index_of_key.iter_mut().enumerate() {
            let placement: [u8; 5] = std::array::from_fn(|i| (key / POWERS[i] as usize % 15) as u8);
            let occupied = placement.iter().fold(0u16, |set, &point| set | bit(point));
            if occupied.count_ones() == 5 {
                *slot = points.len() as u32;
                points.push(placement);
            }
        }
        let winner = points
            .iter()
            .map(|placement| {
                condition_of(placement).map_or(0, |reason| match reason.winner() {
                    Some(Side::Tod) => 1,
                    Some(Side::No) => -1,
                    None => 0,
                })
            })
            .collect();
        Indexing {
            index_of_key,
            points,
            winner,
        }
    }

    fn key(&self, placement: &[u8; 5]) -> u32 {
        (0..5).map(|i| u32::from(placement[i]) * POWERS[i]).sum()
    }

    fn index(&self, placement: &[u8; 5]) -> usize {
        self.index_of_key[self.key(placement) as usize] as usize
    }
}

/// The ten pairs in the order of their text, and each pair's index.
fn pairs() -> [Pair; PAIRS] {
    let mut all = [Pair::SIEGFRIED_BRUNHILD; PAIRS];
    for (slot, pair) in all.iter_mut().zip(Pair::all()) {
        *slot = pair;
    }
    all
}

fn pair_index(pair: Pair) -> usize {
    pairs()
        .iter()
        .position(|&other| other == pair)
        .expect("every pair is listed")
}

/// What the header of a saved table says.
#[derive(Clone, Copy)]
struct TableHeader {
    rules: NibelungenRules,
    first_rounds_left: u32,
    count: u32,
    converged: bool,
}

impl TableHeader {
    /// The bytes of the table's layers.
    fn bytes(&self) -> u64 {
        u64::from(self.count).saturating_mul(RetrogradeTable::LAYER_BYTES)
    }
}

/// The values of every state at the start of a round, for each number of
/// rounds left, under one set of rules.
pub struct RetrogradeTable {
    rules: NibelungenRules,
    indexing: Indexing,
    /// The rounds left of `layers[0]`.
    first_rounds_left: u32,
    /// `layers[l]` holds the values to Tod with `first_rounds_left + l`
    /// rounds left, state `screens * PLACEMENTS + placement` (screens =
    /// Tod's pair index * 10 + NO's).
    layers: Vec<Vec<f32>>,
    /// Whether the last layer equals the one before.
    converged: bool,
}

impl RetrogradeTable {
    /// The most layers a solve computes: enough for any round limit a
    /// person would set, and for the game without one to settle.
    pub const MAX_LAYERS: u32 = 10_000;

    /// The bytes one layer takes.
    pub const LAYER_BYTES: u64 = (LAYER_STATES * std::mem::size_of::<f32>()) as u64;

    /// Computes layers for 1 to `rounds` rounds left under `rules` (the
    /// round limit of `rules` is ignored: the layers count the rounds
    /// left), calling `on_layer` with a [`LayerReport`] after each one. Stops early once a layer equals the one
    /// before (every later one would too). Keeps every layer with
    /// `keep_all` (what play needs), and otherwise only the last one (what
    /// the value of a position with `rounds + 1` rounds left needs).
    ///
    /// # Errors
    /// When the layers kept would not fit in the memory the machine can
    /// give.
    pub fn solve(
        rules: NibelungenRules,
        rounds: u32,
        keep_all: bool,
        on_layer: &(dyn Fn(&LayerReport) + Sync),
    ) -> Result<RetrogradeTable, String> {
        check_memory("the retrograde tables", Self::solve_bytes(rounds, keep_all))?;
        let mut table = RetrogradeTable {
            rules,
            indexing: Indexing::new(),
            first_rounds_left: 1,
            layers: Vec::new(),
            converged: false,
        };
        // The layer before the first: no round left, every game a draw.
        let mut zeros = vec![0.0f32; LAYER_STATES];
        for rounds_left in 1..=rounds {
            let previous = table.layers.last().unwrap_or(&zeros);
            let layer = table.next_layer(previous);
            let change = layer
                .par_iter()
                .zip(previous.par_iter())
                .map(|(new, old)| f64::from((new - old).abs()))
                .reduce(|| 0.0, f64::max);
            on_layer(&LayerReport {
                rounds_left,
                largest_change: change,
                forced: table.shares(&layer),
            });
            zeros = Vec::new();
            table.converged = change == 0.0;
            if !keep_all {
                table.layers.clear();
                table.first_rounds_left = rounds_left;
            }
            table.layers.push(layer);
            if table.converged {
                break;
            }
        }
        Ok(table)
    }

    /// The memory a [`RetrogradeTable::solve`] of `rounds` rounds takes:
    /// the layers kept (every one with `keep_all`, else the last), the
    /// layer being built, the one before and the movement values.
    pub fn solve_bytes(rounds: u32, keep_all: bool) -> u64 {
        let kept = if keep_all {
            u64::from(rounds.max(1))
        } else {
            1
        };
        (kept + 4).saturating_mul(Self::LAYER_BYTES)
    }

    /// The memory the table saved at `path` takes once loaded, read from
    /// its header (whose size is checked against the file's).
    ///
    /// # Errors
    /// As [`RetrogradeTable::load`], for the header.
    pub fn file_bytes(path: &Path) -> Result<u64, String> {
        Self::open_file(path).map(|(_, header)| header.bytes())
    }

    /// The most rounds left the table answers for (every number beyond
    /// too, once it has converged).
    pub fn last_rounds_left(&self) -> u32 {
        self.first_rounds_left + self.layers.len() as u32 - 1
    }

    /// Whether the last layer equals the one before it, so that it holds
    /// for any number of rounds left beyond (the game without a round
    /// limit included).
    pub fn converged(&self) -> bool {
        self.converged
    }

    /// The memory the layers take.
    pub fn bytes(&self) -> u64 {
        self.layers.len() as u64 * Self::LAYER_BYTES
    }

    /// The share of round-start states (without a winning condition on the
    /// board) that Tod wins, NO wins, and that are drawn or mixed, with
    /// `rounds_left` rounds left.
    pub fn outcome_shares(&self, rounds_left: u32) -> Option<[f64; 3]> {
        self.layer(rounds_left).map(|layer| self.shares(layer))
    }

    /// [`RetrogradeTable::outcome_shares`] of one layer.
    fn shares(&self, layer: &[f32]) -> [f64; 3] {
        let counts = layer
            .par_chunks(PLACEMENTS)
            .map(|values| {
                let mut counts = [0u64; 3];
                for (placement, &value) in values.iter().enumerate() {
                    if self.indexing.winner[placement] != 0 {
                        continue;
                    }
                    let slot = if value >= 1.0 {
                        0
                    } else if value <= -1.0 {
                        1
                    } else {
                        2
                    };
                    counts[slot] += 1;
                }
                counts
            })
            .reduce(|| [0; 3], |a, b| [a[0] + b[0], a[1] + b[1], a[2] + b[2]]);
        let total = counts.iter().sum::<u64>() as f64;
        counts.map(|count| count as f64 / total)
    }

    fn layer(&self, rounds_left: u32) -> Option<&[f32]> {
        let last = self.last_rounds_left();
        let rounds_left = if self.converged {
            rounds_left.min(last)
        } else {
            rounds_left
        };
        (self.first_rounds_left..=last)
            .contains(&rounds_left)
            .then(|| self.layers[(rounds_left - self.first_rounds_left) as usize].as_slice())
    }

    /// Writes the table to `path`: a header of three text lines (format,
    /// rules, the first rounds left, the layer count and whether it
    /// converged) and then every value as a little-endian `f32`.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let fail = |error: std::io::Error| format!("cannot write {}: {error}", path.display());
        let mut file = BufWriter::new(File::create(path).map_err(fail)?);
        write!(
            file,
            "{FORMAT}\n{}\n{} {} {}\n",
            self.rules,
            self.first_rounds_left,
            self.layers.len(),
            u8::from(self.converged)
        )
        .map_err(fail)?;
        for layer in &self.layers {
            for value in layer {
                file.write_all(&value.to_le_bytes()).map_err(fail)?;
            }
        }
        file.flush().map_err(fail)
    }

    /// Reads a table written by [`RetrogradeTable::save`], checking its
    /// header and size.
    ///
    /// # Errors
    /// A file that cannot be read, is not such a table, or is cut short.
    pub fn load(path: &Path) -> Result<RetrogradeTable, String> {
        let what = path.display();
        let fail = |error: std::io::Error| format!("cannot read {what}: {error}");
        let bad = |problem: &str| format!("{what} is not a retrograde table of norn: {problem}");
        let (mut file, header) = Self::open_file(path)?;
        let TableHeader {
            rules,
            first_rounds_left,
            count,
            converged,
        } = header;
        let expected = header.bytes();
        check_memory("the retrograde table", expected)?;
        // The system may give less than the check allows (other processes,
        // limits it does not see): a refusal is an error, not an abort.
        let refused = |_| {
            format!(
                "the system refused the {} MB of the retrograde table {what}",
                expected >> 20
            )
        };
        let mut layers = Vec::new();
        layers.try_reserve_exact(count as usize).map_err(refused)?;
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(Self::LAYER_BYTES as usize)
            .map_err(refused)?;
        bytes.resize(Self::LAYER_BYTES as usize, 0u8);
        for _ in 0..count {
            file.read_exact(&mut bytes).map_err(fail)?;
            let mut layer: Vec<f32> = Vec::new();
            layer.try_reserve_exact(LAYER_STATES).map_err(refused)?;
            layer.extend(
                bytes
                    .chunks_exact(4)
                    .map(|chunk| f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]])),
            );
            if layer.iter().any(|value| !(-1.0..=1.0).contains(value)) {
                return Err(bad("a value outside -1..1"));
            }
            layers.push(layer);
        }
        let table = RetrogradeTable {
            rules,
            indexing: Indexing::new(),
            first_rounds_left,
            layers,
            converged,
        };
        table.check_values().map_err(|problem| bad(&problem))?;
        Ok(table)
    }

    /// Checks a loaded table against the rules: every board that meets a
    /// winning condition holds its winner's value in every layer (a file
    /// of zeros under a valid header does not), and sampled states at a
    /// round's start hold the value that solving their round again from
    /// the layer before gives (from no rounds left, every game a draw,
    /// for the table's first layer when it starts at one round left).
    fn check_values(&self) -> Result<(), String> {
        for (offset, layer) in self.layers.iter().enumerate() {
            let rounds_left = self.first_rounds_left + offset as u32;
            let wrong = layer.par_chunks(PLACEMENTS).find_map_any(|values| {
                values
                    .iter()
                    .zip(&self.indexing.winner)
                    .find(|&(&value, &winner)| winner != 0 && value != f32::from(winner))
                    .map(|(&value, &winner)| (value, winner))
            });
            if let Some((value, winner)) = wrong {
                return Err(format!(
                    "a won board holds the value {value} with {rounds_left} rounds left, not {winner}"
                ));
            }
        }
        let checked_from = if self.first_rounds_left == 1 {
            1
        } else {
            self.first_rounds_left + 1
        };
        let mut rng = rng_from_seed(u64::from(self.first_rounds_left));
        // Round limits aside (the layers count the rounds left), the
        // table's rules: a state of any round number can be set up.
        let rules = NibelungenRules {
            round_limit: None,
            ..self.rules
        };
        let pairs = pairs();
        for rounds_left in (checked_from..=self.last_rounds_left()).rev().take(2) {
            let layer = self.layer(rounds_left).expect("within the table");
            let mut sampled = 0;
            while sampled < SAMPLED_STATES {
                let (screens, placement) = (
                    rng.random_range(0..SCREENS),
                    rng.random_range(0..PLACEMENTS),
                );
                if self.indexing.winner[placement] != 0 {
                    continue;
                }
                let points: Vec<String> = self.indexing.points[placement]
                    .iter()
                    .map(|&point| point_name(point))
                    .collect();
                let text = format!(
                    "{}:{}:{}@2",
                    points.join(","),
                    pairs[screens / PAIRS],
                    pairs[screens % PAIRS]
                );
                let state = Nibelungen::from_position_text(&text, rules)
                    .map_err(|error| format!("the sampled state {text}: {error}"))?;
                let solved = self
                    .solve_state(&state, rounds_left)
                    .map_err(|error| error.to_string())?
                    .value;
                let stored = f64::from(layer[screens * PLACEMENTS + placement]);
                // The layers keep seven significant digits.
                if (solved - stored).abs() > 1e-5 {
                    return Err(format!(
                        "{text} holds the value {stored} with {rounds_left} rounds left, \
                         and its round solved again gives {solved}"
                    ));
                }
                sampled += 1;
            }
        }
        Ok(())
    }

    /// Opens a table written by [`RetrogradeTable::save`] and reads its
    /// header, checking it and the file's size; the file is left at the
    /// first layer.
    fn open_file(path: &Path) -> Result<(BufReader<File>, TableHeader), String> {
        let what = path.display();
        let fail = |error: std::io::Error| format!("cannot read {what}: {error}");
        let mut file = BufReader::new(File::open(path).map_err(fail)?);
        let mut header = [String::new(), String::new(), String::new()];
        for line in &mut header {
            // A header line is short; a longer one is not a table.
            (&mut file).take(256).read_line(line).map_err(fail)?;
        }
        let bad = |problem: &str| format!("{what} is not a retrograde table of norn: {problem}");
        if header[0].trim_end() != FORMAT {
            return Err(bad("wrong first line"));
        }
        let rules: NibelungenRules = header[1]
            .trim_end()
            .parse()
            .map_err(|error: ParseError| bad(&error.to_string()))?;
        let numbers: Vec<u32> = header[2]
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| bad("the layer line is not three numbers"))?;
        let &[first_rounds_left, count, converged] = numbers.as_slice() else {
            return Err(bad("the layer line is not three numbers"));
        };
        if first_rounds_left == 0 || count == 0 || converged > 1 {
            return Err(bad("no layers"));
        }
        let header = TableHeader {
            rules,
            first_rounds_left,
            count,
            converged: converged == 1,
        };
        let size = file.get_ref().metadata().map_err(fail)?.len();
        let header_bytes = file.stream_position().map_err(fail)?;
        match (size - header_bytes).cmp(&header.bytes()) {
            std::cmp::Ordering::Less => return Err(bad("the file is cut short")),
            std::cmp::Ordering::Greater => return Err(bad("bytes after the last layer")),
            std::cmp::Ordering::Equal => {}
        }
        Ok((file, header))
    }

    /// The rules the table was computed under.
    pub fn rules(&self) -> &NibelungenRules {
        &self.rules
    }

    /// The layer after `previous`: every state's value with one more round
    /// left.
    fn next_layer(&self, previous: &[f32]) -> Vec<f32> {
        let movement: Vec<Vec<f64>> = (0..SCREENS)
            .into_par_iter()
            .map(|screens| {
                self.movement_values(
                    screens,
                    &previous[screens * PLACEMENTS..(screens + 1) * PLACEMENTS],
                )
            })
            .collect();
        let pairs = pairs();
        let allowed = |screen: usize| -> [usize; 3] {
            let mut choices = [0; 3];
            let mut count = 0;
            for (index, pair) in pairs.iter().enumerate() {
                if pair.bits() & pairs[screen].bits() == 0 {
                    choices[count] = index;
                    count += 1;
                }
            }
            choices
        };
        let mut layer = vec![0.0f32; LAYER_STATES];
        layer
            .par_chunks_mut(PLACEMENTS)
            .enumerate()
            .for_each(|(screens, values)| {
                let tod_choices = allowed(screens / PAIRS);
                let no_choices = allowed(screens % PAIRS);
                for (placement, value) in values.iter_mut().enumerate() {
                    let winner = self.indexing.winner[placement];
                    *value = if winner != 0 {
                        f32::from(winner)
                    } else {
                        let matrix = tod_choices
                            .map(|tod| no_choices.map(|no| movement[tod * PAIRS + no][placement]));
                        value_3x3(&matrix) as f32
                    };
                }
            });
        layer
    }

    /// The value to Tod of the movement phase after the joint choice
    /// `screens` (Tod's pair index * 10 + NO's), from every placement,
    /// given `after`: the values of the next round's start, whose screens
    /// hold this choice.
    fn movement_values(&self, screens: usize, after: &[f32]) -> Vec<f64> {
        let pairs = pairs();
        let (tod, no) = (pairs[screens / PAIRS], pairs[screens % PAIRS]);
        let common = tod.bits() & no.bits();
        let movers = (tod.bits() | no.bits()) & !common;
        let steps = if common == 0 { 1 } else { 2 };
        let indexing = &self.indexing;
        let check_every_move = self.rules.win_check == WinCheck::EveryMove;
        // The value once every character has moved.
        let mut values: Vec<f64> = (0..PLACEMENTS)
            .map(|placement| {
                let winner = indexing.winner[placement];
                if !check_every_move && winner != 0 {
                    f64::from(winner)
                } else {
                    f64::from(after[placement])
                }
            })
            .collect();
        for character in Character::ALL.into_iter().rev() {
            if movers & character.bit() == 0 {
                continue;
            }
            let maximise = tod.contains(character);
            let mover = character.index();
            values = (0..PLACEMENTS)
                .map(|placement| {
                    let winner = indexing.winner[placement];
                    if check_every_move && winner != 0 {
                        // The game ended on this board before the mover's
                        // turn: the value is never read.
                        return f64::from(winner);
                    }
                    let points = indexing.points[placement];
                    let occupied = points.iter().fold(0, |set, &point| set | bit(point));
                    let ends = reachable(points[mover], steps, occupied, &self.rules);
                    // The key of the placement without the mover.
                    let others = indexing.key(&points) - u32::from(points[mover]) * POWERS[mover];
                    let mut best = if maximise {
                        f64::NEG_INFINITY
                    } else {
                        f64::INFINITY
                    };
                    for end in 0..POINTS as u8 {
                        if ends & bit(end) == 0 {
                            continue;
                        }
                        let next = indexing.index_of_key
                            [(others + u32::from(end) * POWERS[mover]) as usize]
                            as usize;
                        let winner = indexing.winner[next];
                        let value = if check_every_move && winner != 0 {
                            f64::from(winner)
                        } else {
                            values[next]
                        };
                        best = if maximise {
                            best.max(value)
                        } else {
                            best.min(value)
                        };
                    }
                    best
                })
                .collect();
        }
        values
    }

    /// The number of rounds `state` has left under its round limit, with
    /// at most `rounds` of them played when given.
    pub fn rounds_left(state: &Nibelungen, rounds: Option<u32>) -> u32 {
        let by_limit = state.rules().round_limit.map_or(u32::MAX, |limit| {
            (limit.get() + 1).saturating_sub(state.round)
        });
        rounds.map_or(by_limit, |rounds| rounds.min(by_limit))
    }

    /// The value to Tod of a state at the start of a round with both
    /// screens set, `rounds_left` rounds left (the current one included).
    fn round_start_value(&self, state: &Nibelungen, rounds_left: u32) -> f64 {
        if rounds_left == 0 {
            return 0.0;
        }
        let (Some(tod), Some(no)) = (state.screen(Side::Tod), state.screen(Side::No)) else {
            unreachable!("a round after a reveal starts with both screens set");
        };
        let layer = self
            .layer(rounds_left)
            .expect("the rounds left were checked against the table");
        let screens = pair_index(tod) * PAIRS + pair_index(no);
        let placement = self
            .indexing
            .index(&Character::ALL.map(|character| state.point_of(character)));
        f64::from(layer[screens * PLACEMENTS + placement])
    }

    /// Solves the rest of `state`'s round exactly, the next round's start
    /// valued from the table: the value to Tod and both players' optimal
    /// strategies, with `rounds_left` rounds left (the current one
    /// included; [`RetrogradeTable::rounds_left`] gives the game's own).
    ///
    /// # Errors
    /// A table computed under other rules, or with too few layers for the
    /// rounds left (unless it converged).
    pub fn solve_state(
        &self,
        state: &Nibelungen,
        rounds_left: u32,
    ) -> Result<StageSolution<NibelungenMove>, RetrogradeError> {
        if self.rules.stay != state.rules().stay
            || self.rules.pass_through != state.rules().pass_through
            || self.rules.win_check != state.rules().win_check
        {
            return Err(RetrogradeError::OtherRules);
        }
        let needed = rounds_left.saturating_sub(1);
        if needed > 0 && self.layer(needed).is_none() {
            return Err(RetrogradeError::TooFewLayers {
                needed,
                first: self.first_rounds_left,
                last: self.last_rounds_left(),
            });
        }
        let round = state.round();
        let cut = |next: &Nibelungen| {
            let played = next.round() - round;
            self.round_start_value(next, rounds_left - played)
        };
        // A round's start is solved as a matrix game over the rest of the
        // round; inside a round, only the moves left are searched. Either
        // way the next round's start is cut and valued from the table.
        let stages = u32::from(state.status() == Status::Simultaneous && rounds_left > 0);
        // The rest of one round holds at most a few thousand states.
        let mut solver = SimultaneousSolver::new(stages, cut, 1 << 20);
        solver.solve(state).map_err(RetrogradeError::Solve)
    }
}
