//! Steps per second of random playouts in Rust, on one or more threads:
//! the reference the Python package's batched steps are measured against
//! (python/benchmarks/steps.py runs it in the same run).
//!
//! `cargo run --release --example random_playout -- GAME SECONDS THREADS`
//! prints one line, `GAME THREADS STEPS_PER_SECOND`. Each thread plays
//! random games to their end (every ply, joint move and chance event a
//! step, as the `all_games` bench counts them), from seeds of its own.

use norn::core::{derive_seed, rng_from_seed};
use norn::registry::{self, GameVisitor, Registered};
use norn::testing::random_successor;
use std::time::{Duration, Instant};

struct Playouts {
    seconds: f64,
    threads: usize,
}

impl GameVisitor for Playouts {
    type Output = f64;

    fn visit<G: Registered>(&mut self) -> f64 {
        let start = G::new(G::Rules::default());
        let budget = Duration::from_secs_f64(self.seconds);
        let began = Instant::now();
        let steps: u64 = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..self.threads)
                .map(|thread| {
                    let start = &start;
                    scope.spawn(move || {
                        let mut steps = 0;
                        let mut game = 0;
                        while began.elapsed() < budget {
                            let mut rng = rng_from_seed(derive_seed(thread as u64, game));
                            let mut state = start.clone();
                            while let Some(next) = random_successor(&state, &mut rng) {
                                state = next;
                                steps += 1;
                            }
                            game += 1;
                        }
                        steps
                    })
                })
                .collect();
            workers
                .into_iter()
                .map(|worker| worker.join().expect("a playout thread"))
                .sum()
        });
        steps as f64 / began.elapsed().as_secs_f64()
    }
}

fn main() -> Result<(), String> {
    let usage = "usage: random_playout GAME SECONDS THREADS";
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [game, seconds, threads] = args.as_slice() else {
        return Err(usage.into());
    };
    let seconds: f64 = seconds.parse().map_err(|_| usage.to_string())?;
    let threads: usize = threads.parse().map_err(|_| usage.to_string())?;
    if !(seconds > 0.0 && seconds < 3600.0 && (1..=256).contains(&threads)) {
        return Err("SECONDS must be from 0 to 3600 and THREADS from 1 to 256".into());
    }
    let rate = registry::visit(game, &mut Playouts { seconds, threads })
        .map_err(|error| error.to_string())?;
    println!("{game} {threads} {rate:.0}");
    Ok(())
}
