use super::{Agent, Decision};
use crate::core::{MoveList, Notation};
use std::io::{BufRead, Write};

/// A person at a terminal: sees the board and types moves in the game's
/// notation. Input that is not a legal move is explained and asked again;
/// `moves` lists the legal moves and `resign` gives up. The end of the input
/// counts as resigning.
pub struct HumanAgent<G: Notation> {
    input: Box<dyn BufRead + Send>,
    output: Box<dyn Write + Send>,
    moves: MoveList<G::Move>,
    /// The moves played since this player last chose, to show it.
    news: Vec<String>,
}

impl<G: Notation> HumanAgent<G> {
    /// A player reading moves from `input` and writing the board and prompts
    /// to `output`.
    pub fn new(input: Box<dyn BufRead + Send>, output: Box<dyn Write + Send>) -> Self {
        HumanAgent {
            input,
            output,
            moves: MoveList::new(),
            news: Vec::new(),
        }
    }

    /// Writes to the terminal; a terminal that cannot be written to leaves
    /// the player reading input blind, which is all that can be done.
    fn say(&mut self, text: &str) {
        let _ = self.output.write_all(text.as_bytes());
        let _ = self.output.flush();
    }
}

impl<G: Notation> Agent<G> for HumanAgent<G> {
    fn spec(&self) -> &str {
        "human"
    }

    fn decide(&mut self, state: &G) -> Decision<G::Move> {
        let side = state
            .status()
            .player_to_move()
            .map(|player| state.player_name(player))
            .unwrap_or_default();
        let news = std::mem::take(&mut self.news).join("\n");
        self.say(&format!("\n{news}\n{}", state.diagram()));
        let example = example_move(state, &mut self.moves);
        loop {
            self.say(&format!(
                "{side} to move (e.g. `{example}`; `moves` lists them, `resign` gives up): "
            ));
            let mut line = String::new();
            match self.input.read_line(&mut line) {
                Ok(0) | Err(_) => {
                    self.say("\nend of input: resigning\n");
                    return Decision::Resign;
                }
                Ok(_) => {}
            }
            match line.trim() {
                "" => continue,
                "resign" => return Decision::Resign,
                "moves" | "help" => {
                    state.legal_moves(&mut self.moves);
                    let listed: Vec<String> =
                        self.moves.iter().map(|&mv| state.move_text(mv)).collect();
                    self.say(&format!("legal moves: {}\n", listed.join(" ")));
                }
                text => match state.parse_move(text) {
                    Ok(mv) => return Decision::Play(mv),
                    Err(error) => self.say(&format!("{error}; try again\n")),
                },
            }
        }
    }

    fn observe(&mut self, before: &G, mv: G::Move) {
        let player = before
            .status()
            .player_to_move()
            .map(|player| before.player_name(player))
            .unwrap_or_default();
        self.news
            .push(format!("{player} played {}", before.move_text(mv)));
    }

    fn reset(&mut self) {
        self.news.clear();
    }
}

fn example_move<G: Notation>(state: &G, moves: &mut MoveList<G::Move>) -> String {
    state.legal_moves(moves);
    moves
        .first()
        .map(|&mv| state.move_text(mv))
        .unwrap_or_default()
}
