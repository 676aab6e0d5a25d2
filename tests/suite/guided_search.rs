//! The guided search on the real games: Gumbel's small budgets on
//! Hnefatafl, PUCT with uniform priors against UCT, Fenrir's Path won from
//! every winnable deal with the exact solver as the evaluator, the `az`
//! agent in tournaments, and self-play shards read back.

use crate::common::cli::{json, norn, read_json, stdout};
use norn::agents::{Agent, AzAgent, AzOptions, Decision, Guide, build_encoded_agent};
use norn::arena::winrate::deal_from_seed;
use norn::core::{Game, MoveList, Status, derive_seed, rng_from_seed};
use norn::games::fenrir_path::{FenrirPath, FenrirPathRules};
use norn::games::hnefatafl::{Hnefatafl, HnefataflRules};
use norn::games::stealth_chess::{StealthChess, StealthChessMove};
use norn::learning::selfplay::{SelfPlayConfig, read_manifest, read_shard, self_play};
use norn::net::{GameShape, NetDescription, NetOptions, Network};
use norn::registry::build_agent;
use norn::search::guided::{
    EvaluationError, Evaluations, GuidedConfig, GuidedSearch, LeafBatch, LeafEvaluator, SearchRoot,
    Tensors, UniformPlayout, ValueLayout,
};
use norn::search::{CoopSolver, StopFlag, Verdict};
use rand::RngExt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Game `G` under its default rules after `plies` random plies from the
/// start (or earlier, at the game's end).
fn random_position<G: Game>(seed: u64, plies: u32) -> G {
    let mut rng = rng_from_seed(seed);
    let mut state = G::new(G::Rules::default());
    let mut moves = norn::core::MoveList::new();
    for _ in 0..plies {
        if state.status().is_over() {
            break;
        }
        state.legal_moves(&mut moves);
        state.play(moves[rng.random_range(0..moves.len())]);
    }
    state
}

#[test]
fn gumbel_visits_each_considered_hnefatafl_move_once_on_a_budget_of_as_many() {
    for considered in [8, 16] {
        for seed in 0..4 {
            let state: Hnefatafl = random_position(seed, 6);
            let config = GuidedConfig {
                simulations: considered,
                considered,
                ..GuidedConfig::default()
            };
            let roots = [SearchRoot {
                state: &state,
                pending: &[],
                seed,
            }];
            let outcome = GuidedSearch::new(config)
                .unwrap()
                .search(&roots, &mut UniformPlayout { plies: Some(4) })
                .unwrap()
                .pop()
                .unwrap();
            let visits: Vec<u32> = outcome
                .actions
                .iter()
                .map(|action| action.visits)
                .filter(|&visits| visits > 0)
                .collect();
            assert_eq!(visits, vec![1; considered as usize]);
            assert!(outcome.actions.len() > considered as usize);
        }
    }
}

/// The first move of a search of `spec` at a Stealth Chess position.
fn first_chess_move(spec: &str, seed: u64, state: &StealthChess) -> StealthChessMove {
    let mut agent = build_agent::<StealthChess>(spec, seed).unwrap();
    let player = state.status().player_to_move().unwrap();
    match agent.decide(state, player).unwrap() {
        Decision::Play(mv) => mv,
        Decision::Resign => panic!("no resignation"),
    }
}

/// PUCT with uniform priors and playout values is UCT's rule in
/// expectation once its constants are matched, so it chooses as UCT does:
/// over positions of random Stealth Chess games, PUCT (seed a) agrees with
/// UCT (seed b) as often as UCT with seed a does, within three standard
/// errors of the paired difference; the agreement is far above what a
/// random move's is, so the test can tell a different rule apart.
/// (Measured on these 120 positions: PUCT agrees with UCT 5.8 points more
/// often than UCT with itself, standard error 3.8; a random move 16.7
/// points less often, standard error 4.2; chance alone agrees on 3%.)
///
/// The matching: UCT scores `q + c sqrt(ln N / n)` with `q` in `[0, 1]`,
/// PUCT `q' + c_init P sqrt(N) / (1 + n)` with `q' = 2q - 1` in
/// `[-1, 1]`, `P = 1/K` over `K` legal moves and `c_base` so large that
/// the weight stays `c_init`. Where the `N` visits are spread evenly
/// (`n = N/K`), the two exploration terms are equal when
/// `c_init = 2 c sqrt(K ln N)`; both visit every move once first (`fpu=1`)
/// and play the most visited.
#[test]
fn puct_with_uniform_priors_chooses_as_uct_does() {
    const ITERATIONS: u32 = 200;
    let uct = format!("mcts:iters={ITERATIONS},playout=10,reuse=off,solver=off,c=1");
    let positions: Vec<StealthChess> = (0..120)
        .map(|seed| random_position::<StealthChess>(500 + seed, 6 + (seed as u32 % 8) * 2))
        .filter(|state| !state.status().is_over())
        .collect();
    let (mut puct_minus_uct, mut random_minus_uct, mut chance) = (Vec::new(), Vec::new(), 0.0);
    for (index, state) in positions.iter().enumerate() {
        let seed = 2000 + 3 * index as u64;
        let mut moves = norn::core::MoveList::new();
        state.legal_moves(&mut moves);
        let legal = moves.len() as f64;
        chance += 1.0 / legal;
        let c_init = 2.0 * (legal * f64::from(ITERATIONS).ln()).sqrt();
        let puct = format!(
            "az:net=uniform,playout=10,sims={ITERATIONS},gumbel=off,fpu=1,c-init={c_init:.4},c-base=1000000000000"
        );
        let reference = first_chess_move(&uct, seed, state);
        let agrees = |mv: StealthChessMove| f64::from(u8::from(mv == reference));
        let by_uct = agrees(first_chess_move(&uct, seed + 1, state));
        puct_minus_uct.push(agrees(first_chess_move(&puct, seed + 1, state)) - by_uct);
        random_minus_uct.push(agrees(first_chess_move("random", seed + 2, state)) - by_uct);
    }
    let count = positions.len() as f64;
    let mean_and_error = |differences: &[f64]| {
        let mean = differences.iter().sum::<f64>() / count;
        let variance = differences.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (count - 1.0);
        (mean, (variance / count).sqrt())
    };
    let (puct_gap, puct_error) = mean_and_error(&puct_minus_uct);
    let (random_gap, random_error) = mean_and_error(&random_minus_uct);
    eprintln!(
        "{count} positions: PUCT-UCT agreement minus UCT-UCT {puct_gap:.3} (se {puct_error:.3}); random {random_gap:.3} (se {random_error:.3}); chance {:.3}",
        chance / count
    );
    assert!(
        puct_gap.abs() <= 3.0 * puct_error.max(0.01),
        "PUCT agrees with UCT {puct_gap} more than UCT with itself (standard error {puct_error})"
    );
    assert!(
        random_gap < -3.0 * random_error.max(0.01),
        "a random move agrees with UCT as well as UCT does: {random_gap} (standard error {random_error})"
    );
}

/// Fenrir's Path's exact value: a team payoff of 1 if the exact solver
/// finds a winning line from the position, 0 if none wins.
struct ExactTeam {
    solver: CoopSolver<FenrirPath>,
}

impl LeafEvaluator<FenrirPath> for ExactTeam {
    fn layout(&self, _: usize) -> ValueLayout {
        ValueLayout::Team
    }

    fn reads_tensors(&self) -> bool {
        false
    }

    fn evaluate(
        &mut self,
        batch: &LeafBatch<'_, FenrirPath>,
        out: &mut Evaluations<'_>,
    ) -> Result<(), EvaluationError> {
        for (leaf, value) in batch.leaves.iter().zip(out.values.iter_mut()) {
            let solution = self.solver.solve(leaf.state).unwrap();
            *value = if solution.verdict == Verdict::Win {
                1.0
            } else {
                -1.0
            };
        }
        Ok(())
    }
}

/// With the exact solver's values as its evaluator, the guided search
/// wins every winnable deal of Fenrir's Path it plays (every decision
/// keeps a winning line), with 32 simulations a move.
#[test]
fn exact_values_win_every_winnable_fenrir_path_deal() {
    let rules = FenrirPathRules::default();
    let mut solver = CoopSolver::new();
    let mut won = 0;
    for gumbel in [true, false] {
        let config = GuidedConfig {
            simulations: 32,
            gumbel,
            considered: 64,
            gumbel_scale: 0.0,
            ..GuidedConfig::default()
        };
        let evaluator = ExactTeam {
            solver: CoopSolver::new(),
        };
        let mut agent =
            AzAgent::<FenrirPath>::with_evaluator("az", config, Box::new(evaluator), 1).unwrap();
        for deal in 0..12 {
            let mut state: FenrirPath = deal_from_seed(&rules, derive_seed(7, deal));
            if solver.solve(&state).unwrap().verdict != Verdict::Win {
                continue;
            }
            while let Status::ToMove(player) = state.status() {
                let Decision::Play(mv) = agent.decide(&state, player).unwrap() else {
                    panic!("no resignation");
                };
                state.play(mv);
            }
            let Status::Over(outcome) = state.status() else {
                unreachable!("the loop ends at the game's end");
            };
            assert_eq!(
                outcome.payoffs.get(0),
                1.0,
                "deal {deal} lost (gumbel {gumbel})"
            );
            won += 1;
        }
    }
    assert!(won >= 10, "only {won} winnable deals");
}

#[test]
fn the_az_agent_plays_from_its_spec_and_records_its_searches() {
    let rules: HnefataflRules = "ply-limit=8".parse().unwrap();
    let spec = "az:sims=8,net=eval";
    let mut agents = vec![
        build_agent::<Hnefatafl>(spec, 1).unwrap(),
        build_agent::<Hnefatafl>("az:sims=8,gumbel=off,temp=1", 2).unwrap(),
    ];
    let game = norn::arena::play_game(
        &Hnefatafl::new(rules),
        &mut agents,
        &norn::arena::PlayOptions::default(),
    )
    .unwrap();
    assert_eq!(game.plies.len(), 8);
    let record = agents[0].last_search().unwrap();
    assert_eq!(record.iterations, Some(8));
    assert!(record.policy_entropy.unwrap() >= 0.0);
    // The configuration is a spec that builds the same agent.
    let configuration = agents[0].configuration();
    assert!(
        configuration.starts_with("az:sims=8,gumbel=on"),
        "{configuration}"
    );
    assert!(build_agent::<Hnefatafl>(&configuration, 1).is_ok());
    // Games with hidden information or simultaneous moves are refused.
    assert!(
        refusal(build_encoded_agent::<norn::games::fenrir_cards::FenrirCards>("az", 0))
            .contains("hides information")
    );
    assert!(
        refusal(build_encoded_agent::<norn::games::nibelungen::Nibelungen>(
            "az", 0
        ))
        .contains("simultaneous")
    );
    assert!(refusal(build_agent::<Hnefatafl>("az:sims=0", 0)).contains("sims"));
    let missing = refusal(build_agent::<Hnefatafl>("az:net=no/such/net", 0));
    assert!(missing.contains("no/such/net"), "{missing}");
    assert!(
        refusal(build_agent::<Hnefatafl>("az:net=", 0)).contains("uniform"),
        "an empty net names what it takes"
    );
    // A path with a comma cannot be written in a spec: it is refused in a
    // sentence saying why, whether from the spec's text or from options
    // built in code.
    let comma = refusal(build_agent::<Hnefatafl>("az:net=my,net.safetensors", 0));
    assert!(comma.contains("commas separate the options"), "{comma}");
    let options = AzOptions {
        net: Guide::Network("my,net.safetensors".into()),
        ..AzOptions::default()
    };
    let error = AzAgent::<Hnefatafl>::new("az", GuidedConfig::default(), options, 0)
        .err()
        .unwrap();
    assert!(error.contains("holds a comma"), "{error}");
}

/// A raised stop flag (Ctrl-C from Python, the engine protocol's stop)
/// ends an `az` agent's search after its first round of simulations, and
/// it still plays a move.
#[test]
fn a_raised_stop_flag_ends_an_az_search_after_its_first_round() {
    let state = Hnefatafl::new(HnefataflRules::default());
    let player = state.status().player_to_move().unwrap();
    for spec in [
        "az:sims=400,net=eval",
        "az:sims=400,gumbel=off,leaves=4,net=eval",
    ] {
        let mut agent = build_agent::<Hnefatafl>(spec, 1).unwrap();
        let flag = Arc::new(AtomicBool::new(false));
        assert!(agent.set_stop_flag(StopFlag::new(Arc::clone(&flag))));
        agent.decide(&state, player).unwrap();
        assert_eq!(agent.last_search().unwrap().iterations, Some(400));
        flag.store(true, Ordering::Relaxed);
        let Decision::Play(mv) = agent.decide(&state, player).unwrap() else {
            panic!("the agent resigns")
        };
        let leaves = if spec.contains("leaves=4") { 4 } else { 1 };
        assert_eq!(agent.last_search().unwrap().iterations, Some(leaves));
        let mut moves = MoveList::new();
        state.legal_moves(&mut moves);
        assert!(moves.contains(&mv));
    }
}

/// A small network for Hnefatafl under `rules`, written to a file of its
/// own, and the file's path.
fn network_file(name: &str, rules: &str, seed: u64) -> (Network, std::path::PathBuf) {
    let rules: HnefataflRules = rules.parse().unwrap();
    let shape = GameShape::of_game::<Hnefatafl>(&rules);
    let options: NetOptions = "blocks=1,channels=4".parse().unwrap();
    let network = Network::init(NetDescription::new(&shape, &options).unwrap(), seed).unwrap();
    let path = std::env::temp_dir().join(format!(
        "norn-guided-{name}-{}.safetensors",
        std::process::id()
    ));
    network.save(&path).unwrap();
    (network, path)
}

#[test]
fn an_az_agent_searches_with_the_network_its_spec_names() {
    let (network, path) = network_file("agent", "ply-limit=12", 3);
    let rules: HnefataflRules = "ply-limit=12".parse().unwrap();
    let spec = format!("az:sims=16,gumbel=on,net={}", path.display());
    let config: GuidedConfig = "sims=16,gumbel=on".parse().unwrap();
    let mut from_file = build_agent::<Hnefatafl>(&spec, 5).unwrap();
    let mut in_memory: Box<dyn Agent<Hnefatafl>> =
        Box::new(AzAgent::with_evaluator("az", config, Box::new(Tensors(network)), 5).unwrap());
    // The agent built from the spec searches with the file's weights: its
    // moves and values are those of the same search guided by the network
    // in memory, and not those of the uniform evaluator.
    let mut uniform = build_agent::<Hnefatafl>("az:sims=16,gumbel=on,net=uniform", 5).unwrap();
    let mut state = Hnefatafl::new(rules);
    let mut differs_from_uniform = false;
    for _ in 0..6 {
        let player = state.status().player_to_move().unwrap();
        let Decision::Play(mv) = from_file.decide(&state, player).unwrap() else {
            panic!("the agent resigns")
        };
        let Decision::Play(same) = in_memory.decide(&state, player).unwrap() else {
            panic!("the agent resigns")
        };
        assert_eq!(mv, same);
        let (file_value, memory_value) = (
            from_file.last_search().unwrap().value,
            in_memory.last_search().unwrap().value,
        );
        assert_eq!(file_value.to_bits(), memory_value.to_bits());
        uniform.decide(&state, player).unwrap();
        differs_from_uniform |= uniform.last_search().unwrap().value != file_value;
        state.play(mv);
    }
    assert!(differs_from_uniform);
    assert!(
        from_file
            .configuration()
            .contains(&format!("net={}", path.display()))
    );
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_network_of_other_rules_another_game_or_a_bad_file_is_refused_in_a_sentence() {
    // Made for the default rules, asked to play with a ply limit: the
    // agent builds, and its first search names the rules that differ.
    let (_, path) = network_file("rules", "", 3);
    let spec = format!("az:sims=8,net={}", path.display());
    let mut agent = build_agent::<Hnefatafl>(&spec, 1).unwrap();
    let state = Hnefatafl::new("ply-limit=12".parse().unwrap());
    let error = agent
        .decide(&state, state.status().player_to_move().unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("network for other rules") && error.contains("ply-limit=12"),
        "{error}"
    );
    // A game stops with the agent's failure, which a tournament counts as
    // its forfeit.
    let mut agents = vec![agent, build_agent::<Hnefatafl>("random", 2).unwrap()];
    let failed = norn::arena::play_game(&state, &mut agents, &norn::arena::PlayOptions::default())
        .unwrap_err()
        .to_string();
    assert!(failed.contains("rules"), "{failed}");
    // Made for Hnefatafl, asked to play Fenrir's Path.
    let refused = refusal(build_agent::<FenrirPath>(&spec, 1));
    assert!(
        refused.contains("made for hnefatafl, not fenrir-path"),
        "{refused}"
    );
    // Cut short, or not a file at all.
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let refused = refusal(build_agent::<Hnefatafl>(&spec, 1));
    assert!(refused.contains("not a safetensors file"), "{refused}");
    std::fs::remove_file(&path).unwrap();
    if std::path::Path::new("/dev/zero").exists() {
        let refused = refusal(build_agent::<Hnefatafl>("az:net=/dev/zero", 1));
        assert!(refused.contains("not a plain file"), "{refused}");
    }
}

/// The error of a spec that should not build.
fn refusal<G: Game>(built: Result<Box<dyn Agent<G>>, norn::core::ParseError>) -> String {
    match built {
        Ok(_) => panic!("the spec builds"),
        Err(error) => error.to_string(),
    }
}

fn self_play_into(dir: &std::path::Path, batch: usize, threads: usize) -> Vec<u8> {
    let rules: HnefataflRules = "ply-limit=10".parse().unwrap();
    let config = GuidedConfig {
        simulations: 8,
        threads,
        ..GuidedConfig::default()
    };
    let search = GuidedSearch::new(config).unwrap();
    let manifest = self_play(
        &Hnefatafl::new(rules),
        &search,
        &mut UniformPlayout { plies: Some(6) },
        "net=uniform,playout=6",
        &SelfPlayConfig {
            games: 5,
            batch,
            shard_samples: 17,
            seed: 4,
            stop: StopFlag::default(),
        },
        dir,
        |_| {},
    )
    .unwrap();
    assert_eq!(read_manifest(dir).unwrap(), manifest);
    let mut bytes = Vec::new();
    let mut games = Vec::new();
    for shard in &manifest.shards {
        let samples = read_shard(dir, &manifest, shard).unwrap();
        games.extend(samples.game);
        bytes.extend(std::fs::read(dir.join(&shard.file)).unwrap());
    }
    // 5 games of 10 plies, in the order of the games.
    assert_eq!(manifest.samples, 50);
    assert_eq!(games.len(), 50);
    assert!(games.is_sorted());
    bytes
}

#[test]
fn self_play_writes_the_same_shards_for_any_batch_and_threads() {
    let root = std::env::temp_dir().join(format!("norn-selfplay-{}", std::process::id()));
    let one = self_play_into(&root.join("one"), 1, 1);
    assert_eq!(self_play_into(&root.join("three"), 3, 2), one);
    assert_eq!(self_play_into(&root.join("five"), 5, 1), one);
    // A directory that holds a run already is refused.
    let search = GuidedSearch::new(GuidedConfig::default()).unwrap();
    let refused = self_play(
        &Hnefatafl::new(HnefataflRules::default()),
        &search,
        &mut UniformPlayout { plies: Some(1) },
        "",
        &SelfPlayConfig {
            games: 1,
            batch: 1,
            shard_samples: 1,
            seed: 0,
            stop: StopFlag::default(),
        },
        &root.join("one"),
        |_| {},
    )
    .unwrap_err();
    assert!(
        refused.contains("holds self-play data already"),
        "{refused}"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_raised_stop_flag_ends_self_play_with_an_error_and_no_manifest() {
    let dir = std::env::temp_dir().join(format!("norn-selfplay-stop-{}", std::process::id()));
    let raised = Arc::new(AtomicBool::new(false));
    let search = GuidedSearch::new(GuidedConfig::default()).unwrap();
    let mut finished = 0;
    let stopped = self_play(
        &Hnefatafl::new(HnefataflRules {
            ply_limit: std::num::NonZeroU32::new(4),
            ..HnefataflRules::default()
        }),
        &search,
        &mut UniformPlayout { plies: Some(1) },
        "",
        &SelfPlayConfig {
            games: 5,
            batch: 1,
            shard_samples: 1,
            seed: 0,
            stop: StopFlag::new(raised.clone()),
        },
        &dir,
        // Raised once the first game is over: the second is never searched.
        |_| {
            finished += 1;
            raised.store(true, Ordering::Relaxed);
        },
    )
    .unwrap_err();
    assert!(stopped.contains("stopped"), "{stopped}");
    assert_eq!(finished, 1);
    assert!(read_manifest(&dir).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The `az` agent from the command line: a tournament logs each of its
/// moves with the simulations, value, visit share and policy entropy of
/// its search, and `norn play` and `norn match` take it as any spec.
#[test]
fn az_plays_from_the_command_line_and_its_searches_read_back_from_the_log() {
    let dir = std::env::temp_dir().join(format!("norn-az-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = dir.join("run");
    let played = norn(&[
        "tournament",
        "brandub",
        "--agents",
        "az:sims=8,net=eval",
        "random",
        "--games",
        "2",
        "--max-plies",
        "16",
        "--out",
        run.to_str().unwrap(),
    ]);
    assert!(played.status.success(), "{played:?}");
    let log = std::fs::read_to_string(run.join("games.jsonl")).unwrap();
    let mut az_moves = 0;
    for line in log.lines() {
        let game: norn::arena::GameLine = serde_json::from_str(line).unwrap();
        let searches = game.search.expect("searches are recorded by default");
        assert_eq!(searches.len(), game.plies);
        for entry in searches {
            let norn::arena::PlySearch::Move(logged) = entry else {
                panic!("Brandubh has no joint moves");
            };
            if !game.agents[logged.seat].starts_with("az") {
                continue;
            }
            az_moves += 1;
            assert_eq!(logged.iterations, Some(8));
            let share = logged.visit_share.expect("a guided search's visit share");
            assert!(share > 0.0 && share <= 1.0, "{share}");
            assert!(logged.policy_entropy.expect("its policy's entropy") >= 0.0);
            let score = logged.score.expect("its value");
            assert!((-1.0..=1.0).contains(&score), "{score}");
        }
    }
    // Two games of up to 16 plies, half of them az's.
    assert!(az_moves >= 8, "{az_moves}");
    let summary = read_json(&run.join("summary.json"));
    assert_eq!(summary["agents"][0]["search"]["iterations"], 8.0);
    let game = norn(&[
        "play",
        "brandub",
        "--attackers",
        "az:sims=8,gumbel=off",
        "--defenders",
        "random",
        "--rules",
        "ply-limit=6",
    ]);
    assert!(game.status.success(), "{game:?}");
    assert!(stdout(&game).contains("after 6 plies"), "{game:?}");
    let matched = norn(&[
        "match",
        "brandub",
        "az:sims=8,net=eval",
        "random",
        "--sprt",
        "0,50",
        "--max-games",
        "2",
        "--max-plies",
        "6",
        "--json",
    ]);
    assert!(matched.status.success(), "{matched:?}");
    assert_eq!(json(&matched)["overall"]["games"], 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `norn self-play` writes shards a reader takes back: a sample per
/// decision of every game, each policy a distribution over legal ids,
/// and it refuses a directory that holds self-play data already.
#[test]
fn norn_self_play_writes_shards_that_read_back() {
    let dir = std::env::temp_dir().join(format!("norn-self-play-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.to_str().unwrap();
    let args = [
        "self-play",
        "brandub",
        "--games",
        "3",
        "--batch",
        "2",
        "--az",
        "sims=8,net=eval",
        "--rules",
        "ply-limit=12",
        "--shard-samples",
        "10",
        "--out",
        out,
        "--json",
    ];
    let written = norn(&args);
    assert!(written.status.success(), "{written:?}");
    let manifest = read_manifest(&dir).unwrap();
    assert_eq!(json(&written)["samples"], manifest.samples);
    assert_eq!(manifest.games, 3);
    let actions = manifest.num_actions;
    let mut samples = 0;
    for shard in &manifest.shards {
        let read = read_shard(&dir, &manifest, shard).unwrap();
        for (policy, mask) in read.policy.chunks(actions).zip(read.mask.chunks(actions)) {
            let total: f32 = policy.iter().sum();
            assert!((total - 1.0).abs() < 1e-4, "{total}");
            assert!(policy.iter().zip(mask).all(|(p, m)| *p == 0.0 || *m == 1));
        }
        samples += read.player.len() as u64;
    }
    // Every game ends by the 12th ply, each ply one sample.
    assert_eq!(samples, manifest.samples);
    assert!((3..=36).contains(&samples), "{samples}");
    let again = norn(&args);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("holds self-play data already"),
        "{again:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
