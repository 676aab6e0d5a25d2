//! A small game for the tests of the search's parts, whose results are
//! known without a search, and helpers that build trees of it by hand.

use super::MctsConfig;
use super::tree::{Description, NONE, Node, Tree};
use crate::core::{
    Game, MoveList, NoRules, Outcome, Payoffs, Player, Scoring, Status, rng_from_seed,
};

/// Two players take one, two or three tokens from a pile in turn, and
/// whoever takes the last token wins. A pile that is a multiple of four is
/// lost for the player to move: whatever they take, the other can restore
/// a multiple of four, down to the empty pile.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Pile {
    pub(super) tokens: u32,
    pub(super) ply: u32,
}

impl Pile {
    pub(super) fn of(tokens: u32) -> Self {
        Pile { tokens, ply: 0 }
    }

    /// Whether the player to move wins with best play.
    pub(super) fn mover_wins(&self) -> bool {
        !self.tokens.is_multiple_of(4)
    }

    fn mover(&self) -> Player {
        (self.ply % 2) as Player
    }
}

impl Game for Pile {
    type Move = u32;
    type Rules = NoRules;
    const NAME: &'static str = "pile";
    const SCORING: Scoring = Scoring::WinLoss;

    fn new(_: NoRules) -> Self {
        Pile::of(10)
    }

    fn rules(&self) -> &NoRules {
        &NoRules
    }

    fn num_players(&self) -> usize {
        2
    }

    fn status(&self) -> Status {
        if self.tokens == 0 {
            // The player who took the last token moved last.
            Status::Over(Outcome {
                payoffs: Payoffs::win_for(1 - self.mover()),
                reason: "last token taken",
            })
        } else {
            Status::ToMove(self.mover())
        }
    }

    fn legal_moves(&self, moves: &mut MoveList<u32>) {
        moves.clear();
        moves.extend(1..=self.tokens.min(3));
    }

    fn play(&mut self, mv: u32) {
        self.tokens -= mv;
        self.ply += 1;
    }

    fn hash(&self) -> u64 {
        (u64::from(self.tokens) << 32) | u64::from(self.ply % 2)
    }

    fn ply(&self) -> u32 {
        self.ply
    }
}

/// An evaluation that knows nothing: every unfinished position is even.
pub(super) fn even(_: &Pile, _: Player) -> f64 {
    0.0
}

/// The exact evaluation, a little short of the payoffs' ends: a win for
/// the player to move unless the pile is a multiple of four.
pub(super) fn exact(state: &Pile, player: Player) -> f64 {
    if let Status::Over(outcome) = state.status() {
        return outcome.payoffs.get(player);
    }
    if state.mover_wins() == (player == state.mover()) {
        0.9
    } else {
        -0.9
    }
}

/// Settings under which every node is evaluated (for the implicit
/// minimax values).
pub(super) fn evaluating() -> MctsConfig {
    MctsConfig {
        minimax_weight: 1.0,
        ..MctsConfig::default()
    }
}

/// A tree of the root alone, a pile of `tokens`, evaluated exactly.
pub(super) fn tree_of(tokens: u32) -> Tree<Pile> {
    Tree::new(
        &Pile::of(tokens),
        &exact,
        &evaluating(),
        &mut rng_from_seed(1),
        Vec::new(),
    )
}

/// Links the child of `parent` reached by `moves` from the root at the
/// front of its parent's list, as expansion one child a visit does.
pub(super) fn add_child(tree: &mut Tree<Pile>, parent: u32, moves: &[u32]) -> u32 {
    let mut state = tree.root_state.clone();
    for &mv in moves {
        state.play(mv);
    }
    let description = Description::of(
        &state,
        &exact,
        &evaluating(),
        &mut rng_from_seed(0),
        &mut MoveList::new(),
    );
    let index = tree.nodes.len() as u32;
    let mut node = Node::new(moves.last().copied(), parent, description);
    node.next_sibling = tree.nodes[parent as usize].first_child;
    tree.nodes[parent as usize].first_child = index;
    tree.nodes[parent as usize].claimed += 1;
    tree.nodes.push(node);
    index
}

/// Marks the descent to `leaf` as selection does, with a virtual loss
/// on every node from the root down.
pub(super) fn descend_to(tree: &mut Tree<Pile>, leaf: u32) {
    let mut index = leaf;
    while index != NONE {
        tree.nodes[index as usize].virtual_loss += 1;
        index = tree.nodes[index as usize].parent;
    }
}

/// A pile of six with its three moves built, visited as given: `(visits,
/// player 0's total)` for the moves 1, 2 and 3.
pub(super) fn root_with_children(stats: [(u32, f64); 3]) -> (Tree<Pile>, [u32; 3]) {
    let mut tree = tree_of(6);
    let children = [1, 2, 3].map(|mv| add_child(&mut tree, 0, &[mv]));
    for (&child, (visits, total)) in children.iter().zip(stats) {
        let node = &mut tree.nodes[child as usize];
        node.visits = visits;
        node.totals[0] = total;
        tree.nodes[0].visits += visits;
    }
    (tree, children)
}
