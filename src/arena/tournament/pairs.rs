//! Colour-swapped pairs as the statistics of two agents read them: each
//! game by its result (the pentanomial model), or, for a game scored by a
//! margin, the pair as a whole by the margin summed over its two games (the
//! trinomial model: the pair won, drawn or lost), as the rules of such a
//! game score two games with the sides swapped.

use super::facts::GameFacts;
use super::log::GameLine;
use super::sprt::{Pentanomial, Sprt, SprtDecision, Trinomial};
use serde::Serialize;

/// A finished game as pairs read it: its place in the schedule, who sat
/// where and each seat's payoff. A logged line has them, and so has the
/// few numbers a summary keeps of each game ([`GameFacts`]), so that pairs
/// are scored the same way whether the games' moves are kept or not.
pub(super) trait SeatedGame {
    /// The game's place in the schedule.
    fn index(&self) -> usize;
    /// The agent of each seat.
    fn agents(&self) -> [usize; 2];
    /// The payoff of each seat.
    fn payoffs(&self) -> [f64; 2];
}

impl SeatedGame for GameLine {
    fn index(&self) -> usize {
        self.index
    }

    fn agents(&self) -> [usize; 2] {
        self.seats
    }

    fn payoffs(&self) -> [f64; 2] {
        self.payoffs
    }
}

impl SeatedGame for GameFacts {
    fn index(&self) -> usize {
        self.index
    }

    fn agents(&self) -> [usize; 2] {
        GameFacts::agents(self)
    }

    fn payoffs(&self) -> [f64; 2] {
        self.payoffs
    }
}

/// How the statistics of two agents score a colour-swapped pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PairScoring {
    /// Each game by its result, 1 for a win and 1/2 for a draw: a pair
    /// scores 0, 0.5, 1, 1.5 or 2 points ([`Pentanomial`]).
    GameResults,
    /// The pair as a whole: won by the agent whose payoff summed over both
    /// games is larger, drawn when the sums are equal ([`Trinomial`]). Games
    /// scored by a margin are read this way: one side may win every game
    /// between two agents, and then only the margins tell the agents apart.
    SummedMargin,
}

impl PairScoring {
    /// The scoring of a game whose payoffs are score margins (`scored`) or
    /// results.
    pub fn of(scored: bool) -> PairScoring {
        if scored {
            PairScoring::SummedMargin
        } else {
            PairScoring::GameResults
        }
    }

    /// What is counted, in words, for reports.
    pub fn describe(self) -> &'static str {
        match self {
            PairScoring::GameResults => "each game of a pair by its result",
            PairScoring::SummedMargin => "each pair by the margin summed over its two games",
        }
    }
}

/// One finished colour-swapped pair from one agent's point of view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct PairResult {
    /// The agent's points over the two games, a win 1 and a draw 1/2.
    pub points: f64,
    /// The agent's payoff summed over the two games minus its opponent's.
    pub margin: f64,
}

impl PairResult {
    /// The pair of `first` and `second` (its two games, in either order)
    /// from the point of view of agent `agent`, who played in both.
    pub fn of(first: &impl SeatedGame, second: &impl SeatedGame, agent: usize) -> PairResult {
        let mut result = PairResult {
            points: 0.0,
            margin: 0.0,
        };
        for (payoffs, seats) in [
            (first.payoffs(), first.agents()),
            (second.payoffs(), second.agents()),
        ] {
            let seat = usize::from(seats[1] == agent);
            result.points += seat_score(&payoffs, seat);
            result.margin += payoffs[seat] - payoffs[1 - seat];
        }
        result
    }

    /// The pair's score as a whole by its summed margin: 1 won, 1/2 drawn,
    /// 0 lost.
    pub fn margin_score(&self) -> f64 {
        if self.margin > 0.0 {
            1.0
        } else if self.margin < 0.0 {
            0.0
        } else {
            0.5
        }
    }
}

/// The score of seat `seat` in a game of `payoffs`: 1 for the strictly
/// best payoff, 0 for a worse one, 1/2 when both seats have the same
/// payoff.
pub(super) fn seat_score(payoffs: &[f64; 2], seat: usize) -> f64 {
    let (mine, theirs) = (payoffs[seat], payoffs[1 - seat]);
    if mine > theirs {
        1.0
    } else if mine < theirs {
        0.0
    } else {
        0.5
    }
}

/// The colour-swapped pairs whose two games were both played, `(game 2k,
/// game 2k + 1)`, from `games` sorted by index.
pub(super) fn finished_pairs<'a, 'b, G: SeatedGame>(
    games: &'b [&'a G],
) -> impl Iterator<Item = (&'a G, &'a G)> + 'b {
    games
        .windows(2)
        .filter(|pair| pair[0].index() % 2 == 0 && pair[1].index() == pair[0].index() + 1)
        .map(|pair| (pair[0], pair[1]))
}

/// The pairs two agents played, counted from the first one's point of
/// view: by the games' results always (the pentanomial record reports
/// show), and by summed margin for a game scored by margin. The Elo and the
/// sequential test read the counts of the game's [`PairScoring`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct PairTally {
    /// The pairs by the points of their games' results.
    pub by_results: Pentanomial,
    /// The pairs lost, drawn and won by summed margin, for a game scored by
    /// margin.
    pub by_margin: Option<Trinomial>,
}

impl PairTally {
    /// No pairs yet, to be scored as `scoring` says.
    pub fn new(scoring: PairScoring) -> PairTally {
        PairTally {
            by_results: Pentanomial::default(),
            by_margin: (scoring == PairScoring::SummedMargin).then(Trinomial::default),
        }
    }

    /// Counts one pair.
    pub fn add(&mut self, pair: PairResult) {
        self.by_results.add_pair(pair.points);
        if let Some(by_margin) = &mut self.by_margin {
            by_margin.add_score(pair.margin_score());
        }
    }

    /// How the pairs are scored.
    pub fn scoring(&self) -> PairScoring {
        match self.by_margin {
            Some(_) => PairScoring::SummedMargin,
            None => PairScoring::GameResults,
        }
    }

    /// The pairs counted.
    pub fn pairs(&self) -> u64 {
        self.by_results.pairs()
    }

    /// The Elo of the first agent over the second with its 95% interval,
    /// from the pairs as the game scores them
    /// ([`Pentanomial::elo_estimate`], [`Trinomial::elo_estimate`]).
    pub fn elo_estimate(&self) -> (f64, f64, f64) {
        match &self.by_margin {
            Some(by_margin) => by_margin.elo_estimate(),
            None => self.by_results.elo_estimate(),
        }
    }

    /// The log-likelihood ratio of `sprt` over the pairs as the game scores
    /// them.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        match &self.by_margin {
            Some(by_margin) => sprt.llr(by_margin),
            None => sprt.llr(&self.by_results),
        }
    }

    /// Where `sprt` stands after these pairs.
    pub fn decide(&self, sprt: &Sprt) -> SprtDecision {
        match &self.by_margin {
            Some(by_margin) => sprt.decide(by_margin),
            None => sprt.decide(&self.by_results),
        }
    }
}
