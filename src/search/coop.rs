//! An exact solver for cooperative games with perfect information and no
//! chance: can the team force a win, and along which line?
//!
//! When every player shares one payoff, every decision belongs to the team,
//! so the game tree is a tree of "or" nodes: a state is won if some move
//! leads to a won state. The solver searches depth first, tries moves in the
//! order of the game's [`Evaluate`] (most promising first), stops at the
//! first win, and remembers proven losses in a transposition table keyed by
//! [`Game::hash`], so that a state reached along many routes is refuted once.
//!
//! The bounded mode looks for the best winning line under an [`Objective`]
//! (how safely, how fast) within a node budget, and reports the proven range
//! of the best value: the value of the best line found, and the best value
//! that has not been refuted.
//!
//! Requirements on the game: deterministic and finite (a search that meets
//! a chance event or a simultaneous choice stops with a [`SearchError`]), the
//! team's payoff is player 0's and a win is a payoff equal to the top of
//! [`Game::payoff_range`], and [`Game::hash`] identifies everything that
//! decides the rest of the game. Two different states with one 64-bit hash
//! would share table entries; at the sizes searched here that chance is
//! negligible, and the table never turns a loss into a win (a winning line
//! is always replayed in full, never read from the table).

use super::SearchError;
use crate::core::{Evaluate, Game, MoveList, Objective, Sense, Status};

/// What the search proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// The team can force a win.
    Win,
    /// No line wins.
    Loss,
    /// The node budget ran out first.
    Unknown,
}

/// The answer for one position: the verdict, a winning line when there is
/// one, and the number of states expanded.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution<M> {
    /// Whether the team can force a win from the position, or the budget
    /// ran out before the search knew.
    pub verdict: Verdict,
    /// The moves of a winning line from the root (empty unless `Win`).
    pub line: Vec<M>,
    /// The states the search expanded: its cost.
    pub nodes: u64,
}

/// What a bounded search proved about the best value of a winning line.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectiveBounds<M> {
    /// The name of the objective the bounds are about.
    pub objective: &'static str,
    /// Whether the objective is to be made as large or as small as possible.
    pub sense: Sense,
    /// The value of the best winning line found (`None` if none was found).
    pub achieved: Option<i64>,
    /// No winning line is better than this: the optimistic bound, tightened
    /// by every refuted target.
    pub limit: i64,
    /// The best winning line found.
    pub line: Vec<M>,
    /// The states the searches expanded, over every target tried.
    pub nodes: u64,
}

impl<M> ObjectiveBounds<M> {
    /// The proven lower bound on the best value, if one is proven.
    pub fn lower(&self) -> Option<i64> {
        match self.sense {
            Sense::Maximize => self.achieved,
            Sense::Minimize => Some(self.limit),
        }
    }

    /// The proven upper bound on the best value, if one is proven.
    pub fn upper(&self) -> Option<i64> {
        match self.sense {
            Sense::Maximize => Some(self.limit),
            Sense::Minimize => self.achieved,
        }
    }

    /// Whether the best value is known exactly.
    pub fn is_exact(&self) -> bool {
        self.achieved == Some(self.limit)
    }
}

/// The search's answer for one state, internally.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Search {
    Win,
    Loss,
    OutOfBudget,
    /// A state the solver cannot search through, with its status.
    Unsupported(Status),
}

/// The error of a search that met a state it cannot go through.
fn unsupported(status: Status) -> SearchError {
    SearchError::unsupported("the cooperative solver", status)
}

/// Plies still allowed; this value means "no limit".
const UNLIMITED: u32 = u32::MAX;

/// What lines may do: every state admitted, at most a number of plies.
trait Restriction<G> {
    fn admits(&self, state: &G) -> bool;
    fn plies_to_win_lower_bound(&self, state: &G) -> u32;
}

/// The plain question: any win at all.
struct AnyWin;

impl<G> Restriction<G> for AnyWin {
    fn admits(&self, _state: &G) -> bool {
        true
    }

    fn plies_to_win_lower_bound(&self, _state: &G) -> u32 {
        0
    }
}

/// A win worth at least (at most) `target` under `objective`.
struct Target<'a, O: ?Sized> {
    objective: &'a O,
    target: i64,
}

impl<G: Game, O: Objective<G> + ?Sized> Restriction<G> for Target<'_, O> {
    fn admits(&self, state: &G) -> bool {
        self.objective.admits(state, self.target)
    }

    fn plies_to_win_lower_bound(&self, state: &G) -> u32 {
        self.objective.plies_to_win_lower_bound(state)
    }
}

/// One entry of the table of proven losses: no admitted win from the state
/// with `key` within `plies` plies (or at all, for [`UNLIMITED`]).
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    plies: u32,
    generation: u32,
}

/// Entries per bucket: a bucket is one 64-byte cache line.
const WAYS: usize = 4;

/// A fixed-size table of proven losses, four entries per bucket. Starting a
/// new search bumps the generation instead of clearing memory, so solving
/// many small positions in a row costs nothing per position. When a bucket
/// is full, the entry with the least work behind it (fewest plies) or from an
/// older search is replaced: losing an entry only costs a repeated search.
struct LossTable {
    entries: Vec<Entry>,
    mask: usize,
    generation: u32,
}

impl LossTable {
    fn new(bits: u32) -> LossTable {
        let buckets = 1usize << bits;
        LossTable {
            entries: vec![Entry::default(); buckets * WAYS],
            mask: buckets - 1,
            generation: 1,
        }
    }

    fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Entries of generation 0 are empty; after a wrap-around, clear
            // them for real so that no stale entry looks current.
            self.entries.fill(Entry::default());
            self.generation = 1;
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key as usize & self.mask) * WAYS
    }

    /// Whether `key` is proven lost with `plies` plies to go.
    #[inline]
    fn is_lost(&self, key: u64, plies: u32) -> bool {
        let start = self.bucket(key);
        self.entries[start..start + WAYS]
            .iter()
            .any(|e| e.generation == self.generation && e.key == key && e.plies >= plies)
    }

    #[inline]
    fn record_loss(&mut self, key: u64, plies: u32) {
        let start = self.bucket(key);
        let generation = self.generation;
        let bucket = &mut self.entries[start..start + WAYS];
        let slot = bucket
            .iter()
            .position(|e| e.generation == generation && e.key == key)
            .unwrap_or_else(|| {
                (0..WAYS)
                    .min_by_key(|&i| {
                        let e = &bucket[i];
                        (e.generation == generation, e.plies)
                    })
                    .expect("buckets are not empty")
            });
        let entry = &mut bucket[slot];
        if entry.generation == generation && entry.key == key && entry.plies >= plies {
            return;
        }
        *entry = Entry {
            key,
            plies,
            generation,
        };
    }
}

/// A child waiting to be searched, with its evaluation for ordering.
struct Child<G: Game> {
    score: f64,
    mv: G::Move,
    state: G,
}

/// The cooperative solver. Keep one per thread and reuse it: the table and
/// the move lists are allocated once.
pub struct CoopSolver<G: Game> {
    table: LossTable,
    lists: Vec<MoveList<G::Move>>,
    frames: Vec<Vec<Child<G>>>,
    /// The winning line, collected in reverse as the search unwinds.
    reversed_line: Vec<G::Move>,
    nodes: u64,
    budget: u64,
}

impl<G: Game + Evaluate> Default for CoopSolver<G> {
    fn default() -> Self {
        CoopSolver::new()
    }
}

impl<G: Game + Evaluate> CoopSolver<G> {
    /// The default table size: 2^18 buckets of 4 entries (16 MiB).
    pub const DEFAULT_TABLE_BITS: u32 = 18;

    /// A solver with a table of [`Self::DEFAULT_TABLE_BITS`].
    pub fn new() -> Self {
        CoopSolver::with_table_bits(Self::DEFAULT_TABLE_BITS)
    }

    /// A solver whose table has `2^bits` buckets of four 16-byte entries.
    pub fn with_table_bits(bits: u32) -> Self {
        CoopSolver {
            table: LossTable::new(bits),
            lists: Vec::new(),
            frames: Vec::new(),
            reversed_line: Vec::new(),
            nodes: 0,
            budget: u64::MAX,
        }
    }

    /// Solves `root` exactly: whether the team can force a win, and a
    /// winning line if so.
    ///
    /// # Errors
    /// If the search meets a chance event or a simultaneous choice.
    pub fn solve(&mut self, root: &G) -> Result<Solution<G::Move>, SearchError> {
        self.solve_within(root, u64::MAX)
    }

    /// [`solve`](CoopSolver::solve) expanding at most `budget` states; the
    /// verdict is [`Verdict::Unknown`] if the budget runs out first.
    ///
    /// # Errors
    /// As [`solve`](CoopSolver::solve).
    pub fn solve_within(
        &mut self,
        root: &G,
        budget: u64,
    ) -> Result<Solution<G::Move>, SearchError> {
        self.run(root, &AnyWin, UNLIMITED, budget)
    }

    /// Searches for the best winning line from `root` under `objective`,
    /// expanding at most `budget` states in all, and reports what it proved.
    ///
    /// After finding any winning line it works from both ends of the range
    /// that is still open, in turn: it asks for a line better than the best
    /// one found (a line found improves the best value, a refutation proves
    /// it optimal), and for a line as good as the optimistic bound (a
    /// refutation tightens the bound by one, a line found closes the range).
    /// Each question gets at most half of the remaining budget while the
    /// other end is still open, so that one hard question cannot use up the
    /// budget of both.
    ///
    /// # Errors
    /// As [`solve`](CoopSolver::solve).
    pub fn objective_bounds<O: Objective<G> + ?Sized>(
        &mut self,
        root: &G,
        objective: &O,
        budget: u64,
    ) -> Result<ObjectiveBounds<G::Move>, SearchError> {
        let sense = objective.sense();
        // Work with "goodness", larger is better, whatever the sense.
        let good = |value: i64| match sense {
            Sense::Maximize => value,
            Sense::Minimize => -value,
        };
        let mut bounds = ObjectiveBounds {
            objective: objective.name(),
            sense,
            achieved: None,
            limit: objective.optimistic(root),
            line: Vec::new(),
            nodes: 0,
        };
        let first = self.solve_within(root, budget)?;
        bounds.nodes = first.nodes;
        if first.verdict != Verdict::Win {
            // Without a winning line there is nothing to measure.
            return Ok(bounds);
        }
        bounds.achieved = Some(objective.line_value(root, &first.line));
        bounds.line = first.line;
        // Which ends of the open range still make progress.
        let mut open = [true, true];
        let mut end = 0;
        while let Some(achieved) = bounds.achieved
            && good(achieved) < good(bounds.limit)
            && open.contains(&true)
            && bounds.nodes < budget
        {
            if !open[end] {
                end = 1 - end;
            }
            let improving = end == 0;
            let target_good = if improving {
                good(achieved) + 1
            } else {
                good(bounds.limit)
            };
            let target = good(target_good);
            let remaining = budget - bounds.nodes;
            let share = if open[1 - end] {
                remaining.div_ceil(2)
            } else {
                remaining
            };
            let restriction = Target { objective, target };
            let plies = objective.ply_limit(target).unwrap_or(UNLIMITED);
            let answer = self.run(root, &restriction, plies, share)?;
            bounds.nodes += answer.nodes;
            match answer.verdict {
                Verdict::Win => {
                    let value = objective.line_value(root, &answer.line);
                    debug_assert!(!sense.better(target, value), "a line below its target");
                    bounds.achieved = Some(value);
                    bounds.line = answer.line;
                }
                Verdict::Loss => bounds.limit = good(target_good - 1),
                Verdict::Unknown => open[end] = false,
            }
            end = 1 - end;
        }
        Ok(bounds)
    }

    /// One search from the root with a fresh table generation.
    fn run<R: Restriction<G>>(
        &mut self,
        root: &G,
        restriction: &R,
        plies: u32,
        budget: u64,
    ) -> Result<Solution<G::Move>, SearchError> {
        self.table.new_search();
        self.nodes = 0;
        self.budget = budget;
        self.reversed_line.clear();
        let verdict = match root.status() {
            Status::Over(outcome) => {
                if is_team_win(root, outcome.payoffs.get(0)) && restriction.admits(root) {
                    Verdict::Win
                } else {
                    Verdict::Loss
                }
            }
            Status::ToMove(_) => {
                if !restriction.admits(root) {
                    Verdict::Loss
                } else {
                    match self.search(root, 0, plies, restriction) {
                        Search::Win => Verdict::Win,
                        Search::Loss => Verdict::Loss,
                        Search::OutOfBudget => Verdict::Unknown,
                        Search::Unsupported(status) => return Err(unsupported(status)),
                    }
                }
            }
            status @ (Status::Chance | Status::Simultaneous) => return Err(unsupported(status)),
        };
        let mut line: Vec<G::Move> = self.reversed_line.drain(..).collect();
        line.reverse();
        Ok(Solution {
            verdict,
            line,
            nodes: self.nodes,
        })
    }

    /// Searches a non-terminal, admitted state with `plies` plies to go.
    fn search<R: Restriction<G>>(
        &mut self,
        state: &G,
        depth: usize,
        plies: u32,
        restriction: &R,
    ) -> Search {
        if plies == 0 {
            return Search::Loss;
        }
        if self.nodes >= self.budget {
            return Search::OutOfBudget;
        }
        self.nodes += 1;
        if self.lists.len() <= depth {
            self.lists.resize_with(depth + 1, MoveList::new);
            self.frames.resize_with(depth + 1, Vec::new);
        }
        let child_plies = if plies == UNLIMITED {
            UNLIMITED
        } else {
            plies - 1
        };
        let mut moves = std::mem::replace(&mut self.lists[depth], MoveList::new());
        let mut children = std::mem::take(&mut self.frames[depth]);
        children.clear();
        state.legal_moves(&mut moves);
        let mut result = Search::Loss;
        for &mv in moves.iter() {
            let mut child = state.clone();
            child.play(mv);
            match child.status() {
                Status::Over(outcome) => {
                    if is_team_win(&child, outcome.payoffs.get(0)) && restriction.admits(&child) {
                        self.reversed_line.push(mv);
                        result = Search::Win;
                        break;
                    }
                }
                Status::ToMove(_) => {
                    let hopeless = !restriction.admits(&child)
                        || (child_plies != UNLIMITED
                            && restriction.plies_to_win_lower_bound(&child) > child_plies)
                        || self.table.is_lost(child.hash(), child_plies);
                    if !hopeless {
                        children.push(Child {
                            score: child.evaluate(0),
                            mv,
                            state: child,
                        });
                    }
                }
                status @ (Status::Chance | Status::Simultaneous) => {
                    result = Search::Unsupported(status);
                    break;
                }
            }
        }
        if result == Search::Loss {
            // Most promising first; the sort is stable, so equal scores keep
            // the game's move order and the search stays deterministic.
            children.sort_by(|a, b| b.score.total_cmp(&a.score));
            for child in &children {
                match self.search(&child.state, depth + 1, child_plies, restriction) {
                    Search::Loss => {}
                    Search::Win => {
                        self.reversed_line.push(child.mv);
                        result = Search::Win;
                        break;
                    }
                    stopped @ (Search::OutOfBudget | Search::Unsupported(_)) => {
                        result = stopped;
                        break;
                    }
                }
            }
        }
        self.lists[depth] = moves;
        self.frames[depth] = children;
        if result == Search::Loss {
            self.table.record_loss(state.hash(), plies);
        }
        result
    }
}

/// Whether `payoff` is the team's best possible payoff in `state`'s game.
fn is_team_win<G: Game>(state: &G, payoff: f64) -> bool {
    payoff >= state.payoff_range().1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{IllegalMove, NoRules, Outcome, Player, Scoring};

    /// A toy cooperative game unrelated to any real one: a token climbs by 1,
    /// 2 or 3 from 0 and must stop exactly on `goal`; passing it or stopping
    /// on a trap loses. Many routes reach each tile at different depths, which
    /// is what the table's ply bookkeeping must get right.
    #[derive(Clone, Debug, PartialEq)]
    struct Climb {
        at: u32,
        goal: u32,
        traps: u64,
        ply: u32,
    }

    impl Game for Climb {
        type Move = u32;
        type Rules = NoRules;
        const NAME: &'static str = "climb";
        const SCORING: Scoring = Scoring::Team;

        fn new(_: NoRules) -> Self {
            Climb {
                at: 0,
                goal: 10,
                traps: 0,
                ply: 0,
            }
        }
        fn rules(&self) -> &NoRules {
            &NoRules
        }
        fn num_players(&self) -> usize {
            1
        }
        fn status(&self) -> Status {
            let lost = self.at > self.goal || self.traps & (1 << self.at) != 0;
            match (self.at == self.goal, lost) {
                (true, _) => Status::Over(Outcome::team(1, true, "goal")),
                (_, true) => Status::Over(Outcome::team(1, false, "lost")),
                _ => Status::ToMove(0 as Player),
            }
        }
        fn legal_moves(&self, moves: &mut MoveList<u32>) {
            moves.clear();
            if !self.status().is_over() {
                moves.extend([1, 2, 3]);
            }
        }
        fn play(&mut self, step: u32) {
            self.at += step;
            self.ply += 1;
        }
        fn try_play(&mut self, step: u32) -> Result<(), IllegalMove> {
            if self.status().is_over() || !(1..=3).contains(&step) {
                return Err(IllegalMove::new("no such step"));
            }
            self.play(step);
            Ok(())
        }
        fn hash(&self) -> u64 {
            crate::core::zobrist::splitmix64(u64::from(self.at)).1
        }
        fn ply(&self) -> u32 {
            self.ply
        }
    }

    impl Evaluate for Climb {
        /// Prefers short steps, so that the first line found is long.
        fn evaluate(&self, _: Player) -> f64 {
            0.5 - f64::from(self.at) / f64::from(4 * self.goal + 4)
        }
    }

    struct FewestSteps;

    impl Objective<Climb> for FewestSteps {
        fn name(&self) -> &'static str {
            "fewest-steps"
        }

        fn unit(&self) -> &'static str {
            "steps"
        }
        fn sense(&self) -> Sense {
            Sense::Minimize
        }
        fn optimistic(&self, root: &Climb) -> i64 {
            i64::from((root.goal - root.at).div_ceil(3))
        }
        fn line_value(&self, _: &Climb, line: &[u32]) -> i64 {
            line.len() as i64
        }
        fn ply_limit(&self, target: i64) -> Option<u32> {
            Some(target as u32)
        }
    }

    /// Fewest steps to the goal by breadth-first search, if it can be reached.
    fn fewest_steps(goal: u32, traps: u64) -> Option<i64> {
        let mut distance = vec![None; goal as usize + 1];
        distance[0] = Some(0);
        for at in 0..goal as usize {
            if traps & (1 << at) != 0 {
                continue;
            }
            if let Some(d) = distance[at] {
                for step in 1..=3 {
                    if at + step <= goal as usize && distance[at + step].is_none() {
                        distance[at + step] = Some(d + 1);
                    }
                }
            }
        }
        distance[goal as usize].filter(|_| traps & (1 << goal) == 0)
    }

    #[test]
    fn a_toy_game_is_solved_exactly_with_its_fewest_steps() {
        let mut solver = CoopSolver::with_table_bits(4);
        let mut wins = 0;
        for goal in 4..40u32 {
            for pattern in 0..16u64 {
                // Traps on tiles 1..goal chosen by a small hash of the pattern.
                let traps = (crate::core::zobrist::splitmix64(pattern * 64 + u64::from(goal)).1
                    & ((1u64 << goal) - 2))
                    & crate::core::zobrist::splitmix64(pattern).1;
                let root = Climb {
                    at: 0,
                    goal,
                    traps,
                    ply: 0,
                };
                let truth = fewest_steps(goal, traps);
                let solution = solver.solve(&root).unwrap();
                assert_eq!(
                    solution.verdict == Verdict::Win,
                    truth.is_some(),
                    "{goal} {traps:b}"
                );
                let bounds = solver
                    .objective_bounds(&root, &FewestSteps, u64::MAX)
                    .unwrap();
                if let Some(fewest) = truth {
                    wins += 1;
                    assert!(bounds.is_exact(), "{bounds:?}");
                    assert_eq!(bounds.achieved, Some(fewest), "{goal} {traps:b}");
                    let mut state = root.clone();
                    for &step in &bounds.line {
                        state.try_play(step).unwrap();
                    }
                    assert_eq!(state.at, goal);
                }
            }
        }
        assert!(wins > 100);
    }

    #[test]
    fn the_table_remembers_losses_for_the_current_search_only() {
        let mut table = LossTable::new(4);
        table.record_loss(42, 7);
        assert!(table.is_lost(42, 7));
        assert!(table.is_lost(42, 3), "a loss in 7 plies is a loss in fewer");
        assert!(!table.is_lost(42, 8));
        assert!(!table.is_lost(43, 1));
        table.new_search();
        assert!(!table.is_lost(42, 1));
    }

    #[test]
    fn a_full_bucket_replaces_its_shallowest_entry() {
        let mut table = LossTable::new(0);
        for key in 0..WAYS as u64 {
            table.record_loss(key, 10 + key as u32);
        }
        table.record_loss(100, 50);
        assert!(table.is_lost(100, 50));
        assert!(
            !table.is_lost(0, 10),
            "the entry with the fewest plies goes"
        );
        assert!((1..WAYS as u64).all(|key| table.is_lost(key, 10)));
    }
}
