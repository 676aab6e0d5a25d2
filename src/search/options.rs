//! The options several searchers share, each declared once: the
//! simulations per move, the time per move, the exploration constant, the playout
//! length, the node budget and progressive widening. A searcher's table
//! names the option and, where the searchers differ, its own help; the
//! key, the kind of value, its range and how the field is read and written
//! are the same for every searcher that has it, and a searcher's
//! configuration keeps it in a field of the same name.

/// `iters`: the simulations (iterations) per move, from 1 to `$max`, kept
/// in the field `iterations` (a whole number, or an `Option` of one left
/// unset where a time limit stands alone).
macro_rules! iterations_option {
    ($max:expr, $help:expr) => {
        $crate::whole_option!("iters", iterations, 1, $max, $help)
    };
}
pub(crate) use iterations_option;

/// `ms`: the time per move, kept in the `Option<Duration>` field `time`,
/// written only when set.
macro_rules! time_option {
    () => {
        $crate::field_option!(
            "ms",
            time,
            $crate::core::MILLISECONDS,
            "milliseconds per move",
            |time| $crate::core::Value::from_milliseconds(*time),
            |value| Some(::std::time::Duration::from_millis(value.whole()))
        )
    };
}
pub(crate) use time_option;

/// `c`: the exploration constant of UCB1, any number of at least 0, kept
/// in the `f64` field `exploration`.
macro_rules! exploration_option {
    ($help:expr) => {
        $crate::number_option!("c", exploration, 0.0, f64::INFINITY, $help)
    };
}
pub(crate) use exploration_option;

/// `playout`: the random plies played after the tree before the
/// evaluation scores the position, or `none` to play to the end; kept in
/// the `Option<u32>` field `playout_plies`.
macro_rules! playout_option {
    ($help:expr) => {
        $crate::field_option!(
            "playout",
            playout_plies,
            $crate::core::Kind::Optional(
                &$crate::core::Kind::Whole {
                    min: 0,
                    max: u32::MAX as u64,
                },
                "none",
            ),
            $help;
            optional $crate::core::Value::from_whole, whole_as
        )
    };
}
pub(crate) use playout_option;

/// `nodes`: the most nodes of one tree, up to what the tree's indices can
/// number, kept in the `usize` field `node_budget`.
macro_rules! node_budget_option {
    ($help:expr) => {
        $crate::whole_option!(
            "nodes",
            node_budget,
            1,
            $crate::search::MAX_TREE_NODES as u64,
            $help
        )
    };
}
pub(crate) use node_budget_option;

/// `widen` (`widening_option!(width)`), the width of progressive
/// widening or `off`, and `widen-exp` (`widening_option!(exponent)`), its
/// exponent: both kept in the `Option<Widening>` field `widening`, which
/// [`widening`](super::widening)'s functions read and set.
macro_rules! widening_option {
    (width) => {
        $crate::search::options::widening_option!(
            "widen",
            WIDTH_KIND,
            WIDTH_HELP,
            width_value,
            set_width
        )
    };
    (exponent) => {
        $crate::search::options::widening_option!(
            "widen-exp",
            EXPONENT_KIND,
            EXPONENT_HELP,
            exponent_value,
            set_exponent
        )
    };
    ($key:literal, $kind:ident, $help:ident, $get:ident, $set:ident) => {
        $crate::core::Declared {
            key: $key,
            kind: $crate::search::widening::$kind,
            help: $crate::search::widening::$help,
            get: |config| $crate::search::widening::$get(&config.widening),
            set: |config, value| {
                $crate::search::widening::$set(&mut config.widening, value);
                Ok(())
            },
        }
    };
}
pub(crate) use widening_option;
