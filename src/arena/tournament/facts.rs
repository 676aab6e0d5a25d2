//! What a summary keeps of each finished game: a few numbers, not the
//! game's moves, so that a run of millions of games is summarised from its
//! log read once, line by line, in memory that grows by some 64 bytes a
//! game (a logged game's line in memory takes kilobytes).

use super::config::TournamentConfig;
use super::log::GameLine;
use super::search_log::{PlySearch, SearchMeans};
use crate::arena::playing::TimeControl;
use sha2::{Digest, Sha256};

/// What tells games apart for the repeated-game counts: a digest of their
/// seats, opening and moves (128 bits of SHA-256: two different games
/// share one with a chance of about 2^-128 per pair).
pub(super) type GameKey = [u64; 2];

/// One finished game as the summary sees it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct GameFacts {
    /// The game's place in the schedule.
    pub index: usize,
    /// The agent of each seat.
    pub seats: [u32; 2],
    /// The plies the agents played (the opening's not counted).
    pub plies: u32,
    /// The payoff of each seat.
    pub payoffs: [f64; 2],
    /// The end reason, as its place in [`FinishedGames::reasons`].
    reason: u16,
    /// The side names, as their place in [`FinishedGames::sides`].
    sides: u16,
    /// The seat that lost by forfeit, if one did.
    pub forfeit: Option<u8>,
    /// The game's seats, opening and moves, digested.
    pub key: GameKey,
}

impl GameFacts {
    /// The agent of each seat.
    pub(super) fn agents(&self) -> [usize; 2] {
        self.seats.map(|seat| seat as usize)
    }

    /// The seat agent `agent` played, if it played the game.
    pub(super) fn seat_of(&self, agent: usize) -> Option<usize> {
        self.agents().iter().position(|&seated| seated == agent)
    }

    /// Whether the game was between agents `a` and `b`.
    pub(super) fn between(&self, a: usize, b: usize) -> bool {
        self.seat_of(a).is_some() && self.seat_of(b).is_some()
    }
}

/// What one agent's logged decisions add up to, for [`SearchMeans`]: sums
/// that do not depend on the order in which games are added (a resumed
/// run reads its log in the order the games ended).
#[derive(Clone, Debug, Default)]
struct SearchTotals {
    decisions: usize,
    time: ExactSum,
    max_time: f64,
    depth: Count,
    iterations: Count,
    nodes: Count,
    /// With a game clock: per game, the share of its clock used.
    clock_used: ExactSum,
    clocked_games: usize,
}

/// A sum of integers and how many were added.
#[derive(Clone, Copy, Debug, Default)]
struct Count {
    sum: u128,
    count: usize,
}

impl Count {
    fn add(&mut self, value: Option<u64>) {
        if let Some(value) = value {
            self.sum += u128::from(value);
            self.count += 1;
        }
    }

    fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum as f64 / self.count as f64)
    }
}

/// A sum of non-negative numbers in fixed point (units of 2^-80): the
/// same whatever the order of the terms, as floating-point sums are not.
/// Every term from 2^-28 seconds (4 ns) up is held exactly, so a mean of
/// logged times (whole microseconds) is their exact mean rounded once to
/// a float, and the sum saturates only past 2^48 seconds.
#[derive(Clone, Copy, Debug, Default)]
struct ExactSum(u128);

/// 2^80, the fixed point's unit.
const UNIT: f64 = 1_208_925_819_614_629_174_706_176.0;

impl ExactSum {
    fn add(&mut self, value: f64) {
        // Logged times and shares are finite and non-negative; the
        // conversion saturates, and drops what lies below the unit.
        self.0 = self.0.saturating_add((value * UNIT) as u128);
    }

    fn mean(&self, count: usize) -> f64 {
        self.0 as f64 / UNIT / count as f64
    }
}

impl SearchTotals {
    fn means(&self) -> Option<SearchMeans> {
        (self.decisions > 0).then(|| SearchMeans {
            decisions: self.decisions,
            time: self.time.mean(self.decisions),
            max_time: self.max_time,
            depth: self.depth.mean(),
            iterations: self.iterations.mean(),
            nodes: self.nodes.mean(),
            clock_used: (self.clocked_games > 0).then(|| self.clock_used.mean(self.clocked_games)),
        })
    }
}

/// The finished games of a run as its summary needs them: per game its
/// result, length, end and a digest of its moves, and per agent what its
/// searches cost. Games may be added in any order.
#[derive(Clone, Debug)]
pub struct FinishedGames {
    games: Vec<GameFacts>,
    reasons: Vec<String>,
    sides: Vec<[String; 2]>,
    search: Vec<SearchTotals>,
    clock: Option<TimeControl>,
}

impl FinishedGames {
    /// No games yet of the tournament `config`.
    pub fn new(config: &TournamentConfig) -> FinishedGames {
        FinishedGames {
            games: Vec::new(),
            reasons: Vec::new(),
            sides: Vec::new(),
            search: vec![SearchTotals::default(); config.agents.len()],
            clock: config.time_control,
        }
    }

    /// Room for `games` games, so that a run that knows how many it holds
    /// takes no more memory than they need.
    pub fn reserve(&mut self, games: usize) {
        self.games.reserve_exact(games);
    }

    /// The games of `lines` (any order) of the tournament `config`.
    pub fn of_lines(config: &TournamentConfig, lines: &[GameLine]) -> FinishedGames {
        let mut games = FinishedGames::new(config);
        games.reserve(lines.len());
        for line in lines {
            games.add(line);
        }
        games
    }

    /// Adds a finished game.
    pub fn add(&mut self, line: &GameLine) {
        let reason = match self.reasons.iter().position(|known| known == &line.reason) {
            Some(place) => place,
            None => {
                self.reasons.push(line.reason.clone());
                self.reasons.len() - 1
            }
        };
        let sides = match self.sides.iter().position(|known| known == &line.sides) {
            Some(place) => place,
            None => {
                self.sides.push(line.sides.clone());
                self.sides.len() - 1
            }
        };
        self.add_search(line);
        self.games.push(GameFacts {
            index: line.index,
            seats: line
                .seats
                .map(|seat| u32::try_from(seat).unwrap_or(u32::MAX)),
            plies: u32::try_from(line.plies).unwrap_or(u32::MAX),
            payoffs: line.payoffs,
            reason: u16::try_from(reason).unwrap_or(u16::MAX),
            sides: u16::try_from(sides).unwrap_or(u16::MAX),
            forfeit: line
                .forfeit
                .as_ref()
                .map(|forfeit| u8::try_from(forfeit.seat).unwrap_or(u8::MAX)),
            key: game_key(line),
        });
    }

    /// Adds what the game's logged decisions cost to each agent's totals.
    fn add_search(&mut self, line: &GameLine) {
        for (seat, &agent) in line.seats.iter().enumerate() {
            let Some(totals) = self.search.get_mut(agent) else {
                continue;
            };
            let decisions = line.search.iter().flatten().flat_map(PlySearch::decisions);
            let (mut spent, mut moves) = (0.0, 0u32);
            for decision in decisions.filter(|decision| decision.seat == seat) {
                spent += decision.time;
                moves += 1;
                totals.decisions += 1;
                totals.time.add(decision.time);
                totals.max_time = totals.max_time.max(decision.time);
                totals.depth.add(decision.depth.map(u64::from));
                totals.iterations.add(decision.iterations);
                totals.nodes.add(decision.nodes);
            }
            if let Some(clock) = self.clock
                && moves > 0
            {
                let allowed = clock.base + clock.increment * moves;
                totals.clock_used.add(spent / allowed.as_secs_f64());
                totals.clocked_games += 1;
            }
        }
    }

    /// How many games were added.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether no game was added.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The games, sorted by index.
    pub(super) fn by_index(&self) -> Vec<&GameFacts> {
        let mut games: Vec<&GameFacts> = self.games.iter().collect();
        games.sort_by_key(|game| game.index);
        games
    }

    /// Every game's length in plies, in the order the games were added.
    pub fn lengths(&self) -> impl Iterator<Item = usize> + '_ {
        self.games.iter().map(|game| game.plies as usize)
    }

    /// Why `game` ended.
    pub(super) fn reason(&self, game: &GameFacts) -> &str {
        &self.reasons[usize::from(game.reason)]
    }

    /// The side names of `game`, seat 0 first.
    pub(super) fn sides(&self, game: &GameFacts) -> &[String; 2] {
        &self.sides[usize::from(game.sides)]
    }

    /// What the decisions of agent `agent` cost on average, over the games
    /// that record them.
    pub(super) fn search_means(&self, agent: usize) -> Option<SearchMeans> {
        self.search.get(agent)?.means()
    }
}

/// A writer that feeds what is written to a SHA-256 digest.
struct Digesting(Sha256);

impl std::io::Write for Digesting {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The digest of a game's seats, opening and moves: games that differ in
/// any of them (and only those, but for a chance of 2^-128) differ in it.
pub(super) fn game_key(line: &GameLine) -> GameKey {
    let mut digest = Digesting(Sha256::new());
    serde_json::to_writer(&mut digest, &(line.seats, &line.opening, &line.moves))
        .expect("game lines serialise");
    let bytes = digest.0.finalize();
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    [word(0), word(8)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_sum_s_mean_is_the_exact_mean_rounded_whatever_the_order() {
        // Four times of 1 µs and three of none: 4 x 1e-6 is exact in
        // floating point, so the exact mean is one division away.
        let times = [1e-6, 0.0, 1e-6, 0.0, 1e-6, 0.0, 1e-6];
        let exact = (4.0 * 1e-6) / 7.0;
        let mut forward = ExactSum::default();
        let mut backward = ExactSum::default();
        for (&time, &reversed) in times.iter().zip(times.iter().rev()) {
            forward.add(time);
            backward.add(reversed);
        }
        assert_eq!(forward.mean(times.len()), exact);
        assert_eq!(backward.mean(times.len()), exact);
    }
}
