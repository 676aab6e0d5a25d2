//! Statistics for reports.

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval for a binomial proportion: the range of true
/// rates consistent with `successes` out of `trials` at the confidence level
/// of `z` (use [`Z_95`] for 95%).
///
/// Unlike the textbook `p ± z·sqrt(p(1-p)/n)`, it stays inside [0, 1] and
/// keeps its coverage near 0 and 1, where win rates of hard games live.
/// With no trials it is the whole range.
pub fn wilson_interval(successes: u64, trials: u64, z: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // Round-off must not push the ends past the observed extremes.
    let low = if successes == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if successes == trials {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

/// The mean of `values` with the normal-approximation interval at the
/// confidence level of `z`: `(mean, low, high)`. Suited to a few dozen values
/// or more; with fewer than two the interval is the mean itself.
pub fn mean_interval(values: &[f64], z: f64) -> (f64, f64, f64) {
    let n = values.len() as f64;
    if values.is_empty() {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, mean, mean);
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = z * (variance / n).sqrt();
    (mean, mean - half, mean + half)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_published_values() {
        // Wilson (1927) as tabulated by Newcombe (1998), method 3:
        // 81/263 -> 0.2553..0.3662; 15/148 -> 0.0624..0.1605; 0/20 -> 0..0.1611.
        let close = |a: f64, b: f64| (a - b).abs() < 5e-5;
        let (low, high) = wilson_interval(81, 263, Z_95);
        assert!(close(low, 0.2553) && close(high, 0.3662), "{low} {high}");
        let (low, high) = wilson_interval(15, 148, Z_95);
        assert!(close(low, 0.0624) && close(high, 0.1605), "{low} {high}");
        let (low, high) = wilson_interval(0, 20, Z_95);
        assert!(low == 0.0 && close(high, 0.1611), "{low} {high}");
    }

    #[test]
    fn the_mean_interval_uses_the_sample_deviation() {
        // Values 1..=4: mean 2.5, sample variance 5/3, standard error 0.6455.
        let (mean, low, high) = mean_interval(&[1.0, 2.0, 3.0, 4.0], Z_95);
        assert_eq!(mean, 2.5);
        assert!((high - mean - Z_95 * (5.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-12);
        assert!((mean - low - (high - mean)).abs() < 1e-12);
        assert_eq!(mean_interval(&[7.0], Z_95), (7.0, 7.0, 7.0));
    }

    #[test]
    fn intervals_are_symmetric_and_bounded() {
        let (low, high) = wilson_interval(3, 10, Z_95);
        let (low2, high2) = wilson_interval(7, 10, Z_95);
        assert!((low - (1.0 - high2)).abs() < 1e-12 && (high - (1.0 - low2)).abs() < 1e-12);
        assert_eq!(wilson_interval(10, 10, Z_95).1, 1.0);
        assert_eq!(wilson_interval(0, 0, Z_95), (0.0, 1.0));
    }
}
