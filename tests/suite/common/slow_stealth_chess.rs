//! A deliberately plain Stealth Chess, written from the rules page alone: a
//! 2-D array of cells, moves found by walking squares one at a time, every
//! move tried and kept only if it leaves the mover's king out of check. It
//! shares no code with the engine and exists only to cross-check it.

#![allow(dead_code)]

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
    Assassin,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Cell {
    pub white: bool,
    pub kind: Kind,
}

/// An Assassin's Slurk state: the rank it entered on and its count.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Slurk {
    pub entry_rank: i32,
    pub count: u32,
}

pub type Coord = (i32, i32); // (file, rank), a1 = (0, 0)

#[derive(Clone, PartialEq, Debug)]
pub struct Position {
    /// `board[file][rank]`, files a..j.
    pub board: [[Option<Cell>; 8]; 10],
    /// The Slurk state of the Assassin on each square of files a and j.
    pub slurk: [[Option<Slurk>; 8]; 10],
    pub white_to_move: bool,
    /// K, Q, k, q.
    pub castling: [bool; 4],
    pub en_passant: Option<Coord>,
}

/// A move as the rules page writes it, with what it does.
#[derive(Clone, Debug)]
pub struct Move {
    pub text: String,
    pub from: Coord,
    pub to: Coord,
    pub promotion: Option<Kind>,
    pub en_passant: bool,
    /// The rook's move of a castling.
    pub rook: Option<(Coord, Coord)>,
}

const KING_STEPS: [Coord; 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
const KNIGHT_JUMPS: [Coord; 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// A move that only takes a piece from `from` to `to`.
fn plain_move(from: Coord, to: Coord) -> Move {
    Move {
        text: format!("{}{}", name(from), name(to)),
        from,
        to,
        promotion: None,
        en_passant: false,
        rook: None,
    }
}

fn on_board((f, r): Coord) -> bool {
    (0..10).contains(&f) && (0..8).contains(&r)
}

/// Files b..i: where every piece but an Assassin stays.
fn on_chessboard((f, r): Coord) -> bool {
    (1..9).contains(&f) && (0..8).contains(&r)
}

fn in_slurk((f, r): Coord) -> bool {
    (f == 0 || f == 9) && (0..8).contains(&r)
}

pub fn name((f, r): Coord) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn parse_name(text: &str) -> Coord {
    let bytes = text.as_bytes();
    (
        (bytes[0] - b'a') as i32,
        text[1..].parse::<i32>().unwrap() - 1,
    )
}

fn letter_kind(c: char) -> Kind {
    match c.to_ascii_lowercase() {
        'p' => Kind::Pawn,
        'n' => Kind::Knight,
        'b' => Kind::Bishop,
        'r' => Kind::Rook,
        'q' => Kind::Queen,
        'k' => Kind::King,
        'a' => Kind::Assassin,
        other => panic!("no piece {other}"),
    }
}

impl Position {
    /// Reads a 10-file position of the rules page (7 fields).
    pub fn from_fen(text: &str) -> Position {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let mut position = Position {
            board: [[None; 8]; 10],
            slurk: [[None; 8]; 10],
            white_to_move: fields[1] == "w",
            castling: [
                fields[2].contains('K'),
                fields[2].contains('Q'),
                fields[2].contains('k'),
                fields[2].contains('q'),
            ],
            en_passant: (fields[3] != "-").then(|| parse_name(fields[3])),
        };
        for (row, rank_text) in fields[0].split('/').enumerate() {
            let rank = 7 - row as i32;
            let mut file = 0;
            let mut digits = String::new();
            for c in rank_text.chars().chain(std::iter::once('/')) {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    file += digits.parse::<i32>().unwrap();
                    digits.clear();
                }
                if c != '/' {
                    position.board[file as usize][rank as usize] = Some(Cell {
                        white: c.is_ascii_uppercase(),
                        kind: letter_kind(c),
                    });
                    file += 1;
                }
            }
        }
        if let Some(marks) = fields.get(6).filter(|marks| **marks != "-") {
            for mark in marks.split(',') {
                let parts: Vec<&str> = mark.split(':').collect();
                let (f, r) = parse_name(parts[0]);
                position.slurk[f as usize][r as usize] = Some(Slurk {
                    entry_rank: parse_name(parts[1]).1,
                    count: parts[2].parse().unwrap(),
                });
            }
        }
        position
    }

    fn at(&self, (f, r): Coord) -> Option<Cell> {
        if on_board((f, r)) {
            self.board[f as usize][r as usize]
        } else {
            None
        }
    }

    fn empty(&self, c: Coord) -> bool {
        on_board(c) && self.at(c).is_none()
    }

    /// A piece an Assassin may capture: on the chessboard, not a king, not
    /// an Assassin, of either side.
    fn assassin_prey(&self, c: Coord) -> bool {
        on_chessboard(c)
            && self
                .at(c)
                .is_some_and(|cell| cell.kind != Kind::King && cell.kind != Kind::Assassin)
    }

    /// Whether the king of `white` is in check: some enemy piece could
    /// capture it were kings capturable.
    pub fn king_in_check(&self, white: bool) -> bool {
        let mut king = None;
        for f in 0..10 {
            for r in 0..8 {
                if self.board[f][r]
                    == Some(Cell {
                        white,
                        kind: Kind::King,
                    })
                {
                    king = Some((f as i32, r as i32));
                }
            }
        }
        let (kf, kr) = king.expect("a king");
        for f in 0..10 {
            for r in 0..8 {
                let Some(cell) = self.board[f][r] else {
                    continue;
                };
                if cell.white == white {
                    continue;
                }
                if self.attacks(cell, (f as i32, r as i32), (kf, kr)) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the enemy piece `cell` on `from` could capture on `target`
    /// (a king's square).
    fn attacks(&self, cell: Cell, from: Coord, target: Coord) -> bool {
        let (df, dr) = (target.0 - from.0, target.1 - from.1);
        match cell.kind {
            Kind::Pawn => {
                let forward = if cell.white { 1 } else { -1 };
                dr == forward && df.abs() == 1
            }
            Kind::Knight => KNIGHT_JUMPS.contains(&(df, dr)),
            Kind::King => df.abs() <= 1 && dr.abs() <= 1 && (df, dr) != (0, 0),
            Kind::Bishop | Kind::Rook | Kind::Queen => {
                let straight = df == 0 || dr == 0;
                let diagonal = df.abs() == dr.abs();
                let fits = match cell.kind {
                    Kind::Bishop => diagonal,
                    Kind::Rook => straight,
                    _ => straight || diagonal,
                };
                if !fits || (df, dr) == (0, 0) {
                    return false;
                }
                let step = (df.signum(), dr.signum());
                let mut at = (from.0 + step.0, from.1 + step.1);
                while at != target {
                    if !on_chessboard(at) || self.at(at).is_some() {
                        return false;
                    }
                    at = (at.0 + step.0, at.1 + step.1);
                }
                true
            }
            Kind::Assassin => {
                if on_chessboard(from) {
                    // The two-square leap.
                    (df.abs() == 2 || df == 0) && (dr.abs() == 2 || dr == 0) && (df, dr) != (0, 0)
                } else {
                    // An emergence onto an empty square next to the target.
                    let slurk =
                        self.slurk[from.0 as usize][from.1 as usize].expect("a Slurk state");
                    slurk.count >= 1
                        && KING_STEPS.iter().any(|&(sf, sr)| {
                            let square = (target.0 + sf, target.1 + sr);
                            on_chessboard(square)
                                && self.at(square).is_none()
                                && ((square.0 - from.0).abs() + (square.1 - slurk.entry_rank).abs())
                                    as u32
                                    <= slurk.count
                        })
                }
            }
        }
    }

    /// Every move the pieces could make, before the king's safety.
    fn candidate_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        let white = self.white_to_move;
        for f in 0..10 {
            for r in 0..8 {
                let from = (f, r);
                let Some(cell) = self.at(from) else { continue };
                if cell.white != white {
                    continue;
                }
                let enemy_or_empty = |c: Coord| {
                    on_chessboard(c)
                        && match self.at(c) {
                            None => true,
                            Some(other) => other.white != white && other.kind != Kind::King,
                        }
                };
                match cell.kind {
                    Kind::Knight => {
                        for (df, dr) in KNIGHT_JUMPS {
                            if enemy_or_empty((f + df, r + dr)) {
                                out.push(plain_move(from, (f + df, r + dr)));
                            }
                        }
                    }
                    Kind::King => {
                        for (df, dr) in KING_STEPS {
                            if enemy_or_empty((f + df, r + dr)) {
                                out.push(plain_move(from, (f + df, r + dr)));
                            }
                        }
                    }
                    Kind::Bishop | Kind::Rook | Kind::Queen => {
                        for (df, dr) in KING_STEPS {
                            let diagonal = df != 0 && dr != 0;
                            if (cell.kind == Kind::Bishop && !diagonal)
                                || (cell.kind == Kind::Rook && diagonal)
                            {
                                continue;
                            }
                            let mut to = (f + df, r + dr);
                            while enemy_or_empty(to) {
                                out.push(plain_move(from, to));
                                if self.at(to).is_some() {
                                    break;
                                }
                                to = (to.0 + df, to.1 + dr);
                            }
                        }
                    }
                    Kind::Assassin if on_chessboard(from) => {
                        for (df, dr) in KING_STEPS {
                            if self.empty((f + df, r + dr)) {
                                out.push(plain_move(from, (f + df, r + dr)));
                            }
                            if self.assassin_prey((f + 2 * df, r + 2 * dr)) {
                                out.push(plain_move(from, (f + 2 * df, r + 2 * dr)));
                            }
                        }
                    }
                    Kind::Assassin => {
                        for dr in [-1, 1] {
                            if in_slurk((f, r + dr)) && self.empty((f, r + dr)) {
                                out.push(plain_move(from, (f, r + dr)));
                            }
                        }
                        let slurk = self.slurk[f as usize][r as usize].expect("a Slurk state");
                        if slurk.count == 0 {
                            continue;
                        }
                        for ef in 1..9 {
                            for er in 0..8 {
                                let landing = (ef, er);
                                let distance = (ef - f).abs() + (er - slurk.entry_rank).abs();
                                if distance as u32 > slurk.count || self.at(landing).is_some() {
                                    continue;
                                }
                                out.push(plain_move(from, landing));
                                for (df, dr) in KING_STEPS {
                                    let prey = (ef + df, er + dr);
                                    if self.assassin_prey(prey) {
                                        out.push(Move {
                                            text: format!(
                                                "{}{}x{}",
                                                name(from),
                                                name(landing),
                                                name(prey)
                                            ),
                                            from,
                                            to: prey,
                                            promotion: None,
                                            en_passant: false,
                                            rook: None,
                                        });
                                    }
                                }
                            }
                        }
                    }
                    Kind::Pawn => self.pawn_moves(from, &mut out),
                }
            }
        }
        self.castlings(&mut out);
        out
    }

    fn pawn_moves(&self, (f, r): Coord, out: &mut Vec<Move>) {
        let white = self.white_to_move;
        let forward = if white { 1 } else { -1 };
        let last = if white { 7 } else { 0 };
        let start = if white { 1 } else { 6 };
        let mut targets = Vec::new();
        if self.empty((f, r + forward)) {
            targets.push(((f, r + forward), false));
            if r == start && self.empty((f, r + 2 * forward)) {
                targets.push(((f, r + 2 * forward), false));
            }
        }
        for df in [-1, 1] {
            let to = (f + df, r + forward);
            if !on_chessboard(to) {
                continue;
            }
            match self.at(to) {
                Some(other) if other.white != white && other.kind != Kind::King => {
                    targets.push((to, false));
                }
                None if self.en_passant == Some(to) => targets.push((to, true)),
                _ => {}
            }
        }
        for (to, en_passant) in targets {
            let plain = format!("{}{}", name((f, r)), name(to));
            if to.1 == last {
                for (kind, letter) in [
                    (Kind::Queen, 'q'),
                    (Kind::Rook, 'r'),
                    (Kind::Bishop, 'b'),
                    (Kind::Knight, 'n'),
                ] {
                    out.push(Move {
                        text: format!("{plain}{letter}"),
                        from: (f, r),
                        to,
                        promotion: Some(kind),
                        en_passant: false,
                        rook: None,
                    });
                }
            } else {
                out.push(Move {
                    text: plain,
                    from: (f, r),
                    to,
                    promotion: None,
                    en_passant,
                    rook: None,
                });
            }
        }
    }

    /// Castlings whose king is not in check and does not pass over an
    /// attacked square (the landing square is left to the general test).
    fn castlings(&self, out: &mut Vec<Move>) {
        let white = self.white_to_move;
        let rank = if white { 0 } else { 7 };
        let rights = if white {
            [self.castling[0], self.castling[1]]
        } else {
            [self.castling[2], self.castling[3]]
        };
        // (right, rook file, squares that must be empty, passed file, king's file, rook's file)
        let options = [
            (rights[0], 8, vec![6, 7], 6, 7, 6),
            (rights[1], 1, vec![2, 3, 4], 4, 3, 4),
        ];
        for (right, rook_file, empty, passed, king_to, rook_to) in options {
            if !right
                || self.at((5, rank))
                    != Some(Cell {
                        white,
                        kind: Kind::King,
                    })
                || self.at((rook_file, rank))
                    != Some(Cell {
                        white,
                        kind: Kind::Rook,
                    })
                || empty.iter().any(|&file| self.at((file, rank)).is_some())
                || self.king_in_check(white)
            {
                continue;
            }
            let mut passing = self.clone();
            passing.board[5][rank as usize] = None;
            passing.board[passed as usize][rank as usize] = Some(Cell {
                white,
                kind: Kind::King,
            });
            if passing.king_in_check(white) {
                continue;
            }
            out.push(Move {
                text: format!("{}{}", name((5, rank)), name((king_to, rank))),
                from: (5, rank),
                to: (king_to, rank),
                promotion: None,
                en_passant: false,
                rook: Some(((rook_file, rank), (rook_to, rank))),
            });
        }
    }

    /// The position after `mv`.
    pub fn after(&self, mv: &Move) -> Position {
        let mut next = self.clone();
        let white = self.white_to_move;
        let cell = self.at(mv.from).expect("a piece to move");
        let (ff, fr) = (mv.from.0 as usize, mv.from.1 as usize);
        let (tf, tr) = (mv.to.0 as usize, mv.to.1 as usize);
        let old_slurk = next.slurk[ff][fr].take();
        next.board[ff][fr] = None;
        if mv.en_passant {
            next.board[tf][fr] = None;
        }
        next.board[tf][tr] = Some(Cell {
            white,
            kind: mv.promotion.unwrap_or(cell.kind),
        });
        if let Some((rook_from, rook_to)) = mv.rook {
            next.board[rook_from.0 as usize][rook_from.1 as usize] = None;
            next.board[rook_to.0 as usize][rook_to.1 as usize] = Some(Cell {
                white,
                kind: Kind::Rook,
            });
        }
        if in_slurk(mv.to) {
            next.slurk[tf][tr] = Some(match old_slurk {
                Some(slurk) => Slurk {
                    entry_rank: slurk.entry_rank,
                    count: slurk.count + 1,
                },
                None => Slurk {
                    entry_rank: mv.to.1,
                    count: 0,
                },
            });
        }
        // A right is lost when its king or rook leaves its square or is taken.
        for (index, (king, rook)) in [
            ((5, 0), (8, 0)),
            ((5, 0), (1, 0)),
            ((5, 7), (8, 7)),
            ((5, 7), (1, 7)),
        ]
        .into_iter()
        .enumerate()
        {
            if [mv.from, mv.to]
                .iter()
                .any(|&square| square == king || square == rook)
            {
                next.castling[index] = false;
            }
        }
        next.en_passant = (cell.kind == Kind::Pawn && (mv.to.1 - mv.from.1).abs() == 2)
            .then_some((mv.from.0, (mv.from.1 + mv.to.1) / 2));
        next.white_to_move = !white;
        next
    }

    /// The legal moves: those after which the mover's king is not in check.
    pub fn legal_moves(&self) -> Vec<Move> {
        self.candidate_moves()
            .into_iter()
            .filter(|mv| !self.after(mv).king_in_check(self.white_to_move))
            .collect()
    }

    /// The number of move sequences of `depth` plies (no draw rules).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|mv| self.after(mv).perft(depth - 1)).sum()
    }
}
