//! Paired comparisons of a win-rate run's policies: every policy plays the
//! same seeded deals, so two policies differ only on the deals one of them
//! won and the other lost, and those deals carry the test of their
//! difference (McNemar's, exact: a sign test on them) and the interval of
//! the difference of their win rates (Newcombe's, for paired rates).

use super::experiment::PolicyRate;
use super::stats::{Z_95, paired_difference_interval, sign_test_p};
use serde::{Deserialize, Serialize};

/// Two policies of a run compared deal by deal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairedComparison {
    /// The two policies' specs, the first one's win rate first in the
    /// difference.
    pub policies: [String; 2],
    /// The deals both played.
    pub deals: u64,
    /// Deals both won.
    pub won_by_both: u64,
    /// Deals only the first won.
    pub won_by_first_only: u64,
    /// Deals only the second won.
    pub won_by_second_only: u64,
    /// Deals neither won.
    pub won_by_neither: u64,
    /// The exact two-sided sign test on the deals only one of them won
    /// (McNemar's exact test, [`sign_test_p`]): the chance of a split at
    /// least this uneven were both equally likely to win each deal.
    pub sign_test_p: f64,
    /// The first policy's win rate minus the second's.
    pub difference: f64,
    /// The lower end of the difference's 95% interval (Newcombe's for
    /// paired rates, [`paired_difference_interval`]).
    pub difference_low: f64,
    /// The upper end of that interval.
    pub difference_high: f64,
}

impl PairedComparison {
    /// Policies `first` and `second` compared on the deals of `won`
    /// (`won[k]`: whether each won the `k`-th deal).
    fn of(first: &PolicyRate, second: &PolicyRate, won: (&[bool], &[bool])) -> PairedComparison {
        let mut counts = [[0u64; 2]; 2];
        for (&a, &b) in won.0.iter().zip(won.1) {
            counts[usize::from(a)][usize::from(b)] += 1;
        }
        let [[neither, second_only], [first_only, both]] = counts;
        let deals = both + first_only + second_only + neither;
        let (difference_low, difference_high) =
            paired_difference_interval(both, first_only, second_only, neither, Z_95);
        PairedComparison {
            policies: [first.rate.policy.clone(), second.rate.policy.clone()],
            deals,
            won_by_both: both,
            won_by_first_only: first_only,
            won_by_second_only: second_only,
            won_by_neither: neither,
            sign_test_p: sign_test_p(first_only, second_only),
            difference: match deals {
                0 => 0.0,
                _ => (first_only as f64 - second_only as f64) / deals as f64,
            },
            difference_low,
            difference_high,
        }
    }

    /// Every pair of `policies` (in their order, the earlier first),
    /// compared on the deals of `won` (`won[p][k]`: whether policy `p` won
    /// the `k`-th deal).
    pub fn all(policies: &[PolicyRate], won: &[Vec<bool>]) -> Vec<PairedComparison> {
        let mut comparisons = Vec::new();
        for first in 0..policies.len() {
            for second in first + 1..policies.len() {
                comparisons.push(PairedComparison::of(
                    &policies[first],
                    &policies[second],
                    (&won[first], &won[second]),
                ));
            }
        }
        comparisons
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::winrate::WinRate;

    fn policy(spec: &str, won: &[bool]) -> PolicyRate {
        let wins = won.iter().filter(|&&won| won).count() as u64;
        PolicyRate {
            rate: WinRate::new(spec, wins, won.len() as u64, 1.0),
            sees_hidden_information: false,
        }
    }

    #[test]
    fn two_policies_differ_on_the_deals_only_one_of_them_won() {
        // Cavo et al.'s table as deals: 59 won by both, 6 only by the
        // first, 16 only by the second, 80 by neither.
        let mut first = vec![true; 59];
        let mut second = vec![true; 59];
        first.extend([true; 6].iter().chain(&[false; 16]).chain(&[false; 80]));
        second.extend([false; 6].iter().chain(&[true; 16]).chain(&[false; 80]));
        let policies = [
            policy("a", &first),
            policy("b", &second),
            policy("c", &first),
        ];
        let won = [first.clone(), second, first];
        let comparisons = PairedComparison::all(&policies, &won);
        assert_eq!(comparisons.len(), 3);
        let ab = &comparisons[0];
        assert_eq!(ab.policies, ["a".to_string(), "b".to_string()]);
        assert_eq!(
            (
                ab.deals,
                ab.won_by_both,
                ab.won_by_first_only,
                ab.won_by_second_only,
                ab.won_by_neither
            ),
            (161, 59, 6, 16, 80)
        );
        // The win rates' difference is that of the policies' own rates.
        let rates = policies[0].rate.win_rate - policies[1].rate.win_rate;
        assert!((ab.difference - rates).abs() < 1e-12);
        assert!((ab.sign_test_p - 0.0525).abs() < 5e-5, "{ab:?}");
        assert!((ab.difference_low + 0.1186).abs() < 5e-5, "{ab:?}");
        assert!((ab.difference_high + 0.0046).abs() < 5e-5, "{ab:?}");
        // The same wins: no deal tells them apart.
        let ac = &comparisons[1];
        assert_eq!((ac.won_by_first_only, ac.won_by_second_only), (0, 0));
        assert_eq!((ac.difference, ac.sign_test_p), (0.0, 1.0));
        // Compared the other way round, b's view mirrors a's.
        let bc = &comparisons[2];
        assert_eq!((bc.won_by_first_only, bc.won_by_second_only), (16, 6));
        assert!((bc.difference_low - 0.0046).abs() < 5e-5, "{bc:?}");
    }
}
