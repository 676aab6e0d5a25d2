//! Statistics over the finished games of a tournament: per agent, per pairing
//! and overall, as game sites show them, plus the rating fit.

use super::config::TournamentConfig;
use super::facts::{FinishedGames, GameFacts};
use super::log::GameLine;
use super::pairs::{PairResult, PairScoring, PairTally, finished_pairs, seat_score};
use super::ratings::fit_ratings;
use super::search_log::SearchMeans;
use super::sprt::SprtResult;
use crate::arena::playing::{Adjudication, Provenance, ShardProvenance};
use crate::arena::winrate::sign_test_p;
use serde::Serialize;
use std::collections::BTreeMap;

/// Game lengths in plies, counted from where the agents began to choose
/// (an opening's plies are not counted; see [`GameLine::plies`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LengthStats {
    /// The mean length over the games, in plies.
    pub average: f64,
    /// The shortest game's length.
    pub min: usize,
    /// The longest game's length.
    pub max: usize,
}

impl LengthStats {
    fn of(lengths: impl Iterator<Item = usize>) -> Option<LengthStats> {
        let lengths: Vec<usize> = lengths.collect();
        let (&min, &max) = (lengths.iter().min()?, lengths.iter().max()?);
        Some(LengthStats {
            average: lengths.iter().sum::<usize>() as f64 / lengths.len() as f64,
            min,
            max,
        })
    }
}

/// Wins, draws and losses from one point of view.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Record {
    /// The games counted: `wins + draws + losses`.
    pub games: usize,
    /// Games with a strictly better payoff than the opponent's.
    pub wins: usize,
    /// Games with the same payoff as the opponent's.
    pub draws: usize,
    /// Games with a strictly worse payoff than the opponent's.
    pub losses: usize,
}

impl Record {
    fn add(&mut self, score: f64) {
        self.games += 1;
        if score > 0.5 {
            self.wins += 1;
        } else if score < 0.5 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Points per game: a win 1, a draw 1/2.
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / self.games as f64
        }
    }
}

/// One side's record for an agent (e.g. its games as the attackers).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideRecord {
    /// The side's name as the game gives it (e.g. `attackers`).
    pub side: String,
    /// The agent's results in the games it played as this side.
    #[serde(flatten)]
    pub record: Record,
}

/// Everything about one agent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentSummary {
    /// The agent's spec as the tournament lists it.
    pub spec: String,
    /// The agent's name in reports: its spec, or for a spec listed more
    /// than once (self-play) `spec #k` from its second listing on
    /// ([`TournamentConfig::display_names`]).
    pub name: String,
    /// Every game the agent played, whatever its seat.
    pub games: usize,
    /// Games with a strictly better payoff than the opponent's.
    pub wins: usize,
    /// Games with the same payoff as the opponent's.
    pub draws: usize,
    /// Games with a strictly worse payoff than the opponent's.
    pub losses: usize,
    /// Points per game: a win 1, a draw 1/2 ([`Record::score`]).
    pub score: f64,
    /// The fitted rating in Elo points, relative to the anchor, whose
    /// rating is 0 ([`TournamentSummary::anchor`]).
    pub elo: f64,
    /// The lower end of the rating's 95% interval (the anchor's is its
    /// rating: every other rating is measured against it).
    pub elo_low: f64,
    /// The upper end of the rating's 95% interval.
    pub elo_high: f64,
    /// The record per side the agent played, in seat order (the side that
    /// moves first first).
    pub by_side: Vec<SideRecord>,
    /// The lengths of the agent's games; `None` before it played one.
    pub length: Option<LengthStats>,
    /// How the agent's games ended: the number of games per end reason
    /// (the game's own, or e.g. [`crate::arena::MAX_PLIES_REASON`]).
    pub reasons: BTreeMap<String, usize>,
    /// The games this agent lost by forfeit (it failed in them).
    pub forfeits: usize,
    /// What the agent's moves cost on average, over the games whose log
    /// records it ([`GameLine::search`]); `None` when none does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<SearchMeans>,
}

/// One pairing, from the first agent's point of view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairingSummary {
    /// The two agents' names ([`AgentSummary::name`]: their specs, told
    /// apart when one spec plays itself); the results are the first one's.
    pub agents: [String; 2],
    /// The games between the two played so far, both seatings counted.
    pub games: usize,
    /// Games that differ in their seats, opening or moves: deterministic agents
    /// replay the same game, and a repeat is no new evidence.
    pub distinct_games: usize,
    /// Games the first agent won (a strictly better payoff).
    pub wins: usize,
    /// Games with equal payoffs.
    pub draws: usize,
    /// Games the first agent lost.
    pub losses: usize,
    /// The first agent's points per game, draws counting half.
    pub score: f64,
    /// The lengths of the pairing's games; `None` before one was played.
    pub length: Option<LengthStats>,
    /// The number of the pairing's games per end reason.
    pub reasons: BTreeMap<String, usize>,
    /// For scored games: the first agent's payoff summed over each
    /// colour-swapped pair of games (e.g. Thud's two battles), in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pair_margins: Option<Vec<f64>>,
    /// The colour-swapped pairs of distinct games (as the ratings count
    /// them) in which the first agent scored 0, 0.5, 1, 1.5 and 2 points by
    /// the results of their games.
    pub pentanomial: [u64; 5],
    /// How `pair_elo` scores a pair: by its games' results (the
    /// `pentanomial` counts), or for a game scored by margin by the margin
    /// summed over both games (the `pairs_by_margin` counts).
    pub pair_scoring: PairScoring,
    /// For a game scored by margin: those pairs lost, drawn and won by the
    /// first agent by summed margin.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs_by_margin: Option<[u64; 3]>,
    /// The first agent's Elo over the second from its mean score in those
    /// pairs as `pair_scoring` scores them, with a 95% interval that takes
    /// each pair as one sample
    /// ([`PairOutcomes::elo_estimate`](super::PairOutcomes::elo_estimate);
    /// an unbounded end is written `null`).
    pub pair_elo: f64,
    /// The lower end of `pair_elo`'s 95% interval.
    pub pair_elo_low: f64,
    /// The upper end of `pair_elo`'s 95% interval.
    pub pair_elo_high: f64,
}

/// Totals over all games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OverallSummary {
    /// The sides' names, the first player's first (empty before any game).
    pub sides: Vec<String>,
    /// Every game played so far.
    pub games: usize,
    /// Games that differ in their seats, opening or moves.
    pub distinct_games: usize,
    /// Games with equal payoffs for both sides.
    pub draws: usize,
    /// Decisive games won by the side that moves first.
    pub first_player_wins: usize,
    /// Decisive games won by the side that moves second.
    pub second_player_wins: usize,
    /// Points per game of the side that moves first, draws counting half:
    /// above 1/2, the first move is an advantage between these agents.
    pub first_player_score: f64,
    /// The exact two-sided sign test of the first player's wins against the
    /// second player's (draws left out,
    /// [`sign_test_p`](crate::arena::winrate::sign_test_p)): the chance of
    /// a split at least this uneven were the sides equal. Below 0.05 the
    /// reports say that one side had the better of these agents.
    pub side_advantage_p: f64,
    /// The lengths of all games; `None` before any game.
    pub length: Option<LengthStats>,
    /// The number of games per end reason.
    pub reasons: BTreeMap<String, usize>,
}

/// The summary of a tournament (or of the part of it played so far).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TournamentSummary {
    /// The game's registry name.
    pub game: String,
    /// The rules options as the configuration gives them (empty for the
    /// game's defaults).
    pub rules: String,
    /// The master seed every game's seed derives from.
    pub seed: u64,
    /// How many games each pairing plays, both seatings together.
    pub games_per_pair: usize,
    /// Where the games started ([`crate::arena::Openings::describe`]).
    pub openings: String,
    /// The adjudication the games were played under, every option written
    /// out ([`TournamentConfig::adjudication`]); absent when off.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adjudication: Option<Adjudication>,
    /// The games the complete tournament plays.
    pub games_scheduled: usize,
    /// The games summarised: fewer than scheduled while the run is under
    /// way or after it was interrupted.
    pub games_played: usize,
    /// The build, agent configurations and rules that played the games
    /// (empty unless given by [`TournamentSummary::with_provenance`]).
    #[serde(flatten)]
    pub provenance: Provenance,
    /// For shards of different builds merged knowingly: every shard's
    /// provenance (empty otherwise).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub shard_provenance: Vec<ShardProvenance>,
    /// The name ([`AgentSummary::name`]) of the agent whose rating is held
    /// at 0 Elo: the configuration's anchor, else the first agent, or in a
    /// gauntlet the first baseline.
    pub anchor: String,
    /// A gauntlet: the first agent played each of the others, which did not
    /// play each other ([`TournamentConfig::gauntlet`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub gauntlet: bool,
    /// For a match (`norn match`): where its sequential test ended
    /// (`match` in JSON).
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub match_result: Option<SprtResult>,
    /// What the ratings are fitted to: [`RATED_BY_GAMES`], or for scored
    /// games [`RATED_BY_PAIRS`].
    pub rated_by: &'static str,
    /// Colour-swapped pairs left out of the ratings because their games
    /// repeat an earlier pair's (the same agents in the same seats, opening
    /// and moves): a repeat is no new evidence, so each distinct pair
    /// counts once.
    pub repeated_pairs: usize,
    /// One summary per agent, in the configuration's order.
    pub agents: Vec<AgentSummary>,
    /// One summary per pair of agents, in schedule order.
    pub pairings: Vec<PairingSummary>,
    /// The totals over every game.
    pub overall: OverallSummary,
}

/// Ratings fitted to every game's result.
pub const RATED_BY_GAMES: &str = "games";
/// Ratings fitted to colour-swapped pairs of games, each won by the agent
/// with the larger summed payoff over both games: how the Thud rules score
/// two battles. Single scored games say little (one side may win every
/// battle it plays), the pair's summed margin says who played better.
pub const RATED_BY_PAIRS: &str = "pairs of games by summed margin";

/// The number of `games` per end reason.
fn reasons_of<'a>(
    games: impl Iterator<Item = &'a GameFacts>,
    finished: &FinishedGames,
) -> BTreeMap<String, usize> {
    let mut reasons = BTreeMap::new();
    for game in games {
        *reasons
            .entry(finished.reason(game).to_string())
            .or_insert(0) += 1;
    }
    reasons
}

/// The number of games that differ in their seats, opening or moves.
fn distinct_games(games: &[&GameFacts]) -> usize {
    games
        .iter()
        .map(|game| game.key)
        .collect::<std::collections::HashSet<_>>()
        .len()
}

/// The games the ratings count (sorted by index, as `games`), and how many
/// pairs were left out: a colour-swapped pair whose games repeat an earlier
/// pair's (the same seats, opening and moves), or a lone game of an
/// unfinished pair that repeats an earlier lone game.
fn distinct_pairs<'a>(games: &[&'a GameFacts]) -> (Vec<&'a GameFacts>, usize) {
    let mut seen = std::collections::HashSet::new();
    let mut kept = Vec::with_capacity(games.len());
    let mut repeated = 0;
    for pair in games.chunk_by(|a, b| a.index / 2 == b.index / 2) {
        let key: Vec<_> = pair.iter().map(|game| game.key).collect();
        if seen.insert(key) {
            kept.extend_from_slice(pair);
        } else {
            repeated += 1;
        }
    }
    (kept, repeated)
}

/// The result of every colour-swapped pair whose two games were both
/// played (games `2k` and `2k + 1`, `games` sorted by index): the agents
/// of the first game's seats and the first one's score, 1 for the larger
/// summed payoff over both games, 1/2 for equal sums.
fn pair_results(games: &[&GameFacts]) -> Vec<(usize, usize, f64)> {
    finished_pairs(games)
        .map(|(first, second)| {
            let [a, b] = first.agents();
            (a, b, PairResult::of(first, second, a).margin_score())
        })
        .collect()
}

/// The finished colour-swapped pairs of agent `a` against agent `b` in
/// `games` (sorted by index), from `a`'s point of view, scored as
/// `scoring` says.
fn pairing_tally(games: &[&GameFacts], a: usize, b: usize, scoring: PairScoring) -> PairTally {
    let mut tally = PairTally::new(scoring);
    for (first, second) in finished_pairs(games).filter(|(first, _)| first.between(a, b)) {
        tally.add(PairResult::of(first, second, a));
    }
    tally
}

impl OverallSummary {
    /// The totals over `games`, ends read from `finished`, which holds
    /// them.
    pub(super) fn of(games: &[&GameFacts], finished: &FinishedGames) -> OverallSummary {
        let mut first = Record::default();
        for game in games {
            first.add(seat_score(&game.payoffs, 0));
        }
        OverallSummary {
            sides: games
                .first()
                .map_or_else(Vec::new, |game| finished.sides(game).to_vec()),
            games: games.len(),
            distinct_games: distinct_games(games),
            draws: first.draws,
            first_player_wins: first.wins,
            second_player_wins: first.losses,
            first_player_score: first.score(),
            side_advantage_p: sign_test_p(first.wins as u64, first.losses as u64),
            length: LengthStats::of(games.iter().map(|game| game.plies as usize)),
            reasons: reasons_of(games.iter().copied(), finished),
        }
    }
}

impl TournamentSummary {
    /// The summary with the provenance of its games, as the run's
    /// `config.json` records it ([`crate::arena::RunResult::provenance`],
    /// [`crate::arena::MergedRun::provenance`]).
    pub fn with_provenance(self, provenance: &Provenance) -> TournamentSummary {
        TournamentSummary {
            provenance: provenance.clone(),
            ..self
        }
    }

    /// Summarises `games` (in any order) of the tournament `config`.
    /// `scored` asks for pair margins (games whose payoff is a score margin).
    pub fn compute(
        config: &TournamentConfig,
        games: &[GameLine],
        scored: bool,
    ) -> TournamentSummary {
        TournamentSummary::of_games(config, &FinishedGames::of_lines(config, games), scored)
    }

    /// Summarises the finished games of the tournament `config`, as
    /// [`TournamentSummary::compute`] does their lines.
    pub fn of_games(
        config: &TournamentConfig,
        finished: &FinishedGames,
        scored: bool,
    ) -> TournamentSummary {
        let games = finished.by_index();
        let n = config.agents.len();
        let agent_games = |agent: usize| {
            games
                .iter()
                .copied()
                .filter(move |game| game.seat_of(agent).is_some())
        };
        let (counted, repeated_pairs) = distinct_pairs(&games);
        let rated = if scored {
            pair_results(&counted)
        } else {
            counted
                .iter()
                .map(|game| {
                    let [first, second] = game.agents();
                    (first, second, seat_score(&game.payoffs, 0))
                })
                .collect()
        };
        let anchor = config.anchor_index();
        let fit = fit_ratings(n, &rated, anchor, 0.0);
        let names = config.display_names();

        let agents = (0..n)
            .map(|agent| {
                let mut total = Record::default();
                // Each side with the seat it plays from, so that the sides
                // are listed in seat order (the first mover first), whatever
                // their names.
                let mut sides: Vec<(usize, SideRecord)> = Vec::new();
                let mut forfeits = 0;
                for game in agent_games(agent) {
                    let seat = usize::from(game.agents()[1] == agent);
                    forfeits += usize::from(game.forfeit.is_some_and(|f| usize::from(f) == seat));
                    let score = seat_score(&game.payoffs, seat);
                    total.add(score);
                    let side = &finished.sides(game)[seat];
                    match sides.iter_mut().find(|(_, entry)| &entry.side == side) {
                        Some((_, entry)) => entry.record.add(score),
                        None => {
                            let mut record = Record::default();
                            record.add(score);
                            sides.push((
                                seat,
                                SideRecord {
                                    side: side.clone(),
                                    record,
                                },
                            ));
                        }
                    }
                }
                sides.sort_by_key(|&(seat, _)| seat);
                let sides: Vec<SideRecord> = sides.into_iter().map(|(_, side)| side).collect();
                AgentSummary {
                    spec: config.agents[agent].clone(),
                    name: names[agent].clone(),
                    games: total.games,
                    wins: total.wins,
                    draws: total.draws,
                    losses: total.losses,
                    score: total.score(),
                    elo: fit.elo[agent],
                    elo_low: fit.low[agent],
                    elo_high: fit.high[agent],
                    by_side: sides,
                    length: LengthStats::of(agent_games(agent).map(|game| game.plies as usize)),
                    reasons: reasons_of(agent_games(agent), finished),
                    forfeits,
                    search: finished.search_means(agent),
                }
            })
            .collect();

        let pairings = config
            .pairings()
            .into_iter()
            .map(|(a, b)| {
                let between: Vec<&GameFacts> = games
                    .iter()
                    .copied()
                    .filter(|game| game.between(a, b))
                    .collect();
                let mut record = Record::default();
                let mut pair_margins: BTreeMap<usize, f64> = BTreeMap::new();
                for game in &between {
                    let seat = usize::from(game.agents()[1] == a);
                    record.add(seat_score(&game.payoffs, seat));
                    *pair_margins.entry(game.index / 2).or_insert(0.0) += game.payoffs[seat];
                }
                let tally = pairing_tally(&counted, a, b, PairScoring::of(scored));
                let (pair_elo, pair_elo_low, pair_elo_high) = tally.elo_estimate();
                PairingSummary {
                    agents: [names[a].clone(), names[b].clone()],
                    games: record.games,
                    distinct_games: distinct_games(&between),
                    wins: record.wins,
                    draws: record.draws,
                    losses: record.losses,
                    score: record.score(),
                    length: LengthStats::of(between.iter().map(|game| game.plies as usize)),
                    reasons: reasons_of(between.iter().copied(), finished),
                    pair_margins: scored.then(|| pair_margins.into_values().collect()),
                    pentanomial: tally.by_results.counts,
                    pair_scoring: tally.scoring(),
                    pairs_by_margin: tally.by_margin.map(|by_margin| by_margin.counts),
                    pair_elo,
                    pair_elo_low,
                    pair_elo_high,
                }
            })
            .collect();

        let overall = OverallSummary::of(&games, finished);

        TournamentSummary {
            game: config.game.clone(),
            rules: config.rules.clone(),
            seed: config.seed,
            games_per_pair: config.games_per_pair,
            openings: config.openings.describe(),
            adjudication: config.adjudication.clone(),
            games_scheduled: config.total_games(),
            games_played: games.len(),
            provenance: Provenance::default(),
            shard_provenance: Vec::new(),
            anchor: names[anchor].clone(),
            gauntlet: config.gauntlet,
            match_result: None,
            rated_by: if scored {
                RATED_BY_PAIRS
            } else {
                RATED_BY_GAMES
            },
            repeated_pairs,
            agents,
            pairings,
            overall,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::{SprtDecision, match_history};
    use crate::core::PlyText;

    /// Game `index` of a two-agent tournament: agent `seats[0]` moves first.
    fn battle(index: usize, seats: [usize; 2], payoffs: [f64; 2]) -> GameLine {
        GameLine {
            index,
            seats,
            agents: seats.map(|seat| ["weak", "strong"][seat].to_string()),
            sides: ["dwarfs".into(), "trolls".into()],
            seed: 0,
            opening: None,
            moves: Vec::new(),
            plies: 0,
            payoffs,
            winner: None,
            reason: "end".into(),
            forfeit: None,
            search: None,
        }
    }

    /// Two agents, ten battles: the trolls (second seat) win every one, by
    /// 10 when the strong agent has them and by only 2 when the weak one has.
    fn battles() -> (TournamentConfig, Vec<GameLine>) {
        let config = TournamentConfig::of_agents("thud", &["weak", "strong"], 10);
        let games = (0..10)
            .map(|index| match index % 2 {
                0 => battle(index, [0, 1], [-10.0, 10.0]),
                _ => battle(index, [1, 0], [-2.0, 2.0]),
            })
            .collect();
        (config, games)
    }

    #[test]
    fn scored_games_are_rated_by_the_summed_margin_of_each_pair() {
        let (config, games) = battles();
        let by_games = TournamentSummary::compute(&config, &games, false);
        assert_eq!(by_games.rated_by, RATED_BY_GAMES);
        assert_eq!(
            by_games.agents[1].elo, 0.0,
            "every agent won half its games"
        );

        let by_pairs = TournamentSummary::compute(&config, &games, true);
        assert_eq!(by_pairs.rated_by, RATED_BY_PAIRS);
        assert!(by_pairs.agents[1].elo > 100.0, "{:?}", by_pairs.agents[1]);
        assert_eq!(by_pairs.pairings[0].pair_margins, Some(vec![-8.0; 5]));

        // A pair with one game played is not rated.
        let unfinished = TournamentSummary::compute(&config, &games[..1], true);
        assert_eq!(unfinished.agents[1].elo, 0.0);
    }

    #[test]
    fn a_match_of_a_scored_game_is_decided_by_the_summed_margin_of_each_pair() {
        // The trolls (second seat) win every battle, so every pair splits
        // one battle each; the tested agent (agent 0) loses by 2 as the
        // dwarfs and wins by 10 as the trolls: every pair is its by 8.
        let (mut config, _) = battles();
        config.agents = vec!["tested".into(), "baseline".into()];
        let games: Vec<GameLine> = (0..40)
            .map(|index| {
                let mut game = match index % 2 {
                    0 => battle(index, [0, 1], [-2.0, 2.0]),
                    _ => battle(index, [1, 0], [-10.0, 10.0]),
                };
                game.moves = vec![PlyText::Move(index.to_string())];
                game
            })
            .collect();
        let sprt = crate::arena::Sprt {
            elo0: 0.0,
            elo1: 50.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let finished = FinishedGames::of_lines(&config, &games);
        let by_margin = match_history(&config, sprt, PairScoring::SummedMargin, &finished).result;
        assert_eq!(by_margin.decision, SprtDecision::AcceptH1, "{by_margin:?}");
        // N pairs all won, with the pseudo-pair's third of a pair on each
        // outcome: mean (N + 1/2) / (N + 1); the LLR of H1 at +50 Elo
        // (s1 = 0.5714631) is 2.178 after 5 pairs and 3.095 after 6, past
        // the bound ln(19) = 2.944.
        assert_eq!(by_margin.pairs, 6);
        assert_eq!(by_margin.pentanomial[2], by_margin.pairs);
        assert_eq!(by_margin.pairs_by_margin, Some([0, 0, by_margin.pairs]));
        assert!(by_margin.elo_low > 50.0, "{by_margin:?}");
        // Read by the games' results, every pair is a 1-1 split.
        let by_results = match_history(&config, sprt, PairScoring::GameResults, &finished).result;
        assert_eq!(by_results.decision, SprtDecision::AcceptH0);

        // The report's verdict, its pairing's Elo and its ratings agree.
        let played = TournamentConfig {
            games_per_pair: by_margin.games,
            ..config.clone()
        };
        let summary = TournamentSummary {
            match_result: Some(by_margin.clone()),
            ..TournamentSummary::compute(&played, &games[..by_margin.games], true)
        };
        let pairing = &summary.pairings[0];
        assert_eq!(pairing.pair_scoring, PairScoring::SummedMargin);
        assert_eq!(
            (pairing.pair_elo, pairing.pair_elo_low),
            (by_margin.elo, by_margin.elo_low)
        );
        assert!(summary.agents[0].elo > summary.agents[1].elo);
        let report = crate::arena::text_report(&summary);
        assert!(report.contains("H1 accepted"), "{report}");
        assert!(
            report.contains(&format!("won {}, drawn 0, lost 0", by_margin.pairs)),
            "{report}"
        );
        assert!(
            report.contains("the sides are unequal between these agents: trolls won"),
            "{report}"
        );
        // Beside the test's Elo, each interval of both reports says what it
        // measures: the test's counts pairs, the ratings table's is the fit's.
        for report in [report, crate::arena::markdown_report(&summary)] {
            assert!(report.contains("(95%, each pair one sample"), "{report}");
            assert!(report.contains("fit's 95% interval"), "{report}");
            assert!(
                report.contains(
                    "the Elo of the sequential test above counts each colour-swapped pair"
                ),
                "{report}"
            );
        }
    }

    #[test]
    fn repeated_games_are_counted_and_reported() {
        let (config, games) = battles();
        // The battles repeat one game per seating.
        let repeated = TournamentSummary::compute(&config, &games, true);
        assert_eq!(repeated.pairings[0].distinct_games, 2);
        assert_eq!(repeated.overall.distinct_games, 2);
        let report = crate::arena::text_report(&repeated);
        assert!(
            report.contains("warning: repeated games") && report.contains("weak vs strong 2 of 10"),
            "{report}"
        );

        let mut varied = games;
        for (index, game) in varied.iter_mut().enumerate() {
            game.moves = vec![PlyText::Move(index.to_string())];
        }
        let varied = TournamentSummary::compute(&config, &varied, true);
        assert_eq!(varied.overall.distinct_games, 10);
        assert_eq!(varied.repeated_pairs, 0);
        assert!(!crate::arena::text_report(&varied).contains("warning"));
    }

    #[test]
    fn each_pairing_counts_its_distinct_pairs_by_points() {
        let (config, mut games) = battles();
        // Each pair is one battle lost and one won by the weak agent: 1
        // point of 2, every time. The five pairs repeat one pair.
        let repeated = TournamentSummary::compute(&config, &games, false);
        assert_eq!(repeated.pairings[0].pentanomial, [0, 0, 1, 0, 0]);
        for (index, game) in games.iter_mut().enumerate() {
            game.moves = vec![PlyText::Move(index.to_string())];
        }
        // Four distinct pairs of 1 point and one the weak agent lost twice
        // (0 points): per game 0.5 four times and 0, mean 0.4, variance
        // (4 x 0.01 + 0.16) / 5 = 0.04, standard error sqrt(0.04 / 5) =
        // 0.0894427, score interval 0.4 -+ 0.1753045 = [0.2246955,
        // 0.5753045]: -70.44 Elo [-215.15, +52.73].
        games[1].payoffs = [2.0, -2.0];
        let pairing = &TournamentSummary::compute(&config, &games, false).pairings[0];
        assert_eq!(pairing.pentanomial, [1, 0, 4, 0, 0]);
        for (actual, expected) in [
            (pairing.pair_elo, -70.44),
            (pairing.pair_elo_low, -215.15),
            (pairing.pair_elo_high, 52.73),
        ] {
            assert!((actual - expected).abs() < 0.01, "{pairing:?}");
        }
    }

    #[test]
    fn a_repeated_pair_counts_once_in_the_ratings() {
        let (config, games) = battles();
        // Five pairs that repeat one pair: rated as that one pair.
        let repeated = TournamentSummary::compute(&config, &games, false);
        assert_eq!(repeated.repeated_pairs, 4);
        let once = TournamentSummary::compute(&config, &games[..2], false);
        assert_eq!(repeated.agents[1].elo, once.agents[1].elo);
        assert_eq!(repeated.agents[1].elo_high, once.agents[1].elo_high);
        // The records still count every game.
        assert_eq!(repeated.agents[1].games, 10);
        assert!(
            crate::arena::markdown_report(&repeated).contains("4 pairs that repeated"),
            "{}",
            crate::arena::markdown_report(&repeated)
        );
    }
}
