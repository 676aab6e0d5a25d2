//! Adjudication in tournaments and matches: which runs may adjudicate, and
//! the check that a logged game ended where the run's adjudication (read
//! from the game's own search records) ended it, and not before.

use super::config::TournamentConfig;
use super::log::GameLine;
use super::run::TournamentError;
use crate::arena::playing::{
    Adjudicator, DRAW_ADJUDICATION_REASON, FORFEIT_REASON, MAX_PLIES_REASON,
    RESIGN_ADJUDICATION_REASON, RESIGNATION_REASON, TIME_REASON, Verdict,
};
use crate::core::{Capabilities, Game};

/// Refuses an adjudication the run cannot honour: on a game scored by a
/// margin (no win, loss or draw stands for a margin), and without the
/// search records (`record_search`) that a resume or a replay checks the
/// adjudicated games against.
pub(super) fn check_adjudication<G: Game>(
    config: &TournamentConfig,
    record_search: bool,
) -> Result<(), TournamentError> {
    if config.adjudication.is_none() {
        return Ok(());
    }
    if Capabilities::of::<G>().scored() {
        return Err(TournamentError::Invalid(format!(
            "adjudication ends a game as a win, a loss or a draw, and {} is scored by a margin",
            G::NAME
        )));
    }
    if !record_search {
        return Err(TournamentError::Invalid(
            "adjudication reads the searchers' scores, which the log must keep for the games to be checked: \
             it needs the search records on (--record-search on)"
                .into(),
        ));
    }
    Ok(())
}

/// Whether `reason` is one of adjudication's.
pub(super) fn is_adjudicated(reason: &str) -> bool {
    reason == RESIGN_ADJUDICATION_REASON || reason == DRAW_ADJUDICATION_REASON
}

/// Checks a logged game against the run's adjudication: an adjudicated
/// game must end at the first ply after which its search records call for
/// that verdict, with the verdict's payoffs (the loser's the lower); any
/// other game must not have been adjudicated before it ended (a game that
/// ended by its own rules at the ply adjudication would have ended it
/// stands: the rules come first).
pub(super) fn check_adjudicated(config: &TournamentConfig, line: &GameLine) -> Result<(), String> {
    let game = line.index;
    let Some(rules) = &config.adjudication else {
        if is_adjudicated(&line.reason) {
            return Err(format!(
                "game {game}: ended by {}, but the run adjudicates no games",
                line.reason
            ));
        }
        return Ok(());
    };
    let Some(search) = &line.search else {
        return Err(format!(
            "game {game}: no search records, which the run's adjudication reads"
        ));
    };
    let mut adjudicator = Adjudicator::new(rules, line.seats.len());
    let mut first = None;
    for (ply, record) in search.iter().enumerate() {
        adjudicator.read_ply(
            record
                .decisions()
                .iter()
                .map(|decision| (decision.seat, decision.score)),
        );
        if let Some(verdict) = adjudicator.verdict() {
            first = Some((ply + 1, verdict));
            break;
        }
    }
    let plies = line.moves.len();
    if is_adjudicated(&line.reason) {
        let Some((at, verdict)) = first.filter(|&(at, _)| at == plies) else {
            return Err(format!(
                "game {game}: ended by {} after {plies} plies, where its search records call for no adjudication",
                line.reason
            ));
        };
        let payoffs_agree = match verdict {
            Verdict::Loss(loser) => line.payoffs[loser] < line.payoffs[1 - loser],
            Verdict::Draw => line.payoffs[0] == line.payoffs[1],
        };
        if verdict.reason() != line.reason || !payoffs_agree {
            return Err(format!(
                "game {game}: ended by {} with payoffs {:?}, but its search records call for {} after {at} plies",
                line.reason,
                line.payoffs,
                verdict_text(verdict)
            ));
        }
        return Ok(());
    }
    let runner_ended = [
        MAX_PLIES_REASON,
        TIME_REASON,
        FORFEIT_REASON,
        RESIGNATION_REASON,
    ]
    .contains(&line.reason.as_str());
    match first {
        Some((at, verdict)) if at < plies || runner_ended => Err(format!(
            "game {game}: its search records call for {} after {at} plies, but it went on to end by {} after {plies}",
            verdict_text(verdict),
            line.reason
        )),
        _ => Ok(()),
    }
}

fn verdict_text(verdict: Verdict) -> String {
    match verdict {
        Verdict::Loss(seat) => format!("seat {seat}'s loss"),
        Verdict::Draw => "a draw".to_string(),
    }
}
