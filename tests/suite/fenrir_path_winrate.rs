//! Win-rate estimation: the interval's coverage, independence from the
//! number of threads, and policies compared on the same deals.

use norn::agents::Agent;
use norn::arena::winrate::{
    AgentPolicy, DealPlayer, DealPolicy, ExactPolicy, WinRateRun, deal, estimate_win_rate,
};
use norn::companions::fenrir_path::policies::GreedyCollector;
use norn::core::{Notation, ParseError, rng_from_seed};
use norn::games::fenrir_path::{FenrirPath, FenrirPathRules};
use rand::RngExt;
use std::sync::Arc;

/// A policy that ignores the game and wins with a known probability.
struct Coin(f64);

struct CoinPlayer(f64);

impl DealPolicy<FenrirPath> for Coin {
    fn spec(&self) -> &str {
        "coin"
    }

    fn player(&self) -> Box<dyn DealPlayer<FenrirPath>> {
        Box::new(CoinPlayer(self.0))
    }
}

impl DealPlayer<FenrirPath> for CoinPlayer {
    fn play_deal(&mut self, _dealt: &FenrirPath, seed: u64) -> Result<bool, String> {
        Ok(rng_from_seed(seed).random_bool(self.0))
    }
}

fn run(deals: u64, master_seed: u64, threads: usize) -> WinRateRun {
    WinRateRun {
        deals,
        master_seed,
        threads,
    }
}

fn greedy() -> AgentPolicy<FenrirPath> {
    AgentPolicy::new(
        "greedy",
        Arc::new(
            |_: &str, seed: u64| -> Result<Box<dyn Agent<FenrirPath>>, ParseError> {
                Ok(Box::new(GreedyCollector::new(seed)))
            },
        ),
    )
    .unwrap()
}

fn random() -> AgentPolicy<FenrirPath> {
    AgentPolicy::new(
        "random",
        Arc::new(
            |_: &str, seed: u64| -> Result<Box<dyn Agent<FenrirPath>>, ParseError> {
                Ok(Box::new(norn::agents::RandomAgent::new(seed)))
            },
        ),
    )
    .unwrap()
}

#[test]
fn the_interval_covers_a_known_rate_about_95_percent_of_the_time() {
    let rules = FenrirPathRules::default();
    for rate in [0.05, 0.3, 0.7] {
        let trials = 200;
        let covered = (0..trials)
            .filter(|&trial| {
                let estimate = estimate_win_rate(&rules, &Coin(rate), run(150, trial, 2), &|| {})
                    .unwrap()
                    .rate;
                estimate.ci_low <= rate && rate <= estimate.ci_high
            })
            .count();
        // 95% of 200 is 190; the binomial spread of the count is about 3.
        assert!(
            (181..=198).contains(&covered),
            "rate {rate}: covered in {covered} of {trials} trials"
        );
    }
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    let rules = FenrirPathRules::default();
    let policies: [&dyn DealPolicy<FenrirPath>; 3] = [&ExactPolicy, &greedy(), &random()];
    for policy in policies {
        let one = estimate_win_rate(&rules, policy, run(200, 5, 1), &|| {}).unwrap();
        let two = estimate_win_rate(&rules, policy, run(200, 5, 2), &|| {}).unwrap();
        assert_eq!(one.won, two.won, "{}", policy.spec());
        assert_eq!(one.rate.wins, two.rate.wins);
    }
}

#[test]
fn no_policy_wins_a_deal_the_perfect_team_cannot_win() {
    // Small configurations in which many deals are lost and both policies
    // win some.
    for rules in [
        "colours=2,tiles-per-colour=3,sets=2,spacing=2,turn-order=fixed",
        "colours=3,tiles-per-colour=2,sets=2,spacing=1,turn-order=fixed",
    ] {
        let rules: FenrirPathRules = rules.parse().unwrap();
        let exact =
            estimate_win_rate::<FenrirPath>(&rules, &ExactPolicy, run(400, 1, 2), &|| {}).unwrap();
        let losses = exact.won.iter().filter(|&&won| !won).count();
        assert!(losses > 20, "{losses} lost deals");
        for policy in [greedy(), random()] {
            let played = estimate_win_rate(&rules, &policy, run(400, 1, 2), &|| {}).unwrap();
            assert!(played.rate.wins > 0);
            for (index, (&won, &winnable)) in played.won.iter().zip(&exact.won).enumerate() {
                assert!(!won || winnable, "{} won deal {index}", policy.spec());
            }
        }
    }
}

#[test]
fn every_policy_gets_the_same_deals_and_counts_every_deal_once() {
    let rules = FenrirPathRules::default();
    let first: FenrirPath = deal(&rules, 9, 3);
    let again: FenrirPath = deal(&rules, 9, 3);
    let other: FenrirPath = deal(&rules, 9, 4);
    assert_eq!(first.position_text(), again.position_text());
    assert_ne!(first.position_text(), other.position_text());
    let counted = std::sync::atomic::AtomicU64::new(0);
    let estimate = estimate_win_rate(&rules, &greedy(), run(123, 9, 2), &|| {
        counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    })
    .unwrap();
    assert_eq!(counted.into_inner(), 123);
    assert_eq!(estimate.won.len(), 123);
    assert_eq!(estimate.rate.deals, 123);
    assert!(estimate.rate.ci_low <= estimate.rate.win_rate);
    assert!(estimate.rate.win_rate <= estimate.rate.ci_high);
}
