//! Progressive widening, shared by the tree searches: a node opens its
//! moves a few at a time as its visits grow, so that the first visits of a
//! wide node go deeper instead of trying every move once (Coulom,
//! "Computing Elo ratings of move patterns in the game of Go", 2007;
//! Chaslot et al., "Progressive strategies for Monte-Carlo tree search",
//! 2008).

use crate::core::{Kind, Value};

/// Progressive widening: on its `n`th visit a node may have at most
/// `ceil(width * n^exponent)` children (and always one). Which move a new
/// child takes is the search's choice: IS-MCTS takes the first untried
/// legal move in its [`MoveOrder`](super::MoveOrder) (or a random one),
/// MCTS its expansion order (tactical moves first).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Widening {
    /// `width` in `ceil(width * n^exponent)`: above 0, at most
    /// [`MAX_WIDENING_WIDTH`].
    pub width: f64,
    /// `exponent` in `ceil(width * n^exponent)`: from 0 (a fixed number of
    /// children) to 1 (children in proportion to visits).
    pub exponent: f64,
}

/// The largest widening width: a node with more children than a thousand
/// on its first visit is not widened in any useful sense.
pub const MAX_WIDENING_WIDTH: f64 = 1000.0;

/// The widening exponent when a spec gives none: the square root of the
/// visits, a common choice in the literature.
pub const DEFAULT_WIDENING_EXPONENT: f64 = 0.5;

impl Widening {
    /// The most children a node may have on its `visit`th visit (counting
    /// from 1): at least one, and never fewer on a later visit.
    pub fn children_allowed(&self, visit: u64) -> u64 {
        let allowed = (self.width * (visit as f64).powf(self.exponent)).ceil();
        // `as` saturates, so an absurd width cannot overflow.
        (allowed as u64).max(1)
    }
}

/// What the `widen` option of a tree search's declared options takes: a
/// width, or `off` (`0` is off too).
pub const WIDTH_KIND: Kind = Kind::Optional(
    &Kind::Number {
        min: 0.0,
        max: MAX_WIDENING_WIDTH,
    },
    "off",
);

/// What the `widen-exp` option takes.
pub const EXPONENT_KIND: Kind = Kind::Number { min: 0.0, max: 1.0 };

/// The help of `widen` in the searchers' option tables.
pub const WIDTH_HELP: &str =
    "progressive widening: at most `ceil(widen * n^e)` children on a node's `n`th visit";

/// The help of `widen-exp`.
pub const EXPONENT_HELP: &str = "the exponent `e` of progressive widening (0.5 unless given)";

/// The value of `widen` for `widening`.
pub fn width_value(widening: &Option<Widening>) -> Value {
    Value::from_option(widening.map(|widening| widening.width), Value::Number)
}

/// The value of `widen-exp`: not written without widening.
pub fn exponent_value(widening: &Option<Widening>) -> Value {
    widening.map_or(Value::Inapplicable, |widening| {
        Value::Number(widening.exponent)
    })
}

/// Sets the width of `widening` from `widen`'s value: `off` or 0 turns
/// widening off, a width keeps the exponent already set (the default one
/// without). A `widen-exp` read before a `widen` that turns widening off
/// is kept, so that [`check_widening`] refuses the pair in either order.
pub fn set_width(widening: &mut Option<Widening>, value: Value) {
    let width = value.optional(Value::number).unwrap_or(0.0);
    let exponent = widening.map_or(DEFAULT_WIDENING_EXPONENT, |widening| widening.exponent);
    let exponent_without_width = widening.is_some_and(|widening| widening.width == 0.0);
    *widening = if width > 0.0 || exponent_without_width {
        Some(Widening { width, exponent })
    } else {
        None
    };
}

/// Sets the exponent from `widen-exp`'s value; without widening it keeps
/// the exponent with a width of 0, which [`check_widening`] refuses unless
/// a `widen` sets the width.
pub fn set_exponent(widening: &mut Option<Widening>, value: Value) {
    let exponent = value.number();
    match widening {
        Some(widening) => widening.exponent = exponent,
        None => {
            *widening = Some(Widening {
                width: 0.0,
                exponent,
            })
        }
    }
}

/// Checks a widening however it was set: a width above 0.
///
/// # Errors
/// A width of 0 or less, which `widen-exp` without `widen` leaves.
pub fn check_widening(widening: &Option<Widening>) -> Result<(), String> {
    match widening {
        Some(widening) if widening.width <= 0.0 => {
            Err("`widen-exp` needs widening on (`widen` above 0)".into())
        }
        _ => Ok(()),
    }
}
