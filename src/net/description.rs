//! What a network is: the game it plays, the shapes of its inputs and
//! outputs, and its architecture ([`NetDescription`]); the options that
//! choose its size ([`NetOptions`]); and the tensors that hold its weights,
//! named and shaped as in the file ([`TensorSpec`]).

use super::NetError;
use crate::learning::DynGame;
use crate::search::guided::{GameShape, ValueLayout};
use serde::{Deserialize, Serialize};

/// The version of the file format and of [`NetDescription`]'s fields:
/// a file of another version is refused rather than misread.
pub const NET_FORMAT: u32 = 1;

/// The most values an observation may have.
const MAX_INPUT: usize = 1 << 20;
/// The most action ids a network may score.
const MAX_ACTIONS: usize = 1 << 20;
/// The most residual blocks or hidden layers.
pub(super) const MAX_DEPTH: usize = 64;
/// The most channels of a convolution or units of a hidden layer.
pub(super) const MAX_WIDTH: usize = 16_384;
/// The most parameters of a network: 4 GiB of `f32`.
const MAX_PARAMETERS: usize = 1 << 30;

/// A game loaded by name ([`crate::learning::load_game`]) as a network
/// sees it.
impl GameShape {
    /// The shape of a game loaded by name.
    pub fn of(game: &dyn DynGame) -> GameShape {
        GameShape {
            name: game.info().name.to_string(),
            rules: game.rules(),
            observation_shape: game.observation_shape(),
            num_actions: game.num_actions(),
            num_players: game.num_players(),
            scoring: game.info().capabilities.scoring,
            payoff_range: game.payoff_range(),
        }
    }
}

/// The layers of a network between its input and its two heads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Architecture {
    /// A residual convolutional network for observations of shape
    /// `[C, H, W]`: a 3x3 convolution to `channels`, `blocks` residual
    /// blocks of two 3x3 convolutions, a policy head (a 1x1 convolution to
    /// `policy_channels`, then a linear layer to the action logits) and a
    /// value head (a 1x1 convolution to `value_channels`, a hidden layer of
    /// `value_hidden` units, the values).
    Residual {
        /// Residual blocks.
        blocks: usize,
        /// Channels of the trunk's convolutions.
        channels: usize,
        /// Channels of the policy head's 1x1 convolution.
        policy_channels: usize,
        /// Channels of the value head's 1x1 convolution.
        value_channels: usize,
        /// Units of the value head's hidden layer.
        value_hidden: usize,
    },
    /// A multilayer perceptron over the flattened observation: hidden
    /// layers of the given sizes, a linear policy head and a value head
    /// with one hidden layer of `value_hidden` units.
    Mlp {
        /// The hidden layers' sizes, first to last.
        hidden: Vec<usize>,
        /// Units of the value head's hidden layer.
        value_hidden: usize,
    },
}

/// Everything needed to rebuild a network but its weights: the game it
/// plays, the shapes of its inputs and outputs, and its architecture.
/// Stored as JSON in the weights file's metadata (`norn.net`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetDescription {
    /// The file format's version, [`NET_FORMAT`].
    pub format: u32,
    /// The game's name in the registry.
    pub game: String,
    /// The game's rules, every option written out.
    pub rules: String,
    /// The shape of an observation: `[C, H, W]` for a residual network;
    /// any shape for a perceptron, which reads it flattened.
    pub input_shape: Vec<usize>,
    /// The action ids the policy head scores.
    pub num_actions: usize,
    /// The values the value head gives ([`ValueLayout::width`]).
    pub num_values: usize,
    /// What the values mean.
    pub value_layout: ValueLayout,
    /// The game's payoff range, lowest and highest: the payoffs that the
    /// values -1 and 1 stand for.
    pub payoff_range: (f64, f64),
    /// The layers.
    pub architecture: Architecture,
}

/// Which kind of network [`NetOptions`] asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetKind {
    /// Residual for observations of shape `[C, H, W]`, a perceptron
    /// otherwise.
    Auto,
    /// A residual convolutional network (observations `[C, H, W]` only).
    Residual,
    /// A multilayer perceptron.
    Mlp,
}

/// The kinds, in the order of their words.
const NET_KINDS: [NetKind; 3] = [NetKind::Auto, NetKind::Residual, NetKind::Mlp];

/// The options that choose a network's architecture, as `key=value` text
/// (`blocks=6,channels=64`); the defaults make a network small enough to
/// search and train with on a laptop's cores: 4 residual blocks of 32
/// channels for boards, two hidden layers of 256 units otherwise.
#[derive(Clone, Debug, PartialEq)]
pub struct NetOptions {
    /// Residual or perceptron.
    pub kind: NetKind,
    /// Residual blocks.
    pub blocks: usize,
    /// Channels of the residual trunk.
    pub channels: usize,
    /// Hidden layers of a perceptron.
    pub hidden_layers: usize,
    /// Units of each hidden layer of a perceptron.
    pub hidden_size: usize,
    /// Channels of the policy head's 1x1 convolution.
    pub policy_channels: usize,
    /// Channels of the value head's 1x1 convolution.
    pub value_channels: usize,
    /// Units of the value head's hidden layer.
    pub value_hidden: usize,
}

impl Default for NetOptions {
    fn default() -> NetOptions {
        NetOptions {
            kind: NetKind::Auto,
            blocks: 4,
            channels: 32,
            hidden_layers: 2,
            hidden_size: 256,
            policy_channels: 2,
            value_channels: 1,
            value_hidden: 64,
        }
    }
}

/// Every option of [`NetOptions`], in the order its text is written.
const NET_OPTIONS: &[crate::core::Declared<NetOptions>] = &[
    crate::choice_option!(
        "kind",
        kind,
        NET_KINDS,
        &["auto", "residual", "mlp"],
        "residual network or perceptron (auto: residual for [C, H, W] observations)"
    ),
    crate::whole_option!("blocks", blocks, 0, MAX_DEPTH as u64, "residual blocks"),
    crate::whole_option!(
        "channels",
        channels,
        1,
        1024,
        "channels of the residual trunk"
    ),
    crate::whole_option!(
        "hidden-layers",
        hidden_layers,
        1,
        MAX_DEPTH as u64,
        "hidden layers of a perceptron"
    ),
    crate::whole_option!(
        "hidden-size",
        hidden_size,
        1,
        MAX_WIDTH as u64,
        "units of each hidden layer of a perceptron"
    ),
    crate::whole_option!(
        "policy-channels",
        policy_channels,
        1,
        64,
        "channels of the policy head's 1x1 convolution"
    ),
    crate::whole_option!(
        "value-channels",
        value_channels,
        1,
        64,
        "channels of the value head's 1x1 convolution"
    ),
    crate::whole_option!(
        "value-hidden",
        value_hidden,
        1,
        4096,
        "units of the value head's hidden layer"
    ),
];

crate::core::declared_configuration!(NetOptions, "network options", NET_OPTIONS);

impl NetDescription {
    /// The description of a fresh network for `game`, its architecture
    /// chosen by `options` and its value layout by the game
    /// ([`GameShape::value_layout`]).
    ///
    /// # Errors
    /// A residual network for observations not of shape `[C, H, W]`, or a
    /// network too large.
    pub fn new(game: &GameShape, options: &NetOptions) -> Result<NetDescription, NetError> {
        options.validate().map_err(NetError::Description)?;
        let board = game.observation_shape.len() == 3;
        let residual = match options.kind {
            NetKind::Auto => board,
            NetKind::Residual if !board => {
                return Err(NetError::Description(format!(
                    "a residual network needs observations of shape [C, H, W], and {}'s are {:?}",
                    game.name, game.observation_shape
                )));
            }
            NetKind::Residual => true,
            NetKind::Mlp => false,
        };
        let architecture = if residual {
            Architecture::Residual {
                blocks: options.blocks,
                channels: options.channels,
                policy_channels: options.policy_channels,
                value_channels: options.value_channels,
                value_hidden: options.value_hidden,
            }
        } else {
            Architecture::Mlp {
                hidden: vec![options.hidden_size; options.hidden_layers],
                value_hidden: options.value_hidden,
            }
        };
        let value_layout = game.value_layout();
        let description = NetDescription {
            format: NET_FORMAT,
            game: game.name.clone(),
            rules: game.rules.clone(),
            input_shape: game.observation_shape.clone(),
            num_actions: game.num_actions,
            num_values: value_layout.width(),
            value_layout,
            payoff_range: game.payoff_range,
            architecture,
        };
        description.validate()?;
        Ok(description)
    }

    /// How many values one observation has.
    pub fn input_len(&self) -> usize {
        self.input_shape.iter().product()
    }

    /// Checks that the network plays `game` under its rules: the same
    /// game, rules, observation shape, action count and value layout.
    ///
    /// # Errors
    /// The first difference, naming both sides.
    pub fn check_game(&self, game: &GameShape) -> Result<(), NetError> {
        let differ = |what: &str, ours: String, theirs: String| {
            Err(NetError::WrongGame(format!(
                "the network's {what} is {ours}, the game's {theirs}"
            )))
        };
        if self.game != game.name {
            return differ("game", self.game.clone(), game.name.clone());
        }
        if self.rules != game.rules {
            return differ(
                "rules",
                format!("`{}`", self.rules),
                format!("`{}`", game.rules),
            );
        }
        if self.input_shape != game.observation_shape {
            return differ(
                "observation shape",
                format!("{:?}", self.input_shape),
                format!("{:?}", game.observation_shape),
            );
        }
        if self.num_actions != game.num_actions {
            return differ(
                "action count",
                self.num_actions.to_string(),
                game.num_actions.to_string(),
            );
        }
        if self.value_layout.fits(game.scoring, game.num_players) {
            Ok(())
        } else {
            Err(NetError::WrongGame(format!(
                "the network's values are laid out {}, which does not fit {}, a {}-player game scored {:?}",
                self.value_layout, game.name, game.num_players, game.scoring
            )))
        }
    }

    /// Checks the description on its own, before anything is allocated for
    /// it: the format version, sizes within bounds (an absurd size from a
    /// hostile file is refused here), the shapes the architecture needs and
    /// a value count that matches the layout.
    ///
    /// # Errors
    /// What is wrong, in a sentence.
    pub fn validate(&self) -> Result<(), NetError> {
        let fail = |problem: String| Err(NetError::Description(problem));
        if self.format != NET_FORMAT {
            return fail(format!(
                "format {} is not this build's network format {NET_FORMAT}",
                self.format
            ));
        }
        let input = self
            .input_shape
            .iter()
            .try_fold(1usize, |product, &size| product.checked_mul(size));
        match input {
            Some(len) if (1..=MAX_INPUT).contains(&len) && !self.input_shape.is_empty() => {}
            _ => {
                return fail(format!(
                    "the input shape {:?} must have from 1 to {MAX_INPUT} values",
                    self.input_shape
                ));
            }
        }
        if !(1..=MAX_ACTIONS).contains(&self.num_actions) {
            return fail(format!(
                "the action count {} must be from 1 to {MAX_ACTIONS}",
                self.num_actions
            ));
        }
        if self.num_values != self.value_layout.width() || self.num_values == 0 {
            return fail(format!(
                "{} values do not fit the value layout {:?}",
                self.num_values, self.value_layout
            ));
        }
        let (low, high) = self.payoff_range;
        if !(low.is_finite() && high.is_finite() && low < high) {
            return fail(format!("the payoff range ({low}, {high}) is not a range"));
        }
        let within = |what: &str, size: usize, max: usize| {
            if (1..=max).contains(&size) {
                Ok(())
            } else {
                Err(NetError::Description(format!(
                    "{what} {size} must be from 1 to {max}"
                )))
            }
        };
        match &self.architecture {
            Architecture::Residual {
                blocks,
                channels,
                policy_channels,
                value_channels,
                value_hidden,
            } => {
                if self.input_shape.len() != 3 {
                    return fail(format!(
                        "a residual network reads observations of shape [C, H, W], not {:?}",
                        self.input_shape
                    ));
                }
                if *blocks > MAX_DEPTH {
                    return fail(format!("{blocks} blocks are more than {MAX_DEPTH}"));
                }
                within("channels", *channels, MAX_WIDTH)?;
                within("policy channels", *policy_channels, MAX_WIDTH)?;
                within("value channels", *value_channels, MAX_WIDTH)?;
                within("value hidden units", *value_hidden, MAX_WIDTH)?;
            }
            Architecture::Mlp {
                hidden,
                value_hidden,
            } => {
                within("hidden layers", hidden.len(), MAX_DEPTH)?;
                for &size in hidden {
                    within("a hidden layer's units", size, MAX_WIDTH)?;
                }
                within("value hidden units", *value_hidden, MAX_WIDTH)?;
            }
        }
        let count = self
            .tensor_specs()
            .iter()
            .try_fold(0usize, |sum, spec| sum.checked_add(spec.len()));
        match count {
            Some(count) if count <= MAX_PARAMETERS => Ok(()),
            _ => fail(format!(
                "the network has more than {MAX_PARAMETERS} parameters"
            )),
        }
    }

    /// The network's tensors in the order of its parameters: names and
    /// shapes as in the file (PyTorch's layouts: a convolution's weight
    /// `[out, in, kh, kw]`, a linear layer's `[out, in]`).
    ///
    /// Sizes multiply with saturation: call on a validated description
    /// for exact sizes.
    pub fn tensor_specs(&self) -> Vec<TensorSpec> {
        let mut specs = Vec::new();
        let mut layer = |name: String, shape: Vec<usize>, init: Init| {
            let outputs = shape[0];
            specs.push(TensorSpec {
                name: format!("{name}.weight"),
                shape,
                init,
            });
            specs.push(TensorSpec {
                name: format!("{name}.bias"),
                shape: vec![outputs],
                init: Init::Zero,
            });
        };
        let values = self.num_values;
        let actions = self.num_actions;
        match &self.architecture {
            Architecture::Residual {
                blocks,
                channels,
                policy_channels,
                value_channels,
                value_hidden,
            } => {
                let (planes, squares) = (
                    self.input_shape[0],
                    self.input_shape[1].saturating_mul(self.input_shape[2]),
                );
                let c = *channels;
                layer("stem".into(), vec![c, planes, 3, 3], Init::Relu);
                for block in 0..*blocks {
                    layer(
                        format!("blocks.{block}.conv1"),
                        vec![c, c, 3, 3],
                        Init::Relu,
                    );
                    layer(
                        format!("blocks.{block}.conv2"),
                        vec![c, c, 3, 3],
                        Init::Residual(*blocks),
                    );
                }
                layer(
                    "policy.conv".into(),
                    vec![*policy_channels, c, 1, 1],
                    Init::Relu,
                );
                layer(
                    "policy.fc".into(),
                    vec![actions, policy_channels.saturating_mul(squares)],
                    Init::Output,
                );
                layer(
                    "value.conv".into(),
                    vec![*value_channels, c, 1, 1],
                    Init::Relu,
                );
                layer(
                    "value.fc1".into(),
                    vec![*value_hidden, value_channels.saturating_mul(squares)],
                    Init::Relu,
                );
                layer(
                    "value.fc2".into(),
                    vec![values, *value_hidden],
                    Init::Output,
                );
            }
            Architecture::Mlp {
                hidden,
                value_hidden,
            } => {
                let mut inputs = self.input_len();
                for (index, &size) in hidden.iter().enumerate() {
                    layer(format!("trunk.{index}"), vec![size, inputs], Init::Relu);
                    inputs = size;
                }
                layer("policy.fc".into(), vec![actions, inputs], Init::Output);
                layer("value.fc1".into(), vec![*value_hidden, inputs], Init::Relu);
                layer(
                    "value.fc2".into(),
                    vec![values, *value_hidden],
                    Init::Output,
                );
            }
        }
        specs
    }

    /// How many parameters the network has.
    pub fn parameter_count(&self) -> usize {
        self.tensor_specs().iter().map(TensorSpec::len).sum()
    }
}

/// One tensor of a network's weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorSpec {
    /// Its name in the file, e.g. `blocks.0.conv1.weight`.
    pub name: String,
    /// Its shape.
    pub shape: Vec<usize>,
    /// How a fresh network draws it.
    pub init: Init,
}

impl TensorSpec {
    /// How many values it holds.
    pub fn len(&self) -> usize {
        self.shape
            .iter()
            .fold(1usize, |product, &size| product.saturating_mul(size))
    }

    /// Whether it holds no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The inputs each output sums over: the weight's size over its first
    /// dimension.
    pub fn fan_in(&self) -> usize {
        self.len() / self.shape[0].max(1)
    }
}

/// How a fresh network draws a tensor (uniform distributions of mean 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Init {
    /// Zeros (the biases).
    Zero,
    /// He's initialisation for a layer followed by a ReLU: variance
    /// `2 / fan_in`, which keeps the activations' scale through the layers.
    Relu,
    /// The last convolution of a residual block among `n`: He's
    /// initialisation scaled by `1 / sqrt(n)` (as Fixup does), so that the
    /// sum of `n` blocks' outputs keeps its scale at the start and a deep
    /// network without normalisation trains stably.
    Residual(usize),
    /// An output layer (logits, values): Glorot's initialisation, variance
    /// `2 / (fan_in + fan_out)`.
    Output,
}
