//! The game state, how a game ends, and the [`Game`] implementation.

use super::board::{Colour, MAX_COLOURS, ODIN, tile_bit, tiles_of};
use super::moves::FenrirPathMove;
use super::options::{FenrirPathRules, StuckGod, TurnOrder};
use super::setup::Deal;
use crate::core::zobrist::zobrist_keys;
use crate::core::{
    ChanceVisitor, Game, GameRng, IllegalMove, MoveList, Notation, Outcome, ParseError, Player,
    Scoring, Status, Stochastic, hash_and_ply_fields,
};
use serde::Serialize;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The gods completed the sets they needed: Fenrir is bound.
    FenrirBound,
    /// The wolf reached the Odin tile.
    WolfReachedOdin,
    /// No god that may be named can move.
    NoMoves,
}

impl EndReason {
    /// The reason's name in records and reports.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::FenrirBound => "fenrir-bound",
            EndReason::WolfReachedOdin => "wolf-reached-odin",
            EndReason::NoMoves => "no-moves",
        }
    }

    /// Whether the gods won.
    pub const fn is_win(self) -> bool {
        matches!(self, EndReason::FenrirBound)
    }
}

/// Zobrist keys: god of each colour on each tile, the wolf on each tile, each
/// collected tile, the last mover, and the colour of each tile (so that
/// different deals hash differently).
static KEYS: [u64; KEY_COUNT] = zobrist_keys(0x6665_6e72_6972_7061);
const GOD_KEYS: usize = 0;
const WOLF_KEYS: usize = GOD_KEYS + MAX_COLOURS * 32;
const COLLECTED_KEYS: usize = WOLF_KEYS + 32;
const LAST_MOVER_KEYS: usize = COLLECTED_KEYS + 32;
const TILE_COLOUR_KEYS: usize = LAST_MOVER_KEYS + MAX_COLOURS;
const KEY_COUNT: usize = TILE_COLOUR_KEYS + MAX_COLOURS * 32;

/// Marks "no god has moved yet" (or, after a lost turn, "any god may move").
pub(crate) const NOBODY: u8 = MAX_COLOURS as u8;

/// A state of Fenrir's Path: before the deal (a chance state) or a dealt
/// position with the gods, the wolf and the collected tiles.
///
/// The deal itself is kept as one set of tiles per colour; everything that
/// changes is a few bytes, so cloning a state for search is cheap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenrirPath {
    pub(crate) rules: FenrirPathRules,
    pub(crate) dealt: bool,
    /// The tiles of each colour (fixed by the deal).
    pub(crate) colour_tiles: [u32; MAX_COLOURS],
    /// The colours of the gods on their starting tiles, nearest Odin first
    /// (kept to print the deal).
    pub(crate) start_order: [Colour; MAX_COLOURS],
    /// The tile of each colour's god.
    pub(crate) gods: [u8; MAX_COLOURS],
    pub(crate) wolf: u8,
    pub(crate) collected: u32,
    /// The colour index of the god that moved last, or [`NOBODY`].
    pub(crate) last_mover: u8,
    pub(crate) ending: Option<EndReason>,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
}

impl FenrirPath {
    /// The dealt starting position of `deal`.
    pub fn from_deal(deal: &Deal, rules: FenrirPathRules) -> Result<FenrirPath, ParseError> {
        FenrirPath::from_setup(&deal.clone().into(), rules)
    }

    /// The deal this game was dealt.
    ///
    /// # Panics
    /// Before the deal (see [`Game::status`]).
    pub fn deal(&self) -> Deal {
        assert!(self.dealt, "the game has not been dealt yet");
        let last = self.rules.last_tile();
        let tiles = (1..=last)
            .map(|tile| {
                self.colours()
                    .find(|colour| self.colour_tiles[colour.index()] & tile_bit(tile) != 0)
                    .expect("every tile of a dealt path has a colour")
            })
            .collect();
        Deal {
            tiles,
            gods: self.start_order[..self.rules.colours() as usize].to_vec(),
        }
    }

    /// The colours in play.
    pub fn colours(&self) -> impl Iterator<Item = Colour> + use<> {
        Colour::ALL.into_iter().take(self.rules.colours() as usize)
    }

    /// Whether the tiles have been dealt.
    pub fn is_dealt(&self) -> bool {
        self.dealt
    }

    /// The tile of `god`.
    pub fn god_tile(&self, god: Colour) -> u8 {
        self.gods[god.index()]
    }

    /// The wolf's tile (0 is Odin).
    pub fn wolf(&self) -> u8 {
        self.wolf
    }

    /// The collected tiles, as bits (bit `i` is tile `i`).
    pub fn collected(&self) -> u32 {
        self.collected
    }

    /// The colour of `tile` as dealt, or `None` for the Odin tile.
    pub fn tile_colour(&self, tile: u8) -> Option<Colour> {
        self.colours()
            .find(|colour| self.colour_tiles[colour.index()] & tile_bit(tile) != 0)
    }

    /// The god that moved last, if any god has moved (or may not move again).
    pub fn last_mover(&self) -> Option<Colour> {
        (self.last_mover != NOBODY).then(|| Colour::from_index(self.last_mover as usize))
    }

    /// The god whose turn the next one follows: the god that moved last;
    /// in fixed turn order, before any god has moved, the rotation's last
    /// god, so that its successor, the first god, moves first. `None` in
    /// free turn order before any god has moved.
    pub fn turn_follows(&self) -> Option<Colour> {
        match self.rules.turn_order() {
            TurnOrder::Free => self.last_mover(),
            TurnOrder::Fixed => Some(Colour::from_index(self.rotation_follows() as usize)),
        }
    }

    /// [`FenrirPath::turn_follows`] in fixed turn order, as a colour index.
    fn rotation_follows(&self) -> u8 {
        if self.last_mover == NOBODY {
            self.rules.colours() - 1
        } else {
            self.last_mover
        }
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<EndReason> {
        self.ending
    }

    /// Colours whose every tile has been collected.
    pub fn complete_sets(&self) -> u8 {
        self.colours()
            .filter(|colour| self.colour_tiles[colour.index()] & !self.collected == 0)
            .count() as u8
    }

    /// Whether `mv` would collect a tile.
    #[inline]
    pub fn collects(&self, mv: FenrirPathMove) -> bool {
        mv.to != ODIN && self.colour_tiles[mv.god.index()] & !self.collected & tile_bit(mv.to) != 0
    }

    /// The hash computed from the position alone, without incremental updates.
    pub fn hash_from_scratch(&self) -> u64 {
        if !self.dealt {
            return 0;
        }
        let mut hash = KEYS[WOLF_KEYS + self.wolf as usize];
        for colour in self.colours() {
            let index = colour.index();
            hash ^= KEYS[GOD_KEYS + index * 32 + self.gods[index] as usize];
            for tile in tiles_of(self.colour_tiles[index]) {
                hash ^= KEYS[TILE_COLOUR_KEYS + index * 32 + tile as usize];
            }
        }
        for tile in tiles_of(self.collected) {
            hash ^= KEYS[COLLECTED_KEYS + tile as usize];
        }
        if self.last_mover != NOBODY {
            hash ^= KEYS[LAST_MOVER_KEYS + self.last_mover as usize];
        }
        hash
    }

    /// The gods the team may move now, as bits by colour index (before
    /// checking that they have a move, in free turn order).
    #[inline]
    fn movable_gods(&self) -> u8 {
        let all = (1u8 << self.rules.colours()) - 1;
        match self.rules.turn_order() {
            TurnOrder::Free => {
                if self.rules.repeat_mover() || self.last_mover == NOBODY {
                    all
                } else {
                    all & !(1 << self.last_mover)
                }
            }
            TurnOrder::Fixed => self.fixed_turn_god().map_or(0, |god| 1 << god),
        }
    }

    /// The god whose turn it is in fixed turn order, after skipping gods
    /// that cannot move if the rules say so.
    fn fixed_turn_god(&self) -> Option<u8> {
        let colours = self.rules.colours();
        let first = (self.rotation_follows() + 1) % colours;
        match self.rules.stuck_god() {
            StuckGod::Block => Some(first),
            StuckGod::Skip => (0..colours)
                .map(|step| (first + step) % colours)
                .find(|&god| self.destinations(Colour::from_index(god as usize)) != 0),
        }
    }

    /// The gods that may move now and have a legal move.
    pub fn gods_to_move(&self) -> impl Iterator<Item = Colour> + '_ {
        let movable = if self.ending.is_none() && self.dealt {
            self.movable_gods()
        } else {
            0
        };
        self.colours().filter(move |colour| {
            movable & (1 << colour.index()) != 0 && self.destinations(*colour) != 0
        })
    }

    /// Whether the team has a legal move (ignoring whether the game is over).
    pub(crate) fn team_can_move(&self) -> bool {
        let movable = self.movable_gods();
        self.colours()
            .any(|colour| movable & (1 << colour.index()) != 0 && self.destinations(colour) != 0)
    }

    /// Moves `god` to `tile`, updating the hash.
    #[inline]
    pub(crate) fn place_god(&mut self, god: usize, tile: u8) {
        self.hash ^= KEYS[GOD_KEYS + god * 32 + self.gods[god] as usize]
            ^ KEYS[GOD_KEYS + god * 32 + tile as usize];
        self.gods[god] = tile;
    }

    /// Moves the wolf to `tile`, updating the hash.
    #[inline]
    pub(crate) fn place_wolf(&mut self, tile: u8) {
        self.hash ^= KEYS[WOLF_KEYS + self.wolf as usize] ^ KEYS[WOLF_KEYS + tile as usize];
        self.wolf = tile;
    }

    /// Marks `tile` collected, updating the hash.
    #[inline]
    pub(crate) fn collect(&mut self, tile: u8) {
        self.hash ^= KEYS[COLLECTED_KEYS + tile as usize];
        self.collected |= tile_bit(tile);
    }

    /// Records the last mover ([`NOBODY`] for none), updating the hash.
    #[inline]
    pub(crate) fn set_last_mover(&mut self, god: u8) {
        if self.last_mover != NOBODY {
            self.hash ^= KEYS[LAST_MOVER_KEYS + self.last_mover as usize];
        }
        if god != NOBODY {
            self.hash ^= KEYS[LAST_MOVER_KEYS + god as usize];
        }
        self.last_mover = god;
    }
}

impl Game for FenrirPath {
    type Move = FenrirPathMove;
    type Rules = FenrirPathRules;

    const NAME: &'static str = "fenrir-path";
    const SCORING: Scoring = Scoring::Team;

    /// The state before the deal; [`Stochastic::resolve_chance`] deals.
    fn new(rules: FenrirPathRules) -> Self {
        FenrirPath {
            rules,
            dealt: false,
            colour_tiles: [0; MAX_COLOURS],
            start_order: Colour::ALL,
            gods: [ODIN; MAX_COLOURS],
            wolf: rules.last_tile(),
            collected: 0,
            last_mover: NOBODY,
            ending: None,
            ply: 0,
            hash: 0,
        }
    }

    fn rules(&self) -> &FenrirPathRules {
        &self.rules
    }

    /// The gods play as one team, so the game has one player.
    fn num_players(&self) -> usize {
        1
    }

    fn player_name(&self, _player: Player) -> String {
        "gods".to_string()
    }

    fn status(&self) -> Status {
        if !self.dealt {
            return Status::Chance;
        }
        match self.ending {
            Some(reason) => Status::Over(Outcome::team(1, reason.is_win(), reason.name())),
            None => Status::ToMove(0),
        }
    }

    fn legal_moves(&self, moves: &mut MoveList<FenrirPathMove>) {
        moves.clear();
        if !self.dealt || self.ending.is_some() {
            return;
        }
        let movable = self.movable_gods();
        for god in self.colours() {
            if movable & (1 << god.index()) != 0 {
                for to in tiles_of(self.destinations(god)) {
                    moves.push(FenrirPathMove { god, to });
                }
            }
        }
    }

    fn count_legal_moves(&self, _scratch: &mut MoveList<FenrirPathMove>) -> usize {
        if !self.dealt || self.ending.is_some() {
            return 0;
        }
        let movable = self.movable_gods();
        self.colours()
            .filter(|god| movable & (1 << god.index()) != 0)
            .map(|god| self.destinations(god).count_ones() as usize)
            .sum()
    }

    fn play(&mut self, mv: FenrirPathMove) {
        self.apply_move(mv);
    }

    /// Explains why `mv` is illegal, or returns `Ok` if it is legal.
    fn check_move(&self, mv: FenrirPathMove) -> Result<(), IllegalMove> {
        if !self.dealt {
            return Err(IllegalMove::new("the tiles have not been dealt yet"));
        }
        if let Some(ending) = self.ending {
            return Err(IllegalMove::new(format!(
                "the game is over ({})",
                ending.name()
            )));
        }
        let god = mv.god;
        if god.index() >= self.rules.colours() as usize {
            return Err(IllegalMove::new(format!(
                "there is no {god} god in a game of {} colours",
                self.rules.colours()
            )));
        }
        if self.movable_gods() & (1 << god.index()) == 0 {
            let reason = match (self.rules.turn_order(), self.last_mover()) {
                (TurnOrder::Fixed, _) => match self.gods_to_move().next() {
                    Some(next) => format!("it is {next}'s turn (fixed turn order)"),
                    None => "no god can move".to_string(),
                },
                (TurnOrder::Free, Some(last)) if last == god && !self.rules.repeat_mover() => {
                    format!("{god} moved last and must name another god")
                }
                _ => format!("{god} has no legal move"),
            };
            return Err(IllegalMove::new(reason));
        }
        let destinations = self.destinations(god);
        // The range check comes first: `tile_bit` needs a tile on the path.
        if mv.to > self.rules.last_tile() || destinations & tile_bit(mv.to) == 0 {
            let reachable: Vec<String> = tiles_of(destinations).map(|t| t.to_string()).collect();
            return Err(IllegalMove::new(format!(
                "{god} on tile {} cannot end a move on tile {} (it can reach {})",
                self.gods[god.index()],
                mv.to,
                reachable.join(", ")
            )));
        }
        Ok(())
    }

    hash_and_ply_fields!();

    fn with_chance<V: ChanceVisitor<Self>>(visitor: V) -> Option<V::Output> {
        Some(visitor.visit())
    }
}

impl Stochastic for FenrirPath {
    /// Deals: a uniformly random order of the tiles along the path and of
    /// the gods on their starting tiles.
    fn resolve_chance(&mut self, rng: &mut GameRng) {
        let deal = Deal::random(&self.rules, rng);
        *self = FenrirPath::from_deal(&deal, self.rules)
            .expect("a random deal fits its rules (the rules must be valid)");
    }
}
