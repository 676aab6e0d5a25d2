//! The runners that grow the trees: one tree alone, one tree shared by
//! every thread (tree parallelism), or one tree a thread (root
//! parallelism, on the runner the searchers share).

use super::tree::Tree;
use super::{Mcts, MctsConfig, Parallelism};
use crate::core::{Evaluator, Game, GameRng, MoveList, derive_seed, rng_from_seed};
use crate::search::StopFlag;
use crate::search::parallel::{grow_in_parallel, iteration_share};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

impl<G: Game, E: Evaluator<G>> Mcts<G, E> {
    /// Grows the trees (a shared tree with every thread, or each tree
    /// alone, side by side on the threads) by `iterations` in all, or until
    /// `deadline`; returns the iterations run.
    pub(super) fn grow_trees(
        &mut self,
        iterations: Option<u64>,
        deadline: Option<Instant>,
        search_seed: u64,
    ) -> u64 {
        let (config, evaluator, stop) = (&self.config, &self.evaluator, &self.stop_flag);
        match (config.parallelism, &self.pool) {
            (Parallelism::Tree, Some(pool)) => {
                let tree = Mutex::new(self.trees.pop().expect("one tree"));
                let limits = Limits {
                    iterations,
                    deadline,
                    stop,
                };
                let ran = run_shared_tree(&tree, evaluator, config, &limits, search_seed, pool);
                self.trees
                    .push(tree.into_inner().expect("no thread panicked"));
                ran
            }
            (_, pool) => {
                let tree_count = self.trees.len();
                let trees: Vec<(usize, &mut Tree<G>)> = self.trees.iter_mut().enumerate().collect();
                let grown = grow_in_parallel(pool.as_ref(), trees, |(index, tree)| {
                    let mut rng = rng_from_seed(derive_seed(search_seed, index as u64));
                    let limits = Limits {
                        iterations: iterations
                            .map(|total| iteration_share(total, tree_count, index)),
                        deadline,
                        stop,
                    };
                    run_tree(tree, evaluator, config, &limits, &mut rng)
                });
                grown.into_iter().sum()
            }
        }
    }
}

/// When a runner stops: after its iterations, at the deadline, or when
/// the stop flag is raised, whichever comes first.
struct Limits<'a> {
    iterations: Option<u64>,
    deadline: Option<Instant>,
    stop: &'a StopFlag,
}

impl Limits<'_> {
    /// Whether the time is up or the search was stopped: never before the
    /// first iteration (the machine may have paused the search before it
    /// began), so that a root move is expanded to choose.
    fn out_of_time(&self, ran: u64) -> bool {
        ran > 0
            && (self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
                || self.stop.raised())
    }
}

/// Grows one tree alone; returns the iterations run.
fn run_tree<G: Game>(
    tree: &mut Tree<G>,
    evaluator: &impl Evaluator<G>,
    config: &MctsConfig,
    limits: &Limits<'_>,
    rng: &mut GameRng,
) -> u64 {
    let mut moves = MoveList::new();
    let mut path = Vec::new();
    let mut ran = 0;
    while limits.iterations.is_none_or(|limit| ran < limit)
        && !limits.out_of_time(ran)
        && !(config.solver && tree.is_solved())
        && tree.unsupported.is_none()
    {
        tree.iterate(evaluator, config, rng, &mut moves, &mut path);
        ran += 1;
    }
    ran
}

/// Grows one tree with every thread of `pool`: selection and back-up hold the
/// lock; replaying the path, building the new child and the simulation run
/// outside it. As in [`run_tree`], one iteration runs past the deadline.
fn run_shared_tree<G: Game>(
    tree: &Mutex<Tree<G>>,
    evaluator: &impl Evaluator<G>,
    config: &MctsConfig,
    limits: &Limits<'_>,
    seed: u64,
    pool: &rayon::ThreadPool,
) -> u64 {
    let claimed = AtomicU64::new(0);
    let ran = AtomicU64::new(0);
    let root_state = tree.lock().expect("no thread panicked").root_state.clone();
    pool.scope(|scope| {
        for worker in 0..config.threads {
            let (claimed, ran, root_state) = (&claimed, &ran, &root_state);
            scope.spawn(move |_| {
                let mut rng = rng_from_seed(derive_seed(seed, worker as u64));
                let mut moves = MoveList::new();
                let mut path = Vec::new();
                loop {
                    if limits.out_of_time(ran.load(Ordering::Relaxed)) {
                        break;
                    }
                    if limits
                        .iterations
                        .is_some_and(|limit| claimed.fetch_add(1, Ordering::Relaxed) >= limit)
                    {
                        break;
                    }
                    let selection = {
                        let mut tree = tree.lock().expect("no thread panicked");
                        if (config.solver && tree.is_solved()) || tree.unsupported.is_some() {
                            break;
                        }
                        tree.select(config, &mut path)
                    };
                    let simulation = Tree::simulate_selection(
                        root_state, &path, &selection, evaluator, config, &mut rng, &mut moves,
                    );
                    tree.lock()
                        .expect("no thread panicked")
                        .finish_iteration(selection, simulation, config);
                    ran.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    ran.into_inner()
}

#[cfg(test)]
mod tests {
    use super::super::test_game::{Pile, even};
    use super::*;

    fn config(threads: usize, parallelism: Parallelism) -> MctsConfig {
        MctsConfig {
            iterations: Some(600),
            threads,
            parallelism,
            playout_plies: None,
            ..MctsConfig::default()
        }
    }

    fn fresh_tree(tokens: u32) -> Tree<Pile> {
        let config = MctsConfig::default();
        Tree::new(
            &Pile::of(tokens),
            &even,
            &config,
            &mut rng_from_seed(1),
            Vec::new(),
        )
    }

    #[test]
    fn a_tree_grown_alone_runs_its_iterations_or_stops_when_solved() {
        let grow = |tokens| {
            let mut tree = fresh_tree(tokens);
            let config = MctsConfig::default();
            let limits = Limits {
                iterations: Some(250),
                deadline: None,
                stop: &StopFlag::default(),
            };
            let ran = run_tree(&mut tree, &even, &config, &limits, &mut rng_from_seed(2));
            (tree, ran)
        };
        let (tree, ran) = grow(40);
        assert_eq!((ran, u64::from(tree.nodes[0].visits)), (250, 250));
        // Three tokens are won at once: the first iterations prove it.
        let (tree, ran) = grow(3);
        assert!(tree.is_solved() && ran < 250, "{ran}");
    }

    /// A raised stop flag ends a search after its first iteration, alone
    /// or on a shared tree.
    #[test]
    fn a_raised_stop_flag_ends_the_runners() {
        let raised = StopFlag::new(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(
            true,
        )));
        let limits = Limits {
            iterations: Some(10_000),
            deadline: None,
            stop: &raised,
        };
        let alone = MctsConfig::default();
        let mut tree = fresh_tree(40);
        assert_eq!(
            run_tree(&mut tree, &even, &alone, &limits, &mut rng_from_seed(2)),
            1
        );
        let pool = crate::core::thread_pool(2).unwrap();
        let shared = Mutex::new(fresh_tree(40));
        let ran = run_shared_tree(
            &shared,
            &even,
            &config(2, Parallelism::Tree),
            &limits,
            5,
            &pool,
        );
        assert!(ran <= 2, "{ran}");
    }

    #[test]
    fn a_shared_tree_runs_exactly_its_iterations_and_settles_every_virtual_loss() {
        let config = config(2, Parallelism::Tree);
        let pool = crate::core::thread_pool(2).unwrap();
        let tree = Mutex::new(fresh_tree(40));
        let limits = Limits {
            iterations: Some(600),
            deadline: None,
            stop: &StopFlag::default(),
        };
        let ran = run_shared_tree(&tree, &even, &config, &limits, 5, &pool);
        let tree = tree.into_inner().unwrap();
        assert_eq!((ran, tree.nodes[0].visits), (600, 600));
        assert!(tree.nodes.iter().all(|node| node.virtual_loss == 0));
    }

    #[test]
    fn root_parallel_trees_share_the_iterations_and_repeat_for_a_seed() {
        let search = |threads| {
            let mut search = Mcts::with_evaluator(config(threads, Parallelism::Root), 9, even)
                .expect("threads start");
            let result = search.search(&Pile::of(40)).unwrap();
            let visits: Vec<u64> = search
                .trees
                .iter()
                .map(|t| t.nodes[0].visits.into())
                .collect();
            (result, visits)
        };
        let (result, visits) = search(3);
        assert_eq!((result.iterations, visits), (600, vec![200, 200, 200]));
        assert_eq!(
            result.moves.iter().map(|stats| stats.visits).sum::<u64>(),
            600
        );
        assert_eq!(
            search(3).0.moves,
            result.moves,
            "the same seed, the same search"
        );
        let (result, visits) = search(4);
        assert_eq!((result.iterations, visits), (600, vec![150, 150, 150, 150]));
    }
}
