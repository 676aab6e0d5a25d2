//! Objective bounds over many seeded deals: how safely and how quickly a
//! perfect team can win, deal by deal, within a node budget per question.

use crate::arena::winrate::{WinRateRun, deal};
use crate::core::{Evaluate, Objective, Stochastic, thread_pool};
use crate::search::{CoopSolver, ObjectiveBounds, SearchError, Verdict};
use rayon::prelude::*;
use std::sync::Mutex;

/// What the solver proved about one deal.
#[derive(Clone, Debug, PartialEq)]
pub struct DealBounds<M> {
    /// The deal's index in the run.
    pub index: u64,
    /// Whether the deal can be won (within the budget).
    pub verdict: Verdict,
    /// One entry per objective, for deals that can be won.
    pub bounds: Vec<ObjectiveBounds<M>>,
}

/// Solves deals `0..run.deals` (dealt as [`crate::arena::winrate::estimate_win_rate`]
/// deals them) and, for each deal that can be won, bounds each objective
/// with at most `budget` states per objective. `on_deal_done` is called
/// after each deal.
///
/// # Errors
/// If the thread pool cannot be created or the solver meets a state it
/// cannot search (the error of the first such deal).
pub fn bound_objectives<G: Stochastic + Evaluate>(
    rules: &G::Rules,
    objectives: &[&dyn Objective<G>],
    run: WinRateRun,
    budget: u64,
    on_deal_done: &(dyn Fn() + Sync),
) -> Result<Vec<DealBounds<G::Move>>, String> {
    run.validate()?;
    let pool = thread_pool(run.threads)?;
    let solvers: Mutex<Vec<CoopSolver<G>>> = Mutex::new(Vec::new());
    pool.install(|| {
        (0..run.deals)
            .into_par_iter()
            .map(|index| {
                let idle = solvers.lock().expect("no solver panicked").pop();
                let mut solver = idle.unwrap_or_default();
                let dealt: G = deal(rules, run.master_seed, index);
                let bounded =
                    bound_deal(&mut solver, &dealt, objectives, budget).map(|(verdict, bounds)| {
                        DealBounds {
                            index,
                            verdict,
                            bounds,
                        }
                    });
                solvers.lock().expect("no solver panicked").push(solver);
                on_deal_done();
                bounded.map_err(|error| format!("deal {index}: {error}"))
            })
            .collect()
    })
}

/// The verdict on a deal and, if it can be won, the bounds of each objective.
type Bounded<M> = (Verdict, Vec<ObjectiveBounds<M>>);

/// The verdict on one deal and, if it can be won, the bounds of each objective.
fn bound_deal<G: Evaluate>(
    solver: &mut CoopSolver<G>,
    dealt: &G,
    objectives: &[&dyn Objective<G>],
    budget: u64,
) -> Result<Bounded<G::Move>, SearchError> {
    let verdict = solver.solve_within(dealt, budget)?.verdict;
    let bounds = if verdict == Verdict::Win {
        objectives
            .iter()
            .map(|objective| solver.objective_bounds(dealt, *objective, budget))
            .collect::<Result<_, _>>()?
    } else {
        Vec::new()
    };
    Ok((verdict, bounds))
}
