//! Exact solutions as reports: a position of a cooperative game solved (a
//! winning line or the proof there is none, and how good the best winning
//! line is), the statistics of many seeded deals solved with the bounds of
//! their objectives, and the equilibria of games with simultaneous moves.

mod bounds;
mod equilibrium;
mod solve;

pub use bounds::{DealBounds, bound_objectives};
pub use equilibrium::{ChoiceShare, EquilibriumReport, ForcedShares, solve_rounds};
pub use solve::{
    BoundsEntry, DealEntry, DealsReport, ObjectiveSummary, SolveReport, solve_deals, solve_position,
};
