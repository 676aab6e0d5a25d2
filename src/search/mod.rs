//! Generic searchers. They know a game only through the traits of
//! [`crate::core`], so every game that implements those traits gets them.
//!
//! - [`perft`]: move-sequence counts, the check of a move generator;
//! - [`AlphaBeta`]: alpha-beta for two-player zero-sum games;
//! - [`Mcts`]: Monte Carlo tree search for any number of players;
//! - [`Ismcts`]: information-set MCTS for games with hidden information;
//! - [`MatrixGame`]: two-player zero-sum matrix games, solved exactly by
//!   linear programming or approximately by regret matching;
//! - [`SimultaneousSolver`]: exact backward induction for two-player
//!   zero-sum games with simultaneous moves;
//! - [`SmMcts`]: simultaneous-move MCTS (decoupled UCT, regret matching);
//! - [`guided`]: PUCT and Gumbel searches guided by a policy and a value,
//!   over batches of games;
//! - [`SelectionPolicy`]: how the tree searches score children (UCB1,
//!   PUCT), written once for all of them.

mod alphabeta;
mod coop;
mod error;
pub mod guided;
mod ismcts;
mod matrix;
mod mcts;
pub(crate) mod options;
mod parallel;
mod perft;
mod selection;
mod shallow;
mod simultaneous;
mod smmcts;
mod stop;
mod tempo;
mod tt;
mod widening;

pub use alphabeta::{AlphaBeta, AlphaBetaConfig, SCORE_SCALE, SearchResult};
pub use coop::{CoopSolver, ObjectiveBounds, Solution, Verdict};
pub use error::SearchError;
pub use ismcts::{
    Ismcts, IsmctsConfig, IsmctsMoveStats, IsmctsResult, MAX_ISMCTS_ITERATIONS, MoveOrder,
    RandomPlayout,
};
pub use matrix::{
    MAX_TABLEAU_ENTRIES, MatrixError, MatrixGame, MatrixSolution, regret_matching,
    regret_matching_plus, value_3x3,
};
pub use mcts::{
    Expansion, FinalChoice, MAX_CHECK_DEPTH, MAX_MCTS_ITERATIONS, MAX_TREE_NODES, Mcts, MctsConfig,
    MctsResult, MoveStats, Parallelism,
};
pub use perft::{Divided, perft, perft_divide, perft_parallel};
pub use selection::{
    Candidate, ImplicitMinimax, ProgressiveBias, Puct, SelectionPolicy, Uct, blend,
};
pub use shallow::{MAX_SHALLOW_DEPTH, ShallowSearch};
pub use simultaneous::{
    BYTES_PER_SOLVED_STATE, JointChoices, SimultaneousSolveError, SimultaneousSolver,
    StageSolution, joint_matrix,
};
pub(crate) use smmcts::draw_index;
pub use smmcts::{Selection, SmMcts, SmMctsConfig, SmMctsResult};
pub use stop::StopFlag;
pub use tempo::{MAX_TEMPO, Tempo};
pub use tt::{Bound, TranspositionTable, TtEntry};
pub use widening::{DEFAULT_WIDENING_EXPONENT, MAX_WIDENING_WIDTH, Widening};
