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

/// The exact two-sided sign test: the chance, were each of
/// `first + second` trials as likely to go one way as the other, of a
/// split at least as uneven as `first` to `second`, that is
/// `min(1, 2 P(X <= min(first, second)))` for `X` binomial with
/// `first + second` trials of probability 1/2. On the trials two policies
/// (or two sides) disagree on, this is McNemar's exact test. 1 without any
/// trial.
pub fn sign_test_p(first: u64, second: u64) -> f64 {
    let trials = first + second;
    let fewer = first.min(second);
    // An even split, or one trial off it, is as even as splits go.
    if 2 * fewer + 1 >= trials {
        return 1.0;
    }
    // The tail's terms C(n, k) / 2^n grow with k up to `fewer` (below n/2):
    // summed down from the largest, each the one above times k / (n - k + 1),
    // until they no longer add anything.
    let n = trials as f64;
    let ln_largest = ln_factorial(trials)
        - ln_factorial(fewer)
        - ln_factorial(trials - fewer)
        - n * std::f64::consts::LN_2;
    let (mut term, mut sum) = (1.0, 1.0);
    for k in (1..=fewer).rev() {
        term *= k as f64 / (n - k as f64 + 1.0);
        sum += term;
        if term < sum * 1e-17 {
            break;
        }
    }
    (2.0 * (ln_largest + sum.ln()).exp()).min(1.0)
}

/// A p-value in few digits: fixed from 0.001 up, else in scientific form
/// (`< 1e-300` for one too small for a number to hold).
pub fn p_value_text(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.3}")
    } else if p > 0.0 {
        format!("{p:.1e}")
    } else {
        "< 1e-300".to_string()
    }
}

/// `ln(n!)`: summed exactly up to 255, beyond by Stirling's series, whose
/// first omitted term is below 1e-17 there.
fn ln_factorial(n: u64) -> f64 {
    if n < 256 {
        return (2..=n).map(|k| (k as f64).ln()).sum();
    }
    let n = n as f64;
    n * n.ln() - n + 0.5 * (std::f64::consts::TAU * n).ln() + 1.0 / (12.0 * n)
        - 1.0 / (360.0 * n.powi(3))
        + 1.0 / (1260.0 * n.powi(5))
}

/// The interval of the difference `p1 - p2` of two rates measured on the
/// same trials, at the confidence level of `z`: Newcombe's hybrid score
/// interval for paired proportions (method 10 of his 1998 comparison). Of
/// the trials, `both` were successes of both, `first_only` and
/// `second_only` of one of them, `neither` of none. Each rate's Wilson
/// interval ([`wilson_interval`]) gives how far the difference may move,
/// combined as for independent rates but corrected by the correlation of
/// the two rates on the same trials (the phi coefficient of the table,
/// its numerator `both * neither - first_only * second_only` lessened by
/// `n / 2` when positive and 0 when that is not positive, as Newcombe does).
/// It stays within [-1, 1], and unlike the Wald interval it is not empty
/// when the two never disagree. With no trials it is the whole range.
pub fn paired_difference_interval(
    both: u64,
    first_only: u64,
    second_only: u64,
    neither: u64,
    z: f64,
) -> (f64, f64) {
    let trials = both + first_only + second_only + neither;
    if trials == 0 {
        return (-1.0, 1.0);
    }
    let n = trials as f64;
    let (first, second) = (both + first_only, both + second_only);
    let (p1, p2) = (first as f64 / n, second as f64 / n);
    let (l1, u1) = wilson_interval(first, trials, z);
    let (l2, u2) = wilson_interval(second, trials, z);
    let margins = [first, trials - first, second, trials - second];
    let phi = if margins.contains(&0) {
        0.0
    } else {
        let cross = both as f64 * neither as f64 - first_only as f64 * second_only as f64;
        let numerator = if cross > n / 2.0 {
            cross - n / 2.0
        } else if cross >= 0.0 {
            0.0
        } else {
            cross
        };
        numerator / margins.iter().map(|&m| m as f64).product::<f64>().sqrt()
    };
    let spread = |down: f64, up: f64| (down * down - 2.0 * phi * down * up + up * up).sqrt();
    let difference = p1 - p2;
    (
        (difference - spread(p1 - l1, u2 - p2)).max(-1.0),
        (difference + spread(p2 - l2, u1 - p1)).min(1.0),
    )
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
    fn the_sign_test_matches_binomial_tails_and_published_values() {
        // 6 against 16 (Cavo et al., 2012, as Fagerland, Lydersen and Laake
        // analyse it): McNemar's exact conditional p = 0.0525, twice
        // (1 + 22 + 231 + 1540 + 7315 + 26334 + 74613) / 2^22 = 110056 / 2^21.
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b;
        assert!(close(sign_test_p(6, 16), 110_056.0 / 2f64.powi(21)));
        assert!((sign_test_p(16, 6) - 0.0525).abs() < 5e-5);
        // 6 to 1: twice (1 + 7) / 128; 90 to 0: twice 2^-90.
        assert!(close(sign_test_p(6, 1), 16.0 / 128.0));
        assert!(close(sign_test_p(0, 90), 2f64.powi(-89)));
        assert_eq!(sign_test_p(5, 5), 1.0);
        assert_eq!(sign_test_p(0, 0), 1.0);
        assert_eq!(sign_test_p(4, 5), 1.0);
        // Past the exact sums of ln(n!), against the tail summed term by
        // term: 300 to 350 trials' lower tail of 300, from C(650, 0) up.
        let (n, m) = (650u64, 300u64);
        let mut term = (-(n as f64) * std::f64::consts::LN_2).exp();
        let mut tail = term;
        for k in 1..=m {
            term *= (n - k + 1) as f64 / k as f64;
            tail += term;
        }
        assert!(close(sign_test_p(300, 350), 2.0 * tail), "{tail}");
    }

    #[test]
    fn the_paired_interval_matches_a_published_one() {
        // Cavo et al. (2012): 59 responses both before and after, 6 only
        // before, 16 only after, 80 neither; Fagerland, Lydersen and Laake
        // give the Newcombe square-and-add interval of the difference as
        // -0.0621 (-0.1186 to -0.0046).
        let (low, high) = paired_difference_interval(59, 6, 16, 80, Z_95);
        assert!((low + 0.1186).abs() < 5e-5, "{low}");
        assert!((high + 0.0046).abs() < 5e-5, "{high}");
        // Two rates that never disagree still have an interval of some
        // width, and a rate difference of 0 lies inside it.
        let (low, high) = paired_difference_interval(50, 0, 0, 50, Z_95);
        assert!(low < 0.0 && high > 0.0 && high - low > 0.01, "{low} {high}");
        // Swapping the two policies mirrors the interval.
        let (low, high) = paired_difference_interval(59, 16, 6, 80, Z_95);
        assert!((low - 0.0046).abs() < 5e-5 && (high - 0.1186).abs() < 5e-5);
        assert_eq!(paired_difference_interval(0, 0, 0, 0, Z_95), (-1.0, 1.0));
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
