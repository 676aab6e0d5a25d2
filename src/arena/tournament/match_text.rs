//! What `norn match` prints: the verdict of the sequential test, its LLR
//! and pairs, the Elo, how the games ended (the game's own endings, time,
//! forfeits with their reasons, adjudications) and whether one side had the
//! better of the two agents.

use super::matches::MatchReport;
use super::pairs::PairScoring;
use super::report::{pair_counts_text, reasons_text, side_advantage_text};
use super::sprt::SprtDecision;
use crate::core::escape_control;

/// The most forfeits listed one by one with their reasons; games.jsonl
/// (with `--out`) keeps every one.
const FORFEITS_LISTED: usize = 5;

impl MatchReport {
    /// The match as `norn match` prints it: the verdict, the test's LLR
    /// and pairs, the Elo with its interval, the pairs that repeated, how
    /// the games ended (every forfeit up to five with its reason), and
    /// whether one side had the better of these agents.
    pub fn text(&self) -> String {
        let result = &self.result;
        // Names from agents' specs may hold control characters, which a
        // terminal would obey.
        let [tested, baseline] = self.names.each_ref().map(|name| escape_control(name));
        // Where the figures read pairs by their summed margin, the verdict
        // says so.
        let scoring = match result.pair_scoring {
            PairScoring::GameResults => String::new(),
            PairScoring::SummedMargin => format!("; {}", result.pair_scoring.describe()),
        };
        let verdict = match result.decision {
            SprtDecision::AcceptH1 => format!(
                "H1 accepted: {tested} is at least {:+} Elo stronger{scoring}",
                result.sprt.elo1
            ),
            SprtDecision::AcceptH0 => format!(
                "H0 accepted: {tested} gains at most {:+} Elo{scoring}",
                result.sprt.elo0
            ),
            SprtDecision::Continue if result.stopped_repeating => format!(
                "undecided: the last pairs only repeated earlier pairs' games ({}); \
                 give more openings (--openings, --random-plies)",
                self.openings
            ),
            SprtDecision::Continue => "undecided".to_string(),
        };
        let mut lines = vec![
            format!("{tested} vs {baseline}: {verdict}"),
            format!(
                "LLR {:.2} (bounds {:.2}, {:.2}) after {} games ({} pairs): +{} ={} -{}, {}",
                result.llr,
                result.llr_lower,
                result.llr_upper,
                result.games,
                result.pairs,
                self.wins,
                self.draws,
                self.losses,
                pair_counts_text(&result.pentanomial, result.pairs_by_margin.as_ref())
            ),
            format!(
                "Elo {:+.1} [{:+.1}, {:+.1}] (95%, each pair one sample; an infinite end is unbounded)",
                result.elo, result.elo_low, result.elo_high
            ),
        ];
        if result.repeated_pairs > 0 {
            lines.push(format!(
                "not counted: {} of the pairs repeated an earlier pair's games",
                result.repeated_pairs
            ));
        }
        if !self.overall.reasons.is_empty() {
            lines.push(format!(
                "game ends: {}",
                reasons_text(&self.overall.reasons)
            ));
        }
        let forfeits: Vec<String> = self
            .game_lines
            .iter()
            .filter_map(|line| {
                let forfeit = line.forfeit.as_ref()?;
                let name = self.names.get(*line.seats.get(forfeit.seat)?)?;
                Some(format!(
                    "game {}: {} forfeited: {}",
                    line.index,
                    escape_control(name),
                    escape_control(&forfeit.reason)
                ))
            })
            .collect();
        let listed = forfeits.len().min(FORFEITS_LISTED);
        lines.extend(forfeits[..listed].iter().cloned());
        if forfeits.len() > listed {
            lines.push(format!(
                "and {} more forfeits (games.jsonl of --out keeps every reason)",
                forfeits.len() - listed
            ));
        }
        let scored = result.pair_scoring == PairScoring::SummedMargin;
        lines.extend(side_advantage_text(&self.overall, scored));
        lines.join("\n") + "\n"
    }
}
