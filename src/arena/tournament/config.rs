//! A tournament's configuration and its schedule.
//!
//! In a round robin every pair of agents plays, in a gauntlet only the
//! challenger (the first agent) with each baseline. A pairing plays `games_per_pair` games in colour-swapped pairs:
//! both games of a pair share one seed, and each agent keeps its own seed in
//! both, so the only difference is who moves first. Each game's seed derives
//! from the master seed and the pair's index, never from the thread that
//! plays it, so a run gives the same games for any number of threads, and
//! shards or resumed runs give the same games as one uninterrupted run.

use super::log::GameLine;
use super::opening::Opening;
use super::openings::Openings;
use crate::agents::{agent_label, named_spec};
use crate::arena::playing::{Adjudication, Shard, TimeControl};
use crate::core::{Notation, derive_seed, escape_control};
use serde::{Deserialize, Serialize};

/// What defines a tournament: two runs with equal configurations play the
/// same games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// The game's name (`Game::NAME`).
    pub game: String,
    /// The rules options as text (empty for the defaults).
    pub rules: String,
    /// Agent specs, e.g. `mcts:iters=2000`.
    pub agents: Vec<String>,
    /// Games between each pair of agents (an even number).
    pub games_per_pair: usize,
    /// The master seed: every pair's seed derives from it and the pair's
    /// index, so a game does not depend on threads or shards.
    pub seed: u64,
    /// Games still running after this many plies are drawn (`max-plies`).
    pub max_plies: Option<usize>,
    /// The agent whose rating is fixed at 0, by spec or display name
    /// ([`Self::display_names`]); if `None`, the first agent, or in a
    /// gauntlet the first baseline.
    pub anchor: Option<String>,
    /// Where the games start: pair `j` of every pairing plays the same
    /// opening ([`Openings::opening`]).
    #[serde(
        default = "Openings::start",
        skip_serializing_if = "Openings::is_start"
    )]
    pub openings: Openings,
    /// A gauntlet: the first agent (the challenger) plays each of the others
    /// (the baselines), which do not play each other. Its pairings are the
    /// first of a round robin's, so its games are the round robin's games of
    /// the same seed. Written only when set, so that round robins' files and
    /// digests stay as they were.
    #[serde(default, skip_serializing_if = "is_false")]
    pub gauntlet: bool,
    /// A game clock per side (`--tc`): a side that runs out of time loses
    /// the game ([`TIME_REASON`](crate::arena::TIME_REASON)). Written only
    /// when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControl>,
    /// Games ended early when the searchers' scores agree on the outcome
    /// (`--adjudicate`), recorded with the reasons
    /// [`RESIGN_ADJUDICATION_REASON`](crate::arena::RESIGN_ADJUDICATION_REASON)
    /// and [`DRAW_ADJUDICATION_REASON`](crate::arena::DRAW_ADJUDICATION_REASON).
    /// Written only when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjudication: Option<Adjudication>,
}

/// Whether a flag is unset (serde's `skip_serializing_if` wants a function).
fn is_false(flag: &bool) -> bool {
    !*flag
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Position in the schedule; games `2k` and `2k + 1` are a colour-swapped pair.
    pub index: usize,
    /// Agent index (into `TournamentConfig::agents`) per seat.
    pub seats: [usize; 2],
    /// The seed shared by both games of the pair.
    pub seed: u64,
}

impl ScheduledGame {
    /// The seed of the agent in `seat`: the same in both games of a pair.
    pub fn agent_seed(&self, seat: usize) -> u64 {
        derive_seed(self.seed, self.seats[seat] as u64)
    }

    /// The seed of the game's chance events: the same in both games of a
    /// pair, so that only the first mover differs.
    pub fn chance_seed(&self) -> u64 {
        derive_seed(self.seed, u64::MAX)
    }

    /// The index of the colour-swapped pair this game belongs to.
    pub fn pair(&self) -> usize {
        self.index / 2
    }
}

/// The most games of one tournament: a resume keeps some 64 bytes of each
/// game in memory, and at this size the log alone is gigabytes.
pub const MAX_TOURNAMENT_GAMES: usize = 10_000_000;

impl TournamentConfig {
    /// Checks the configuration: at least two agents (specs without
    /// surrounding spaces; one spec listed twice is self-play, two seats with
    /// seeds of their own, told apart by [`Self::display_names`]), a positive
    /// even number of games per pair, at most [`MAX_TOURNAMENT_GAMES`] games
    /// in all, a known anchor.
    pub fn validate(&self) -> Result<(), String> {
        if self.agents.len() < 2 {
            return Err(if self.gauntlet {
                "a gauntlet needs at least one baseline agent besides the challenger".into()
            } else {
                "a tournament needs at least two agents".into()
            });
        }
        for spec in &self.agents {
            if spec.trim() != spec || spec.is_empty() {
                return Err(format!(
                    "agent spec `{}` is empty or has spaces around it",
                    escape_control(spec)
                ));
            }
            named_spec(spec).map_err(|error| error.to_string())?;
        }
        let names = self.display_names();
        for (i, name) in names.iter().enumerate() {
            if names[..i].contains(name) {
                return Err(format!(
                    "two agents would both be called `{}`: give them names of their own (name=) or list them in another order",
                    escape_control(name)
                ));
            }
        }
        if self.games_per_pair == 0 || !self.games_per_pair.is_multiple_of(2) {
            return Err(format!(
                "games per pair must be a positive even number (colour-swapped pairs), got {}",
                self.games_per_pair
            ));
        }
        if self.max_plies == Some(0) {
            return Err("a cap of 0 plies would draw every game before its first move".into());
        }
        if let Some(adjudication) = &self.adjudication {
            adjudication.validate()?;
        }
        let pairings = self.pairing_count();
        if pairings
            .checked_mul(self.games_per_pair)
            .is_none_or(|total| total > MAX_TOURNAMENT_GAMES)
        {
            return Err(format!(
                "{pairings} pairings of {} games is more than the {MAX_TOURNAMENT_GAMES} games a run may hold",
                self.games_per_pair
            ));
        }
        if let Some(anchor) = &self.anchor
            && self.named(anchor).is_none()
        {
            return Err(format!("the anchor `{anchor}` is not one of the agents"));
        }
        Ok(())
    }

    /// A short stable name for the configuration: runs of equal
    /// configurations share it (the default output directory uses it).
    pub fn digest(&self) -> String {
        let text = serde_json::to_string(self).expect("configs serialise");
        let digest = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
            (hash ^ byte as u64).wrapping_mul(0x100_0000_01b3)
        });
        format!("{:08x}", digest >> 32)
    }

    /// The name of each agent in reports: the name its spec gives
    /// (`name=`, [`agent_label`]) or else its spec, and for a spec listed
    /// more than once (self-play) that name followed by ` #k` from its
    /// second listing on (`X`, `X #2`), so that every seat has a name of
    /// its own.
    pub fn display_names(&self) -> Vec<String> {
        self.agents
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let label = agent_label(spec);
                match self.agents[..i]
                    .iter()
                    .filter(|earlier| *earlier == spec)
                    .count()
                {
                    0 => label,
                    earlier => format!("{label} #{}", earlier + 1),
                }
            })
            .collect()
    }

    /// The agent called `name`: a display name ([`Self::display_names`])
    /// first, else the first agent with that spec.
    fn named(&self, name: &str) -> Option<usize> {
        self.display_names()
            .iter()
            .position(|display| display == name)
            .or_else(|| self.agents.iter().position(|spec| spec == name))
    }

    /// The index of the anchor agent: the configured one, else the first
    /// agent, or in a gauntlet the first baseline (the challenger is what is
    /// measured, so the ratings are anchored on what it is measured against).
    pub fn anchor_index(&self) -> usize {
        self.anchor
            .as_deref()
            .and_then(|anchor| self.named(anchor))
            .unwrap_or(usize::from(self.gauntlet))
    }

    /// Every pair of agents that meets, `(a, b)` with `a < b`, in schedule
    /// order: every pair in a round robin, the challenger (agent 0) with each
    /// baseline in a gauntlet, which are the round robin's first pairings.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        (0..self.pairing_count())
            .map(|index| self.pairing(index))
            .collect()
    }

    /// The place of game `index`'s colour-swapped pair in its pairing:
    /// pairs in the same place play the same opening.
    pub fn opening_round(&self, index: usize) -> u64 {
        ((index % self.games_per_pair.max(1)) / 2) as u64
    }

    /// The opening of game `index` (`None` for the game's start).
    ///
    /// # Errors
    /// As [`Openings::opening`].
    pub fn opening_of<G: Notation>(
        &self,
        start: &G,
        index: usize,
    ) -> Result<Option<Opening>, String> {
        self.openings
            .opening(start, self.seed, self.opening_round(index))
    }

    /// The number of games in the whole tournament.
    pub fn total_games(&self) -> usize {
        self.pairing_count() * self.games_per_pair
    }

    /// Pairing `index` (below [`Self::pairing_count`]) in the order of
    /// [`Self::pairings`], found without listing them.
    fn pairing(&self, index: usize) -> (usize, usize) {
        let n = self.agents.len();
        let mut rest = index;
        for a in 0..n {
            let with_later = n - 1 - a;
            if rest < with_later {
                return (a, a + 1 + rest);
            }
            rest -= with_later;
        }
        unreachable!("pairing {index} of {n} agents is not in the schedule")
    }

    /// The number of pairs of agents that meet, without listing them.
    fn pairing_count(&self) -> usize {
        let n = self.agents.len();
        if self.gauntlet {
            n.saturating_sub(1)
        } else {
            n * n.saturating_sub(1) / 2
        }
    }

    /// Every game, in order.
    pub fn schedule(&self) -> Vec<ScheduledGame> {
        (0..self.total_games())
            .map(|index| self.scheduled_game_of(index))
            .collect()
    }

    /// Game `index` of the schedule, if there is one.
    pub fn scheduled_game(&self, index: usize) -> Option<ScheduledGame> {
        (index < self.total_games()).then(|| self.scheduled_game_of(index))
    }

    /// Game `index` (which must be in the schedule): the pairings in order,
    /// each playing `games_per_pair` games in colour-swapped pairs that
    /// share a seed.
    fn scheduled_game_of(&self, index: usize) -> ScheduledGame {
        let (a, b) = self.pairing(index / self.games_per_pair);
        ScheduledGame {
            index,
            seats: if index.is_multiple_of(2) {
                [a, b]
            } else {
                [b, a]
            },
            seed: derive_seed(self.seed, (index / 2) as u64),
        }
    }

    /// Checks that a logged game is the game the schedule holds at its
    /// index: the same seats, seed and agents, and as many plies as moves.
    /// (Its moves and result are checked by [`replay_line`](crate::arena::replay_line).)
    pub fn check_scheduled(&self, line: &GameLine) -> Result<(), String> {
        let scheduled = self.scheduled_game(line.index).ok_or_else(|| {
            format!(
                "game {} is not in the schedule of {} games",
                line.index,
                self.total_games()
            )
        })?;
        let agents = scheduled.seats.map(|seat| self.agents[seat].as_str());
        let problem = if line.seats != scheduled.seats {
            "its seats"
        } else if line.seed != scheduled.seed {
            "its seed"
        } else if line.agents != agents {
            "its agents"
        } else if line.plies != line.moves.len() {
            "its ply count"
        } else {
            return Ok(());
        };
        Err(format!(
            "game {}: {problem} differ from the tournament's schedule",
            line.index
        ))
    }
}

#[cfg(test)]
impl TournamentConfig {
    /// A round robin of `agents` at `game` under its default rules, from
    /// its start, `games_per_pair` games a pairing, seed 1: what unit tests
    /// of summaries and reports start from.
    pub(crate) fn of_agents(
        game: &str,
        agents: &[&str],
        games_per_pair: usize,
    ) -> TournamentConfig {
        TournamentConfig {
            game: game.into(),
            rules: String::new(),
            agents: agents.iter().map(|spec| spec.to_string()).collect(),
            games_per_pair,
            seed: 1,
            max_plies: None,
            anchor: None,
            gauntlet: false,
            time_control: None,
            adjudication: None,
            openings: Openings::Start,
        }
    }
}

impl Shard {
    /// Whether the scheduled `game` is this shard's: shards hold whole
    /// colour-swapped pairs.
    pub fn contains(&self, game: &ScheduledGame) -> bool {
        self.holds(game.pair() as u64)
    }

    /// Refuses a logged game of another shard of the same split (a log
    /// copied from another shard's directory): its games are counted in
    /// that shard, and would be counted twice in a merge.
    ///
    /// # Errors
    /// Names the shard the game belongs to.
    pub fn check_holds(&self, line: &GameLine) -> Result<(), String> {
        let pair = line.index / 2;
        if self.holds(pair as u64) {
            return Ok(());
        }
        let owner = Shard {
            index: pair % self.count,
            count: self.count,
        };
        Err(format!(
            "game {} is a game of shard {owner}, not shard {self}",
            line.index
        ))
    }
}
