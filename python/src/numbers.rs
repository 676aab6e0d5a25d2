//! Whole numbers read from Python values, with one way of refusing them:
//! a value of the wrong Python type (a string, `None`) is a `TypeError`, as
//! Python itself raises; a number that is not whole (`1.5`, `nan`) or is out
//! of the range the argument takes (`-1`, `2**70`) is a `ValueError` naming
//! the argument and its range. Python's own conversions would instead raise
//! `OverflowError` for large or negative ints and truncate `61.9` to 61.

use crate::value_error;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;

/// A whole number as Python gave it: an int (or anything with `__index__`,
/// numpy's integers among them) or a float with no fractional part.
#[derive(Clone, Debug)]
pub enum Whole {
    /// A number that fits in an `i128`.
    Value(i128),
    /// A number beyond that, kept as its text for the message.
    Beyond(String),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Whole {
    type Error = PyErr;

    fn extract(object: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        // The common case first: an int that fits in 64 bits.
        if let Ok(value) = object.extract::<i64>() {
            return Ok(Whole::Value(i128::from(value)));
        }
        match object.extract::<i128>() {
            Ok(value) => return Ok(Whole::Value(value)),
            Err(error) if error.is_instance_of::<PyOverflowError>(object.py()) => {
                return Ok(Whole::Beyond(shown(&object)));
            }
            Err(_) => {}
        }
        let Ok(value) = object.extract::<f64>() else {
            let kind = object.get_type().name()?;
            return Err(PyTypeError::new_err(format!(
                "expected an integer, not '{kind}'"
            )));
        };
        if value.fract() != 0.0 || !value.is_finite() {
            return Err(value_error(format!(
                "{} is not a whole number",
                shown(&object)
            )));
        }
        // Whole floats below 2^127 convert exactly.
        if value.abs() < 2f64.powi(127) {
            Ok(Whole::Value(value as i128))
        } else {
            Ok(Whole::Beyond(shown(&object)))
        }
    }
}

/// A value's text for a message: its `repr`, cut short.
fn shown(object: &Borrowed<'_, '_, PyAny>) -> String {
    const MOST: usize = 40;
    let text = object
        .repr()
        .map(|text| text.to_string())
        .unwrap_or_else(|_| "the value".to_string());
    if text.chars().count() > MOST {
        format!("{}...", text.chars().take(MOST).collect::<String>())
    } else {
        text
    }
}

/// The integer types an argument is read into, with their ranges.
pub trait Bounded: TryFrom<i128> + Copy {
    /// The smallest value.
    const LEAST: i128;
    /// The largest value.
    const MOST: i128;
}

macro_rules! bounded {
    ($($kind:ty),*) => {$(
        impl Bounded for $kind {
            const LEAST: i128 = <$kind>::MIN as i128;
            const MOST: i128 = <$kind>::MAX as i128;
        }
    )*};
}
bounded!(u32, u64, usize, i64);

impl Whole {
    /// The number as a `T` from `least` on, or a `ValueError` saying that
    /// `what` must be in that range.
    pub fn at_least<T: Bounded>(&self, what: &str, least: i128) -> PyResult<T> {
        self.within(what, least.max(T::LEAST), T::MOST)
    }

    /// The number as a `T` within `least..=most` (inside `T`'s range), or a
    /// `ValueError` saying that `what` must be in that range.
    pub fn within<T: Bounded>(&self, what: &str, least: i128, most: i128) -> PyResult<T> {
        match self {
            Whole::Value(value) if (least..=most).contains(value) => T::try_from(*value)
                .map_err(|_| value_error(format!("{what} {value} is out of range"))),
            Whole::Value(value) => Err(out_of_range(what, &value.to_string(), least, most)),
            Whole::Beyond(text) => Err(out_of_range(what, text, least, most)),
        }
    }

    /// The number as an action id below `count`, the game's number of
    /// action ids.
    pub fn action(&self, count: usize) -> PyResult<u32> {
        let most = count as i128 - 1;
        match self {
            Whole::Value(value) if (0..=most).contains(value) => Ok(*value as u32),
            Whole::Value(value) => Err(not_an_action(&value.to_string(), most)),
            Whole::Beyond(text) => Err(not_an_action(text, most)),
        }
    }
}

fn out_of_range(what: &str, value: &str, least: i128, most: i128) -> PyErr {
    if most >= i128::from(u64::MAX) {
        value_error(format!("{what} must be at least {least}, not {value}"))
    } else {
        value_error(format!(
            "{what} must be from {least} to {most}, not {value}"
        ))
    }
}

fn not_an_action(value: &str, most: i128) -> PyErr {
    value_error(format!(
        "action {value} is not an action id of the game (0 to {most})"
    ))
}
