//! The game state, how a game ends, and the [`Game`] and [`Simultaneous`]
//! implementations.

use super::board::{POINTS, bit, point_name, points_of};
use super::moves::{Character, NibelungenMove, Pair};
use super::options::{NibelungenRules, WinCheck};
use crate::core::zobrist::{splitmix64, zobrist_keys};
use crate::core::{
    Game, IllegalMove, MoveList, Outcome, Player, Scoring, Simultaneous, SimultaneousVisitor,
    Status, hash_and_ply_fields, moves_until_ending, two_sided_players, two_sides,
};
use serde::Serialize;

two_sides! {
    /// The two players: Tod (Tragic Destiny) is player 0, NO (Natural
    /// Order) player 1.
    pub enum Side {
        Tod = "tod" | "t",
        No = "no" | "n",
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// Siegfried and Brunhild alone in a castle: NO wins.
    SiegfriedWithBrunhild,
    /// Siegfried and Kriemhild alone in a castle: NO wins.
    SiegfriedWithKriemhild,
    /// Gunther, Siegfried and Brunhild fill a castle: Tod wins.
    Marriage,
    /// Gunther, Hagen and Siegfried fill a castle-free small triangle: Tod
    /// wins.
    Murder,
    /// The round limit passed without a winner: a draw.
    RoundLimit,
}

impl EndReason {
    /// The reason's name in records and reports.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::SiegfriedWithBrunhild => "siegfried-with-brunhild",
            EndReason::SiegfriedWithKriemhild => "siegfried-with-kriemhild",
            EndReason::Marriage => "marriage",
            EndReason::Murder => "murder",
            EndReason::RoundLimit => "round-limit",
        }
    }

    /// The winning side, or `None` for a draw.
    pub const fn winner(self) -> Option<Side> {
        match self {
            EndReason::SiegfriedWithBrunhild | EndReason::SiegfriedWithKriemhild => Some(Side::No),
            EndReason::Marriage | EndReason::Murder => Some(Side::Tod),
            EndReason::RoundLimit => None,
        }
    }
}

/// Zobrist keys: each character on each point, each player's screen pair
/// (indexed by the pair's bits), and the character to move next. The round
/// number's key is computed from the number itself, so that rounds need no
/// table however many there are.
static KEYS: [u64; KEY_COUNT] = zobrist_keys(0x6e69_6265_6c75_6e67);
const CHARACTER_KEYS: usize = 0;
const SCREEN_KEYS: usize = CHARACTER_KEYS + 5 * POINTS;
const NEXT_KEYS: usize = SCREEN_KEYS + 2 * 32;
const KEY_COUNT: usize = NEXT_KEYS + 5;
const ROUND_SEED: u64 = 0x726f_756e_6473;

fn round_key(round: u32) -> u64 {
    splitmix64(ROUND_SEED ^ u64::from(round)).1
}

/// A position of Nibelungen: where the five characters stand, the pairs in
/// front of the two screens, the round, and which character moves next
/// while a round's movement phase is under way.
///
/// Between rounds (`next` is `None`) the screens hold the previous round's
/// pairs, which the players may not choose from; during the movement phase
/// they hold this round's revealed pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nibelungen {
    pub(crate) rules: NibelungenRules,
    /// The point of each character, in sequence order.
    pub(crate) points: [u8; 5],
    /// The points occupied by a character.
    pub(crate) occupied: u16,
    /// The pair in front of each player's screen, Tod first.
    pub(crate) screens: [Option<Pair>; 2],
    /// The character to move next in the movement phase; `None` while the
    /// players choose (and once the game is over).
    pub(crate) next: Option<Character>,
    /// The round being played, from 1; after a round-limit draw, one past
    /// the limit.
    pub(crate) round: u32,
    pub(crate) ending: Option<EndReason>,
    pub(crate) ply: u32,
    pub(crate) hash: u64,
}

impl Nibelungen {
    /// The start of round 1 under `rules`: Gunther, Kriemhild and Hagen in
    /// Worms, Siegfried at the north point of Xanten, Brunhild at the west
    /// point of Isen.
    pub fn start(rules: NibelungenRules) -> Nibelungen {
        Nibelungen::from_parts(
            rules,
            super::setup::START_POINTS,
            [rules.tod_start, rules.no_start],
            None,
            1,
        )
    }

    /// A state from its parts, already checked, with its hash and ending.
    pub(crate) fn from_parts(
        rules: NibelungenRules,
        points: [u8; 5],
        screens: [Option<Pair>; 2],
        next: Option<Character>,
        round: u32,
    ) -> Nibelungen {
        let mut state = Nibelungen {
            rules,
            points,
            occupied: points.iter().fold(0, |set, &point| set | bit(point)),
            screens,
            next,
            round,
            ending: None,
            ply: 0,
            hash: 0,
        };
        state.hash = state.hash_from_scratch();
        // With the conditions checked only at the end of a round, a board
        // passing through one during the movement phase is not decided.
        let checked = state.next.is_none() || rules.win_check == WinCheck::EveryMove;
        if let Some(reason) = state.condition_met().filter(|_| checked) {
            state.end(reason);
        } else if state.next.is_none() && state.rounds_exhausted() {
            state.ending = Some(EndReason::RoundLimit);
        }
        state
    }

    /// The hash computed from the position alone.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut hash = round_key(self.round);
        for character in Character::ALL {
            hash ^= Self::character_key(character, self.points[character.index()]);
        }
        for (player, screen) in self.screens.iter().enumerate() {
            hash ^= Self::screen_key(player, *screen);
        }
        if let Some(next) = self.next {
            hash ^= KEYS[NEXT_KEYS + next.index()];
        }
        hash
    }

    fn character_key(character: Character, point: u8) -> u64 {
        KEYS[CHARACTER_KEYS + character.index() * POINTS + point as usize]
    }

    fn screen_key(player: Player, screen: Option<Pair>) -> u64 {
        screen.map_or(0, |pair| {
            KEYS[SCREEN_KEYS + player * 32 + pair.bits() as usize]
        })
    }

    /// The point of `character`.
    pub fn point_of(&self, character: Character) -> u8 {
        self.points[character.index()]
    }

    /// The points occupied by a character, as bits.
    pub fn occupied(&self) -> u16 {
        self.occupied
    }

    /// The pair in front of `side`'s screen: the previous round's between
    /// rounds, this round's during the movement phase.
    pub fn screen(&self, side: Side) -> Option<Pair> {
        self.screens[side.player()]
    }

    /// The character to move next, during a round's movement phase.
    pub fn next_to_move(&self) -> Option<Character> {
        self.next
    }

    /// The round being played, from 1.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<EndReason> {
        self.ending
    }

    /// The character on `point`, if any.
    pub fn character_on(&self, point: u8) -> Option<Character> {
        Character::ALL
            .into_iter()
            .find(|&character| self.points[character.index()] == point)
    }

    /// The side that chose `character` this round; during the movement
    /// phase every character still to move was chosen by exactly one side.
    pub(crate) fn chooser(&self, character: Character) -> Side {
        if self.screens[Side::Tod.player()].is_some_and(|pair| pair.contains(character)) {
            Side::Tod
        } else {
            Side::No
        }
    }

    /// The characters that move this round (chosen by one side only), as
    /// bits, and the steps each may take: one when the pairs share no
    /// character, two when they share one. Nothing moves when they are the
    /// same pair.
    pub fn movers(&self) -> (u8, u8) {
        match self.screens {
            [Some(tod), Some(no)] => {
                let common = tod.bits() & no.bits();
                let steps = if common == 0 { 1 } else { 2 };
                ((tod.bits() | no.bits()) & !common, steps)
            }
            _ => (0, 0),
        }
    }

    /// The pairs `side` may choose between rounds: none with a character
    /// in front of its screen, and with nothing there (choosing among all
    /// five), not Siegfried and Brunhild together.
    pub fn allowed_pairs(&self, side: Side) -> impl Iterator<Item = Pair> + use<> {
        let screen = self.screens[side.player()];
        Pair::all().filter(move |pair| match screen {
            Some(previous) => pair.bits() & previous.bits() == 0,
            None => *pair != Pair::SIEGFRIED_BRUNHILD,
        })
    }

    /// Whether the round limit has been played out.
    pub(crate) fn rounds_exhausted(&self) -> bool {
        self.rules
            .round_limit
            .is_some_and(|limit| self.round > limit.get())
    }

    /// Moves `character` to `point`, updating the occupancy and the hash.
    pub(crate) fn place(&mut self, character: Character, point: u8) {
        let from = self.points[character.index()];
        self.hash ^= Self::character_key(character, from) ^ Self::character_key(character, point);
        self.occupied = self.occupied & !bit(from) | bit(point);
        self.points[character.index()] = point;
    }

    /// Sets the screens' pairs, updating the hash.
    pub(crate) fn set_screens(&mut self, screens: [Option<Pair>; 2]) {
        for (player, screen) in screens.into_iter().enumerate() {
            self.hash ^=
                Self::screen_key(player, self.screens[player]) ^ Self::screen_key(player, screen);
        }
        self.screens = screens;
    }

    /// Sets the character to move next, updating the hash.
    pub(crate) fn set_next(&mut self, next: Option<Character>) {
        if let Some(old) = self.next {
            self.hash ^= KEYS[NEXT_KEYS + old.index()];
        }
        if let Some(new) = next {
            self.hash ^= KEYS[NEXT_KEYS + new.index()];
        }
        self.next = next;
    }

    /// Sets the round number, updating the hash.
    pub(crate) fn set_round(&mut self, round: u32) {
        self.hash ^= round_key(self.round) ^ round_key(round);
        self.round = round;
    }

    /// Ends the game: nobody is left to move.
    pub(crate) fn end(&mut self, reason: EndReason) {
        self.set_next(None);
        self.ending = Some(reason);
    }
}

impl Game for Nibelungen {
    type Move = NibelungenMove;
    type Rules = NibelungenRules;

    const NAME: &'static str = "nibelungen";
    const SCORING: Scoring = Scoring::WinLoss;

    two_sided_players!(Side);
    moves_until_ending!();
    hash_and_ply_fields!();

    fn status(&self) -> Status {
        match (self.ending, self.next) {
            (Some(reason), _) => Status::Over(Outcome::win_or_draw(
                reason.winner().map(Side::player),
                reason.name(),
            )),
            (None, Some(character)) => Status::ToMove(self.chooser(character).player()),
            (None, None) => Status::Simultaneous,
        }
    }

    /// Plays a character move; pairs are played together, as a joint
    /// move (see [`Simultaneous::play_joint`]), and are never listed here.
    fn play(&mut self, mv: NibelungenMove) {
        if let NibelungenMove::MoveTo(point) = mv {
            self.move_character(point);
        }
    }

    /// Explains why `mv` is not a legal character move here.
    fn check_move(&self, mv: NibelungenMove) -> Result<(), IllegalMove> {
        if let Some(reason) = self.ending {
            return Err(IllegalMove::new(format!(
                "the game is over ({})",
                reason.name()
            )));
        }
        let Some(character) = self.next else {
            return Err(IllegalMove::new(
                "the players choose their pairs together here: a joint move, not a single one",
            ));
        };
        let NibelungenMove::MoveTo(point) = mv else {
            return Err(IllegalMove::new(format!(
                "{character} is to move: a move names the point where it ends, not a pair"
            )));
        };
        let reachable = self.destinations(character);
        if (point as usize) < POINTS && reachable & bit(point) != 0 {
            return Ok(());
        }
        let names: Vec<String> = points_of(reachable).map(point_name).collect();
        let target = if (point as usize) < POINTS {
            point_name(point)
        } else {
            format!("point {point}")
        };
        Err(IllegalMove::new(format!(
            "{character} on {} cannot end on {target} (it can end on {})",
            point_name(self.point_of(character)),
            names.join(", ")
        )))
    }

    fn with_simultaneous_moves<V: SimultaneousVisitor<Self>>(visitor: V) -> Option<V::Output> {
        Some(visitor.visit())
    }
}

impl Simultaneous for Nibelungen {
    /// The pairs `player` may choose between rounds.
    fn player_moves(&self, player: Player, moves: &mut MoveList<NibelungenMove>) {
        moves.clear();
        if self.status() == Status::Simultaneous {
            moves.extend(
                self.allowed_pairs(Side::from_player(player))
                    .map(NibelungenMove::Choose),
            );
        }
    }

    fn play_joint(&mut self, joint: &[NibelungenMove]) {
        let pair = |mv: NibelungenMove| match mv {
            NibelungenMove::Choose(pair) => pair,
            NibelungenMove::MoveTo(_) => unreachable!("a joint move holds two pairs"),
        };
        self.reveal([pair(joint[0]), pair(joint[1])]);
    }
}
