//! Tic-tac-toe: a game small enough to solve exhaustively, used to check the
//! searchers against plain minimax. `X` (player 0) moves first.

// Each test binary uses a different part of these helpers.
#![allow(dead_code)]

use norn::core::zobrist::zobrist_keys;
use norn::core::{Evaluate, Game, MoveList, NoRules, Outcome, Payoffs, Player, Scoring, Status};
use std::collections::HashMap;

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];
static KEYS: [u64; 19] = zobrist_keys(0x7474_7400);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    /// `None` for an empty cell, else the player who marked it.
    cells: [Option<Player>; 9],
    to_move: Player,
    ply: u32,
    hash: u64,
}

impl TicTacToe {
    /// A position from nine characters `x`, `o` or `.`, row by row; the player
    /// to move follows from the counts.
    pub fn from_cells(text: &str) -> TicTacToe {
        let mut state = TicTacToe::new(NoRules);
        let marks: Vec<char> = text.chars().collect();
        assert_eq!(marks.len(), 9, "nine cells");
        let xs: Vec<usize> = (0..9).filter(|&i| marks[i] == 'x').collect();
        let os: Vec<usize> = (0..9).filter(|&i| marks[i] == 'o').collect();
        assert!(xs.len() == os.len() || xs.len() == os.len() + 1);
        for (i, &x) in xs.iter().enumerate() {
            state.play(x as u8);
            if let Some(&o) = os.get(i) {
                state.play(o as u8);
            }
        }
        state
    }

    fn winner(&self) -> Option<Player> {
        LINES.iter().find_map(|line| {
            let first = self.cells[line[0]]?;
            (self.cells[line[1]] == Some(first) && self.cells[line[2]] == Some(first))
                .then_some(first)
        })
    }

    /// Lines that `player` could still complete.
    fn open_lines(&self, player: Player) -> usize {
        LINES
            .iter()
            .filter(|line| line.iter().all(|&c| self.cells[c] != Some(1 - player)))
            .count()
    }
}

impl Game for TicTacToe {
    type Move = u8;
    type Rules = NoRules;

    const NAME: &'static str = "tictactoe";
    const SCORING: Scoring = Scoring::WinLoss;

    fn new(_rules: NoRules) -> Self {
        TicTacToe {
            cells: [None; 9],
            to_move: 0,
            ply: 0,
            hash: 0,
        }
    }

    fn rules(&self) -> &NoRules {
        &NoRules
    }

    fn num_players(&self) -> usize {
        2
    }

    fn status(&self) -> Status {
        if let Some(winner) = self.winner() {
            return Status::Over(Outcome {
                payoffs: Payoffs::win_for(winner),
                reason: "line",
            });
        }
        if self.ply == 9 {
            return Status::Over(Outcome {
                payoffs: Payoffs::shared(2, 0.0),
                reason: "full",
            });
        }
        Status::ToMove(self.to_move)
    }

    fn legal_moves(&self, moves: &mut MoveList<u8>) {
        moves.clear();
        if self.status().is_over() {
            return;
        }
        moves.extend((0..9).filter(|&c| self.cells[c].is_none()).map(|c| c as u8));
    }

    fn play(&mut self, mv: u8) {
        let cell = usize::from(mv);
        self.cells[cell] = Some(self.to_move);
        self.hash ^= KEYS[self.to_move * 9 + cell] ^ KEYS[18];
        self.to_move = 1 - self.to_move;
        self.ply += 1;
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn payoff_range(&self) -> (f64, f64) {
        (-1.0, 1.0)
    }

    fn ply(&self) -> u32 {
        self.ply
    }
}

impl Evaluate for TicTacToe {
    /// Open lines of `player` minus those of the opponent, scaled well inside
    /// the payoff range.
    fn evaluate(&self, player: Player) -> f64 {
        if let Some(outcome) = self.status().outcome() {
            return outcome.payoffs.get(player);
        }
        (self.open_lines(player) as f64 - self.open_lines(1 - player) as f64) / 20.0
    }

    /// A move that completes a line.
    fn is_tactical(&self, mv: u8) -> bool {
        let mut after = self.clone();
        after.play(mv);
        after.winner().is_some()
    }
}

/// The game-theoretic value for the player to move (`1` win, `0` draw, `-1`
/// loss), by plain minimax without pruning, memoised on the position.
pub fn minimax_value(state: &TicTacToe, memo: &mut HashMap<[Option<Player>; 9], i32>) -> i32 {
    if let Some(&value) = memo.get(&state.cells) {
        return value;
    }
    let value = match state.status() {
        Status::Over(outcome) => outcome.payoffs.get(state.to_move).round() as i32,
        _ => {
            let mut moves = MoveList::new();
            state.legal_moves(&mut moves);
            moves
                .iter()
                .map(|&mv| {
                    let mut child = state.clone();
                    child.play(mv);
                    -minimax_value(&child, memo)
                })
                .max()
                .expect("a position in play has moves")
        }
    };
    memo.insert(state.cells, value);
    value
}

/// Every position reachable from the start, each once.
pub fn reachable_positions() -> Vec<TicTacToe> {
    let mut seen = HashMap::new();
    let mut stack = vec![TicTacToe::new(NoRules)];
    let mut moves = MoveList::new();
    while let Some(state) = stack.pop() {
        if seen.insert(state.cells, state.clone()).is_some() {
            continue;
        }
        state.legal_moves(&mut moves);
        for &mv in moves.iter() {
            let mut child = state.clone();
            child.play(mv);
            stack.push(child);
        }
    }
    let mut positions: Vec<TicTacToe> = seen.into_values().collect();
    positions.sort_by_key(|state| (state.ply, state.cells.map(|c| c.map_or(0, |p| p + 1))));
    positions
}
