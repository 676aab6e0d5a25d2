//! A run's settings as text and numbers, as the command line and Python
//! give them, read into [`TrainSettings`].

use super::TrainSettings;
use crate::core::{read_options, read_options_onto};
use crate::net::{NetOptions, TrainConfig};
use crate::search::guided::GuidedConfig;

/// A run's settings as they are given: options as `key=value` text, and
/// the numbers.
#[derive(Clone, Debug)]
pub struct SettingsText<'a> {
    /// How an error names an option: `--` on the command line, nothing
    /// from Python, before the option's name (`search`, `arch`, ...).
    pub prefix: &'a str,
    /// Self-play games per generation.
    pub games_per_generation: u64,
    /// Simulations per move, over `search`.
    pub sims: Option<u32>,
    /// PUCT with Dirichlet noise at the root (noise=0.25) and moves drawn
    /// by their visits (temp=1) for the first 30 plies, before `search`.
    pub puct: bool,
    /// More options of the self-play search, as the `az` agent's.
    pub search: &'a str,
    /// The network's architecture, as `norn net init --arch`.
    pub arch: &'a str,
    /// AdamW's step size, over `training`.
    pub learning_rate: Option<f64>,
    /// Training options.
    pub training: &'a str,
    /// Samples per training step.
    pub batch_size: usize,
    /// Samples in the replay buffer.
    pub buffer: usize,
    /// Training steps per generation.
    pub steps: Option<u64>,
    /// The run's seed.
    pub seed: u64,
}

impl SettingsText<'_> {
    /// The run's settings.
    ///
    /// # Errors
    /// Options that do not read, named as `prefix` says.
    pub fn settings(&self) -> Result<TrainSettings, String> {
        let prefix = self.prefix;
        let mut search = GuidedConfig::default();
        if self.puct {
            search.gumbel = false;
            search.noise = 0.25;
            search.temperature = 1.0;
            search.temperature_plies = Some(30);
        }
        let mut search = read_options_onto(search, self.search, self.search)
            .map_err(|error| format!("{prefix}search: {error}"))?;
        if let Some(sims) = self.sims {
            let text = format!("sims={sims}");
            search = read_options_onto(search, &text, &text)
                .map_err(|error| format!("{prefix}sims: {error}"))?;
        }
        let network: NetOptions =
            read_options(self.arch).map_err(|error| format!("{prefix}arch: {error}"))?;
        let mut training: TrainConfig =
            read_options(self.training).map_err(|error| format!("{prefix}training: {error}"))?;
        if let Some(rate) = self.learning_rate {
            training.learning_rate = rate;
        }
        Ok(TrainSettings {
            games_per_generation: self.games_per_generation,
            search,
            network,
            training,
            batch_size: self.batch_size,
            buffer_samples: self.buffer,
            steps_per_generation: self.steps,
            seed: self.seed,
        })
    }
}
