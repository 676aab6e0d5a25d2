//! The settings of a Monte Carlo tree search: how long it runs, how it
//! selects, grows and scores its tree, and how its threads cooperate.

use super::Node;
use crate::core::{Declared, Game, Kind, Value};
use crate::search::alphabeta::AlphaBetaConfig;
use crate::search::options::{
    exploration_option, iterations_option, node_budget_option, playout_option, time_option,
    widening_option,
};
use crate::search::widening::{self, Widening};
use std::time::Duration;

/// How the threads of a search cooperate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallelism {
    /// One tree per thread, statistics summed at the root. The trees
    /// differ only through the search's random choices: with
    /// [`Expansion::All`] and no random plies (`playout_plies: Some(0)`)
    /// there are none, and every tree is the same tree: use
    /// [`Parallelism::Tree`].
    Root,
    /// One shared tree, with virtual loss.
    Tree,
}

/// The settings of a Monte Carlo tree search.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Simulations per search (all threads together).
    pub iterations: Option<u64>,
    /// Time per search. A search runs at least one iteration, however
    /// short the time.
    pub time: Option<Duration>,
    /// The UCB1 exploration constant `c` in `mean + c * sqrt(ln N / n)`,
    /// for payoffs normalised to `[0, 1]`.
    pub exploration: f64,
    /// Search threads.
    pub threads: usize,
    /// How the threads share the work: a tree each, or one tree.
    pub parallelism: Parallelism,
    /// Random plies played after the tree before the evaluation scores the
    /// position; `None` plays on to the end of the game.
    pub playout_plies: Option<u32>,
    /// Epsilon-greedy playouts: with `Some(ε)`, each playout ply is a
    /// random move with probability `ε` and otherwise the move after which
    /// the evaluation rates the position best for the player making it
    /// (ties to the first in move order); `None` plays every ply at random.
    /// A greedy ply costs an evaluation per legal move.
    pub playout_greedy: Option<f64>,
    /// Most nodes per tree.
    pub node_budget: usize,
    /// Keep the subtree of the move played for the next search.
    pub reuse_tree: bool,
    /// Prove wins and losses (MCTS-Solver).
    pub solver: bool,
    /// Weight `α` of the implicit minimax value in selection: a child scores
    /// `(1 - α) * mean + α * minimax + exploration`, where `minimax` is the
    /// best evaluation reachable below it by always choosing the best child
    /// for the player to move (Lanctot et al., "Monte Carlo tree search with
    /// heuristic evaluations using implicit minimax backups", 2014). `0`
    /// turns it off and spares the evaluation of every new node.
    pub minimax_weight: f64,
    /// Weight `b` of progressive bias: a child's score gains
    /// `b * estimate / (visits + 1)`, where `estimate` is the evaluation of
    /// its state for the player choosing it, so that the evaluation steers
    /// the first visits and fades as results come in (Chaslot et al.,
    /// "Progressive strategies for Monte-Carlo tree search", 2008). `0`
    /// turns it off.
    pub progressive_bias: f64,
    /// Progressive widening: on its `n`th visit a node has at most
    /// `ceil(width * n^exponent)` children, added in the expansion order
    /// (tactical moves first), so that a wide node's first visits go deeper
    /// instead of trying every move once. `None` adds a child at every visit
    /// until all moves have one.
    pub widening: Option<Widening>,
    /// How a node grows its children.
    pub expansion: Expansion,
    /// How the move is chosen among the root's children when no proven
    /// result decides.
    pub final_choice: FinalChoice,
    /// Plies of the alpha-beta search that checks the root moves the tree
    /// search ranks best before one is played (`0`: no check). Two
    /// competing sides only. A checked move is worth the smaller of its
    /// estimate and the check's score, and the best checked move is
    /// played: a hybrid that gives the move played a full-width look
    /// `check_depth` plies past it, which a best-first tree search can
    /// lack where a quiet-looking reply hides a threat. With a time limit
    /// the tree search stops at three quarters of it and the checks take
    /// the rest.
    pub check_depth: u32,
}

/// The deepest check ([`MctsConfig::check_depth`]): each costs an
/// alpha-beta search from a root move's child.
pub const MAX_CHECK_DEPTH: u32 = 4;

/// The most root moves checked in one search.
pub(super) const MAX_CHECKED_MOVES: usize = 8;

/// The share of a time limit the tree search leaves to the checks.
pub(super) const CHECK_TIME_SHARE: f64 = 0.25;

/// How a search chooses its move when no proven result decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FinalChoice {
    /// The most visited child ("robust child"), the classic choice.
    MostVisited,
    /// The child with the best value as selection sees it without the
    /// exploration term: `(1 - α) * mean + α * minimax` (`α` the
    /// [`MctsConfig::minimax_weight`]), so that with `α = 1` the search
    /// plays the move its minimax values rank first, as best-first minimax
    /// does, even where a refutation found late left another move with
    /// more visits. Ties go to the more visited child.
    BestValue,
}

/// How a node of the tree grows its children.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Expansion {
    /// One child per visit, tactical moves first, each new child scored by
    /// a simulation: classic UCT.
    #[default]
    OneByOne,
    /// Every child at once, each scored by the evaluation: a leaf reached
    /// for the first time builds all its children, orders them by their
    /// evaluation for the player to move, and backs up the best of them as
    /// the result. A child never visited is valued at its evaluation, not
    /// tried first, so that with implicit minimax (`minimax_weight` 1) and
    /// a small exploration constant the search becomes best-first minimax
    /// with an exploration bonus (Korf and Chickering, "Best-first minimax
    /// search", 1996; Cohen-Solal, "Learning to play two-player
    /// perfect-information games without knowledge", 2020). Progressive
    /// widening then opens the children in the order of their evaluation.
    /// Simulations run only from the leaves of a tree that reached its node
    /// budget.
    All,
}

impl MctsConfig {
    /// Whether every new node is evaluated (for implicit minimax,
    /// progressive bias or evaluated expansion).
    pub(super) fn wants_estimates(&self) -> bool {
        self.minimax_weight > 0.0 || self.progressive_bias > 0.0 || self.expansion == Expansion::All
    }

    /// The most memory the search's trees may take for game `G`: the node
    /// budget of each tree (one per thread with root parallelism), doubled
    /// because a growing vector may hold twice what it uses, and two
    /// indices a node for cutting a tree down when it is kept; and the
    /// transposition table of the check's searcher, if there is one.
    pub fn memory_bytes<G: Game>(&self) -> u64 {
        let trees = match self.parallelism {
            Parallelism::Root => self.threads.max(1),
            Parallelism::Tree => 1,
        };
        let per_node = 2 * size_of::<Node<G::Move>>() + 2 * size_of::<u32>();
        let checker_table = self
            .checker_config()
            .map_or(0, |config| (config.table_megabytes as u64) << 20);
        (self.node_budget as u64)
            .saturating_mul(per_node as u64)
            .saturating_mul(trees as u64)
            .saturating_add(checker_table)
    }

    /// The alpha-beta searcher of [`MctsConfig::check_depth`], if checks
    /// are on.
    pub(super) fn checker_config(&self) -> Option<AlphaBetaConfig> {
        (self.check_depth > 0).then(|| AlphaBetaConfig {
            depth: Some(self.check_depth),
            ..AlphaBetaConfig::default()
        })
    }
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            iterations: Some(10_000),
            time: None,
            exploration: 1.0,
            threads: 1,
            parallelism: Parallelism::Root,
            playout_plies: Some(10),
            playout_greedy: None,
            node_budget: 1_000_000,
            reuse_tree: true,
            solver: true,
            minimax_weight: 0.0,
            progressive_bias: 0.0,
            widening: None,
            expansion: Expansion::OneByOne,
            final_choice: FinalChoice::MostVisited,
            check_depth: 0,
        }
    }
}

/// The most MCTS simulations per move: a billion already takes hours a move
/// on one core, and a larger count is a typing error more often than a plan.
pub const MAX_MCTS_ITERATIONS: u64 = 1_000_000_000;

/// The largest progressive bias: far beyond any useful setting, small
/// enough that no score overflows.
pub const MAX_PROGRESSIVE_BIAS: f64 = 1_000.0;

const PARALLELISMS: [Parallelism; 2] = [Parallelism::Root, Parallelism::Tree];
const EXPANSIONS: [Expansion; 2] = [Expansion::OneByOne, Expansion::All];
const FINAL_CHOICES: [FinalChoice; 2] = [FinalChoice::MostVisited, FinalChoice::BestValue];

/// Every option of [`MctsConfig`], in the order its text is written.
const OPTIONS: &[Declared<MctsConfig>] = &[
    iterations_option!(
        MAX_MCTS_ITERATIONS,
        "simulations per move, all threads together (the default only without `ms`)"
    ),
    time_option!(),
    exploration_option!("the exploration constant of UCB1, for payoffs in [0, 1]"),
    crate::threads_option!("threads", threads, "search threads"),
    crate::choice_option!(
        "parallel",
        parallelism,
        PARALLELISMS,
        &["root", "tree"],
        "`root`: a tree per thread, summed at the root; `tree`: one shared tree with virtual loss"
    ),
    playout_option!(
        "random plies after the tree before the evaluation scores the position; `none` plays to the end"
    ),
    crate::field_option!(
        "playout-eps",
        playout_greedy,
        Kind::Optional(&Kind::Number { min: 0.0, max: 1.0 }, "off"),
        "epsilon-greedy playouts: each ply the move the evaluation rates best for its player, or with this probability a random one; `off` plays every ply at random";
        optional Value::Number, number
    ),
    node_budget_option!(
        "most nodes per tree: at the budget the tree stops growing (the root's children are always built)"
    ),
    crate::switch_option!(
        "reuse",
        reuse_tree,
        "keep the subtree of the move played for the next search"
    ),
    crate::switch_option!("solver", solver, "prove wins and losses (MCTS-Solver)"),
    crate::number_option!(
        "minimax",
        minimax_weight,
        0.0,
        1.0,
        "weight of the implicit minimax value in selection (0: off)"
    ),
    crate::number_option!(
        "bias",
        progressive_bias,
        0.0,
        MAX_PROGRESSIVE_BIAS,
        "weight of progressive bias from the evaluation (0: off)"
    ),
    widening_option!(width),
    widening_option!(exponent),
    crate::choice_option!(
        "expand",
        expansion,
        EXPANSIONS,
        &["one", "all"],
        "`one` child per visit, or `all` at once, scored by the evaluation and widening in their order"
    ),
    crate::choice_option!(
        "pick",
        final_choice,
        FINAL_CHOICES,
        &["visits", "value"],
        "the move played when no proven result decides: the most visited, or the best by mean and minimax value without exploration"
    ),
    crate::whole_option!(
        "check",
        check_depth,
        0,
        MAX_CHECK_DEPTH as u64,
        "plies of the alpha-beta search that checks the best root moves before one is played, each worth the smaller of its estimate and that score (0: none; two competing sides only)"
    ),
];

crate::core::declared_configuration!(MctsConfig, "mcts options", OPTIONS, {
    fn check_together(&self) -> Result<(), String> {
        if self.iterations.is_none() && self.time.is_none() {
            return Err("a search needs a limit: `iters` or `ms`".into());
        }
        widening::check_widening(&self.widening)?;
        if self.expansion == Expansion::All
            && self.playout_plies == Some(0)
            && self.threads > 1
            && self.parallelism == Parallelism::Root
        {
            return Err(
                "`expand=all` with `playout=0` makes no random choice, so every root-parallel \
                 tree would be the same tree: with `threads` above 1 use `parallel=tree`"
                    .into(),
            );
        }
        Ok(())
    }

    /// The default iterations only when no time limit is given.
    fn complete(&mut self, given: &[&str]) {
        if given.contains(&"ms") && !given.contains(&"iters") {
            self.iterations = None;
        }
    }
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hnefatafl::Hnefatafl;
    use crate::search::Mcts;

    #[test]
    fn a_configuration_built_by_hand_is_checked_by_the_searcher() {
        let refused = |config: MctsConfig| match Mcts::<Hnefatafl>::new(config, 0) {
            Ok(_) => panic!("a bad configuration built a searcher"),
            Err(problem) => problem,
        };
        let heavy = MctsConfig {
            minimax_weight: 1.5,
            ..MctsConfig::default()
        };
        assert_eq!(refused(heavy), "`minimax` must be from 0 to 1, not `1.5`");
        let endless = MctsConfig {
            iterations: None,
            ..MctsConfig::default()
        };
        assert!(refused(endless).contains("needs a limit"));
        let flat = MctsConfig {
            widening: Some(Widening {
                width: 0.0,
                exponent: 0.5,
            }),
            ..MctsConfig::default()
        };
        assert!(refused(flat).contains("`widen` above 0"));
        let same_trees = MctsConfig {
            expansion: Expansion::All,
            playout_plies: Some(0),
            threads: 2,
            ..MctsConfig::default()
        };
        assert!(refused(same_trees).contains("parallel=tree"));
        assert!(Mcts::<Hnefatafl>::new(MctsConfig::default(), 0).is_ok());
    }

    #[test]
    fn the_printed_configuration_reads_back_to_itself() {
        crate::core::assert_reads_back::<MctsConfig>(&[
            "",
            "ms=250",
            "ms=250,iters=40",
            "c=0.25,parallel=tree,threads=2,playout=none,playout-eps=0.1",
            "widen=3,widen-exp=0.75,expand=all,pick=value,check=2,reuse=off",
            "widen-exp=0.3,widen=1.5",
        ]);
        assert_eq!(
            "ms=250".parse::<MctsConfig>().unwrap().to_string(),
            "ms=250,c=1,threads=1,parallel=root,playout=10,playout-eps=off,nodes=1000000,\
             reuse=on,solver=on,minimax=0,bias=0,widen=off,expand=one,pick=visits,check=0"
        );
    }

    #[test]
    fn widen_exp_needs_widening_in_either_order() {
        for text in [
            "widen-exp=0.5",
            "widen=off,widen-exp=0.5",
            "widen-exp=0.5,widen=off",
        ] {
            let refused = text.parse::<MctsConfig>().unwrap_err().to_string();
            assert!(refused.contains("needs widening on"), "{text}: {refused}");
        }
        let widening = "widen-exp=0.3,widen=2"
            .parse::<MctsConfig>()
            .unwrap()
            .widening;
        assert_eq!(
            widening,
            Some(Widening {
                width: 2.0,
                exponent: 0.3
            })
        );
    }
}
