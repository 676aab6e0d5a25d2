//! Training by self-play (`norn::learning::train`, `norn train`): a tiny
//! network learns a solved game's winning moves, a run continues and
//! resumes to the checkpoints of an uninterrupted one (whatever the thread
//! count, and after SIGKILL), and files that are not the run's are
//! refused with a sentence.

use crate::common::cli::norn;
use norn::agents::Decision;
use norn::core::{
    ActionPath, Encoding, Evaluate, Game, MoveList, NoRules, Outcome, Payoffs, Player, Scoring,
    Status,
};
use norn::games::hnefatafl::Hnefatafl;
use norn::learning::train::{TrainSession, TrainSettings, train};
use norn::net::{NetKind, NetOptions, Network, TrainConfig};
use norn::registry::build_agent;
use norn::search::StopFlag;
use norn::search::guided::GuidedConfig;
use std::path::{Path, PathBuf};

/// The tokens on the pile at the start.
const START: u8 = 10;
/// The most tokens a move takes.
const MOST_TAKEN: u8 = 3;

/// A subtraction game: two players take 1 to 3 tokens from one pile in
/// turn, and whoever takes the last token wins. Solved: the player to move
/// loses exactly when the pile is a multiple of 4, and otherwise wins by
/// taking the pile's remainder modulo 4.
#[derive(Clone, Debug, PartialEq)]
struct Subtraction {
    pile: u8,
    ply: u32,
}

impl Subtraction {
    fn with_pile(pile: u8) -> Subtraction {
        Subtraction { pile, ply: 0 }
    }

    fn mover(&self) -> Player {
        (self.ply % 2) as Player
    }
}

impl Game for Subtraction {
    /// The tokens taken.
    type Move = u8;
    type Rules = NoRules;
    const NAME: &'static str = "subtraction";
    const SCORING: Scoring = Scoring::WinLoss;

    fn new(_: NoRules) -> Subtraction {
        Subtraction::with_pile(START)
    }

    fn rules(&self) -> &NoRules {
        &NoRules
    }

    fn num_players(&self) -> usize {
        2
    }

    fn status(&self) -> Status {
        if self.pile == 0 {
            Status::Over(Outcome {
                payoffs: Payoffs::win_for(1 - self.mover()),
                reason: "last token taken",
            })
        } else {
            Status::ToMove(self.mover())
        }
    }

    fn legal_moves(&self, moves: &mut MoveList<u8>) {
        moves.clear();
        moves.extend(1..=self.pile.min(MOST_TAKEN));
    }

    fn play(&mut self, taken: u8) {
        self.pile -= taken;
        self.ply += 1;
    }

    fn hash(&self) -> u64 {
        u64::from(self.pile) << 1 | u64::from(self.ply % 2)
    }

    fn ply(&self) -> u32 {
        self.ply
    }
}

impl Encoding for Subtraction {
    fn num_actions(_: &NoRules) -> usize {
        MOST_TAKEN as usize
    }

    fn action_path(&self, taken: u8, path: &mut ActionPath) {
        path.push(u32::from(taken) - 1);
    }

    fn action_name(_: &NoRules, id: u32) -> String {
        format!("take {}", id + 1)
    }

    fn observation_shape(_: &NoRules) -> Vec<usize> {
        vec![START as usize + 1]
    }

    /// The pile's size, one-hot.
    fn write_observation(&self, _: Player, _: &[u32], out: &mut [f32]) {
        out.fill(0.0);
        out[self.pile as usize] = 1.0;
    }
}

impl Evaluate for Subtraction {
    /// The solved value: the mover wins unless the pile is a multiple of 4.
    fn evaluate(&self, player: Player) -> f64 {
        let (lowest, highest) = self.payoff_range();
        let mover_wins = !self.pile.is_multiple_of(MOST_TAKEN + 1);
        if mover_wins == (player == self.mover()) {
            highest
        } else {
            lowest
        }
    }
}

pub(crate) fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("train-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A small run: a perceptron of one hidden layer of 32 units, Gumbel
/// search of 8 simulations, 24 games a generation.
fn settings(seed: u64) -> TrainSettings {
    TrainSettings {
        games_per_generation: 24,
        search: GuidedConfig {
            simulations: 8,
            ..GuidedConfig::default()
        },
        network: NetOptions {
            kind: NetKind::Mlp,
            hidden_layers: 1,
            hidden_size: 32,
            value_hidden: 16,
            ..NetOptions::default()
        },
        training: TrainConfig {
            learning_rate: 0.01,
            ..TrainConfig::default()
        },
        batch_size: 32,
        buffer_samples: 2_000,
        steps_per_generation: Some(20),
        seed,
    }
}

fn session(generations: u64, threads: usize) -> TrainSession {
    TrainSession {
        generations: Some(generations),
        minutes: None,
        threads,
        force_resume: false,
        workers: None,
        stop: StopFlag::default(),
    }
}

/// Trains on the subtraction game from its start, without evaluations.
fn run(
    settings: &TrainSettings,
    session: &TrainSession,
    dir: &Path,
) -> Result<norn::learning::train::TrainSummary, String> {
    train(
        &Subtraction::with_pile(START),
        settings,
        session,
        dir,
        |_| {},
        &mut |_| Ok(()),
    )
}

fn checkpoint(dir: &Path, generation: u64) -> PathBuf {
    dir.join("checkpoints")
        .join(generation.to_string())
        .join("network.safetensors")
}

/// The network's policy logits and value for a pile.
fn answer(network: &Network, pile: u8) -> (Vec<f32>, f32) {
    let mut observation = vec![0.0; START as usize + 1];
    Subtraction::with_pile(pile).write_observation(0, &[], &mut observation);
    let mut logits = vec![0.0; MOST_TAKEN as usize];
    let mut value = [0.0];
    network
        .forward(&observation, 1, &mut logits, &mut value)
        .unwrap();
    (logits, value[0])
}

/// The piles on which the network's most likely legal move is not the
/// winning one, and those on which its value has the wrong sign.
fn mistakes(network: &Network) -> (Vec<u8>, Vec<u8>) {
    let (mut moves, mut values) = (Vec::new(), Vec::new());
    for pile in 1..=START {
        let (logits, value) = answer(network, pile);
        let wins = pile % 4 != 0;
        if wins {
            let legal = pile.min(MOST_TAKEN) as usize;
            let best = (0..legal)
                .max_by(|&a, &b| logits[a].total_cmp(&logits[b]))
                .unwrap();
            if best as u8 + 1 != pile % 4 {
                moves.push(pile);
            }
        }
        if (value > 0.0) != wins {
            values.push(pile);
        }
    }
    (moves, values)
}

#[test]
fn a_tiny_network_learns_the_winning_moves_of_a_solved_game_by_self_play() {
    let dir = scratch_dir("learns");
    let summary = run(&settings(1), &session(12, 1), &dir).unwrap();
    assert_eq!(summary.last.generation, 12);
    let before = Network::load(&checkpoint(&dir, 0)).unwrap();
    let after = Network::load(&checkpoint(&dir, 12)).unwrap();
    let (wrong_moves, wrong_values) = mistakes(&before);
    assert!(
        !wrong_moves.is_empty() && !wrong_values.is_empty(),
        "the untrained network is not already right"
    );
    assert_eq!(
        mistakes(&after),
        (vec![], vec![]),
        "piles where the trained network's move or value is wrong"
    );
}

#[test]
fn a_blended_evaluation_reaches_self_play_and_speeds_up_learning() {
    // Subtraction's evaluation is its solution: blended in fully, the
    // first generation's searches already know every pile's value, and
    // their targets teach the winning moves at once.
    let generations = 3;
    let wrong_moves = |eval_mix: f64| {
        let dir = scratch_dir(&format!("blend-{eval_mix}"));
        let mut settings = settings(1);
        settings.search.eval_mix = eval_mix;
        run(&settings, &session(generations, 1), &dir).unwrap();
        mistakes(&Network::load(&checkpoint(&dir, generations)).unwrap()).0
    };
    assert_eq!(wrong_moves(1.0), Vec::<u8>::new());
    assert!(!wrong_moves(0.0).is_empty());
}

#[test]
fn a_value_head_trained_on_the_search_values_learns_what_the_search_sees() {
    // With the solution as the leaves' evaluation, the self-play search
    // values every pile exactly, and the value head, trained on those
    // values alone (no outcome), must learn each pile's value firmly, in
    // as many generations as the outcomes teach it in.
    let generations = 12;
    let dir = scratch_dir("search-values");
    let mut settings = settings(1);
    settings.search.eval_mix = 1.0;
    settings.training.search_value = 1.0;
    run(&settings, &session(generations, 1), &dir).unwrap();
    let network = Network::load(&checkpoint(&dir, generations)).unwrap();
    // Searched perfectly from the start, self-play takes 10 to 8 at once
    // and never leaves a mover 9 tokens: that pile has no samples.
    for pile in (1..=START).filter(|&pile| pile != START - 1) {
        let (_, value) = answer(&network, pile);
        let solved = if pile % 4 == 0 { -1.0 } else { 1.0 };
        assert!(
            value * solved > 0.5,
            "pile {pile}: the value {value}, where the mover's is {solved}"
        );
    }
}

/// Every checkpoint's network file (the network, its optimizer's moments
/// and step) as its digest, in order.
pub(crate) fn checkpoints(dir: &Path, last: u64) -> Vec<String> {
    (0..=last)
        .map(|generation| sha256(&std::fs::read(checkpoint(dir, generation)).unwrap()))
        .collect()
}

#[test]
fn a_run_continued_timed_or_on_two_threads_makes_the_checkpoints_of_one_uninterrupted_run() {
    let whole = scratch_dir("whole");
    run(&settings(5), &session(3, 1), &whole).unwrap();
    let expected = checkpoints(&whole, 3);

    // One generation, then the same run asked for three.
    let continued = scratch_dir("continued");
    let first = run(&settings(5), &session(1, 1), &continued).unwrap();
    assert_eq!((first.last.generation, first.trained), (1, 1));
    let rest = run(&settings(5), &session(3, 1), &continued).unwrap();
    assert_eq!((rest.last.generation, rest.trained), (3, 2));
    assert!(checkpoints(&continued, 3) == expected, "continued");

    let threads = scratch_dir("threads");
    run(&settings(5), &session(3, 2), &threads).unwrap();
    assert!(checkpoints(&threads, 3) == expected, "two threads");

    // A limit in minutes, counted over every session, ends a session at
    // the first checkpoint past it: the generation started is finished.
    let timed = scratch_dir("timed");
    let minutes = |minutes: f64| TrainSession {
        generations: None,
        minutes: Some(minutes),
        ..session(0, 1)
    };
    let first = run(&settings(5), &minutes(1e-9), &timed).unwrap();
    assert_eq!((first.last.generation, first.trained), (1, 1));
    let again = run(&settings(5), &minutes(first.last.seconds / 60.0), &timed).unwrap();
    assert_eq!(again.trained, 0, "its minutes are already worked");
    assert!(checkpoints(&timed, 1) == expected[..2], "timed");

    // Another seed is another run: refused in the same directory.
    let error = run(&settings(6), &session(3, 1), &whole).unwrap_err();
    assert!(error.contains("another seed"), "{error}");
}

/// A run of two generations whose directory is then damaged by `damage`;
/// the same run asked for a third generation must fail with an error
/// containing `expected`.
fn refused_after(name: &str, damage: impl FnOnce(&Path), expected: &str) {
    let dir = scratch_dir(name);
    run(&settings(9), &session(2, 1), &dir).unwrap();
    damage(&dir);
    let error = run(&settings(9), &session(3, 1), &dir).unwrap_err();
    assert!(error.contains(expected), "{error}");
    assert!(!error.contains('\n'), "one line: {error}");
}

#[test]
fn a_corrupted_shard_is_refused_naming_its_file() {
    refused_after(
        "corrupted-shard",
        |dir| {
            let shard = dir.join("samples/gen-00001/shard-00000.npz");
            let mut bytes = std::fs::read(&shard).unwrap();
            let middle = bytes.len() / 2;
            bytes[middle] ^= 0x40;
            std::fs::write(&shard, bytes).unwrap();
        },
        "shard-00000.npz",
    );
}

#[test]
fn a_shard_whose_values_leave_minus_one_to_one_is_refused_naming_them() {
    use norn::learning::npz::{Array, ArrayData, read_npz, write_npz};
    for (name, forged) in [("search_value", f32::NAN), ("outcome", 2.0)] {
        refused_after(
            &format!("forged-{name}"),
            |dir| {
                // A well-formed archive whose one value is out of range.
                let shard = dir.join("samples/gen-00001/shard-00000.npz");
                let mut arrays = read_npz(&shard).unwrap();
                let (_, array) = arrays.iter_mut().find(|(key, _)| key == name).unwrap();
                let ArrayData::F32(values) = &mut array.data else {
                    panic!("{name} holds floats")
                };
                values[0] = forged;
                let named: Vec<(&str, &Array)> = arrays
                    .iter()
                    .map(|(key, array)| (key.as_str(), array))
                    .collect();
                write_npz(&shard, &named).unwrap();
            },
            &format!("`{name}` holds {forged}, outside [-1, 1]"),
        );
    }
}

#[test]
fn a_checkpoint_of_another_game_is_refused() {
    refused_after(
        "another-game",
        |dir| {
            // A whole checkpoint of a Hnefatafl network, its record's digest
            // made to match: only the game tells it apart.
            let game = norn::learning::load_game("hnefatafl", "").unwrap();
            let shape = norn::net::GameShape::of(game.as_ref());
            let options: NetOptions = "blocks=0,channels=1,policy-channels=1".parse().unwrap();
            let description = norn::net::NetDescription::new(&shape, &options).unwrap();
            let trainer = norn::net::Trainer::new(
                Network::init(description, 3).unwrap(),
                settings(9).training,
            )
            .unwrap();
            let file = checkpoint(dir, 2);
            trainer.save(&file).unwrap();
            let digest = sha256(&std::fs::read(&file).unwrap());
            let record_path = file.with_file_name("checkpoint.json");
            let mut record: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&record_path).unwrap()).unwrap();
            record["sha256"] = digest.into();
            std::fs::write(&record_path, record.to_string()).unwrap();
        },
        "network of another game: the network was made for hnefatafl, not subtraction",
    );
}

#[test]
fn a_checkpoint_numbered_beyond_any_run_is_refused() {
    refused_after(
        "huge-checkpoint",
        |dir| {
            let huge = dir.join("checkpoints").join(u64::MAX.to_string());
            std::fs::create_dir(&huge).unwrap();
        },
        "a checkpoint of generation 18446744073709551615, beyond",
    );
}

#[test]
fn a_checkpoint_unlike_its_record_is_refused() {
    refused_after(
        "edited-checkpoint",
        |dir| {
            let file = checkpoint(dir, 2);
            let mut bytes = std::fs::read(&file).unwrap();
            let last = bytes.len() - 1;
            bytes[last] ^= 1;
            std::fs::write(&file, bytes).unwrap();
        },
        "is not the file its checkpoint recorded",
    );
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// `norn train` on Hnefatafl cut to 8 plies, with a network of a few
/// hundred weights before its policy head: seconds a generation. Each
/// flag with its value.
const CLI_RUN: [(&str, &str); 11] = [
    ("--rules", "ply-limit=8"),
    ("--arch", "blocks=0,channels=4,value-hidden=8"),
    ("--games-per-generation", "4"),
    ("--sims", "8"),
    ("--batch-size", "16"),
    ("--steps", "4"),
    ("--threads", "1"),
    ("--seed", "3"),
    ("--generations", "4"),
    ("--json", ""),
    ("--out", ""),
];

/// The arguments of `norn train` in `dir`, with the flags of `changes`
/// given other values (or added).
pub(crate) fn cli_args<'a>(dir: &'a Path, changes: &[(&'a str, &'a str)]) -> Vec<&'a str> {
    let mut args = vec!["train", "hnefatafl"];
    let mut flags: Vec<(&str, &str)> = CLI_RUN.to_vec();
    for &(flag, value) in changes {
        match flags.iter_mut().find(|(known, _)| *known == flag) {
            Some(slot) => slot.1 = value,
            None => flags.push((flag, value)),
        }
    }
    for (flag, value) in flags {
        args.push(flag);
        match flag {
            "--out" => args.push(dir.to_str().unwrap()),
            "--json" | "--puct" => {}
            _ => args.push(value),
        }
    }
    args
}

pub(crate) fn cli_run(dir: &Path, changes: &[(&str, &str)]) -> std::process::Output {
    norn(&cli_args(dir, changes))
}

fn checkpoints_written(dir: &Path) -> usize {
    std::fs::read_dir(dir.join("checkpoints")).map_or(0, |entries| {
        entries
            .filter(|entry| {
                let name = entry.as_ref().unwrap().file_name();
                name.to_str()
                    .unwrap()
                    .bytes()
                    .all(|byte| byte.is_ascii_digit())
            })
            .count()
    })
}

#[test]
fn norn_train_runs_evaluates_continues_and_refuses_another_run_in_its_directory() {
    let dir = scratch_dir("cli");
    let evaluation = [
        ("--eval-every", "2"),
        ("--eval-games", "2"),
        ("--baselines", "mcts:iters=8"),
    ];
    let output = cli_run(&dir, &evaluation);
    assert!(output.status.success(), "{output:?}");
    let last: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(last["generation"], 4);
    assert_eq!(last["steps"], 16);
    assert_eq!(last["games"], 16);
    let progress = String::from_utf8_lossy(&output.stderr);
    assert!(progress.contains("generation 4: 16 games"), "{progress}");
    let config = crate::common::cli::read_json(&dir.join("config.json"));
    assert_eq!(config["run"], "train");
    assert_eq!(config["build"]["version"], env!("CARGO_PKG_VERSION"));
    let losses = std::fs::read_to_string(dir.join("losses.jsonl")).unwrap();
    assert_eq!(losses.lines().count(), 16, "one line per step");
    // The trained network is a network file `norn net info` reads.
    let info = norn(&[
        "net",
        "info",
        checkpoint(&dir, 4).to_str().unwrap(),
        "--json",
    ]);
    assert!(info.status.success(), "{info:?}");
    // Generations 2 and 4 played gauntlets of 2 games against the network
    // evaluated before them and MCTS of the search's 8 simulations, all
    // rated on one scale anchored on MCTS (the default baselines:
    // tests/suite/train_evaluation.rs).
    for generation in ["2", "4"] {
        let summary = crate::common::cli::read_json(
            &dir.join("evaluations")
                .join(generation)
                .join("summary.json"),
        );
        assert_eq!(summary["games_played"], 4, "{summary}");
    }
    let ratings = crate::common::cli::read_json(&dir.join("ratings.json"));
    assert_eq!(ratings["anchor"], "mcts:iters=8");
    let games: Vec<(String, u64)> = ratings["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|agent| {
            (
                agent["agent"].as_str().unwrap().to_string(),
                agent["games"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected = [
        ("checkpoint-0", 2),
        ("checkpoint-2", 6),
        ("checkpoint-4", 4),
        ("mcts:iters=8", 4),
    ];
    assert_eq!(
        games,
        expected.map(|(agent, games)| (agent.to_string(), games))
    );

    // The report has a row per checkpoint and the ratings.
    let report = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let rows = report
        .lines()
        .filter(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            cells.len() == 11 && cells[1].parse::<u64>().is_ok()
        })
        .count();
    assert_eq!(rows, 5, "a row per checkpoint: {report}");
    assert!(report.contains("| `checkpoint-4` |"), "{report}");

    // The same command asked for more generations continues the run.
    let more = cli_run(&dir, &[&evaluation[..], &[("--generations", "5")]].concat());
    assert!(more.status.success(), "{more:?}");
    assert_eq!(checkpoints_written(&dir), 6);
    // Another run in the same directory is refused, naming what differs.
    let other = cli_run(&dir, &[("--seed", "4")]);
    assert_eq!(other.status.code(), Some(1));
    let message = String::from_utf8_lossy(&other.stderr);
    assert!(message.contains("another seed"), "{message}");
}

/// The search values of `spec`'s `az` agent over the first plies of
/// Hnefatafl with a ply limit of 8 (the rules of [`CLI_RUN`]).
fn az_values(spec: &str) -> Result<Vec<u64>, String> {
    let mut agent = build_agent::<Hnefatafl>(spec, 7).map_err(|error| error.to_string())?;
    let mut state = Hnefatafl::new("ply-limit=8".parse().unwrap());
    let mut values = Vec::new();
    for _ in 0..4 {
        let player = state.status().player_to_move().unwrap();
        let Decision::Play(mv) = agent.decide(&state, player).unwrap() else {
            panic!("the agent resigns")
        };
        values.push(agent.last_search().unwrap().value.to_bits());
        state.play(mv);
    }
    Ok(values)
}

#[test]
fn az_agents_name_a_training_run_or_a_checkpoint_by_its_directory() {
    let dir = scratch_dir("az-net");
    assert!(cli_run(&dir, &[("--generations", "2")]).status.success());
    let spec = |net: &Path| format!("az:sims=8,net={}", net.display());
    let newest = az_values(&spec(&checkpoint(&dir, 2))).unwrap();
    assert_ne!(
        newest,
        az_values(&spec(&checkpoint(&dir, 1))).unwrap(),
        "two checkpoints that search alike tell nothing"
    );
    assert_eq!(az_values(&spec(&dir)).unwrap(), newest, "the run's newest");
    let second = dir.join("checkpoints").join("2");
    assert_eq!(az_values(&spec(&second)).unwrap(), newest, "checkpoint 2");
    // A run with no checkpoint yet, and a directory of something else.
    let empty = scratch_dir("az-net-empty");
    std::fs::create_dir_all(empty.join("checkpoints")).unwrap();
    let refused = az_values(&spec(&empty)).unwrap_err();
    assert!(refused.contains("no checkpoint yet"), "{refused}");
    let refused = az_values(&spec(&dir.join("samples"))).unwrap_err();
    assert!(refused.contains("neither a training run's"), "{refused}");
}

fn lines(path: &Path) -> usize {
    std::fs::read(path).map_or(0, |bytes| {
        bytes.iter().filter(|&&byte| byte == b'\n').count()
    })
}

#[test]
fn a_killed_norn_train_resumes_to_the_checkpoints_and_losses_of_an_uninterrupted_run() {
    // 40 steps a generation, so that a kill can land mid-training.
    let steps = [("--steps", "40")];
    let calm = scratch_dir("calm");
    assert!(cli_run(&calm, &steps).status.success());
    let killed = scratch_dir("killed");
    let args = cli_args(&killed, &steps);
    let losses = killed.join("losses.jsonl");
    // Each session is killed at a moment of its own: in the middle of a
    // generation's training (steps logged past the last checkpoint's), as
    // soon as a generation's samples are complete, and in the middle of
    // self-play, a little after a checkpoint.
    type Moment = fn(&Path, usize, usize) -> bool;
    let moments: [(Moment, u64); 3] = [
        (
            |dir, _, steps| lines(&dir.join("losses.jsonl")) >= steps + 10,
            0,
        ),
        (
            |dir, checkpoints, _| {
                let next = format!("samples/gen-{:05}/manifest.json", checkpoints);
                dir.join(next).exists()
            },
            0,
        ),
        (
            |dir, checkpoints, _| checkpoints_written(dir) > checkpoints,
            20,
        ),
    ];
    for (reached, delay) in moments {
        let (checkpoints, steps) = (checkpoints_written(&killed), lines(&losses));
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_norn"))
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        while !reached(&killed, checkpoints, steps) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        std::thread::sleep(std::time::Duration::from_millis(delay));
        child.kill().unwrap();
        child.wait().unwrap();
    }
    assert!(
        checkpoints_written(&killed) < 5,
        "the kills should land before the run ends"
    );
    let output = cli_run(&killed, &steps);
    assert!(output.status.success(), "{output:?}");
    assert!(
        checkpoints(&killed, 4) == checkpoints(&calm, 4),
        "the checkpoints differ from the uninterrupted run's"
    );
    assert!(
        std::fs::read(&losses).unwrap() == std::fs::read(calm.join("losses.jsonl")).unwrap(),
        "every step logged once, as the uninterrupted run logged it"
    );
}

#[test]
fn norn_train_refuses_bad_settings_on_one_line() {
    let dir = scratch_dir("bad");
    for (extra, expected) in [
        (("--games-per-generation", "0"), "games per generation"),
        (("--batch-size", "0"), "batch size"),
        (("--buffer", "0"), "buffer size"),
        (("--buffer", "100000000"), "more than half of the"),
        (("--minutes", "NaN"), "minutes"),
        (("--minutes", "0"), "minutes"),
        (("--minutes", "inf"), "minutes"),
        (("--steps", "0"), "steps per generation"),
        (
            ("--generations", "18446744073709551615"),
            "generations must be at most",
        ),
        (("--sims", "0"), "sims"),
        (("--threads", "0"), "--threads"),
        (("--search", "gumbel=maybe"), "--search"),
        (("--arch", "blocks=1000"), "--arch"),
        (("--learning-rate", "7"), "learning-rate"),
        (("--eval-every", "0"), "at least 1 generation"),
        (("--eval-games", "3"), "positive even number"),
        (("--baselines", "mcts:iters=x"), "iters"),
    ] {
        let output = cli_run(&dir, &[("--eval-every", "1"), extra]);
        let message = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{extra:?}: {message}");
        assert!(message.contains(expected), "{extra:?}: {message}");
        assert_eq!(message.trim_end().lines().count(), 1, "{message}");
    }
}

#[test]
fn a_training_run_and_a_tournament_refuse_each_others_directories() {
    let trained = scratch_dir("kinds-train");
    assert!(
        cli_run(&trained, &[("--generations", "1")])
            .status
            .success()
    );
    // A two-game tournament into `dir`.
    let tournament_into = |dir: &Path| {
        norn(&[
            "tournament",
            "hnefatafl",
            "--agents",
            "random",
            "greedy",
            "--games",
            "2",
            "--out",
            dir.to_str().unwrap(),
        ])
    };
    let tournament = tournament_into(&trained);
    let message = String::from_utf8_lossy(&tournament.stderr);
    assert_eq!(tournament.status.code(), Some(1), "{message}");
    assert!(
        message.contains("holds a training run (finished work in checkpoints/), not a tournament"),
        "{message}"
    );

    let played = scratch_dir("kinds-tournament");
    let tournament = tournament_into(&played);
    assert!(tournament.status.success(), "{tournament:?}");
    let output = cli_run(&played, &[]);
    let message = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(
        message.contains("holds a tournament") && message.contains("not a training run"),
        "{message}"
    );
    assert!(!played.join("checkpoints").exists(), "nothing written");
}

#[test]
fn norn_train_with_puct_self_plays_with_root_noise_and_drawn_moves() {
    let dir = scratch_dir("puct");
    let output = cli_run(&dir, &[("--generations", "1"), ("--puct", "")]);
    assert!(output.status.success(), "{output:?}");
    let config = crate::common::cli::read_json(&dir.join("config.json"));
    let search = config["search"].as_str().unwrap();
    for option in [
        "gumbel=off",
        "noise=0.25",
        "temp=1",
        "temp-plies=30",
        "sims=8",
    ] {
        assert!(search.split(',').any(|given| given == option), "{search}");
    }
}
