//! A deliberately plain classic Thud and Koom Valley Thud: a 15x15 array of
//! cells, moves found by walking squares one at a time, tramples found by
//! trying every path. It shares no code with the engine and exists only to
//! cross-check it: it lists every legal move as text together with the
//! position it leads to, and says how a position ends.

#![allow(dead_code)]

#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Cell {
    #[default]
    Off,
    Empty,
    Dwarf,
    Troll,
    Rock,
}

/// (row, column); row 0 is rank 1.
pub type Coord = (i32, i32);

/// The eight directions as (row, column) steps, in the order the engine
/// documents for choosing among trample paths with the same result.
pub const DIRS: [Coord; 8] = [
    (1, 0),
    (0, 1),
    (-1, 0),
    (0, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
    (1, -1),
];

const FILES: &str = "ABCDEFGHJKLMNOP";

pub fn name((row, column): Coord) -> String {
    format!("{}{}", FILES.chars().nth(column as usize).unwrap(), row + 1)
}

fn add((r, c): Coord, (dr, dc): Coord, k: i32) -> Coord {
    (r + dr * k, c + dc * k)
}

fn on_octagon((r, c): Coord) -> bool {
    if !(0..15).contains(&r) || !(0..15).contains(&c) {
        return false;
    }
    let from_edge = r.min(14 - r);
    let cut = (5 - from_edge).max(0);
    c >= cut && c <= 14 - cut
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    /// Classic: the margin for the dwarfs.
    Scored {
        margin: i32,
        reason: &'static str,
    },
    Win {
        dwarfs: bool,
        reason: &'static str,
    },
    Draw {
        reason: &'static str,
    },
}

#[derive(Clone, Debug)]
pub struct SlowThud {
    pub cells: [[Cell; 15]; 15],
    pub dwarfs_to_move: bool,
    pub koom_valley: bool,
    pub any_subset: bool,
    pub quiet: u32,
    pub ply: u32,
    pub no_capture_limit: Option<u32>,
    pub ply_limit: Option<u32>,
}

/// A legal move: its text and the position after it.
#[derive(Clone, Debug)]
pub struct SlowMove {
    pub text: String,
    pub after: SlowThud,
}

impl SlowThud {
    /// Reads the engine's position text (rows of playable squares from rank 1).
    pub fn from_text(
        text: &str,
        koom_valley: bool,
        any_subset: bool,
        no_capture_limit: Option<u32>,
        ply_limit: Option<u32>,
    ) -> SlowThud {
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut cells = [[Cell::Off; 15]; 15];
        for (r, row_text) in words[0].split('/').enumerate() {
            let columns: Vec<usize> = (0..15)
                .filter(|&c| on_octagon((r as i32, c as i32)))
                .collect();
            for &c in &columns {
                cells[r][c] = Cell::Empty;
            }
            let mut position = 0;
            let mut digits = String::new();
            for ch in row_text.chars() {
                if ch.is_ascii_digit() {
                    digits.push(ch);
                    continue;
                }
                if !digits.is_empty() {
                    position += digits.parse::<usize>().unwrap();
                    digits.clear();
                }
                cells[r][columns[position]] = match ch {
                    'd' => Cell::Dwarf,
                    'T' => Cell::Troll,
                    'R' => Cell::Rock,
                    _ => panic!("bad piece {ch}"),
                };
                position += 1;
            }
        }
        SlowThud {
            cells,
            dwarfs_to_move: words.get(1).is_none_or(|&w| w == "dwarfs"),
            koom_valley,
            any_subset,
            quiet: words.get(2).map_or(0, |w| w.parse().unwrap()),
            ply: words.get(3).map_or(0, |w| w.parse().unwrap()),
            no_capture_limit,
            ply_limit,
        }
    }

    /// The position text in the engine's format.
    pub fn text(&self) -> String {
        let mut rows = Vec::new();
        for r in 0..15 {
            let mut row = String::new();
            let mut run = 0;
            for c in 0..15 {
                let symbol = match self.cells[r][c] {
                    Cell::Off => continue,
                    Cell::Empty => {
                        run += 1;
                        continue;
                    }
                    Cell::Dwarf => 'd',
                    Cell::Troll => 'T',
                    Cell::Rock => 'R',
                };
                if run > 0 {
                    row.push_str(&run.to_string());
                    run = 0;
                }
                row.push(symbol);
            }
            if run > 0 {
                row.push_str(&run.to_string());
            }
            rows.push(row);
        }
        let side = if self.dwarfs_to_move {
            "dwarfs"
        } else {
            "trolls"
        };
        format!("{} {side} {} {}", rows.join("/"), self.quiet, self.ply)
    }

    pub fn at(&self, (r, c): Coord) -> Cell {
        if (0..15).contains(&r) && (0..15).contains(&c) {
            self.cells[r as usize][c as usize]
        } else {
            Cell::Off
        }
    }

    fn set(&mut self, (r, c): Coord, cell: Cell) {
        self.cells[r as usize][c as usize] = cell;
    }

    fn all(&self, cell: Cell) -> Vec<Coord> {
        let mut out = Vec::new();
        for r in 0..15 {
            for c in 0..15 {
                if self.cells[r as usize][c as usize] == cell {
                    out.push((r, c));
                }
            }
        }
        out
    }

    fn count(&self, cell: Cell) -> usize {
        self.all(cell).len()
    }

    fn neighbours_holding(&self, at: Coord, cell: Cell) -> Vec<Coord> {
        let mut out: Vec<Coord> = DIRS
            .iter()
            .map(|&d| add(at, d, 1))
            .filter(|&n| self.at(n) == cell)
            .collect();
        out.sort();
        out
    }

    /// The state after a move: the side flips, the counters advance.
    fn next(&self, progress: bool) -> SlowThud {
        let mut after = self.clone();
        after.dwarfs_to_move = !self.dwarfs_to_move;
        after.ply += 1;
        after.quiet = if progress { 0 } else { self.quiet + 1 };
        after
    }

    pub fn moves(&self) -> Vec<SlowMove> {
        if self.end().is_some() {
            return Vec::new();
        }
        self.moves_ignoring_end()
    }

    fn moves_ignoring_end(&self) -> Vec<SlowMove> {
        match (self.koom_valley, self.dwarfs_to_move) {
            (false, true) => self.classic_dwarf_moves(),
            (false, false) => self.classic_troll_moves(),
            (true, true) => self.koom_dwarf_moves(),
            (true, false) => self.koom_troll_moves(),
        }
    }

    fn classic_dwarf_moves(&self) -> Vec<SlowMove> {
        let mut out = Vec::new();
        for from in self.all(Cell::Dwarf) {
            for d in DIRS {
                let mut k = 1;
                loop {
                    let to = add(from, d, k);
                    match self.at(to) {
                        Cell::Empty => {
                            let mut after = self.next(false);
                            after.set(from, Cell::Empty);
                            after.set(to, Cell::Dwarf);
                            out.push(SlowMove {
                                text: format!("d{}-{}", name(from), name(to)),
                                after,
                            });
                        }
                        Cell::Troll => {
                            let mut line = 1;
                            while self.at(add(from, d, -line)) == Cell::Dwarf {
                                line += 1;
                            }
                            if k <= line {
                                let mut after = self.next(true);
                                after.set(from, Cell::Empty);
                                after.set(to, Cell::Dwarf);
                                out.push(SlowMove {
                                    text: format!("d{}-{}x{}", name(from), name(to), name(to)),
                                    after,
                                });
                            }
                            break;
                        }
                        _ => break,
                    }
                    k += 1;
                }
            }
        }
        out
    }

    /// The moves of a troll from `from` landing on `to`, with every allowed
    /// choice of victims among the dwarfs around `to`.
    fn troll_landing(&self, from: Coord, to: Coord, must_capture: bool, out: &mut Vec<SlowMove>) {
        let victims = self.neighbours_holding(to, Cell::Dwarf);
        let mut choices: Vec<Vec<Coord>> = Vec::new();
        if !must_capture {
            choices.push(Vec::new());
        }
        if !victims.is_empty() {
            if self.any_subset {
                for mask in 1..(1u32 << victims.len()) {
                    choices.push(
                        (0..victims.len())
                            .filter(|i| mask >> i & 1 == 1)
                            .map(|i| victims[i])
                            .collect(),
                    );
                }
            } else {
                choices.push(victims.clone());
            }
        }
        for taken in choices {
            let mut after = self.next(!taken.is_empty());
            after.set(from, Cell::Empty);
            after.set(to, Cell::Troll);
            let mut text = format!("T{}-{}", name(from), name(to));
            for &v in &taken {
                after.set(v, Cell::Empty);
                text.push_str(&format!("x{}", name(v)));
            }
            out.push(SlowMove { text, after });
        }
    }

    fn classic_troll_moves(&self) -> Vec<SlowMove> {
        let mut out = Vec::new();
        for from in self.all(Cell::Troll) {
            for d in DIRS {
                if self.at(add(from, d, 1)) == Cell::Empty {
                    self.troll_landing(from, add(from, d, 1), false, &mut out);
                }
                let mut line = 1;
                while self.at(add(from, d, -line)) == Cell::Troll {
                    line += 1;
                }
                for k in 2..=line {
                    if (1..=k).any(|i| self.at(add(from, d, i)) != Cell::Empty) {
                        break;
                    }
                    let to = add(from, d, k);
                    if !self.neighbours_holding(to, Cell::Dwarf).is_empty() {
                        self.troll_landing(from, to, true, &mut out);
                    }
                }
            }
        }
        out
    }

    fn koom_dwarf_moves(&self) -> Vec<SlowMove> {
        let mut out = Vec::new();
        for from in self.all(Cell::Dwarf) {
            for d in DIRS {
                let mut k = 1;
                while self.at(add(from, d, k)) == Cell::Empty {
                    let to = add(from, d, k);
                    let mut after = self.clone();
                    after.set(from, Cell::Empty);
                    after.set(to, Cell::Dwarf);
                    let mut trapped = Vec::new();
                    for e in DIRS {
                        if after.at(add(to, e, 1)) == Cell::Troll
                            && after.at(add(to, e, 2)) == Cell::Dwarf
                        {
                            trapped.push(add(to, e, 1));
                        }
                    }
                    trapped.sort();
                    let mut text = format!("d{}-{}", name(from), name(to));
                    for &t in &trapped {
                        after.set(t, Cell::Empty);
                        text.push_str(&format!("x{}", name(t)));
                    }
                    let mut after_full = after.next(!trapped.is_empty());
                    after_full.cells = after.cells;
                    out.push(SlowMove {
                        text,
                        after: after_full,
                    });
                    k += 1;
                }
            }
        }
        let rock = self.all(Cell::Rock)[0];
        if !self.neighbours_holding(rock, Cell::Dwarf).is_empty() {
            for d in DIRS {
                let to = add(rock, d, 1);
                if self.at(to) == Cell::Empty
                    && !self.neighbours_holding(to, Cell::Dwarf).is_empty()
                {
                    let mut after = self.next(true);
                    after.set(rock, Cell::Empty);
                    after.set(to, Cell::Rock);
                    out.push(SlowMove {
                        text: format!("R{}-{}", name(rock), name(to)),
                        after,
                    });
                }
            }
        }
        out
    }

    fn koom_troll_moves(&self) -> Vec<SlowMove> {
        let mut out = Vec::new();
        for from in self.all(Cell::Troll) {
            for d in DIRS {
                for k in 1..=3 {
                    let to = add(from, d, k);
                    if self.at(to) != Cell::Empty {
                        break;
                    }
                    let mut after = self.next(false);
                    after.set(from, Cell::Empty);
                    after.set(to, Cell::Troll);
                    out.push(SlowMove {
                        text: format!("T{}-{}", name(from), name(to)),
                        after,
                    });
                }
            }
            // Every trample path, then one per result: the path whose
            // direction indices come first in lexicographic order.
            let mut board = self.cells;
            board[from.0 as usize][from.1 as usize] = Cell::Empty;
            let mut paths = Vec::new();
            trample_paths(from, &board, &mut TramplePath::default(), &mut paths);
            let mut best: Vec<TramplePath> = Vec::new();
            for path in paths {
                match best.iter_mut().find(|b| b.same_result(&path)) {
                    Some(existing) => {
                        if path.dirs < existing.dirs {
                            *existing = path;
                        }
                    }
                    None => best.push(path),
                }
            }
            for path in best {
                let mut after = self.next(true);
                after.cells = path.board;
                let landing = *path.landings.last().unwrap();
                after.set(landing, Cell::Troll);
                let mut text = format!("T{}", name(from));
                for &l in &path.landings {
                    text.push_str(&format!("-{}", name(l)));
                }
                for &c in &path.crossed {
                    text.push_str(&format!("x{}", name(c)));
                }
                out.push(SlowMove { text, after });
            }
        }
        out
    }

    /// How the position ends, if it does.
    pub fn end(&self) -> Option<End> {
        if self.koom_valley {
            let rock = self.all(Cell::Rock)[0];
            if rock.0 == 0 {
                return Some(End::Win {
                    dwarfs: true,
                    reason: "rock-home",
                });
            }
            if self.dwarfs_to_move && self.neighbours_holding(rock, Cell::Troll).len() >= 3 {
                return Some(End::Win {
                    dwarfs: false,
                    reason: "rock-surrounded",
                });
            }
            if self.moves_ignoring_end().is_empty() {
                return Some(End::Win {
                    dwarfs: !self.dwarfs_to_move,
                    reason: "no-moves",
                });
            }
            if self.no_capture_limit.is_some_and(|l| self.quiet >= l) {
                return Some(End::Draw {
                    reason: "no-capture-limit",
                });
            }
            if self.ply_limit.is_some_and(|l| self.ply >= l) {
                return Some(End::Draw {
                    reason: "ply-limit",
                });
            }
            return None;
        }
        let margin = self.count(Cell::Dwarf) as i32 - 4 * self.count(Cell::Troll) as i32;
        let reason = if self.moves_ignoring_end().is_empty() {
            "no-moves"
        } else if self.no_capture_limit.is_some_and(|l| self.quiet >= l) {
            "no-capture-limit"
        } else if self.ply_limit.is_some_and(|l| self.ply >= l) {
            "ply-limit"
        } else {
            return None;
        };
        Some(End::Scored { margin, reason })
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| m.after.perft(depth - 1)).sum()
    }
}

/// One trample: its direction indices, landings, the dwarfs crossed, and
/// the board after it without the troll.
#[derive(Clone, Default)]
struct TramplePath {
    dirs: Vec<usize>,
    landings: Vec<Coord>,
    crossed: Vec<Coord>,
    board: [[Cell; 15]; 15],
}

impl TramplePath {
    fn same_result(&self, other: &TramplePath) -> bool {
        let mut mine = self.crossed.clone();
        let mut theirs = other.crossed.clone();
        mine.sort();
        theirs.sort();
        self.landings.last() == other.landings.last() && mine == theirs
    }
}

/// Every trample continuing from `at` on `board` (where the troll has been
/// lifted off), the jumps so far in `so_far`.
fn trample_paths(
    at: Coord,
    board: &[[Cell; 15]; 15],
    so_far: &mut TramplePath,
    out: &mut Vec<TramplePath>,
) {
    let cell = |(r, c): Coord| {
        if on_octagon((r, c)) {
            board[r as usize][c as usize]
        } else {
            Cell::Off
        }
    };
    for (i, &d) in DIRS.iter().enumerate() {
        let over = add(at, d, 1);
        let landing = add(at, d, 2);
        if cell(over) != Cell::Dwarf || cell(landing) != Cell::Empty {
            continue;
        }
        let mut next = *board;
        next[over.0 as usize][over.1 as usize] = Cell::Empty;
        so_far.dirs.push(i);
        so_far.landings.push(landing);
        so_far.crossed.push(over);
        so_far.board = next;
        out.push(so_far.clone());
        trample_paths(landing, &next, so_far, out);
        so_far.dirs.pop();
        so_far.landings.pop();
        so_far.crossed.pop();
    }
}
