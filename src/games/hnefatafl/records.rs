//! Replaying game records: every recorded move must be legal and make exactly
//! the recorded captures.

use super::board::{Side, square_name};
use super::moves::HnefataflMove;
use super::notation::RecordedMove;
use super::options::HnefataflRules;
use super::state::Hnefatafl;
use crate::bitboard::Bitboard128;
use crate::core::{Game, Notation, ParseError};
use serde::Serialize;
use std::collections::BTreeMap;

/// One game as recorded on aagenielsen.dk: a CSV line
/// `moves,attacker_captures,defender_captures,result` with space-separated
/// moves. A `timeout` token ends the moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The moves in order as the record writes them (`d1-d3`, captures marked
    /// `xb7`), up to any `timeout`.
    pub moves: Vec<String>,
    /// The record's count of the pieces the attackers took.
    pub attacker_captures: u32,
    /// The record's count of the pieces the defenders took.
    pub defender_captures: u32,
    /// `Black` (attackers won), `White` (defenders won), `Draw` or `Ongoing`.
    pub result: String,
}

impl GameRecord {
    /// Reads one CSV line.
    pub fn parse_line(line: &str) -> Result<GameRecord, ParseError> {
        let bad = |problem: &str| ParseError::new("game record", line, problem);
        let fields: Vec<&str> = line.trim().split(',').collect();
        let [moves, attacker_captures, defender_captures, result] = fields[..] else {
            return Err(bad(
                "a record has four comma-separated fields: moves, attacker captures, defender captures, result",
            ));
        };
        let count = |text: &str| {
            text.trim()
                .parse::<u32>()
                .map_err(|_| bad("capture counts must be whole numbers"))
        };
        Ok(GameRecord {
            moves: moves
                .split_whitespace()
                .take_while(|&token| token != "timeout")
                .map(str::to_string)
                .collect(),
            attacker_captures: count(attacker_captures)?,
            defender_captures: count(defender_captures)?,
            result: result.trim().to_string(),
        })
    }
}

impl GameRecord {
    /// The record's moves from the start under `rules`, as far as they
    /// replay: up to the first move that is illegal or captures other
    /// pieces than it marks, or until the engine ends the game; with what
    /// stopped them, if anything did.
    pub fn legal_moves(&self, rules: HnefataflRules) -> (Vec<HnefataflMove>, Option<String>) {
        let mut game = Hnefatafl::start(rules);
        let mut moves = Vec::with_capacity(self.moves.len());
        for (index, text) in self.moves.iter().enumerate() {
            if let Some(reason) = game.ending() {
                let stop = format!(
                    "the game ends by {} after ply {index}: {} recorded moves left out",
                    reason.name(),
                    self.moves.len() - index
                );
                return (moves, Some(stop));
            }
            match game.parse_move(text) {
                Ok(mv) => {
                    game.play(mv);
                    moves.push(mv);
                }
                Err(error) => {
                    let stop = format!("ply {} does not replay: {}", index + 1, error);
                    return (moves, Some(stop));
                }
            }
        }
        (moves, None)
    }
}

/// A recorded move that the engine refused.
#[derive(Clone, Debug, Serialize)]
pub struct IllegalRecordedMove {
    /// 1-based ply of the move.
    pub ply: usize,
    /// The move as the record writes it.
    pub text: String,
    /// Why the move does not parse or is not legal.
    pub reason: String,
}

/// A move whose recorded captures differ from those the engine made.
#[derive(Clone, Debug, Serialize)]
pub struct CaptureMismatch {
    /// 1-based ply of the move.
    pub ply: usize,
    /// The move as the record writes it.
    pub text: String,
    /// The captured squares the record marks, by name.
    pub recorded: Vec<String>,
    /// The squares the engine captured, by name.
    pub engine: Vec<String>,
}

/// The engine ended the game while the record still had moves.
#[derive(Clone, Debug, Serialize)]
pub struct EarlyEnd {
    /// The ply after which the engine ended the game.
    pub ply: usize,
    /// The engine's end reason, by name.
    pub reason: &'static str,
    /// The winning side's name, or `None` for a draw.
    pub winner: Option<String>,
    /// Recorded moves left unplayed.
    pub moves_left: usize,
}

/// The replay of one record.
#[derive(Clone, Debug, Serialize)]
pub struct RecordReplay {
    /// 1-based line number in the file.
    pub line: usize,
    /// The number of moves in the record.
    pub moves_recorded: usize,
    /// The number of moves played before the replay stopped (all of them when it
    /// did not).
    pub moves_replayed: usize,
    /// The first move the engine refused, which stopped the replay.
    pub illegal_move: Option<IllegalRecordedMove>,
    /// The moves whose captures differ from the record's marks, in order.
    pub capture_mismatches: Vec<CaptureMismatch>,
    /// Where the engine ended the game while the record still had moves.
    pub ended_early: Option<EarlyEnd>,
    /// The record's result column as written: `Black`, `White`, `Draw` or
    /// `Ongoing`.
    pub recorded_result: String,
    /// How the engine sees the final position: `ongoing`, or the end reason.
    pub final_status: String,
    /// Captures by the attackers and by the defenders: as the record's
    /// columns count them, and as its moves mark them (`x` squares, counted
    /// even when a move marks one square twice, as some records do; the
    /// engine's captures are checked against the distinct marks, move by
    /// move).
    pub recorded_captures: [u32; 2],
    /// The captures by the attackers and by the defenders as the moves mark them
    /// (see `recorded_captures`).
    pub marked_captures: [u32; 2],
    /// The whole record replayed, but its columns count other captures than
    /// its moves mark.
    pub capture_count_mismatch: bool,
    /// The engine ended the game on the last recorded move with another
    /// winner than the record's (a record of a game the engine finds still
    /// going may end in any result: a resignation, a timeout, a draw agreed).
    pub result_mismatch: bool,
}

impl RecordReplay {
    /// Whether the record agrees with the engine: legal moves, the same
    /// captures move by move and in the count columns, and the same winner.
    /// (A game the engine ends before the record does is reported apart:
    /// under other rules for repetitions the record can be right.)
    pub fn agrees(&self) -> bool {
        self.illegal_move.is_none()
            && self.capture_mismatches.is_empty()
            && !self.capture_count_mismatch
            && !self.result_mismatch
    }
}

impl RecordReplay {
    /// Replays `record` from the start position under `rules`, stopping at the
    /// first illegal move or when the engine ends the game.
    pub fn replay(line: usize, record: &GameRecord, rules: HnefataflRules) -> RecordReplay {
        let mut game = Hnefatafl::start(rules);
        let mut replay = RecordReplay {
            line,
            moves_recorded: record.moves.len(),
            moves_replayed: 0,
            illegal_move: None,
            capture_mismatches: Vec::new(),
            ended_early: None,
            recorded_result: record.result.clone(),
            final_status: String::new(),
            recorded_captures: [record.attacker_captures, record.defender_captures],
            marked_captures: [0, 0],
            capture_count_mismatch: false,
            result_mismatch: false,
        };
        for (index, text) in record.moves.iter().enumerate() {
            let ply = index + 1;
            if let Some(outcome) = game.status().outcome() {
                replay.ended_early = Some(EarlyEnd {
                    ply: index,
                    reason: outcome.reason,
                    winner: outcome
                        .winner()
                        .map(|player| Side::from_player(player).to_string()),
                    moves_left: record.moves.len() - index,
                });
                break;
            }
            let illegal = |reason: String| IllegalRecordedMove {
                ply,
                text: text.clone(),
                reason,
            };
            let recorded: RecordedMove = match text.parse() {
                Ok(recorded) => recorded,
                Err(error) => {
                    replay.illegal_move = Some(illegal(error.problem().to_string()));
                    break;
                }
            };
            let mv = recorded.mv();
            let (captured, _) = game.captures_of(mv);
            let mover = game.side_to_move();
            if let Err(error) = game.try_play(mv) {
                replay.illegal_move = Some(illegal(error.reason().to_string()));
                break;
            }
            replay.moves_replayed += 1;
            replay.marked_captures[mover.player()] += text.matches('x').count() as u32;
            if captured != recorded.captures {
                let names = |set: Bitboard128| set.squares().map(square_name).collect();
                replay.capture_mismatches.push(CaptureMismatch {
                    ply,
                    text: text.clone(),
                    recorded: names(recorded.captures),
                    engine: names(captured),
                });
            }
        }
        if replay.moves_replayed == record.moves.len() {
            replay.capture_count_mismatch = replay.marked_captures != replay.recorded_captures;
            if let Some(outcome) = game.status().outcome() {
                let recorded_winner = match record.result.as_str() {
                    "Black" => Some(Side::Attackers.player()),
                    "White" => Some(Side::Defenders.player()),
                    _ => None,
                };
                replay.result_mismatch = outcome.winner() != recorded_winner;
            }
        }
        replay.final_status = match game.ending() {
            Some(reason) => reason.name().to_string(),
            None => "ongoing".to_string(),
        };
        replay
    }
}

impl ReplaySummary {
    /// Whether every record agrees with the engine ([`RecordReplay::agrees`]).
    pub fn all_agree(&self) -> bool {
        self.per_game.iter().all(RecordReplay::agrees)
    }
}

/// Totals over a file of records, and the replay of each game.
#[derive(Clone, Debug, Serialize)]
pub struct ReplaySummary {
    /// The number of records replayed.
    pub games: usize,
    /// Moves recorded, over all records.
    pub moves: usize,
    /// Records stopped by an illegal move.
    pub illegal_moves: usize,
    /// Moves whose captures differ from the record's marks, over all records.
    pub capture_mismatches: usize,
    /// Records whose capture counts differ from the engine's.
    pub capture_count_mismatches: usize,
    /// Records whose result differs from the engine's.
    pub result_mismatches: usize,
    /// Records the engine ended before their last move.
    pub ended_early: usize,
    /// Early ends counted by reason.
    pub ended_early_by_reason: BTreeMap<&'static str, usize>,
    /// The replay of each record, in file order.
    pub per_game: Vec<RecordReplay>,
}

impl ReplaySummary {
    /// The summary as a table with one row per game and the totals.
    pub fn text(&self) -> String {
        let mut out = format!(
            "{:>5} {:>6} {:>8} {:>7} {:>10}  ended early\n",
            "line", "moves", "replayed", "illegal", "mismatches"
        );
        for game in &self.per_game {
            let early = match &game.ended_early {
                Some(early) => format!(
                    "after ply {} by {} ({} moves left)",
                    early.ply, early.reason, early.moves_left
                ),
                None => "-".to_string(),
            };
            out.push_str(&format!(
                "{:>5} {:>6} {:>8} {:>7} {:>10}  {early}\n",
                game.line,
                game.moves_recorded,
                game.moves_replayed,
                usize::from(game.illegal_move.is_some()),
                game.capture_mismatches.len(),
            ));
            if let Some(illegal) = &game.illegal_move {
                out.push_str(&format!(
                    "      illegal move {} at ply {}: {}\n",
                    illegal.text, illegal.ply, illegal.reason
                ));
            }
            for mismatch in &game.capture_mismatches {
                out.push_str(&format!(
                    "      {} at ply {}: record captures [{}], engine captures [{}]\n",
                    mismatch.text,
                    mismatch.ply,
                    mismatch.recorded.join(" "),
                    mismatch.engine.join(" ")
                ));
            }
            if game.capture_count_mismatch {
                out.push_str(&format!(
                    "      captures by attackers and defenders: counted {:?}, marked in the moves {:?}\n",
                    game.recorded_captures, game.marked_captures
                ));
            }
            if game.result_mismatch {
                out.push_str(&format!(
                    "      result: record {}, engine {}\n",
                    game.recorded_result, game.final_status
                ));
            }
        }
        out.push_str(&format!(
            "\n{} games, {} moves replayed, {} illegal moves, {} capture mismatches, {} capture counts unlike the moves, {} results unlike the engine's, {} games ended early\n",
            self.games,
            self.moves,
            self.illegal_moves,
            self.capture_mismatches,
            self.capture_count_mismatches,
            self.result_mismatches,
            self.ended_early
        ));
        for (reason, count) in &self.ended_early_by_reason {
            out.push_str(&format!("  ended early by {reason}: {count}\n"));
        }
        out
    }
}

/// The records of a CSV file's text, each with its line number (blank
/// lines are skipped).
///
/// # Errors
/// If a line is not a record; the error names the line.
pub fn read_records(csv: &str) -> Result<Vec<(usize, GameRecord)>, ParseError> {
    let mut records = Vec::new();
    for (index, line) in csv.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record = GameRecord::parse_line(line).map_err(|error| {
            ParseError::new(
                "game record",
                line,
                format!("line {}: {}", index + 1, error.problem()),
            )
        })?;
        records.push((index + 1, record));
    }
    Ok(records)
}

/// Replays every record of a CSV file's text (blank lines are skipped).
///
/// # Errors
/// If a line is not a record; the error names the line.
pub fn replay_records(csv: &str, rules: HnefataflRules) -> Result<ReplaySummary, ParseError> {
    let per_game: Vec<RecordReplay> = read_records(csv)?
        .iter()
        .map(|(line, record)| RecordReplay::replay(*line, record, rules))
        .collect();
    let mut ended_early_by_reason = BTreeMap::new();
    for early in per_game.iter().filter_map(|game| game.ended_early.as_ref()) {
        *ended_early_by_reason.entry(early.reason).or_insert(0) += 1;
    }
    Ok(ReplaySummary {
        games: per_game.len(),
        moves: per_game.iter().map(|game| game.moves_replayed).sum(),
        illegal_moves: per_game
            .iter()
            .filter(|game| game.illegal_move.is_some())
            .count(),
        capture_mismatches: per_game
            .iter()
            .map(|game| game.capture_mismatches.len())
            .sum(),
        capture_count_mismatches: per_game
            .iter()
            .filter(|game| game.capture_count_mismatch)
            .count(),
        result_mismatches: per_game.iter().filter(|game| game.result_mismatch).count(),
        ended_early: per_game
            .iter()
            .filter(|game| game.ended_early.is_some())
            .count(),
        ended_early_by_reason,
        per_game,
    })
}
