//! Alpha-beta search for two-player zero-sum games.
//!
//! Negamax with principal-variation search, iterative deepening, a shared
//! [`TranspositionTable`], and move ordering by the table's move, captures
//! ([`Evaluate::is_tactical`]), two killer moves per ply and a history table.
//! A move the evaluation marks as a threat ([`Evaluator::extends`]) is
//! searched one ply deeper, once along a line.
//! A search stops at a depth, a node count or a deadline, whichever comes first.
//! The evaluation is a parameter: [`AlphaBeta::search`] uses the game's own,
//! [`AlphaBeta::search_with`] any [`Evaluator`].
//!
//! # Restrictions
//! The searcher assumes two players whose payoffs sum to a constant (what one
//! gains the other loses): it negates scores between the players. It does not
//! search through chance events or simultaneous choices: a search that meets
//! one stops with a [`SearchError`]. Games where one player moves twice in a
//! row are fine.
//!
//! # Scores
//! Scores are integers from the view of the player to move:
//! [`SCORE_SCALE`] is the best payoff in [`Game::payoff_range`], `-SCORE_SCALE`
//! the worst, and `0` the middle (a draw in win/loss games). Finished games
//! score their exact payoff; other leaves score the evaluation on the
//! same scale, so an evaluation should stay strictly inside the payoff range
//! for proven results to stand out.
//!
//! # Determinism
//! With one thread, the result depends only on the state, the configuration
//! and the earlier searches of the same searcher (through the table). The table
//! answers a position only with a result of exactly the depth asked for, so
//! the score at a fixed depth is the plain minimax score at that depth, with or
//! without the table and with any number of threads. With several threads
//! (Lazy SMP: helpers search the same tree and share only the table) the score
//! at a fixed depth is the same, but the move chosen among equally scored
//! moves and the node counts may differ from run to run.
//!
//! The table is keyed by [`Game::hash`] and [`Game::history_key`] together:
//! where a rule depends on the history (Hnefatafl's repetition rule, Stealth
//! Chess's repetitions and fifty-move counter), a position reached along two
//! paths with different histories has two entries, since a repetition can
//! end the game along one path and not along the other. The price is that
//! such games find fewer transpositions (see bench-results/search.md).

use super::SearchError;
use super::StopFlag;
use super::options::time_option;
use super::tt::{Bound, TranspositionTable, TtEntry};
use crate::core::{
    Declared, Evaluate, Evaluator, FastHasher, Game, GameEvaluation, MoveList, Player, Status,
};
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The score of the best possible payoff.
pub const SCORE_SCALE: i32 = 100_000;
/// Beyond every score.
const INFINITY: i32 = SCORE_SCALE + 1;
/// The deepest iteration of an unlimited search.
const MAX_DEPTH: u32 = 100;
const HISTORY_SLOTS: usize = 1 << 12;
/// The clock is read every this many nodes.
const POLL_INTERVAL: u64 = 256;

/// What limits a search and how it is equipped.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaConfig {
    /// The deepest iteration; `None` deepens until another limit stops it.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (counted by the main thread).
    pub nodes: Option<u64>,
    /// Stop at this time after the search starts.
    pub time: Option<Duration>,
    /// Size of the transposition table; `0` searches without one.
    pub table_megabytes: usize,
    /// Search threads (Lazy SMP); `1` searches alone.
    pub threads: usize,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            depth: Some(4),
            nodes: None,
            time: None,
            table_megabytes: 16,
            threads: 1,
        }
    }
}

/// The largest transposition table, in megabytes: a terabyte.
const MAX_TABLE_MEGABYTES: u64 = 1 << 20;

/// Every option of [`AlphaBetaConfig`], in the order its text is written.
const OPTIONS: &[Declared<AlphaBetaConfig>] = &[
    crate::whole_option!(
        "depth",
        depth,
        1,
        MAX_DEPTH as u64,
        "plies of the deepest iteration (the default only without `ms` or `nodes`)"
    ),
    time_option!(),
    crate::whole_option!(
        "nodes",
        nodes,
        1,
        u64::MAX,
        "stop after about this many nodes"
    ),
    crate::whole_option!(
        "tt",
        table_megabytes,
        0,
        MAX_TABLE_MEGABYTES,
        "transposition table megabytes (0: none)"
    ),
    crate::threads_option!("threads", threads, "search threads (Lazy SMP)"),
];

crate::core::declared_configuration!(AlphaBetaConfig, "alphabeta options", OPTIONS, {
    fn check_together(&self) -> Result<(), String> {
        if self.depth.is_none() && self.time.is_none() && self.nodes.is_none() {
            return Err("a search needs a limit: `depth`, `ms` or `nodes`".into());
        }
        Ok(())
    }

    /// The default depth only when no other limit is given.
    fn complete(&mut self, given: &[&str]) {
        if !given.contains(&"depth") && (given.contains(&"ms") || given.contains(&"nodes")) {
            self.depth = None;
        }
    }
});

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move to play, `None` only if the state had no legal move.
    pub best_move: Option<M>,
    /// The score of the deepest completed iteration, for the player to move.
    pub score: i32,
    /// The deepest completed iteration (`0` if none completed).
    pub depth: u32,
    /// Nodes visited by all threads.
    pub nodes: u64,
    /// The expected line of play, starting with `best_move`. It may stop
    /// early where the line went through a transposition table hit.
    pub pv: Vec<M>,
    /// The time the search took.
    pub elapsed: Duration,
}

impl<M> SearchResult<M> {
    /// The score as a fraction of the payoff range, in `[-1, 1]`.
    pub fn value(&self) -> f64 {
        f64::from(self.score) / f64::from(SCORE_SCALE)
    }
}

/// An alpha-beta searcher: the configuration and the transposition table,
/// which it keeps from one search to the next.
pub struct AlphaBeta {
    config: AlphaBetaConfig,
    table: Option<TranspositionTable>,
    generation: u8,
    stop_flag: StopFlag,
}

impl AlphaBeta {
    /// A searcher with a table of `config.table_megabytes`; aborts if the
    /// system has not the memory, where [`AlphaBeta::try_new`] returns an
    /// error.
    ///
    /// # Panics
    /// For a configuration [`AlphaBetaConfig::validate`] refuses, saying
    /// what is wrong ([`AlphaBeta::try_new`] returns it).
    pub fn new(config: AlphaBetaConfig) -> Self {
        if let Err(problem) = config.validate() {
            panic!("alphabeta options: {problem}");
        }
        let table =
            (config.table_megabytes > 0).then(|| TranspositionTable::new(config.table_megabytes));
        AlphaBeta {
            config,
            table,
            generation: 0,
            stop_flag: StopFlag::default(),
        }
    }

    /// The searcher of [`AlphaBeta::new`], or an error if the system
    /// refuses the memory of its table.
    ///
    /// # Errors
    /// A configuration [`AlphaBetaConfig::validate`] refuses, or a message
    /// naming the table's size.
    pub fn try_new(config: AlphaBetaConfig) -> Result<Self, String> {
        config.validate()?;
        let table = match config.table_megabytes {
            0 => None,
            megabytes => Some(TranspositionTable::try_new(megabytes)?),
        };
        Ok(AlphaBeta {
            config,
            table,
            generation: 0,
            stop_flag: StopFlag::default(),
        })
    }

    /// The configuration the searcher runs with.
    pub fn config(&self) -> &AlphaBetaConfig {
        &self.config
    }

    /// The bytes of the transposition table (0 without one), all of
    /// which a long run comes to write.
    pub fn table_bytes(&self) -> u64 {
        self.table.as_ref().map_or(0, TranspositionTable::bytes)
    }

    /// Sets the time limit of the searches to come.
    pub fn set_time(&mut self, time: Option<Duration>) {
        self.config.time = time;
    }

    /// Forgets every stored position.
    pub fn clear(&mut self) {
        if let Some(table) = &self.table {
            table.clear();
        }
    }

    /// Ends every later search early, with the deepest iteration it
    /// completed, once `flag` is raised (checked at each depth and every
    /// few hundred nodes).
    pub fn set_stop_flag(&mut self, flag: StopFlag) {
        self.stop_flag = flag;
    }

    /// Searches `state` within the configured limits, with the game's own
    /// evaluation.
    ///
    /// # Errors
    /// If the search reaches a chance event or a simultaneous choice.
    pub fn search<G: Evaluate>(&mut self, state: &G) -> Result<SearchResult<G::Move>, SearchError> {
        self.search_with(state, &GameEvaluation)
    }

    /// Searches `state` within the configured limits, scoring the leaves
    /// that do not end the game with `evaluator` and trying its tactical
    /// moves first. The table keeps scores between searches: clear it
    /// ([`AlphaBeta::clear`]) before searching with another evaluation.
    ///
    /// # Errors
    /// If the search reaches a chance event or a simultaneous choice.
    pub fn search_with<G: Game, E: Evaluator<G>>(
        &mut self,
        state: &G,
        evaluator: &E,
    ) -> Result<SearchResult<G::Move>, SearchError> {
        self.generation = self.generation.wrapping_add(1);
        let started = Instant::now();
        let stop = AtomicBool::new(false);
        let total_nodes = AtomicU64::new(0);
        let unsupported = OnceLock::new();
        let shared = Shared {
            table: self.table.as_ref(),
            stop: &stop,
            unsupported: &unsupported,
            total_nodes: &total_nodes,
            // A time too long to add to the clock is no limit.
            deadline: self.config.time.and_then(|time| started.checked_add(time)),
            time: self.config.time,
            node_limit: self.config.nodes,
            generation: self.generation,
            started,
            interrupt: &self.stop_flag,
        };
        evaluator.set_deadline(shared.deadline);
        let max_depth = self
            .config
            .depth
            .map_or(MAX_DEPTH, |depth| {
                depth.saturating_add(evaluator.root_extension(state))
            })
            .min(MAX_DEPTH);
        let mut result = if self.config.threads <= 1 {
            Worker::new(&shared, evaluator, 0).iterate(state, max_depth)
        } else {
            std::thread::scope(|scope| {
                for helper in 1..self.config.threads {
                    let shared = &shared;
                    scope.spawn(move || {
                        Worker::new(shared, evaluator, helper).iterate(state, max_depth)
                    });
                }
                let result = Worker::new(&shared, evaluator, 0).iterate(state, max_depth);
                stop.store(true, Ordering::Relaxed);
                result
            })
        };
        if let Some(&status) = unsupported.get() {
            return Err(SearchError::unsupported("alpha-beta", status));
        }
        result.nodes = total_nodes.load(Ordering::Relaxed);
        result.elapsed = started.elapsed();
        Ok(result)
    }
}

/// What the threads of one search share.
struct Shared<'a> {
    table: Option<&'a TranspositionTable>,
    stop: &'a AtomicBool,
    /// The status of the first state met that the search cannot go through.
    unsupported: &'a OnceLock<Status>,
    total_nodes: &'a AtomicU64,
    deadline: Option<Instant>,
    time: Option<Duration>,
    node_limit: Option<u64>,
    generation: u8,
    started: Instant,
    /// Raised from outside the search to end it.
    interrupt: &'a StopFlag,
}

/// One search thread with its own move lists and ordering tables.
struct Worker<'a, G: Game, E> {
    shared: &'a Shared<'a>,
    evaluator: &'a E,
    id: usize,
    nodes: u64,
    /// The node count at which the clock is read next.
    next_poll: u64,
    stopped: bool,
    lists: Vec<MoveList<G::Move>>,
    orders: Vec<Vec<(i32, u16)>>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    pv: Vec<Vec<G::Move>>,
    /// The depth of the iteration under way: a line whose ply and
    /// remaining depth add up to more has been extended already.
    iteration_depth: u32,
    /// Whether the evaluator may extend a move ([`Evaluator::may_extend`]),
    /// read once: a search without extensions asks nothing a move.
    extensions: bool,
}

impl<'a, G: Game, E: Evaluator<G>> Worker<'a, G, E> {
    fn new(shared: &'a Shared<'a>, evaluator: &'a E, id: usize) -> Self {
        let plies = MAX_DEPTH as usize + 2;
        Worker {
            shared,
            evaluator,
            id,
            nodes: 0,
            next_poll: POLL_INTERVAL,
            stopped: false,
            lists: (0..plies).map(|_| MoveList::new()).collect(),
            orders: (0..plies).map(|_| Vec::new()).collect(),
            killers: vec![[None; 2]; plies],
            history: vec![0; HISTORY_SLOTS],
            pv: (0..plies).map(|_| Vec::new()).collect(),
            iteration_depth: 0,
            extensions: evaluator.may_extend(),
        }
    }

    /// Iterative deepening; the main thread's result is that of its deepest
    /// completed iteration.
    fn iterate(&mut self, root: &G, max_depth: u32) -> SearchResult<G::Move> {
        let mut result = SearchResult {
            best_move: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            elapsed: Duration::ZERO,
        };
        let me = match root.status() {
            Status::ToMove(me) => me,
            Status::Over(_) => return result,
            other => {
                self.refuse(other);
                return result;
            }
        };
        root.legal_moves(&mut self.lists[0]);
        result.best_move = self.lists[0].first().copied();
        // Helpers start one iteration ahead every other thread, so that they
        // fill the table with results the main thread is about to need.
        let first_depth = 1 + (self.id % 2) as u32;
        for depth in first_depth.min(max_depth)..=max_depth {
            if self.id == 0 && self.next_iteration_would_overrun() || self.shared.interrupt.raised()
            {
                break;
            }
            self.iteration_depth = depth;
            let score = self.negamax(root, me, depth, 0, -INFINITY, INFINITY);
            if self.stopped {
                break;
            }
            result.score = score;
            result.depth = depth;
            result.pv.clone_from(&self.pv[0]);
            result.best_move = self.pv[0].first().copied().or(result.best_move);
        }
        self.shared
            .total_nodes
            .fetch_add(self.nodes, Ordering::Relaxed);
        result
    }

    /// Each iteration takes several times as long as the one before, so one
    /// started after half the time is spent would rarely finish.
    fn next_iteration_would_overrun(&self) -> bool {
        self.shared
            .time
            .is_some_and(|time| self.shared.started.elapsed() * 2 > time)
    }

    fn poll_limits(&mut self) {
        if self.id == 0
            && let Some(limit) = self.shared.node_limit
            && self.nodes >= limit
        {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
        if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + POLL_INTERVAL;
            if self
                .shared
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
                || self.shared.interrupt.raised()
            {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
    }

    /// The score of `state`, where `me` is to move, searched `depth` plies deep.
    fn negamax(
        &mut self,
        state: &G,
        me: Player,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        self.poll_limits();
        if self.stopped {
            return 0;
        }
        self.pv[ply].clear();
        if depth == 0 {
            return evaluation_score(self.evaluator, state, me);
        }
        let hash = state.hash() ^ state.history_key();
        let mut table_move = None;
        if let Some(entry) = self.shared.table.and_then(|table| table.probe(hash)) {
            table_move = entry.move_index;
            let is_null_window = beta - alpha == 1;
            if ply > 0 && is_null_window && u32::from(entry.depth) == depth {
                let cutoff = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => entry.score >= beta,
                    Bound::Upper => entry.score <= alpha,
                };
                if cutoff {
                    return entry.score;
                }
            }
        }

        let mut moves = std::mem::replace(&mut self.lists[ply], MoveList::new());
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            self.lists[ply] = moves;
            return evaluation_score(self.evaluator, state, me);
        }
        let mut order = std::mem::take(&mut self.orders[ply]);
        self.order_moves(state, &moves, table_move, ply, &mut order);

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_index = None;
        for (tried, &(_, index)) in order.iter().enumerate() {
            let mv = moves[usize::from(index)];
            let child_depth = depth - 1 + u32::from(self.extends(state, mv, depth, ply));
            let mut child = state.clone();
            child.play(mv);
            self.pv[ply + 1].clear();
            let score = if tried == 0 {
                self.child_score(&child, me, child_depth, ply + 1, alpha, beta)
            } else {
                let probe = self.child_score(&child, me, child_depth, ply + 1, alpha, alpha + 1);
                if probe > alpha && probe < beta {
                    self.child_score(&child, me, child_depth, ply + 1, alpha, beta)
                } else {
                    probe
                }
            };
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best_index = Some(index);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        self.reward_cutoff(state, mv, depth, ply);
                        break;
                    }
                }
            }
        }
        self.lists[ply] = moves;
        self.orders[ply] = order;
        if self.stopped {
            return 0;
        }
        if let Some(table) = self.shared.table {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let depth = depth.min(u32::from(u8::MAX)) as u8;
            table.store(
                hash,
                TtEntry::new(best_score, depth, bound, best_index),
                self.shared.generation,
            );
        }
        best_score
    }

    /// Whether `mv`, searched with `depth` plies left at `ply`, is searched
    /// one ply deeper: a threat on a line not extended before, and never
    /// past the plies the worker keeps lists for.
    fn extends(&self, state: &G, mv: G::Move, depth: u32, ply: usize) -> bool {
        self.extensions
            && ply as u32 + depth <= self.iteration_depth
            && (ply as u32) + depth < MAX_DEPTH
            && self.evaluator.extends(state, mv)
    }

    /// The score for `me` of `child`, a state reached by `me`'s move.
    fn child_score(
        &mut self,
        child: &G,
        me: Player,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        match child.status() {
            Status::ToMove(next) if next == me => self.negamax(child, me, depth, ply, alpha, beta),
            Status::ToMove(next) => -self.negamax(child, next, depth, ply, -beta, -alpha),
            Status::Over(outcome) => {
                self.nodes += 1;
                payoff_score(child, outcome.payoffs.get(me))
            }
            other @ (Status::Chance | Status::Simultaneous) => {
                self.refuse(other);
                0
            }
        }
    }

    /// Stops every thread's search at a state it cannot search through.
    fn refuse(&mut self, status: Status) {
        let _ = self.shared.unsupported.set(status);
        self.shared.stop.store(true, Ordering::Relaxed);
        self.stopped = true;
    }

    /// Sorts the move indices best first: the table's move, captures, killers,
    /// then the rest by history.
    fn order_moves(
        &self,
        state: &G,
        moves: &[G::Move],
        table_move: Option<u16>,
        ply: usize,
        order: &mut Vec<(i32, u16)>,
    ) {
        const TABLE_MOVE: i32 = i32::MAX;
        const TACTICAL: i32 = 1 << 30;
        const FIRST_KILLER: i32 = (1 << 29) + 1;
        const SECOND_KILLER: i32 = 1 << 29;
        order.clear();
        let [first_killer, second_killer] = self.killers[ply];
        for (index, &mv) in moves.iter().enumerate() {
            let index = index as u16;
            let priority = if Some(index) == table_move {
                TABLE_MOVE
            } else if self.evaluator.is_tactical(state, mv) {
                TACTICAL + self.history[history_slot(&mv)]
            } else if Some(mv) == first_killer {
                FIRST_KILLER
            } else if Some(mv) == second_killer {
                SECOND_KILLER
            } else {
                self.history[history_slot(&mv)] + self.helper_noise(&mv)
            };
            order.push((priority, index));
        }
        // Stable on ties: equal moves keep their generation order.
        order.sort_by_key(|&(priority, _)| std::cmp::Reverse(priority));
    }

    /// Helper threads shuffle quiet moves of equal history differently from
    /// the main thread and from each other, so that they explore other
    /// subtrees first and leave their results in the table.
    fn helper_noise(&self, mv: &G::Move) -> i32 {
        if self.id == 0 {
            return 0;
        }
        let mut hasher = FastHasher::with_seed(self.id as u64);
        mv.hash(&mut hasher);
        (hasher.finish() >> 56) as i32
    }

    /// A quiet move that refuted the opponent becomes a killer at this ply and
    /// gains history in proportion to the work it saved.
    fn reward_cutoff(&mut self, state: &G, mv: G::Move, depth: u32, ply: usize) {
        if self.evaluator.is_tactical(state, mv) {
            return;
        }
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let slot = &mut self.history[history_slot(&mv)];
        *slot = slot.saturating_add((depth * depth) as i32).min(1 << 28);
    }
}

/// A payoff of the game as a score.
fn payoff_score<G: Game>(state: &G, payoff: f64) -> i32 {
    let (low, high) = state.payoff_range();
    let unit = 2.0 * (payoff - low) / (high - low) - 1.0;
    (unit.clamp(-1.0, 1.0) * f64::from(SCORE_SCALE)).round() as i32
}

fn evaluation_score<G: Game>(evaluator: &impl Evaluator<G>, state: &G, me: Player) -> i32 {
    payoff_score(state, evaluator.evaluate(state, me))
}

/// The history-table slot of a move: any `Hash` move type works.
fn history_slot<M: Hash>(mv: &M) -> usize {
    let mut hasher = FastHasher::default();
    mv.hash(&mut hasher);
    (hasher.finish() >> 52) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configuration_built_by_hand_is_checked_by_the_searcher() {
        let refused = |config: AlphaBetaConfig| AlphaBeta::try_new(config).err().expect("refused");
        let too_deep = AlphaBetaConfig {
            depth: Some(101),
            ..AlphaBetaConfig::default()
        };
        assert_eq!(refused(too_deep), "`depth` must be from 1 to 100, not 101");
        let endless = AlphaBetaConfig {
            depth: None,
            ..AlphaBetaConfig::default()
        };
        assert!(refused(endless).contains("needs a limit"));
        assert!(AlphaBeta::try_new(AlphaBetaConfig::default()).is_ok());
    }

    #[test]
    #[should_panic(expected = "alphabeta options: `threads` must be from 1 to")]
    fn the_infallible_constructor_refuses_by_panicking() {
        AlphaBeta::new(AlphaBetaConfig {
            threads: 0,
            ..AlphaBetaConfig::default()
        });
    }

    #[test]
    fn the_printed_configuration_reads_back_to_itself() {
        crate::core::assert_reads_back::<AlphaBetaConfig>(&[
            "",
            "ms=100",
            "nodes=5000,tt=0",
            "depth=3,ms=100,threads=2",
        ]);
        assert_eq!(
            AlphaBetaConfig::default().to_string(),
            "depth=4,tt=16,threads=1"
        );
    }
}
