use super::{Agent, AgentError, Decision, player_choices};
use crate::core::{MoveList, Notation, Player, Ply};
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

    fn decide(&mut self, state: &G, player: Player) -> Result<Decision<G::Move>, AgentError> {
        player_choices(state, player, &mut self.moves)?;
        let side = state.player_name(player);
        let news = std::mem::take(&mut self.news).join("\n");
        self.say(&format!("\n{news}\n{}", state.diagram()));
        let example = state.move_text(self.moves[0]);
        loop {
            self.say(&format!(
                "{side} to move (e.g. `{example}`; `moves` lists them, `resign` gives up): "
            ));
            let mut line = String::new();
            match self.input.read_line(&mut line) {
                Ok(0) | Err(_) => {
                    self.say("\nend of input: resigning\n");
                    return Ok(Decision::Resign);
                }
                Ok(_) => {}
            }
            match line.trim() {
                "" => continue,
                "resign" => return Ok(Decision::Resign),
                "moves" | "help" => {
                    let listed: Vec<String> =
                        self.moves.iter().map(|&mv| state.move_text(mv)).collect();
                    self.say(&format!("legal moves: {}\n", listed.join(" ")));
                }
                text => match state.parse_move(text) {
                    // At a simultaneous choice the text may name another
                    // player's choice; only this player's count.
                    Ok(mv) if self.moves.contains(&mv) => return Ok(Decision::Play(mv)),
                    Ok(_) => self.say(&format!(
                        "`{text}` is not a choice of the {side}; try again\n"
                    )),
                    Err(error) => self.say(&format!("{error}; try again\n")),
                },
            }
        }
    }

    fn observe(&mut self, before: &G, ply: &Ply<G::Move>) {
        let news = match ply {
            Ply::Move(mv) => {
                let player = before
                    .status()
                    .player_to_move()
                    .map(|player| before.player_name(player))
                    .unwrap_or_default();
                format!("{player} played {}", before.move_text(*mv))
            }
            Ply::Joint(joint) => {
                let choices: Vec<String> = joint
                    .iter()
                    .enumerate()
                    .map(|(player, &mv)| {
                        format!("{} {}", before.player_name(player), before.move_text(mv))
                    })
                    .collect();
                format!("chosen together: {}", choices.join(", "))
            }
        };
        self.news.push(news);
    }

    fn reset(&mut self) {
        self.news.clear();
    }
}
