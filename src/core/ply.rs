//! Plies: the steps of a game record.

use serde::{Deserialize, Serialize};

/// One step of a game: a move of the player to move, or, at a simultaneous
/// state, the moves all players chose at once (indexed by player).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ply<M> {
    /// The move of the one player to move.
    Move(M),
    /// The moves chosen at once at a simultaneous state, one per player, player 0
    /// first.
    Joint(Vec<M>),
}

/// A ply as text, as records and logs store it: a move's text, or a list
/// with one text per player for a joint move. In JSON a move is a string and
/// a joint move an array of strings, so the records of turn-based games are
/// plain lists of moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PlyText {
    /// The text of one move.
    Move(String),
    /// The texts of a joint move, one per player, player 0 first.
    Joint(Vec<String>),
}

impl PlyText {
    /// The text on one line: a move as it is, a joint move as its players'
    /// moves in order, separated by ` & `.
    pub fn one_line(&self) -> String {
        match self {
            PlyText::Move(text) => text.clone(),
            PlyText::Joint(texts) => texts.join(" & "),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_strings_and_joint_moves_are_lists_in_json() {
        let line = vec![
            PlyText::Move("d1-d3".into()),
            PlyText::Joint(vec!["3".into(), "5".into()]),
        ];
        let json = serde_json::to_string(&line).unwrap();
        assert_eq!(json, r#"["d1-d3",["3","5"]]"#);
        let read: Vec<PlyText> = serde_json::from_str(&json).unwrap();
        assert_eq!(read, line);
        assert_eq!(line[1].one_line(), "3 & 5");
    }
}
