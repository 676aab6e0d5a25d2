//! The picture of a position: the triangle of fifteen points with its
//! castles and the four murder triangles, the characters where they stand,
//! and beside it the two screens, the round and what happens next.
//!
//! Each screen has two places in front of it: the pair revealed last. Nothing
//! is ever behind a screen in a position: the two choices of a round are one
//! joint move, so no position holds a choice made but not yet revealed. The
//! picture shows only the last revealed pairs and not every round's: a
//! position keeps no history of earlier rounds (the rules do not need it),
//! and a picture is drawn from the position alone. A page that replays a
//! record lists every round's pairs in its moves.

use super::board::{
    CASTLES, COORDINATES, MURDER_TRIANGLES, NEIGHBOURS, POINTS, point_name, points_of,
};
use super::moves::Character;
use super::state::{EndReason, Nibelungen, Side};
use crate::core::{Content, Game, Picture, Slot};
use std::fmt::Write;
use std::sync::LazyLock;

const WIDTH: f32 = 740.0;
const HEIGHT: f32 = 440.0;
/// The apex of the triangle, and the distance between neighbouring points.
const APEX: (f32, f32) = (230.0, 78.0);
const STEP: f32 = 88.0;
/// The height of a row of the grid: the height of a small triangle.
const ROW_HEIGHT: f32 = STEP * 0.866;
/// The side of a character's place.
const PIECE: f32 = 42.0;
/// The left edge of the panel beside the board.
const PANEL_X: f32 = 460.0;
/// The side of a player piece in front of a screen.
const TOKEN: f32 = 34.0;
const TEXT_HEIGHT: f32 = 20.0;

/// The characters drawn white (Gunther, Kriemhild, Hagen: the Burgundians,
/// the white king, queen and knight of the original pieces) and black.
fn is_white(character: Character) -> bool {
    character.index() < 3
}

/// The centre of `point` on the drawing.
fn centre(point: u8) -> (f32, f32) {
    let (row, k) = COORDINATES[point as usize];
    let (row, k) = (f32::from(row), f32::from(k));
    (APEX.0 + (k - row / 2.0) * STEP, APEX.1 + row * ROW_HEIGHT)
}

/// The top of a side's block in the panel.
fn side_y(side: Side) -> f32 {
    match side {
        Side::Tod => 96.0,
        Side::No => 196.0,
    }
}

impl Nibelungen {
    /// The picture of this position (see the module documentation).
    pub(crate) fn drawn(&self) -> Picture {
        let mut slots = Vec::new();
        for point in 0..POINTS as u8 {
            let (x, y) = centre(point);
            slots.push(Slot::new(
                format!("point {}", point_name(point)),
                x - PIECE / 2.0,
                y - PIECE / 2.0,
                (PIECE, PIECE),
                self.character_on(point)
                    .map_or(Content::Empty, |character| {
                        Content::Piece(character_symbol(character))
                    }),
            ));
        }
        for side in [Side::Tod, Side::No] {
            let top = side_y(side) + 28.0;
            let pair: Vec<Character> = self
                .screen(side)
                .map_or(Vec::new(), |pair| pair.characters().collect());
            for place in 0..2 {
                slots.push(Slot::new(
                    format!(
                        "in front of {}'s screen, piece {}",
                        side.name_text(),
                        place + 1
                    ),
                    PANEL_X + place as f32 * (TOKEN + 6.0),
                    top,
                    (TOKEN, TOKEN),
                    pair.get(place).map_or(Content::Empty, |&character| {
                        Content::Piece(token_symbol(character))
                    }),
                ));
            }
        }
        let texts = [
            ("round", 40.0, self.round_text()),
            ("moving this round", 300.0, self.movers_text()),
            ("to play", 330.0, self.turn_text()),
        ];
        for (name, y, text) in texts {
            slots.push(Slot::new(
                name,
                PANEL_X - 10.0,
                y,
                (WIDTH - PANEL_X, TEXT_HEIGHT),
                Content::Text(text),
            ));
        }
        Picture {
            width: WIDTH as u32,
            height: HEIGHT as u32,
            frame: FRAME.clone(),
            slots,
        }
    }

    /// The round, of how many if the rules limit them.
    fn round_text(&self) -> String {
        match self.rules().round_limit {
            // After a drawn game the round counter is one past the limit.
            Some(limit) => format!("round {} of {limit}", self.round().min(limit.get())),
            None => format!("round {}", self.round()),
        }
    }

    /// The characters that move this round and how far, once the pairs
    /// are revealed.
    fn movers_text(&self) -> String {
        if self.next_to_move().is_none() {
            return String::new();
        }
        let (movers, steps) = self.movers();
        let letters: Vec<String> = Character::ALL
            .into_iter()
            .filter(|character| movers & character.bit() != 0)
            .map(|character| character.letter().to_string())
            .collect();
        let unit = if steps == 1 { "step" } else { "steps" };
        format!("moving: {}, up to {steps} {unit}", letters.join(" "))
    }

    /// Who plays next, or how the game ended.
    fn turn_text(&self) -> String {
        match (self.ending(), self.next_to_move()) {
            (Some(EndReason::RoundLimit), _) => "drawn: the round limit is reached".to_string(),
            (Some(reason), _) => {
                let winner = reason.winner().map_or("nobody", |side| side.name_text());
                format!("{winner} wins: {}", reason.name())
            }
            (None, Some(character)) => format!(
                "{character} moves, for {}",
                self.chooser(character).name_text()
            ),
            (None, None) => "both players choose a pair".to_string(),
        }
    }
}

impl Side {
    /// The side's name on the picture.
    fn name_text(self) -> &'static str {
        match self {
            Side::Tod => "Tod",
            Side::No => "NO",
        }
    }
}

/// The frame: the same for every position, so it is drawn once.
static FRAME: LazyLock<String> = LazyLock::new(frame);

/// The frame: the symbols, the grid with its castles and murder triangles,
/// the points' names, the screens and the key to the letters.
fn frame() -> String {
    let mut frame = String::from("<defs>\n");
    for character in Character::ALL {
        let (fill, ink) = if is_white(character) {
            ("#fbf8ef", "#222")
        } else {
            ("#2b2b2b", "#fff")
        };
        let letter = character.letter();
        let _ = writeln!(
            frame,
            "<symbol id=\"{}\" viewBox=\"0 0 40 40\"><circle cx=\"20\" cy=\"20\" r=\"17\" \
             fill=\"{fill}\" stroke=\"#222\" stroke-width=\"2.5\"/><text x=\"20\" y=\"27\" \
             font-size=\"20\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{ink}\">{letter}\
             </text></symbol>",
            character_symbol(character)
        );
        let _ = writeln!(
            frame,
            "<symbol id=\"{}\" viewBox=\"0 0 40 40\"><rect x=\"3\" y=\"3\" width=\"34\" \
             height=\"34\" rx=\"4\" fill=\"{fill}\" stroke=\"#555\" stroke-width=\"2\"/><text \
             x=\"20\" y=\"27\" font-size=\"19\" text-anchor=\"middle\" fill=\"{ink}\">{letter}\
             </text></symbol>",
            token_symbol(character)
        );
    }
    frame.push_str(
        "</defs>\n<rect width=\"100%\" height=\"100%\" fill=\"#f3efe4\"/>\n\
         <text x=\"16\" y=\"28\" font-size=\"18\" font-weight=\"bold\">Nibelungen</text>\n",
    );
    let polygon = |frame: &mut String, set: u16, style: &str| {
        let corners: Vec<String> = points_of(set)
            .map(|point| {
                let (x, y) = centre(point);
                format!("{x},{y}")
            })
            .collect();
        let _ = writeln!(frame, "<polygon points=\"{}\" {style}/>", corners.join(" "));
    };
    for triangle in MURDER_TRIANGLES {
        polygon(&mut frame, triangle, "fill=\"#e9c9c3\"");
    }
    for castle in CASTLES {
        polygon(
            &mut frame,
            castle.points,
            "fill=\"#cdd9e8\" stroke=\"#6d86a6\" stroke-width=\"3\" stroke-linejoin=\"round\"",
        );
    }
    for from in 0..POINTS as u8 {
        for to in points_of(NEIGHBOURS[from as usize]).filter(|&to| to > from) {
            let ((x1, y1), (x2, y2)) = (centre(from), centre(to));
            let _ = writeln!(
                frame,
                "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#7a6f5a\" \
                 stroke-width=\"2\"/>"
            );
        }
    }
    for point in 0..POINTS as u8 {
        let (x, y) = centre(point);
        let _ = writeln!(
            frame,
            "<circle cx=\"{x}\" cy=\"{y}\" r=\"5\" fill=\"#7a6f5a\"/><text x=\"{lx}\" \
             y=\"{ly}\" font-size=\"10\" fill=\"#8c826c\">{}</text>",
            point_name(point),
            lx = x + 15.0,
            ly = y + 26.0,
        );
    }
    // The castles' names beside their corners: Isen at the apex, Xanten
    // west, Worms east.
    let (apex, west, east) = (centre(0), centre(10), centre(14));
    for (name, x, y, anchor) in [
        ("Isen", apex.0 + 40.0, apex.1 - 18.0, "start"),
        ("Xanten", west.0 - 8.0, west.1 + 48.0, "start"),
        ("Worms", east.0 + 8.0, east.1 + 48.0, "end"),
    ] {
        let _ = writeln!(
            frame,
            "<text x=\"{x}\" y=\"{y}\" font-size=\"14\" font-style=\"italic\" \
             text-anchor=\"{anchor}\" fill=\"#4a6385\">{name}</text>"
        );
    }
    for side in [Side::Tod, Side::No] {
        let top = side_y(side);
        let (title, player) = match side {
            Side::Tod => ("Tod (Tragic Destiny)", 0),
            Side::No => ("NO (Natural Order)", 1),
        };
        let _ = writeln!(
            frame,
            "<text x=\"{PANEL_X}\" y=\"{ty}\" font-size=\"15\" font-weight=\"bold\">{title}, \
             player {player}</text><text x=\"{PANEL_X}\" y=\"{ly}\" font-size=\"10\" \
             fill=\"#666\">revealed in front of the screen</text><rect x=\"{sx}\" \
             y=\"{sy}\" width=\"8\" height=\"{sh}\" rx=\"2\" fill=\"#9c8a64\"/>",
            ty = top + 6.0,
            ly = top + 22.0,
            sx = PANEL_X + 108.0,
            sy = top + 24.0,
            sh = TOKEN + 8.0,
        );
    }
    let key = |characters: &[Character]| {
        let names: Vec<String> = characters
            .iter()
            .map(|character| format!("{} {}", character.letter(), character.name()))
            .collect();
        names.join(", ")
    };
    let lines = [
        key(&Character::ALL[..3]),
        key(&Character::ALL[3..]),
        "castles blue, murder triangles red".to_string(),
    ];
    for (index, line) in lines.iter().enumerate() {
        let _ = writeln!(
            frame,
            "<text x=\"{PANEL_X}\" y=\"{y}\" font-size=\"11\" fill=\"#444\">{line}</text>",
            y = HEIGHT - 56.0 + index as f32 * 16.0,
        );
    }
    frame
}

/// The symbol of a character on the board.
fn character_symbol(character: Character) -> String {
    format!("character-{}", character.letter())
}

/// The symbol of a character's player piece, in front of a screen.
fn token_symbol(character: Character) -> String {
    format!("piece-{}", character.letter())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::symbol_uses;
    use crate::core::{Notation, Viewer};
    use crate::games::nibelungen::{NibelungenRules, Pair};
    use crate::testing::playout_states;

    /// The player pieces of `pair`, in sequence order.
    fn tokens(pair: Option<Pair>) -> Vec<Character> {
        pair.map_or(Vec::new(), |pair| pair.characters().collect())
    }

    /// Every state of a few random games.
    fn sample(rules: NibelungenRules) -> Vec<Nibelungen> {
        playout_states(&Nibelungen::new(rules), 8, 1000, 23)
    }

    #[test]
    fn the_picture_shows_the_characters_and_screens_of_every_sampled_position() {
        for text in [
            "",
            "round-limit=none,win-check=round",
            "tod-start=-,round-limit=3",
        ] {
            let rules: NibelungenRules = text.parse().unwrap();
            let states = sample(rules);
            assert!(states.len() > 30);
            let first = states[0].picture();
            for state in &states {
                let picture = state.picture();
                assert!(picture.same_layout(&first), "{}", state.position_text());
                let svg = picture.svg(Viewer::All);
                // Nothing is hidden in a position: both players see it all.
                assert_eq!(svg, picture.svg(Viewer::Player(0)));
                assert_eq!(svg, picture.svg(Viewer::Player(1)));
                for character in Character::ALL {
                    assert_eq!(symbol_uses(&svg, &character_symbol(character)), 1);
                    let name = format!("point {}", point_name(state.point_of(character)));
                    let slot = picture.slots.iter().find(|slot| slot.name == name).unwrap();
                    assert_eq!(slot.content, Content::Piece(character_symbol(character)));
                    let in_front = [Side::Tod, Side::No]
                        .into_iter()
                        .filter(|&side| tokens(state.screen(side)).contains(&character))
                        .count();
                    assert_eq!(symbol_uses(&svg, &token_symbol(character)), in_front);
                }
                let round = match rules.round_limit {
                    Some(limit) => format!(">round {} of {limit}<", state.round().min(limit.get())),
                    None => format!(">round {}<", state.round()),
                };
                assert!(svg.contains(&round), "{round}");
            }
        }
    }

    #[test]
    fn a_revealed_round_is_drawn() {
        let mut game = Nibelungen::new(NibelungenRules::default());
        let joint = crate::core::PlyText::Joint(vec!["GH".into(), "HS".into()]);
        game.try_play_ply(&game.parse_ply(&joint).unwrap()).unwrap();
        game.try_play(game.parse_move("32").unwrap()).unwrap();
        let picture = game.picture();
        let expected = [
            ("point 33", Content::Empty),
            ("point 32", Content::Piece("character-G".into())),
            ("point 00", Content::Empty),
            (
                "in front of Tod's screen, piece 1",
                Content::Piece("piece-G".into()),
            ),
            (
                "in front of Tod's screen, piece 2",
                Content::Piece("piece-H".into()),
            ),
            (
                "in front of NO's screen, piece 1",
                Content::Piece("piece-H".into()),
            ),
            (
                "in front of NO's screen, piece 2",
                Content::Piece("piece-S".into()),
            ),
            (
                "moving this round",
                Content::Text("moving: G S, up to 2 steps".into()),
            ),
            ("to play", Content::Text("Siegfried moves, for NO".into())),
            ("round", Content::Text("round 1 of 30".into())),
        ];
        for (name, content) in expected {
            let slot = picture.slots.iter().find(|slot| slot.name == name);
            assert_eq!(slot.unwrap().content, content, "{name}");
        }
    }
}
