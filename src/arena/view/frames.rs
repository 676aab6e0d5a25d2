//! A game's pictures ply by ply, stored as a page keeps them: a full
//! picture (a *keyframe*) where the layout changes, and otherwise only the
//! slots each ply changed, with the captures among them marked.

use crate::core::{Content, Picture};
use serde_json::{Value, json};

/// The distinct layouts of the pictures of a page, each stored once.
#[derive(Clone, Debug, Default)]
pub struct Layouts {
    /// One picture of each layout (its contents are not used).
    pub pictures: Vec<Picture>,
}

impl Layouts {
    /// The number of `picture`'s layout, added if it is new.
    pub fn find_or_add(&mut self, picture: &Picture) -> usize {
        match self
            .pictures
            .iter()
            .position(|known| known.same_layout(picture))
        {
            Some(index) => index,
            None => {
                self.pictures.push(picture.clone());
                self.pictures.len() - 1
            }
        }
    }

    /// The layouts as JSON: per layout its size, its frame and per slot
    /// `[name, x, y, width, height, seen_by or null]`.
    pub fn json(&self) -> Value {
        Value::Array(
            self.pictures
                .iter()
                .map(|picture| {
                    let slots: Vec<Value> = picture
                        .slots
                        .iter()
                        .map(|slot| {
                            json!([
                                slot.name,
                                slot.x,
                                slot.y,
                                slot.width,
                                slot.height,
                                slot.seen_by
                            ])
                        })
                        .collect();
                    json!({"w": picture.width, "h": picture.height, "f": picture.frame, "s": slots})
                })
                .collect(),
        )
    }
}

/// What one ply's picture stores.
#[derive(Clone, Debug, PartialEq)]
pub enum PlyFrame {
    /// A full picture: its layout's number and every slot's content.
    Key {
        /// The layout's number in the page's [`Layouts`].
        layout: usize,
        /// Every slot's content, in the layout's order.
        contents: Vec<Content>,
    },
    /// The slots that changed since the previous ply's picture.
    Change {
        /// `(slot, new content)` for each changed slot, in slot order.
        changes: Vec<(usize, Content)>,
        /// The changed slots that are captures: emptied, and their old
        /// content is in none of the slots the ply filled.
        captures: Vec<usize>,
    },
}

/// A game ply by ply: `frames[k]`, `texts[k]` are the picture and the
/// position text after `k` plies (`k = 0`: where its moves start), and
/// `moves[k]` the text of ply `k + 1`.
#[derive(Clone, Debug, PartialEq)]
pub struct GameFrames {
    /// The pictures; the first is always a keyframe.
    pub frames: Vec<PlyFrame>,
    /// The position texts.
    pub texts: Vec<String>,
    /// The plies' texts, one line each.
    pub moves: Vec<String>,
}

/// The frame that turns `previous` (if of the same layout) into `picture`.
pub fn ply_frame(previous: Option<&Picture>, picture: &Picture, layouts: &mut Layouts) -> PlyFrame {
    let Some(previous) = previous.filter(|previous| previous.same_layout(picture)) else {
        return PlyFrame::Key {
            layout: layouts.find_or_add(picture),
            contents: picture
                .slots
                .iter()
                .map(|slot| slot.content.clone())
                .collect(),
        };
    };
    let changes: Vec<(usize, Content)> = previous
        .slots
        .iter()
        .zip(&picture.slots)
        .enumerate()
        .filter(|(_, (old, new))| old.content != new.content)
        .map(|(index, (_, new))| (index, new.content.clone()))
        .collect();
    let filled: Vec<&Content> = changes
        .iter()
        .map(|(_, content)| content)
        .filter(|content| **content != Content::Empty)
        .collect();
    let captures = changes
        .iter()
        .filter(|(index, content)| {
            *content == Content::Empty && !filled.contains(&&previous.slots[*index].content)
        })
        .map(|&(index, _)| index)
        .collect();
    PlyFrame::Change { changes, captures }
}

/// A content as the page stores it: `""` empty, `#symbol` a piece,
/// `=text` a text.
pub fn content_code(content: &Content) -> String {
    match content {
        Content::Empty => String::new(),
        Content::Piece(symbol) => format!("#{symbol}"),
        Content::Text(text) => format!("={text}"),
    }
}

/// The content a [`content_code`] stands for.
///
/// # Errors
/// A code of none of the three forms.
pub fn content_of_code(code: &str) -> Result<Content, String> {
    if code.is_empty() {
        Ok(Content::Empty)
    } else if let Some(symbol) = code.strip_prefix('#') {
        Ok(Content::Piece(symbol.to_string()))
    } else if let Some(text) = code.strip_prefix('=') {
        Ok(Content::Text(text.to_string()))
    } else {
        Err(format!("not a slot's content: {code:?}"))
    }
}

impl GameFrames {
    /// The game as the JSON the page inflates: `t` the position texts, `m`
    /// the moves, `p` per ply either `{"l": layout, "s": [contents]}` (a
    /// keyframe) or `{"c": [slot, content, slot, content, ...], "x":
    /// [captured slots]}`.
    pub fn json(&self) -> Value {
        let frames: Vec<Value> = self
            .frames
            .iter()
            .map(|frame| match frame {
                PlyFrame::Key { layout, contents } => {
                    let contents: Vec<String> = contents.iter().map(content_code).collect();
                    json!({"l": layout, "s": contents})
                }
                PlyFrame::Change { changes, captures } => {
                    let flat: Vec<Value> = changes
                        .iter()
                        .flat_map(|(slot, content)| [json!(slot), json!(content_code(content))])
                        .collect();
                    match captures.is_empty() {
                        true => json!({"c": flat}),
                        false => json!({"c": flat, "x": captures}),
                    }
                }
            })
            .collect();
        json!({"t": self.texts, "m": self.moves, "p": frames})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Slot;

    fn board(contents: &[&str]) -> Picture {
        Picture {
            width: 30,
            height: 10,
            frame: String::new(),
            slots: contents
                .iter()
                .enumerate()
                .map(|(index, symbol)| {
                    let content = match *symbol {
                        "" => Content::Empty,
                        symbol => Content::Piece(symbol.to_string()),
                    };
                    Slot::new(
                        format!("s{index}"),
                        10.0 * index as f32,
                        0.0,
                        (10.0, 10.0),
                        content,
                    )
                })
                .collect(),
        }
    }

    /// The changes and the captures of the ply from `before` to `after`.
    fn change(before: &[&str], after: &[&str]) -> (Vec<(usize, String)>, Vec<usize>) {
        let mut layouts = Layouts::default();
        match ply_frame(Some(&board(before)), &board(after), &mut layouts) {
            PlyFrame::Change { changes, captures } => (
                changes
                    .iter()
                    .map(|(slot, content)| (*slot, content_code(content)))
                    .collect(),
                captures,
            ),
            key => panic!("a keyframe: {key:?}"),
        }
    }

    #[test]
    fn a_move_changes_two_slots_and_a_capture_is_a_piece_that_left_the_board() {
        let mut layouts = Layouts::default();
        let start = board(&["rook", "", "pawn"]);
        assert!(matches!(
            ply_frame(None, &start, &mut layouts),
            PlyFrame::Key { layout: 0, .. }
        ));
        let coded = |changes: &[(usize, &str)]| {
            changes
                .iter()
                .map(|&(slot, code)| (slot, code.to_string()))
                .collect::<Vec<_>>()
        };
        for (before, after, changes, captures) in [
            // The rook takes the pawn: slot 0 empties, but its rook is in
            // slot 2 now; the pawn is gone.
            (
                ["rook", "", "pawn"],
                ["", "", "rook"],
                coded(&[(0, ""), (2, "#rook")]),
                vec![],
            ),
            // A piece moves away and another of the same kind is removed
            // elsewhere: both emptied slots held a pawn, which the ply put
            // down again, so neither is a capture.
            (
                ["pawn", "", "pawn"],
                ["", "pawn", ""],
                coded(&[(0, ""), (1, "#pawn"), (2, "")]),
                vec![],
            ),
            // A piece captured in place of a move elsewhere.
            (
                ["rook", "", "pawn"],
                ["", "rook", ""],
                coded(&[(0, ""), (1, "#rook"), (2, "")]),
                vec![2],
            ),
        ] {
            assert_eq!(change(&before, &after), (changes, captures), "{before:?}");
        }
        // The same layout is found again; another layout is a keyframe of a
        // new layout.
        assert!(matches!(
            ply_frame(Some(&start), &board(&["", "", "rook"]), &mut layouts),
            PlyFrame::Change { .. }
        ));
        assert_eq!(layouts.pictures.len(), 1);
        let wider = board(&["rook", "", "", ""]);
        assert!(matches!(
            ply_frame(Some(&start), &wider, &mut layouts),
            PlyFrame::Key { layout: 1, .. }
        ));
    }

    #[test]
    fn contents_are_coded_and_read_back() {
        for content in [
            Content::Empty,
            Content::Piece("king".into()),
            Content::Text("#3".into()),
            Content::Text(String::new()),
        ] {
            assert_eq!(content_of_code(&content_code(&content)), Ok(content));
        }
        assert!(content_of_code("king").is_err());
    }
}
