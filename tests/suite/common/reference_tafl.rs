//! A deliberately plain player of the tafl family, written from the rules
//! page (docs/rules/tafl.md) alone: a list of cells, moves found by
//! walking squares one at a time, captures by looking at neighbours,
//! repetition by comparing whole positions over the whole game. It shares
//! only the rules string's reading (`RulesString`, tested on its own) with
//! the engine, and exists to cross-check it.

#![allow(dead_code)]

use norn::games::tafl::{
    Berserk, Escape, Jump, Kind, KingArmed, KingStrength, Piece, Region, RulesString, Shieldwall,
    Side, ThirdRepetition,
};

/// (file, rank), a1 = (0, 0).
type Coord = (i32, i32);

const STEPS: [Coord; 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// How a reference game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefEnd {
    /// The king reached an escape square.
    Escape,
    /// The king was captured.
    KingCaptured,
    /// No defender could reach the edge.
    Encirclement,
    /// A position's third occurrence, won by this side (`None`: drawn).
    Repetition(Option<Side>),
    /// The side to move had no move.
    NoMoves,
}

/// A position with the rules it is played under and every position of the
/// game so far.
#[derive(Clone, Debug)]
pub struct Reference<'a> {
    pub rules: &'a RulesString,
    /// Whether the defenders lose a third repetition, whoever made it.
    pub defenders_lose_repetition: bool,
    pub cells: Vec<Option<Piece>>,
    pub to_move: Side,
    pub berserk: Option<usize>,
    pub history: Vec<(Vec<Option<Piece>>, Side, Option<usize>)>,
}

impl<'a> Reference<'a> {
    /// The position `cells` with `to_move` to move (a fresh game).
    pub fn new(
        rules: &'a RulesString,
        defenders_lose_repetition: bool,
        cells: Vec<Option<Piece>>,
        to_move: Side,
        berserk: Option<usize>,
    ) -> Reference<'a> {
        let mut reference = Reference {
            rules,
            defenders_lose_repetition,
            cells,
            to_move,
            berserk,
            history: Vec::new(),
        };
        reference.history.push(reference.key());
        reference
    }

    fn key(&self) -> (Vec<Option<Piece>>, Side, Option<usize>) {
        (self.cells.clone(), self.to_move, self.berserk)
    }

    fn dim(&self) -> i32 {
        self.rules.dim as i32
    }

    fn on_board(&self, (f, r): Coord) -> bool {
        (0..self.dim()).contains(&f) && (0..self.dim()).contains(&r)
    }

    fn index(&self, (f, r): Coord) -> usize {
        (r * self.dim() + f) as usize
    }

    fn coord(&self, index: usize) -> Coord {
        (index as i32 % self.dim(), index as i32 / self.dim())
    }

    fn at(&self, c: Coord) -> Option<Piece> {
        if self.on_board(c) {
            self.cells[self.index(c)]
        } else {
            None
        }
    }

    fn in_region(&self, region: Region, c: Coord) -> bool {
        self.on_board(c) && self.rules.squares[region as usize].contains(&self.index(c))
    }

    fn regions_of(&self, c: Coord) -> Vec<Region> {
        Region::ALL
            .into_iter()
            .filter(|&region| self.in_region(region, c))
            .collect()
    }

    fn is_edge(&self, (f, r): Coord) -> bool {
        f == 0 || r == 0 || f == self.dim() - 1 || r == self.dim() - 1
    }

    fn king(&self) -> Coord {
        let index = self
            .cells
            .iter()
            .position(|cell| cell.is_some_and(|piece| piece.kind == Kind::King))
            .expect("a king");
        self.coord(index)
    }

    // ---- Moving ----

    fn may_stop(&self, piece: Piece, c: Coord) -> bool {
        self.regions_of(c)
            .iter()
            .all(|&region| self.rules.regions[region as usize].stop.contains(piece))
    }

    fn may_pass(&self, piece: Piece, c: Coord) -> bool {
        self.regions_of(c)
            .iter()
            .all(|&region| self.rules.regions[region as usize].pass.contains(piece))
    }

    /// Whether ending on `to` would bring `piece` back into a region it
    /// may not re-enter: `to` is in the region and `from` is not.
    fn reenters_wrongly(&self, piece: Piece, from: Coord, to: Coord) -> bool {
        self.regions_of(to).iter().any(|&region| {
            !self.in_region(region, from)
                && !self.rules.regions[region as usize].reenter.contains(piece)
        })
    }

    fn speed(&self, piece: Piece) -> Option<i32> {
        let speed = self.rules.speeds[piece.index()];
        (speed >= 0).then_some(speed as i32)
    }

    /// The moves of the piece on `from`: slides, then jumps.
    fn piece_moves(&self, from: Coord) -> Vec<(usize, usize)> {
        let piece = self.at(from).expect("a piece");
        let mut moves = Vec::new();
        for (df, dr) in STEPS {
            let mut k = 1;
            loop {
                let to = (from.0 + k * df, from.1 + k * dr);
                if !self.on_board(to) || self.at(to).is_some() {
                    break;
                }
                if self.speed(piece).is_some_and(|speed| k > speed) {
                    break;
                }
                if self.may_stop(piece, to) && !self.reenters_wrongly(piece, from, to) {
                    moves.push((self.index(from), self.index(to)));
                }
                if !self.may_pass(piece, to) {
                    break;
                }
                k += 1;
            }
        }
        let jump = self.rules.jumps[piece.kind as usize];
        if jump != Jump::None && self.speed(piece).is_none_or(|speed| speed >= 2) {
            let own_fortress = match piece.side {
                Side::Attackers => Region::AttackerFortress,
                Side::Defenders => Region::DefenderFortress,
            };
            let anchor = |c: Coord| {
                self.in_region(Region::Centre, c)
                    || self.in_region(Region::Corner, c)
                    || self.in_region(own_fortress, c)
            };
            for (df, dr) in STEPS {
                let over = (from.0 + df, from.1 + dr);
                let to = (from.0 + 2 * df, from.1 + 2 * dr);
                let Some(jumped) = self.at(over) else {
                    continue;
                };
                if jumped.side == piece.side || jumped.kind == Kind::King {
                    continue;
                }
                if !self.on_board(to) || self.at(to).is_some() {
                    continue;
                }
                if !self.may_stop(piece, to) || self.reenters_wrongly(piece, from, to) {
                    continue;
                }
                if jump == Jump::Restricted && !anchor(from) && !anchor(to) {
                    continue;
                }
                moves.push((self.index(from), self.index(to)));
            }
        }
        moves
    }

    /// Every legal move of the side to move.
    pub fn moves(&self) -> Vec<(usize, usize)> {
        let mut moves = Vec::new();
        if let Some(square) = self.berserk {
            let all = self.piece_moves(self.coord(square));
            for mv in all {
                let (taken, king) = self.captures(mv);
                if self.rules.berserk == Berserk::AnyMove || king || !taken.is_empty() {
                    moves.push(mv);
                }
            }
            moves.sort_unstable();
            return moves;
        }
        for index in 0..self.cells.len() {
            if self.cells[index].is_some_and(|piece| piece.side == self.to_move) {
                moves.extend(self.piece_moves(self.coord(index)));
            }
        }
        moves.sort_unstable();
        moves
    }

    // ---- Capturing ----

    fn can_hammer(&self, piece: Piece) -> bool {
        match piece.kind {
            Kind::Guard => false,
            Kind::King => matches!(self.rules.king_armed, KingArmed::Both | KingArmed::Hammer),
            _ => true,
        }
    }

    fn can_anvil(&self, piece: Piece) -> bool {
        match piece.kind {
            Kind::Guard => false,
            Kind::King => matches!(self.rules.king_armed, KingArmed::Both | KingArmed::Anvil),
            _ => true,
        }
    }

    /// Whether the square `c` is hostile to `victim` by the rules of its
    /// region (not by a piece on it), on `cells`.
    fn square_hostile(&self, cells: &[Option<Piece>], c: Coord, victim: Piece) -> bool {
        self.regions_of(c).iter().any(|&region| {
            let rules = self.rules.regions[region as usize];
            if region == Region::Centre {
                if cells[self.index(c)].is_some() {
                    rules.hostile.contains(victim)
                } else {
                    self.rules.centre_hostile_empty.contains(victim)
                }
            } else {
                rules.hostile.contains(victim)
            }
        })
    }

    /// What `mv` captures: the squares of the pieces taken (sorted), and
    /// whether the king is captured. Decided on the board after the piece
    /// has moved.
    pub fn captures(&self, (from, to): (usize, usize)) -> (Vec<usize>, bool) {
        let piece = self.cells[from].expect("a piece moves");
        let mut cells = self.cells.clone();
        cells[from] = None;
        cells[to] = Some(piece);
        let at = |c: Coord| {
            if self.on_board(c) {
                cells[self.index(c)]
            } else {
                None
            }
        };
        let (fc, tc) = (self.coord(from), self.coord(to));
        let mut taken = Vec::new();
        // A capturing jump.
        let distance = (fc.0 - tc.0).abs() + (fc.1 - tc.1).abs();
        if distance == 2 && (fc.0 == tc.0 || fc.1 == tc.1) {
            let over = ((fc.0 + tc.0) / 2, (fc.1 + tc.1) / 2);
            if let Some(jumped) = at(over)
                && self.rules.jumps[piece.kind as usize] == Jump::Capturing
                && jumped.kind != Kind::Guard
                && jumped.kind != Kind::King
            {
                taken.push(self.index(over));
            }
        }
        if !self.can_hammer(piece) {
            taken.sort_unstable();
            return (taken, false);
        }
        let enemy = piece.side.opponent();
        let king = {
            let index = cells
                .iter()
                .position(|cell| cell.is_some_and(|p| p.kind == Kind::King))
                .expect("a king");
            self.coord(index)
        };
        let anvil_piece =
            |c: Coord| at(c).is_some_and(|p| p.side == piece.side && self.can_anvil(p));
        // Custodial captures.
        for (df, dr) in STEPS {
            let target = (tc.0 + df, tc.1 + dr);
            let anvil = (tc.0 + 2 * df, tc.1 + 2 * dr);
            let Some(victim) = at(target) else { continue };
            if victim.side != enemy || victim.kind == Kind::King || victim.kind == Kind::Guard {
                continue;
            }
            if !self.on_board(anvil) {
                continue;
            }
            let linnaean = self.rules.linnaean
                && anvil == king
                && self.in_region(Region::Centre, king)
                && victim.side == Side::Defenders
                && STEPS
                    .iter()
                    .map(|(kf, kr)| (king.0 + kf, king.1 + kr))
                    .filter(|&c| c != target && self.on_board(c))
                    .filter(|&c| {
                        at(c).is_some_and(|p| p.side == Side::Attackers && p.kind != Kind::Guard)
                    })
                    .count()
                    == 3;
            if anvil_piece(anvil) || self.square_hostile(&cells, anvil, victim) || linnaean {
                taken.push(self.index(target));
            }
        }
        // The king.
        let mut king_captured = false;
        if piece.side == Side::Attackers {
            let king_piece = Piece {
                side: Side::Defenders,
                kind: Kind::King,
            };
            let hostile = |c: Coord| {
                at(c).is_some_and(|p| p.side == Side::Attackers && p.kind != Kind::Guard)
                    || self.square_hostile(&cells, c, king_piece)
            };
            let neighbours: Vec<Coord> = STEPS
                .iter()
                .map(|(df, dr)| (king.0 + df, king.1 + dr))
                .filter(|&c| self.on_board(c))
                .collect();
            if neighbours.contains(&tc) {
                let near_centre = self.in_region(Region::Centre, king)
                    || neighbours
                        .iter()
                        .any(|&c| self.in_region(Region::Centre, c));
                let strength = match self.rules.king_strength {
                    KingStrength::CentreStrong if near_centre => KingStrength::Strong,
                    KingStrength::CentreStrong => KingStrength::Weak,
                    strength => strength,
                };
                king_captured = match strength {
                    KingStrength::Strong => {
                        neighbours.len() == 4 && neighbours.iter().all(|&c| hostile(c))
                    }
                    KingStrength::Middleweight => neighbours.iter().all(|&c| hostile(c)),
                    _ => {
                        let across = (2 * king.0 - tc.0, 2 * king.1 - tc.1);
                        self.on_board(across) && hostile(across)
                    }
                };
            }
        }
        // Shieldwalls: runs of two or more enemy pieces along an edge line.
        if self.rules.shieldwall != Shieldwall::None {
            let n = self.dim();
            let corner_closes = self.rules.shieldwall == Shieldwall::Strong;
            let closes = |c: Coord| {
                self.on_board(c)
                    && (anvil_piece(c) || (corner_closes && self.in_region(Region::Corner, c)))
            };
            // Each edge line: its squares in order, and the inward step.
            let lines: Vec<(Vec<Coord>, Coord)> = vec![
                ((0..n).map(|f| (f, 0)).collect(), (0, 1)),
                ((0..n).map(|f| (f, n - 1)).collect(), (0, -1)),
                ((0..n).map(|r| (0, r)).collect(), (1, 0)),
                ((0..n).map(|r| (n - 1, r)).collect(), (-1, 0)),
            ];
            for (line, (inf, inr)) in lines {
                let mut i = 0;
                while i < line.len() {
                    if !at(line[i]).is_some_and(|p| p.side == enemy) {
                        i += 1;
                        continue;
                    }
                    let start = i;
                    while i < line.len() && at(line[i]).is_some_and(|p| p.side == enemy) {
                        i += 1;
                    }
                    let run = &line[start..i];
                    let step = (line[1].0 - line[0].0, line[1].1 - line[0].1);
                    let before = (run[0].0 - step.0, run[0].1 - step.1);
                    let last = run[run.len() - 1];
                    let after = (last.0 + step.0, last.1 + step.1);
                    let faced = run.iter().all(|&(f, r)| {
                        at((f + inf, r + inr)).is_some_and(|p| p.side == piece.side)
                    });
                    if run.len() < 2 || !faced {
                        continue;
                    }
                    let mover_is_end =
                        (tc == before && closes(after)) || (tc == after && closes(before));
                    let mover_in_front = !self.rules.shieldwall_flank
                        && run.iter().any(|&(f, r)| (f + inf, r + inr) == tc)
                        && closes(before)
                        && closes(after);
                    if mover_is_end || mover_in_front {
                        for &member in run {
                            let kind = at(member).expect("a member").kind;
                            if kind != Kind::King && kind != Kind::Guard {
                                taken.push(self.index(member));
                            }
                        }
                    }
                }
            }
        }
        taken.sort_unstable();
        taken.dedup();
        (taken, king_captured)
    }

    // ---- Playing and ending ----

    fn encircled(&self) -> bool {
        let mut seen = vec![false; self.cells.len()];
        let mut stack: Vec<Coord> = (0..self.cells.len())
            .filter(|&i| self.cells[i].is_some_and(|p| p.side == Side::Defenders))
            .map(|i| self.coord(i))
            .collect();
        while let Some(c) = stack.pop() {
            let index = self.index(c);
            if seen[index] {
                continue;
            }
            seen[index] = true;
            if self.is_edge(c) {
                return false;
            }
            for (df, dr) in STEPS {
                let next = (c.0 + df, c.1 + dr);
                if self.on_board(next) && !self.at(next).is_some_and(|p| p.side == Side::Attackers)
                {
                    stack.push(next);
                }
            }
        }
        true
    }

    fn escaped(&self) -> bool {
        let king = self.king();
        match self.rules.escape {
            Escape::Corner => self.in_region(Region::Corner, king),
            Escape::Edge => self.is_edge(king),
        }
    }

    /// Plays `mv` and says how the game ended, if it did (the ply limit
    /// and edge forts are the engine's to judge).
    pub fn play(&mut self, mv: (usize, usize)) -> Option<RefEnd> {
        let mover = self.to_move;
        let (taken, king_captured) = self.captures(mv);
        let piece = self.cells[mv.0].expect("a piece moves");
        self.cells[mv.0] = None;
        self.cells[mv.1] = Some(piece);
        for &square in &taken {
            let victim = self.cells[square].expect("a victim");
            self.cells[square] = if victim.kind == Kind::Mercenary {
                Some(Piece {
                    side: mover,
                    kind: Kind::Mercenary,
                })
            } else {
                None
            };
        }
        self.berserk = None;
        let mut again = false;
        if !taken.is_empty() && !king_captured && self.rules.berserk != Berserk::None {
            self.berserk = Some(mv.1);
            again = !self.moves().is_empty();
            if !again {
                self.berserk = None;
            }
        }
        if !again {
            self.to_move = mover.opponent();
        }
        self.history.push(self.key());
        if mover == Side::Defenders && self.escaped() {
            return Some(RefEnd::Escape);
        }
        if mover == Side::Attackers {
            if king_captured {
                return Some(RefEnd::KingCaptured);
            }
            if self.rules.surrounding_fatal && self.encircled() {
                return Some(RefEnd::Encirclement);
            }
        }
        let key = self.key();
        let seen = self.history.iter().filter(|&old| *old == key).count();
        let counted =
            self.defenders_lose_repetition || self.rules.repetition != ThirdRepetition::Ignored;
        if counted && seen >= 3 {
            let winner = if self.defenders_lose_repetition {
                Some(Side::Attackers)
            } else {
                match self.rules.repetition {
                    ThirdRepetition::MoverLoses => Some(mover.opponent()),
                    ThirdRepetition::MoverWins => Some(mover),
                    _ => None,
                }
            };
            return Some(RefEnd::Repetition(winner));
        }
        if self.moves().is_empty() {
            return Some(RefEnd::NoMoves);
        }
        None
    }
}
