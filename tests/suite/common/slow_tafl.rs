//! A deliberately plain Copenhagen Hnefatafl: a 2-D array of cells, moves found
//! by walking squares one at a time, repetition found by comparing whole
//! boards. It shares no code with the engine and exists only to cross-check it.

#![allow(dead_code)]

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    Empty,
    Attacker,
    Defender,
    King,
}

pub type Coord = (i32, i32); // (file, rank), a1 = (0, 0)

const N: i32 = 11;
const STEPS: [Coord; 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const THRONE: Coord = (5, 5);

fn on_board((f, r): Coord) -> bool {
    (0..N).contains(&f) && (0..N).contains(&r)
}

fn is_corner((f, r): Coord) -> bool {
    (f == 0 || f == N - 1) && (r == 0 || r == N - 1)
}

fn is_edge((f, r): Coord) -> bool {
    f == 0 || r == 0 || f == N - 1 || r == N - 1
}

fn add((f, r): Coord, (df, dr): Coord) -> Coord {
    (f + df, r + dr)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    Win {
        attackers: bool,
        reason: &'static str,
    },
    Draw,
}

#[derive(Clone, Debug)]
pub struct SlowTafl {
    pub cells: [[Cell; 11]; 11], // cells[rank][file]
    pub attackers_to_move: bool,
    pub ply: u32,
    pub history: Vec<([[Cell; 11]; 11], bool)>,
    pub end: Option<End>,
    pub repetition_loses: bool,
    pub ply_limit: Option<u32>,
}

impl SlowTafl {
    /// Reads the board part of an OpenTafl string and a side.
    pub fn from_text(text: &str, repetition_loses: bool, ply_limit: Option<u32>) -> SlowTafl {
        let mut words = text.split_whitespace();
        let board = words.next().unwrap();
        let attackers_to_move = !matches!(words.next(), Some("defenders"));
        let mut cells = [[Cell::Empty; 11]; 11];
        for (row, rank_text) in board.trim_matches('/').split('/').enumerate() {
            let rank = 10 - row;
            let mut file = 0;
            let mut digits = String::new();
            for c in rank_text.chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    file += digits.parse::<usize>().unwrap();
                    digits.clear();
                }
                cells[rank][file] = match c {
                    't' => Cell::Attacker,
                    'T' => Cell::Defender,
                    'K' => Cell::King,
                    _ => panic!("bad piece {c}"),
                };
                file += 1;
            }
        }
        let mut game = SlowTafl {
            cells,
            attackers_to_move,
            ply: 0,
            history: Vec::new(),
            end: None,
            repetition_loses,
            ply_limit,
        };
        game.history.push((game.cells, game.attackers_to_move));
        if game.king_square().is_some_and(is_corner) {
            game.end = Some(End::Win {
                attackers: false,
                reason: "escape",
            });
        } else if game.moves().is_empty() {
            game.end = Some(End::Win {
                attackers: !game.attackers_to_move,
                reason: "no-moves",
            });
        }
        game
    }

    pub fn at(&self, (f, r): Coord) -> Cell {
        self.cells[r as usize][f as usize]
    }

    fn set(&mut self, (f, r): Coord, cell: Cell) {
        self.cells[r as usize][f as usize] = cell;
    }

    fn king_square(&self) -> Option<Coord> {
        (0..N)
            .flat_map(|r| (0..N).map(move |f| (f, r)))
            .find(|&c| self.at(c) == Cell::King)
    }

    fn belongs_to_mover(&self, cell: Cell, attackers: bool) -> bool {
        if attackers {
            cell == Cell::Attacker
        } else {
            cell == Cell::Defender || cell == Cell::King
        }
    }

    /// Legal moves in the current position, in no particular order.
    pub fn moves(&self) -> Vec<(Coord, Coord)> {
        let mut out = Vec::new();
        if self.end.is_some() {
            return out;
        }
        for r in 0..N {
            for f in 0..N {
                let from = (f, r);
                let cell = self.at(from);
                if !self.belongs_to_mover(cell, self.attackers_to_move) {
                    continue;
                }
                for step in STEPS {
                    let mut to = add(from, step);
                    while on_board(to) && self.at(to) == Cell::Empty {
                        let restricted = to == THRONE || is_corner(to);
                        if cell == Cell::King || !restricted {
                            out.push((from, to));
                        }
                        to = add(to, step);
                    }
                }
            }
        }
        out
    }

    /// Whether a square counts against a piece of the given side.
    fn hostile_to(&self, square: Coord, victim_attacker: bool) -> bool {
        if is_corner(square) {
            return true;
        }
        if square == THRONE {
            return victim_attacker || self.at(THRONE) == Cell::Empty;
        }
        false
    }

    fn friendly(&self, square: Coord, attackers: bool) -> bool {
        on_board(square) && self.belongs_to_mover(self.at(square), attackers)
    }

    /// Plays a move, returning the captured soldiers.
    pub fn play(&mut self, from: Coord, to: Coord) -> Vec<Coord> {
        let mover_attackers = self.attackers_to_move;
        let piece = self.at(from);
        self.set(from, Cell::Empty);
        self.set(to, piece);
        let victim = if mover_attackers {
            Cell::Defender
        } else {
            Cell::Attacker
        };
        let mut captured = Vec::new();
        for step in STEPS {
            let target = add(to, step);
            let anvil = add(target, step);
            if !on_board(target) || !on_board(anvil) || self.at(target) != victim {
                continue;
            }
            if self.friendly(anvil, mover_attackers) || self.hostile_to(anvil, !mover_attackers) {
                captured.push(target);
            }
        }
        captured.extend(self.shieldwalls(to, mover_attackers));
        captured.sort();
        captured.dedup();
        let mut king_taken = false;
        if mover_attackers && let Some(king) = self.king_square() {
            let adjacent = STEPS.iter().any(|&s| add(king, s) == to);
            if adjacent && !is_edge(king) {
                king_taken = STEPS.iter().all(|&s| {
                    let n = add(king, s);
                    self.at(n) == Cell::Attacker || n == THRONE
                });
            }
        }
        for &c in &captured {
            self.set(c, Cell::Empty);
        }
        self.attackers_to_move = !mover_attackers;
        self.ply += 1;
        if !captured.is_empty() {
            self.history.clear();
        }
        self.history.push((self.cells, self.attackers_to_move));
        self.end = self.judge(mover_attackers, king_taken);
        captured
    }

    fn shieldwalls(&self, to: Coord, mover_attackers: bool) -> Vec<Coord> {
        let mut out = Vec::new();
        let (f, r) = to;
        // (direction along the edge, direction into the board)
        let mut lines = Vec::new();
        if r == 0 || r == N - 1 {
            let inward = if r == 0 { (0, 1) } else { (0, -1) };
            lines.push(((1, 0), inward));
            lines.push(((-1, 0), inward));
        }
        if f == 0 || f == N - 1 {
            let inward = if f == 0 { (1, 0) } else { (-1, 0) };
            lines.push(((0, 1), inward));
            lines.push(((0, -1), inward));
        }
        for (along, inward) in lines {
            let mut row = Vec::new();
            let mut square = add(to, along);
            while on_board(square) && self.friendly(square, !mover_attackers) {
                row.push(square);
                square = add(square, along);
            }
            if row.len() < 2 || !on_board(square) {
                continue;
            }
            if !(self.friendly(square, mover_attackers) || is_corner(square)) {
                continue;
            }
            if row
                .iter()
                .all(|&m| self.friendly(add(m, inward), mover_attackers))
            {
                out.extend(row.into_iter().filter(|&m| self.at(m) != Cell::King));
            }
        }
        out
    }

    fn judge(&self, mover_attackers: bool, king_taken: bool) -> Option<End> {
        let king = self.king_square().unwrap();
        if mover_attackers {
            if king_taken {
                return Some(End::Win {
                    attackers: true,
                    reason: "king-captured",
                });
            }
            if self.encircled() {
                return Some(End::Win {
                    attackers: true,
                    reason: "encirclement",
                });
            }
        } else {
            if is_corner(king) {
                return Some(End::Win {
                    attackers: false,
                    reason: "escape",
                });
            }
            if is_edge(king) && self.fort(king) {
                return Some(End::Win {
                    attackers: false,
                    reason: "exit-fort",
                });
            }
        }
        if self.repetition_loses {
            let now = (self.cells, self.attackers_to_move);
            if self.history.iter().filter(|&&h| h == now).count() >= 3 {
                return Some(End::Win {
                    attackers: true,
                    reason: "repetition",
                });
            }
        }
        let mut probe = self.clone();
        probe.end = None;
        if probe.moves().is_empty() {
            return Some(End::Win {
                attackers: mover_attackers,
                reason: "no-moves",
            });
        }
        if self.ply_limit.is_some_and(|limit| self.ply >= limit) {
            return Some(End::Draw);
        }
        None
    }

    fn flood(&self, starts: Vec<Coord>, passable: impl Fn(Cell) -> bool) -> Vec<Vec<bool>> {
        let mut seen = vec![vec![false; 11]; 11];
        let mut stack = starts;
        while let Some(c) = stack.pop() {
            if seen[c.1 as usize][c.0 as usize] {
                continue;
            }
            seen[c.1 as usize][c.0 as usize] = true;
            for s in STEPS {
                let n = add(c, s);
                if on_board(n) && !seen[n.1 as usize][n.0 as usize] && passable(self.at(n)) {
                    stack.push(n);
                }
            }
        }
        seen
    }

    fn encircled(&self) -> bool {
        let starts: Vec<Coord> = (0..N)
            .flat_map(|r| (0..N).map(move |f| (f, r)))
            .filter(|&c| matches!(self.at(c), Cell::Defender | Cell::King))
            .collect();
        let seen = self.flood(starts, |cell| cell != Cell::Attacker);
        !(0..N).any(|r| (0..N).any(|f| seen[r as usize][f as usize] && is_edge((f, r))))
    }

    fn fort(&self, king: Coord) -> bool {
        if !STEPS
            .iter()
            .any(|&s| on_board(add(king, s)) && self.at(add(king, s)) == Cell::Empty)
        {
            return false;
        }
        let inside = self.flood(vec![king], |cell| cell != Cell::Defender);
        let is_inside = |c: Coord| on_board(c) && inside[c.1 as usize][c.0 as usize];
        let all: Vec<Coord> = (0..N).flat_map(|r| (0..N).map(move |f| (f, r))).collect();
        if all
            .iter()
            .any(|&c| is_inside(c) && self.at(c) == Cell::Attacker)
        {
            return false;
        }
        let calm = |c: Coord| is_inside(c) && c != THRONE && !is_corner(c);
        let mut safe: Vec<Coord> = all
            .iter()
            .copied()
            .filter(|&c| self.at(c) == Cell::Defender)
            .collect();
        loop {
            let covers = |c: Coord, safe: &Vec<Coord>| !on_board(c) || calm(c) || safe.contains(&c);
            let kept: Vec<Coord> = safe
                .iter()
                .copied()
                .filter(|&d| {
                    let vertical = covers(add(d, (0, 1)), &safe) || covers(add(d, (0, -1)), &safe);
                    let horizontal =
                        covers(add(d, (1, 0)), &safe) || covers(add(d, (-1, 0)), &safe);
                    let mut shielded = true;
                    let (f, r) = d;
                    let mut edges = Vec::new();
                    if r == 0 {
                        edges.push(((0, 1), (1, 0)));
                    }
                    if r == N - 1 {
                        edges.push(((0, -1), (1, 0)));
                    }
                    if f == 0 {
                        edges.push(((1, 0), (0, 1)));
                    }
                    if f == N - 1 {
                        edges.push(((-1, 0), (0, 1)));
                    }
                    for (inward, along) in edges {
                        let front_ok = covers(add(d, inward), &safe);
                        let open = calm(add(d, along)) || calm(add(d, (-along.0, -along.1)));
                        shielded &= front_ok || open;
                    }
                    vertical && horizontal && shielded
                })
                .collect();
            if kept.len() == safe.len() {
                break;
            }
            safe = kept;
        }
        all.iter().all(|&c| {
            let wall = self.at(c) == Cell::Defender && STEPS.iter().any(|&s| is_inside(add(c, s)));
            !wall || safe.contains(&c)
        })
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|(from, to)| {
                let mut child = self.clone();
                child.play(from, to);
                child.perft(depth - 1)
            })
            .sum()
    }
}

pub fn coord_name((f, r): Coord) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}
