//! Any game as learning code sees it: whose turn it is, the legal action
//! ids, chance outcomes with their probabilities, observation tensors and
//! returns, the model OpenSpiel's `pyspiel` made standard.
//!
//! [`ActionState`] wraps a game state and turns the game's
//! [`Encoding`] into turns. A move that takes several decisions is chosen
//! one id at a time (the same player decides again until the move is
//! complete); a deal is drawn one ball at a time from the game's urns, each
//! draw a chance node whose outcomes are listed with their probabilities.
//!
//! [`selfplay`] plays games with a guided search and writes their
//! decisions as training samples ([`npz`]: NumPy's files, without NumPy);
//! [`train`] trains a network on them, generation after generation.

pub mod dynamic;
pub mod guided;
pub mod npz;
pub mod policy;
pub mod selfplay;
pub mod solving;
pub mod train;
pub mod vector;

pub use dynamic::{DynAgent, DynGame, DynState, LoadError, load_game, load_game_in};
pub use policy::{DynPolicy, NamedPolicies};
pub use solving::{Solution, SolveRequest, solve_state};
pub use vector::{DynVector, StepBuffers, VectorConfig};

use std::sync::OnceLock;

use crate::core::{
    ActionPath, DealModel, Encoding, Game, HiddenInformationVisitor, IllegalMove,
    ImperfectInformation, MoveList, Notation, ParseError, Player, Simultaneous,
    SimultaneousVisitor, Status, chance_outcome_count,
};

/// Room for this many moves is made before listing a state's legal moves:
/// more than most positions of the games have, so the list seldom grows.
const LIKELY_MOVES: usize = 256;

/// Sorts `ids`, all at most `largest`, and removes repeats. Action ids are
/// dense and bounded by the game's action count, so a bitmap of the ids
/// orders them in linear time where it is small; a sort otherwise.
fn sort_distinct(ids: &mut Vec<u32>, largest: u32) {
    const WORD: usize = u64::BITS as usize;
    let words = largest as usize / WORD + 1;
    if ids.is_sorted() || words > ids.len() * 8 + 64 {
        ids.sort_unstable();
        ids.dedup();
        return;
    }
    let mut present = vec![0u64; words];
    for &id in ids.iter() {
        mark(&mut present, id);
    }
    ids.clear();
    drain_marks(&mut present, 0, ids);
}

/// Marks `id` in the bitmap `present`.
fn mark(present: &mut [u64], id: u32) {
    present[id as usize / u64::BITS as usize] |= 1 << (id % u64::BITS);
}

/// Appends the ids marked in `present` from word `first` on to `ids`, in
/// increasing order, and clears their marks.
fn drain_marks(present: &mut [u64], first: usize, ids: &mut Vec<u32>) {
    for (index, word) in present.iter_mut().enumerate().skip(first) {
        let mut rest = std::mem::take(word);
        while rest != 0 {
            ids.push(index as u32 * u64::BITS + rest.trailing_zeros());
            rest &= rest - 1;
        }
    }
}

/// Who acts next in an [`ActionState`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// This player chooses an action.
    Player(Player),
    /// Nature draws a chance outcome.
    Chance,
    /// Every player chooses at once, in secret.
    Simultaneous,
    /// The game is over.
    Terminal,
}

impl Turn {
    /// OpenSpiel's number for this turn: the player's index, or `-1` for
    /// chance, `-2` for a simultaneous node and `-4` for a terminal state.
    pub fn code(self) -> i64 {
        match self {
            Turn::Player(player) => player as i64,
            Turn::Chance => -1,
            Turn::Simultaneous => -2,
            Turn::Terminal => -4,
        }
    }
}

/// A game state seen through its action ids (see the module docs).
#[derive(Clone)]
pub struct ActionState<G: Encoding> {
    state: G,
    /// The ids chosen so far of a move that takes several decisions.
    pending: ActionPath,
    /// The chance outcomes drawn so far of a deal under way.
    draws: Vec<u32>,
    /// Every action and chance outcome applied, in order.
    history: Vec<u32>,
    /// The legal moves that extend the decisions taken so far, listed once
    /// per state: listing the legal ids and applying one both read them.
    leads: OnceLock<Vec<Lead<G::Move>>>,
    /// The memory of the lists of an earlier state, kept for the next
    /// state's ([`list_legal_moves`](Self::list_legal_moves)), so that a
    /// caller stepping one state many times allocates nothing per step.
    spare: Spare<G::Move>,
}

/// Lists kept for reuse: emptied, their room left.
struct Spare<M> {
    leads: Vec<Lead<M>>,
    moves: MoveList<M>,
}

/// A copy starts with no room of its own: the spare lists hold nothing.
impl<M> Clone for Spare<M> {
    fn clone(&self) -> Self {
        Spare::default()
    }
}

impl<M> Default for Spare<M> {
    fn default() -> Self {
        Spare {
            leads: Vec::new(),
            moves: MoveList::new(),
        }
    }
}

/// A legal move seen from the decisions taken so far: the id of its next
/// decision, and whether that id completes it.
#[derive(Clone, Copy)]
struct Lead<M> {
    id: u32,
    mv: M,
    completes: bool,
}

impl<G: Encoding + Notation> ActionState<G> {
    /// The starting state under `rules`.
    pub fn new(rules: G::Rules) -> Self {
        Self::from_state(G::new(rules))
    }

    /// `state` as an action state, with an empty history.
    pub fn from_state(state: G) -> Self {
        ActionState {
            state,
            pending: ActionPath::new(),
            draws: Vec::new(),
            history: Vec::new(),
            leads: OnceLock::new(),
            spare: Spare::default(),
        }
    }

    /// The game state. While a move that takes several decisions is being
    /// chosen it is the state before that move; during a deal, the state
    /// before the deal.
    pub fn state(&self) -> &G {
        &self.state
    }

    /// The ids of the decisions taken so far of the move being chosen.
    pub fn pending(&self) -> &[u32] {
        self.pending.as_slice()
    }

    /// Every action id and chance outcome applied since this action state
    /// was made, in order: applying them again to the same start gives the
    /// same state.
    pub fn history(&self) -> &[u32] {
        &self.history
    }

    /// Who acts next.
    pub fn turn(&self) -> Turn {
        match self.state.status() {
            Status::ToMove(player) => Turn::Player(player),
            Status::Chance => Turn::Chance,
            Status::Simultaneous => Turn::Simultaneous,
            Status::Over(_) => Turn::Terminal,
        }
    }

    /// Whether the game is over.
    pub fn is_terminal(&self) -> bool {
        self.turn() == Turn::Terminal
    }

    /// Each player's payoff: the game's result once it is over, zero
    /// before.
    pub fn returns(&self) -> Vec<f64> {
        match self.state.status() {
            Status::Over(outcome) => outcome.payoffs.as_slice().to_vec(),
            _ => vec![0.0; self.state.num_players()],
        }
    }

    /// The action ids `player` may choose now, in increasing order: empty
    /// when it is not that player's decision.
    pub fn legal_actions(&self, player: Player) -> Vec<u32> {
        let mut ids = Vec::with_capacity(LIKELY_MOVES);
        self.write_legal_actions(player, &mut ids);
        ids
    }

    /// Calls `each` with every action id `player` may choose now, in no
    /// particular order and possibly more than once: the cheapest way to
    /// fill a legal-action mask.
    pub fn for_each_legal_action(&self, player: Player, mut each: impl FnMut(u32)) {
        match self.turn() {
            Turn::Player(mover) if mover == player => {
                self.leads().iter().for_each(|lead| each(lead.id));
            }
            Turn::Simultaneous => self
                .simultaneous_choices(player)
                .iter()
                .for_each(|&(_, id)| each(id)),
            Turn::Chance => self.chance_outcomes().iter().for_each(|&(id, _)| each(id)),
            Turn::Player(_) | Turn::Terminal => {}
        }
    }

    /// [`legal_actions`](Self::legal_actions) written into `ids` (emptied
    /// first), ordered through `marks`, a bitmap of ids kept clear between
    /// calls (grown here to the largest id met): what a caller stepping one
    /// state many times uses, allocating nothing once the bitmap is grown.
    pub fn write_ordered_legal_actions(
        &self,
        player: Player,
        ids: &mut Vec<u32>,
        marks: &mut Vec<u64>,
    ) {
        let mut lowest = u32::MAX;
        self.for_each_legal_action(player, |id| {
            let word = id as usize / u64::BITS as usize;
            if word >= marks.len() {
                marks.resize(word + 1, 0);
            }
            lowest = lowest.min(id);
            mark(marks, id);
        });
        ids.clear();
        if lowest != u32::MAX {
            drain_marks(marks, (lowest / u64::BITS) as usize, ids);
        }
    }

    /// [`legal_actions`](Self::legal_actions) written into `ids` (emptied
    /// first), so that a caller stepping many states reuses one vector.
    pub fn write_legal_actions(&self, player: Player, ids: &mut Vec<u32>) {
        ids.clear();
        let mut largest = 0;
        self.for_each_legal_action(player, |id| {
            largest = largest.max(id);
            ids.push(id);
        });
        sort_distinct(ids, largest);
    }

    /// The legal moves that extend the decisions taken so far, with their
    /// next ids (listed at the first call for this state).
    fn leads(&self) -> &[Lead<G::Move>] {
        self.leads.get_or_init(|| {
            let mut moves = self.legal_moves();
            let mut leads = Vec::with_capacity(moves.len());
            self.write_leads(&mut moves, &mut leads);
            leads
        })
    }

    /// Lists the legal moves of this state now, in the memory of an
    /// earlier state's lists: what a caller that steps one state many times
    /// (a batch of environments) calls before reading the legal actions,
    /// so that no step allocates.
    pub fn list_legal_moves(&mut self) {
        if self.leads.get().is_some() {
            return;
        }
        let mut leads = std::mem::take(&mut self.spare.leads);
        let mut moves = std::mem::replace(&mut self.spare.moves, MoveList::new());
        // A game's listing appends: the spare list holds the moves of the
        // state before.
        moves.clear();
        self.state.legal_moves(&mut moves);
        self.write_leads(&mut moves, &mut leads);
        self.spare.moves = moves;
        // Just checked to be empty.
        let _ = self.leads.set(leads);
    }

    /// Writes the leads of `moves` (the legal moves) into `leads`, emptied
    /// first.
    fn write_leads(&self, moves: &mut MoveList<G::Move>, leads: &mut Vec<Lead<G::Move>>) {
        let depth = self.pending.as_slice().len();
        leads.clear();
        self.for_each_extension(moves, |mv, path| {
            leads.push(Lead {
                id: path[depth],
                mv,
                completes: path.len() == depth + 1,
            });
        });
    }

    /// Forgets the legal moves listed for the state before a change,
    /// keeping their memory.
    fn changed(&mut self) {
        if let Some(leads) = self.leads.take() {
            self.spare.leads = leads;
        }
    }

    /// Runs `each` on every legal move that extends the decisions taken so
    /// far, with its whole path; no list of paths is built, since this runs
    /// for every action applied.
    fn for_each_candidate(&self, each: impl FnMut(G::Move, &[u32])) {
        self.for_each_extension(&self.legal_moves(), each);
    }

    /// The legal moves of the game state, listed with room for a typical
    /// move count so that the list seldom grows.
    fn legal_moves(&self) -> MoveList<G::Move> {
        let mut moves = MoveList::with_capacity(LIKELY_MOVES);
        self.state.legal_moves(&mut moves);
        moves
    }

    /// Runs `each` on every move of `moves` (the legal moves) that extends
    /// the decisions taken so far, with its whole path.
    fn for_each_extension(&self, moves: &[G::Move], mut each: impl FnMut(G::Move, &[u32])) {
        let pending = self.pending.as_slice();
        let mut path = ActionPath::new();
        for &mv in moves.iter() {
            path.clear();
            self.state.action_path(mv, &mut path);
            let ids = path.as_slice();
            // Most moves are chosen from no pending decision: no comparison
            // then (a slice comparison is a call to `memcmp`, and listing
            // a Thud position's legal ids spent a quarter of its time there).
            if ids.len() > pending.len() && (pending.is_empty() || ids.starts_with(pending)) {
                each(mv, ids);
            }
        }
    }

    /// The legal moves that extend the decisions taken so far, each with
    /// its whole path.
    fn candidates(&self) -> Vec<(G::Move, ActionPath)> {
        let mut candidates = Vec::new();
        self.for_each_candidate(|mv, ids| {
            let mut path = ActionPath::new();
            ids.iter().for_each(|&id| path.push(id));
            candidates.push((mv, path));
        });
        candidates
    }

    /// `player`'s choices at a simultaneous node, each with its id.
    fn simultaneous_choices(&self, player: Player) -> Vec<(G::Move, u32)> {
        G::with_simultaneous_moves(PlayerChoices {
            state: &self.state,
            player,
        })
        .unwrap_or_default()
    }

    /// Applies one action of the player to move, or one chance outcome at
    /// a chance node.
    ///
    /// # Errors
    /// An id that is not legal here, and any call at a simultaneous node
    /// (which takes [`apply_actions`](Self::apply_actions)) or after the
    /// end.
    pub fn apply_action(&mut self, id: u32) -> Result<(), IllegalMove> {
        match self.turn() {
            Turn::Player(_) => self.apply_decision(id)?,
            Turn::Chance => self.apply_draw(id)?,
            Turn::Simultaneous => {
                return Err(IllegalMove::new(
                    "the players choose simultaneously here: apply one action per player",
                ));
            }
            Turn::Terminal => return Err(IllegalMove::new("the game is already over")),
        }
        self.history.push(id);
        Ok(())
    }

    fn apply_decision(&mut self, id: u32) -> Result<(), IllegalMove> {
        // How many legal moves the id leads to, and the one it completes
        // (a complete path is no other's prefix, so it is then the only one).
        let mut leads = 0;
        let mut completes = None;
        for lead in self.leads().iter().filter(|lead| lead.id == id) {
            leads += 1;
            if lead.completes {
                completes = Some(lead.mv);
            }
        }
        match (leads, completes) {
            (0, _) => Err(IllegalMove::new(format!(
                "action {id} ({}) is not legal here",
                self.id_name(id)?
            ))),
            (1, Some(mv)) => {
                self.state.play(mv);
                self.pending.clear();
                self.changed();
                Ok(())
            }
            _ => {
                self.pending.push(id);
                self.changed();
                Ok(())
            }
        }
    }

    fn apply_draw(&mut self, id: u32) -> Result<(), IllegalMove> {
        if !self
            .chance_outcomes()
            .iter()
            .any(|&(outcome, _)| outcome == id)
        {
            return Err(IllegalMove::new(format!(
                "chance outcome {id} cannot be drawn here"
            )));
        }
        self.draws.push(id);
        self.changed();
        let model = self.deal_model();
        if self.draws.len() == model.draw_count() {
            self.state = (model.deal)(self.state.rules(), &self.draws);
            self.draws.clear();
        }
        Ok(())
    }

    /// Applies one action per player at a simultaneous node.
    ///
    /// # Errors
    /// Not a simultaneous node, not one id per player, or an id that is not
    /// one of its player's choices.
    pub fn apply_actions(&mut self, ids: &[u32]) -> Result<(), IllegalMove> {
        if self.turn() != Turn::Simultaneous {
            return Err(IllegalMove::new(
                "one player acts at a time here: apply a single action",
            ));
        }
        let players = self.state.num_players();
        if ids.len() != players {
            return Err(IllegalMove::new(format!(
                "one action per player ({players}), not {}",
                ids.len()
            )));
        }
        let mut joint = Vec::with_capacity(players);
        for (player, &id) in ids.iter().enumerate() {
            let choice = self
                .simultaneous_choices(player)
                .into_iter()
                .find(|&(_, choice)| choice == id)
                .ok_or_else(|| {
                    IllegalMove::new(format!(
                        "action {id} is not a choice of the {} here",
                        self.state.player_name(player)
                    ))
                })?;
            joint.push(choice.0);
        }
        self.state.try_play_ply(&crate::core::Ply::Joint(joint))?;
        self.changed();
        self.history.extend_from_slice(ids);
        Ok(())
    }

    /// The chance outcomes of the next draw with their probabilities (which
    /// sum to 1); empty where nature does not act.
    pub fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        if self.turn() != Turn::Chance {
            return Vec::new();
        }
        self.deal_model().next_draw(&self.draws)
    }

    fn deal_model(&self) -> DealModel<G> {
        G::deal_model(self.state.rules())
            .expect("a game with chance nodes describes its deal (the encoding tests check it)")
    }

    /// Writes `player`'s observation tensor into `out` (zeroed here first).
    ///
    /// # Panics
    /// If `out` is not as long as the product of the observation shape.
    pub fn write_observation(&self, player: Player, out: &mut [f32]) {
        self.state
            .write_observation(player, self.pending.as_slice(), self.cleared(out));
    }

    /// `out`, checked to be as long as an observation tensor, and zeroed.
    fn cleared<'a>(&self, out: &'a mut [f32]) -> &'a mut [f32] {
        let expected: usize = G::observation_shape(self.state.rules()).iter().product();
        assert_eq!(
            out.len(),
            expected,
            "an observation tensor of the game's shape"
        );
        out.fill(0.0);
        out
    }

    /// Writes what every player sees into `out` (zeroed here first): the
    /// observation tensor without any player's private information.
    ///
    /// # Panics
    /// If `out` is not as long as the product of the observation shape.
    pub fn write_public_observation(&self, out: &mut [f32]) {
        self.state
            .write_public_observation(self.pending.as_slice(), self.cleared(out));
    }

    /// What every player sees, as text: the diagram in a game of perfect
    /// information, the public part of the observations with hidden
    /// information.
    pub fn public_observation_string(&self) -> String {
        G::with_hidden_information(PublicText { state: &self.state })
            .unwrap_or_else(|| self.state.diagram())
    }

    /// Everything every player has seen, as text: the history of actions
    /// in a game of perfect information, the public observation (which
    /// holds the public history) with hidden information.
    pub fn public_information_state_string(&self) -> String {
        G::with_hidden_information(PublicText { state: &self.state })
            .unwrap_or_else(|| format!("{:?}", self.history))
    }

    /// `player`'s observation tensor as a new vector.
    pub fn observation(&self, player: Player) -> Vec<f32> {
        let mut out = vec![0.0; G::observation_shape(self.state.rules()).iter().product()];
        self.write_observation(player, &mut out);
        out
    }

    /// What `player` sees, as text: the position's diagram in a game of
    /// perfect information, the player's own observation in a game with
    /// hidden information; with the decisions taken so far of a move under
    /// way.
    pub fn observation_string(&self, player: Player) -> String {
        let seen = G::with_hidden_information(ObservationText {
            state: &self.state,
            player,
        })
        .unwrap_or_else(|| self.state.diagram());
        if self.pending.as_slice().is_empty() {
            seen
        } else {
            format!("{seen}\nchosen so far: {:?}", self.pending.as_slice())
        }
    }

    /// Everything `player` has seen, as text: two states give the same
    /// string exactly when the player cannot tell them apart. In a game of
    /// perfect information that is the history of actions; with hidden
    /// information, the player's observation (which holds the public
    /// history) and the decisions taken so far.
    pub fn information_state_string(&self, player: Player) -> String {
        match G::with_hidden_information(ObservationText {
            state: &self.state,
            player,
        }) {
            Some(seen) => format!("{seen}\nchosen so far: {:?}", self.pending.as_slice()),
            None => format!("{:?}", self.history),
        }
    }

    /// Action `id` as text, as `player` would choose it here: the move's
    /// record text where `id` completes a move, and otherwise the game's
    /// name of the id (or of the chance outcome).
    ///
    /// # Errors
    /// An id outside the game's action ids (the chance outcome ids at a
    /// chance node).
    pub fn action_to_string(&self, player: Player, id: u32) -> Result<String, IllegalMove> {
        match self.action_texts(player, Some(id)).pop() {
            Some((_, text)) => Ok(text),
            None => self.id_name(id),
        }
    }

    /// The legal actions of `player` with their texts, as
    /// [`action_to_string`](Self::action_to_string) writes them, in
    /// increasing order of id.
    pub fn legal_action_texts(&self, player: Player) -> Vec<(u32, String)> {
        let mut texts = self.action_texts(player, None);
        texts.sort_by_key(|&(id, _)| id);
        texts
    }

    /// The legal actions of `player` with their texts (only `only`'s, if
    /// given), listing the legal moves once.
    fn action_texts(&self, player: Player, only: Option<u32>) -> Vec<(u32, String)> {
        let wanted = |id: u32| only.is_none_or(|only| only == id);
        match self.turn() {
            Turn::Player(mover) if mover == player => {
                let depth = self.pending.as_slice().len();
                // Each id with the first move it leads to, and whether it
                // completes that move alone (it does not when several
                // moves share it).
                let mut leads: Vec<(u32, G::Move, bool)> = self
                    .candidates()
                    .into_iter()
                    .map(|(mv, path)| {
                        (
                            path.as_slice()[depth],
                            mv,
                            path.as_slice().len() == depth + 1,
                        )
                    })
                    .filter(|&(id, _, _)| wanted(id))
                    .collect();
                leads.sort_by_key(|&(id, _, _)| id);
                let mut texts: Vec<(u32, String)> = Vec::new();
                for (index, &(id, mv, completes)) in leads.iter().enumerate() {
                    if index > 0 && leads[index - 1].0 == id {
                        continue;
                    }
                    let shared = leads.get(index + 1).is_some_and(|next| next.0 == id);
                    let text = if completes && !shared {
                        self.state.move_text(mv)
                    } else {
                        self.legal_id_name(id)
                    };
                    texts.push((id, text));
                }
                texts
            }
            Turn::Simultaneous => self
                .simultaneous_choices(player)
                .into_iter()
                .filter(|&(_, id)| wanted(id))
                .map(|(mv, id)| (id, self.state.move_text(mv)))
                .collect(),
            Turn::Chance => self
                .chance_outcomes()
                .into_iter()
                .filter(|&(id, _)| wanted(id))
                .map(|(id, _)| (id, self.legal_id_name(id)))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The name of `id` without a legal move to explain it: a chance
    /// outcome's at a chance node, the game's name of the action elsewhere.
    ///
    /// # Errors
    /// An id outside the range of those names: the games name only their
    /// own ids.
    fn id_name(&self, id: u32) -> Result<String, IllegalMove> {
        let rules = self.state.rules();
        let (count, what) = if self.turn() == Turn::Chance {
            (chance_outcome_count(&self.deal_model()), "chance outcome")
        } else {
            (G::num_actions(rules), "action")
        };
        if id as usize >= count {
            return Err(IllegalMove::new(format!(
                "{what} {id} is not one of the game's {what} ids (0 to {})",
                count - 1
            )));
        }
        Ok(if self.turn() == Turn::Chance {
            (self.deal_model().outcome_name)(rules, id)
        } else {
            G::action_name(rules, id)
        })
    }

    /// The name of `id`, a legal action or chance outcome here.
    fn legal_id_name(&self, id: u32) -> String {
        self.id_name(id)
            .expect("legal ids are within the game's ids (the encoding tests check it)")
    }

    /// The legal action of `player` written `text`: the text of one of its
    /// legal actions (as [`action_to_string`](Self::action_to_string)
    /// writes it), or a move in the game's notation whose next decision is
    /// then the action.
    ///
    /// # Errors
    /// Text that names no legal action of `player` here.
    pub fn string_to_action(&self, player: Player, text: &str) -> Result<u32, ParseError> {
        let text = text.trim();
        if let Some((id, _)) = self
            .action_texts(player, None)
            .into_iter()
            .find(|(_, written)| written == text)
        {
            return Ok(id);
        }
        let problem = || ParseError::new("action", text, "not a legal action here");
        if self.turn() != Turn::Player(player) {
            return Err(problem());
        }
        let mv = self.state.parse_move(text)?;
        let mut path = ActionPath::new();
        self.state.action_path(mv, &mut path);
        let pending = self.pending.as_slice();
        match path.as_slice().strip_prefix(pending) {
            Some([next, ..]) => Ok(*next),
            _ => Err(problem()),
        }
    }
}

/// A player's choices at a simultaneous node with the id of each; each
/// takes one decision.
struct PlayerChoices<'a, G> {
    state: &'a G,
    player: Player,
}

impl<G: Encoding> SimultaneousVisitor<G> for PlayerChoices<'_, G> {
    type Output = Vec<(G::Move, u32)>;

    fn visit(self) -> Self::Output
    where
        G: Simultaneous,
    {
        let mut moves = MoveList::new();
        self.state.player_moves(self.player, &mut moves);
        moves
            .iter()
            .map(|&mv| {
                let mut path = ActionPath::new();
                self.state.action_path(mv, &mut path);
                debug_assert_eq!(path.as_slice().len(), 1, "a simultaneous choice is one id");
                (mv, path.as_slice()[0])
            })
            .collect()
    }
}

/// A player's observation as text, in a game with hidden information.
struct ObservationText<'a, G> {
    state: &'a G,
    player: Player,
}

impl<G: Game> HiddenInformationVisitor<G> for ObservationText<'_, G> {
    type Output = String;

    fn visit(self) -> String
    where
        G: ImperfectInformation,
    {
        self.state.observation(self.player).to_string()
    }
}

/// What every player sees, as text, in a game with hidden information.
struct PublicText<'a, G> {
    state: &'a G,
}

impl<G: Game> HiddenInformationVisitor<G> for PublicText<'_, G> {
    type Output = String;

    fn visit(self) -> String
    where
        G: ImperfectInformation,
    {
        self.state.public_observation_text()
    }
}

#[cfg(test)]
mod tests {
    use super::sort_distinct;

    /// `sort_distinct` as the plain sort does it, on few and many ids and
    /// on ids too sparse for a bitmap.
    #[test]
    fn distinct_ids_come_out_sorted() {
        let cases: [&[u32]; 5] = [
            &[],
            &[7],
            &[130, 5, 64, 63, 5, 0, 2419, 130, 1],
            &[4_000_000_000, 3, 3, 17],
            &[25_455, 12, 25_455, 900, 64, 65, 127, 128],
        ];
        for case in cases {
            let mut expected = case.to_vec();
            expected.sort_unstable();
            expected.dedup();
            let mut ids = case.to_vec();
            sort_distinct(&mut ids, case.iter().copied().max().unwrap_or(0));
            assert_eq!(ids, expected, "{case:?}");
        }
    }
}
