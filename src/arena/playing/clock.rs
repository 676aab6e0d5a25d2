//! Game clocks: a time control per game (base time plus an increment per
//! move, for each side), as engine testers set them.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The longest base time a clock may hold: a week. More is a typo.
const MAX_BASE_SECONDS: f64 = 7.0 * 24.0 * 3600.0;
/// The shortest base time: a millisecond, the least a search may be given.
/// A shorter one would also lose its digits in the run's `config.json`
/// (`1e-300` is held as no time at all, written `0`, and read back as an
/// error).
const MIN_BASE_SECONDS: f64 = 0.001;

/// A game clock's setting, written `BASE+INCREMENT` in seconds (`60+0.5`,
/// or `60` without an increment): each side starts with `base` and gains
/// `increment` after each of its moves. A side whose decision takes longer
/// than its clock holds loses on time ([`TIME_REASON`](super::TIME_REASON)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TimeControl {
    /// Each side's time at the start of the game.
    pub base: Duration,
    /// The time added to a side's clock after each of its moves.
    pub increment: Duration,
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let seconds = |part: &str, what: &str| -> Result<f64, String> {
            part.trim()
                .parse::<f64>()
                .ok()
                .filter(|seconds| seconds.is_finite() && *seconds >= 0.0)
                .ok_or_else(|| {
                    format!("time control `{text}`: the {what} `{part}` is not a number of seconds")
                })
        };
        let (base, increment) = (seconds(base, "base")?, seconds(increment, "increment")?);
        if !(MIN_BASE_SECONDS..=MAX_BASE_SECONDS).contains(&base) {
            return Err(format!(
                "time control `{text}`: the base time must be at least {MIN_BASE_SECONDS} and at most {MAX_BASE_SECONDS} seconds"
            ));
        }
        if increment > base.max(1.0) * 100.0 {
            // The increment as given: `1e308` written out is 309 digits.
            return Err(format!(
                "time control `{text}`: an increment of `{}` seconds dwarfs the base time (at most 100 times the base, or 100 seconds)",
                text.split_once('+')
                    .map_or("", |(_, increment)| increment.trim())
            ));
        }
        Ok(TimeControl {
            base: Duration::from_secs_f64(base),
            increment: Duration::from_secs_f64(increment),
        })
    }
}

impl TryFrom<String> for TimeControl {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        text.parse()
    }
}

impl From<TimeControl> for String {
    fn from(control: TimeControl) -> String {
        control.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_and_write_back() {
        let control: TimeControl = "60+0.5".parse().unwrap();
        assert_eq!(control.base, Duration::from_secs(60));
        assert_eq!(control.increment, Duration::from_millis(500));
        assert_eq!(control.to_string(), "60+0.5");
        assert_eq!("2".parse::<TimeControl>().unwrap().to_string(), "2+0");
        // The shortest clock writes itself back to the same setting.
        let shortest: TimeControl = "0.001+1e-300".parse().unwrap();
        assert_eq!(shortest.to_string().parse::<TimeControl>(), Ok(shortest));
        for bad in [
            "", "0+1", "-1+0", "1+-1", "nan", "inf+0", "1e9", "1+x", "1+1000", "1e-300", "0.0009",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        // A huge increment is refused quoting it as given, not written out
        // to its hundreds of digits.
        let error = "1+1e308".parse::<TimeControl>().unwrap_err();
        assert!(error.contains("`1e308`") && error.len() < 200, "{error}");
    }
}
