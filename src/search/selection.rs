//! How a tree search scores the children of a node: the one place where
//! UCB1 and PUCT are written, for every searcher that selects children by
//! a score (MCTS, IS-MCTS, SM-MCTS and the guided search).
//!
//! A searcher builds a [`Candidate`] per child, for the player who
//! chooses, asks its policy once per node for the parent's term
//! ([`SelectionPolicy::parent`], from the parent's visits) and picks the
//! child the policy scores highest; how ties break, and what a child
//! never visited scores, stay the searcher's own. The policies are small
//! types rather than branches in one function, as the `mcts` crate's
//! `TreePolicy` implementations are.

/// A child as a selection policy sees it, for the player choosing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The mean value of the child for the player choosing (MCTS: with
    /// every child built, a child never visited counts its evaluation; the
    /// guided search: an unvisited child's first-play value).
    pub mean: f64,
    /// MCTS: the implicit minimax value, discounted by the child's virtual
    /// losses; the mean elsewhere.
    pub minimax: f64,
    /// The visits, virtual losses included.
    pub visits: f64,
    /// The visits the exploration term of UCB1 counts (MCTS with every
    /// child built: one more, so that a child never visited has a finite
    /// bonus; the visits elsewhere).
    pub explored: f64,
    /// MCTS: the evaluation of the child for the player choosing it; PUCT:
    /// the prior probability of the child's move.
    pub prior: f32,
}

impl Candidate {
    /// A child with a mean over some visits and nothing else: no minimax
    /// value apart from the mean, no prior.
    pub fn plain(mean: f64, visits: f64) -> Candidate {
        Candidate {
            mean,
            minimax: mean,
            visits,
            explored: visits,
            prior: 0.0,
        }
    }
}

/// How a searcher scores a child: the child with the highest score is
/// chosen.
pub trait SelectionPolicy {
    /// What a score needs of the parent, worked out once per node.
    type Parent: Copy;

    /// The parent's term for a parent with `visits` visits (at least one,
    /// virtual losses included; IS-MCTS passes a child's availability).
    fn parent(&self, visits: f64) -> Self::Parent;

    /// The score of `child` under a parent whose term is `parent`.
    fn score(&self, child: &Candidate, parent: Self::Parent) -> f64;
}

/// UCB1's exploration term, `c * sqrt(ln N / n)`.
fn exploration_bonus(exploration: f64, log_parent: f64, explored: f64) -> f64 {
    exploration * (log_parent / explored).sqrt()
}

/// UCB1 (UCT): the mean plus `c * sqrt(ln N / n)`. Its parent term is
/// `ln N`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Uct {
    /// The exploration constant `c`, for values in `[0, 1]`.
    pub exploration: f64,
}

impl SelectionPolicy for Uct {
    type Parent = f64;

    fn parent(&self, visits: f64) -> f64 {
        visits.ln()
    }

    fn score(&self, child: &Candidate, log_parent: f64) -> f64 {
        child.mean + exploration_bonus(self.exploration, log_parent, child.explored)
    }
}

/// UCB1 on a blend of the mean and the implicit minimax value (MCTS's
/// `minimax` option).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImplicitMinimax {
    /// The weight `α` of the minimax value.
    pub weight: f64,
    /// The exploration constant.
    pub exploration: f64,
}

/// The value without exploration, `(1 - α) * mean + α * minimax` for the
/// weight `α` of the implicit minimax value: what MCTS's best-valued final
/// choice ranks the root's moves by.
pub fn blend(weight: f64, mean: f64, minimax: f64) -> f64 {
    (1.0 - weight) * mean + weight * minimax
}

impl SelectionPolicy for ImplicitMinimax {
    type Parent = f64;

    fn parent(&self, visits: f64) -> f64 {
        visits.ln()
    }

    fn score(&self, child: &Candidate, log_parent: f64) -> f64 {
        blend(self.weight, child.mean, child.minimax)
            + exploration_bonus(self.exploration, log_parent, child.explored)
    }
}

/// Another policy's score plus progressive bias, `b * prior / (visits +
/// 1)` (MCTS's `bias` option): the evaluation steers a child's first
/// visits and fades as results come in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProgressiveBias<P> {
    inner: P,
    weight: f64,
}

impl<P: SelectionPolicy> ProgressiveBias<P> {
    /// `inner`'s score plus the bias of weight `weight`.
    pub fn new(inner: P, weight: f64) -> Self {
        ProgressiveBias { inner, weight }
    }
}

impl<P: SelectionPolicy> SelectionPolicy for ProgressiveBias<P> {
    type Parent = P::Parent;

    fn parent(&self, visits: f64) -> P::Parent {
        self.inner.parent(visits)
    }

    fn score(&self, child: &Candidate, parent: P::Parent) -> f64 {
        self.inner.score(child, parent)
            + self.weight * f64::from(child.prior) / (child.visits + 1.0)
    }
}

/// AlphaZero's PUCT: `Q + c(N) * P * sqrt(N) / (1 + n)`, with the prior
/// `P` of the child's move, its visits `n`, the parent's visits `N` and
/// the exploration weight growing slowly with them, `c(N) = c_init +
/// ln((1 + N + c_base) / c_base)` (Silver et al. 2018). Values are in
/// `[-1, 1]`. Its parent term is `c(N) * sqrt(N)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Puct {
    /// `c_init`, the exploration weight of a parent with few visits
    /// (AlphaZero: 1.25).
    pub c_init: f64,
    /// `c_base`, the visits over which the weight grows by one (AlphaZero:
    /// 19652).
    pub c_base: f64,
}

impl SelectionPolicy for Puct {
    type Parent = f64;

    fn parent(&self, visits: f64) -> f64 {
        let weight = self.c_init + ((1.0 + visits + self.c_base) / self.c_base).ln();
        weight * visits.sqrt()
    }

    fn score(&self, child: &Candidate, parent: f64) -> f64 {
        child.mean + parent * f64::from(child.prior) / (1.0 + child.visits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(mean: f64, minimax: f64, visits: f64, prior: f32) -> Candidate {
        Candidate {
            mean,
            minimax,
            visits,
            explored: visits,
            prior,
        }
    }

    fn close(score: f64, expected: f64) -> bool {
        (score - expected).abs() < 1e-6
    }

    #[test]
    fn uct_scores_the_mean_plus_the_exploration_term() {
        // 0.6 + 1.4 * sqrt(ln 10 / 4) = 0.6 + 1.4 * 0.758714
        let child = candidate(0.6, 0.1, 4.0, 0.9);
        let uct = Uct { exploration: 1.4 };
        let score = uct.score(&child, uct.parent(10.0));
        assert!(close(score, 1.662_199), "{score}");
    }

    #[test]
    fn implicit_minimax_blends_the_mean_and_the_minimax_value() {
        let child = candidate(0.6, 0.1, 4.0, 0.9);
        let policy = |weight| ImplicitMinimax {
            weight,
            exploration: 0.0,
        };
        // 0.75 * 0.6 + 0.25 * 0.1
        assert!(close(policy(0.25).score(&child, 1.0), 0.475));
        assert!(close(policy(1.0).score(&child, 1.0), 0.1));
        assert!(close(policy(0.0).score(&child, 1.0), 0.6));
    }

    #[test]
    fn progressive_bias_adds_the_prior_and_fades_with_visits() {
        let biased = ProgressiveBias::new(Uct { exploration: 0.0 }, 0.5);
        // 0.6 + 0.5 * 0.9 / (4 + 1), then / (49 + 1)
        assert!(close(
            biased.score(&candidate(0.6, 0.1, 4.0, 0.9), 1.0),
            0.69
        ));
        assert!(close(
            biased.score(&candidate(0.6, 0.1, 49.0, 0.9), 1.0),
            0.609
        ));
    }

    /// Each policy gives the score of the single formula MCTS selection
    /// used before the policies, `(1 - α) * mean + α * minimax + c *
    /// sqrt(ln N / n) + b * prior / (n + 1)`, to the bit, for the weights
    /// under which MCTS chooses it: searches stay the same.
    #[test]
    fn the_policies_score_to_the_bit_as_the_formula_they_replace() {
        for (mean, minimax, visits, prior) in [
            (0.6, 0.1, 4.0, 0.9f32),
            (0.0, 0.0, 1.0, 0.0),
            (1.0, 0.37, 17.0, 0.123),
            (0.333, 0.999, 3.0, 0.5),
        ] {
            let child = candidate(mean, minimax, visits, prior);
            for (alpha, bias, c, parent) in [
                (0.0, 0.0, 1.0, 10.0f64),
                (0.5, 0.0, 0.05, 7.0),
                (1.0, 0.0, 0.0, 3.0),
                (0.0, 0.3, 1.4, 100.0),
                (0.7, 0.3, 0.2, 5.0),
            ] {
                let log_parent = parent.ln();
                let formula = (1.0 - alpha) * mean
                    + alpha * minimax
                    + c * (log_parent / visits).sqrt()
                    + bias * f64::from(prior) / (visits + 1.0);
                let minimax_policy = ImplicitMinimax {
                    weight: alpha,
                    exploration: c,
                };
                let uct = Uct { exploration: c };
                let score = match (alpha != 0.0, bias != 0.0) {
                    (false, false) => uct.score(&child, uct.parent(parent)),
                    (true, false) => minimax_policy.score(&child, minimax_policy.parent(parent)),
                    (false, true) => {
                        let biased = ProgressiveBias::new(uct, bias);
                        biased.score(&child, biased.parent(parent))
                    }
                    (true, true) => {
                        let biased = ProgressiveBias::new(minimax_policy, bias);
                        biased.score(&child, biased.parent(parent))
                    }
                };
                assert_eq!(
                    score.to_bits(),
                    formula.to_bits(),
                    "{child:?} {alpha} {bias}"
                );
            }
        }
    }

    /// AlphaZero's pseudocode: `pb_c = log((N + c_base + 1) / c_base) +
    /// c_init`, `pb_c *= sqrt(N) / (n + 1)`, score `Q + pb_c * P`; worked
    /// by hand for N = 100, n = 3, P = 0.25, Q = 0.1 with AlphaZero's
    /// constants: log(19753 / 19652) = 0.0051262, so pb_c = 1.2551262 * 10
    /// / 4 = 3.1378155 and the score 0.1 + 0.7844539.
    #[test]
    fn puct_scores_as_alphazero_writes_it() {
        let puct = Puct {
            c_init: 1.25,
            c_base: 19_652.0,
        };
        let child = candidate(0.1, 0.1, 3.0, 0.25);
        let score = puct.score(&child, puct.parent(100.0));
        assert!(close(score, 0.884_454), "{score}");
        // The prior term shrinks with the child's visits, not its mean.
        let visited = candidate(0.1, 0.1, 30.0, 0.25);
        assert!(puct.score(&visited, puct.parent(100.0)) < score);
    }
}
