//! Network files: safetensors, every tensor `F32` under its name of
//! [`NetDescription::tensor_specs`], the description as JSON in the
//! header's metadata under [`DESCRIPTION_KEY`]. One file describes itself;
//! there is no sidecar to lose or mix up.
//!
//! Reading trusts nothing: the safetensors crate checks the header's size,
//! offsets and lengths against the bytes; then the description is
//! validated (sizes within bounds) before anything is allocated for it,
//! and every tensor the description names must be there, `F32`, of its
//! shape and finite, and no other tensor may be.

use super::NetError;
use super::description::{NetDescription, TensorSpec};
use super::network::Network;
use crate::core::check_memory;
use safetensors::tensor::TensorView;
use safetensors::{Dtype, SafeTensors};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::Path;

/// The metadata key of a network's description (JSON).
pub const DESCRIPTION_KEY: &str = "norn.net";

/// The bytes of the little-endian length that opens a safetensors file.
const HEADER_LENGTH_BYTES: usize = 8;

/// A file's contents beyond the network: extra metadata and tensors, as a
/// training checkpoint stores its optimizer's state.
pub(super) struct Extra {
    /// Metadata entries other than the description.
    pub metadata: Vec<(String, String)>,
    /// Tensors other than the network's: name, shape, values.
    pub tensors: Vec<(String, Vec<usize>, Vec<f32>)>,
}

/// The bytes of a network file, refused when larger than memory allows.
///
/// # Errors
/// A file that cannot be read, or is too large.
pub fn read_network_file(path: &Path) -> Result<Vec<u8>, NetError> {
    let io = |error: std::io::Error| NetError::Io(format!("{}: {error}", path.display()));
    let metadata = std::fs::metadata(path).map_err(io)?;
    // A device or a pipe has no length to check and may never end
    // (`/dev/zero`, a FIFO no one writes to): only a plain file is read.
    if !metadata.is_file() {
        return Err(NetError::Io(format!(
            "{}: not a plain file",
            path.display()
        )));
    }
    let len = metadata.len();
    check_memory(&format!("the network file {}", path.display()), len).map_err(NetError::Memory)?;
    // A file that grows while it is read is read no further than its
    // length when it was checked (and then fails to parse).
    let mut bytes = Vec::with_capacity(len as usize);
    std::fs::File::open(path)
        .and_then(|file| file.take(len).read_to_end(&mut bytes))
        .map_err(io)?;
    Ok(bytes)
}

/// Writes `bytes` to `path` through a temporary file beside it, renamed
/// over it: a crash leaves the old file or the new one, never half.
pub(super) fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), NetError> {
    let io = |error: std::io::Error| NetError::Io(format!("{}: {error}", path.display()));
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    std::fs::write(&temporary, bytes).map_err(io)?;
    std::fs::rename(&temporary, path).map_err(io)
}

/// The parsed file: its description's tensors checked, and the tensors
/// and metadata that `extra` names read for the caller.
pub(super) struct Parsed<'a> {
    pub description: NetDescription,
    pub specs: Vec<TensorSpec>,
    pub params: Vec<f32>,
    tensors: SafeTensors<'a>,
    metadata: Vec<(String, String)>,
}

impl Parsed<'_> {
    /// A metadata entry other than the description.
    pub fn metadata(&self, key: &str) -> Option<&str> {
        self.metadata
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value.as_str())
    }

    /// The tensors named `prefix` + each network tensor's name, in the
    /// network's order and shapes (an optimizer's moments).
    pub fn shadow(&self, prefix: &str) -> Result<Vec<f32>, NetError> {
        let mut values = Vec::with_capacity(self.params.len());
        for spec in &self.specs {
            let name = format!("{prefix}{}", spec.name);
            read_tensor(&self.tensors, &name, &spec.shape, &mut values)?;
        }
        Ok(values)
    }
}

/// Parses a network file; tensors whose names start with one of
/// `extra_prefixes` may be there besides the network's.
pub(super) fn parse<'a>(bytes: &'a [u8], extra_prefixes: &[&str]) -> Result<Parsed<'a>, NetError> {
    let tensors = SafeTensors::deserialize(bytes)
        .map_err(|error| NetError::Format(format!("not a safetensors file: {error}")))?;
    let (_, header) = SafeTensors::read_metadata(bytes)
        .map_err(|error| NetError::Format(format!("not a safetensors file: {error}")))?;
    let mut metadata: Vec<(String, String)> = header
        .metadata()
        .iter()
        .flat_map(|entries| entries.iter())
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    metadata.sort();
    let Some(position) = metadata.iter().position(|(key, _)| key == DESCRIPTION_KEY) else {
        return Err(NetError::Format(format!(
            "the file has no network description (metadata `{DESCRIPTION_KEY}`)"
        )));
    };
    let (_, text) = metadata.remove(position);
    let description: NetDescription = serde_json::from_str(&text).map_err(|error| {
        NetError::Description(format!("the description does not read: {error}"))
    })?;
    description.validate()?;
    let specs = description.tensor_specs();
    let count: usize = specs.iter().map(TensorSpec::len).sum();
    let mut params = Vec::with_capacity(count);
    for spec in &specs {
        read_tensor(&tensors, &spec.name, &spec.shape, &mut params)?;
    }
    let expected: BTreeSet<&str> = specs.iter().map(|spec| spec.name.as_str()).collect();
    for name in tensors.names() {
        let known = expected.contains(name)
            || extra_prefixes.iter().any(|prefix| {
                name.strip_prefix(prefix)
                    .is_some_and(|rest| expected.contains(rest))
            });
        if !known {
            return Err(NetError::Weights(format!(
                "the file has a tensor `{}` that the network does not",
                crate::core::escape_control(name)
            )));
        }
    }
    Ok(Parsed {
        description,
        specs,
        params,
        tensors,
        metadata,
    })
}

/// Appends tensor `name` of the file, checked to be `F32` of `shape` and
/// finite, to `values`.
fn read_tensor(
    tensors: &SafeTensors<'_>,
    name: &str,
    shape: &[usize],
    values: &mut Vec<f32>,
) -> Result<(), NetError> {
    let view = tensors
        .tensor(name)
        .map_err(|_| NetError::Weights(format!("the file has no tensor `{name}`")))?;
    if view.dtype() != Dtype::F32 {
        return Err(NetError::Weights(format!(
            "`{name}` is {:?}, not F32",
            view.dtype()
        )));
    }
    if view.shape() != shape {
        return Err(NetError::Weights(format!(
            "`{name}` has shape {:?}, not {shape:?}",
            view.shape()
        )));
    }
    let start = values.len();
    values.extend(
        view.data()
            .chunks_exact(4)
            .map(|bytes| f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])),
    );
    if let Some(index) = values[start..].iter().position(|value| !value.is_finite()) {
        return Err(NetError::Weights(format!(
            "`{name}`[{index}] is {}, not a finite number",
            values[start + index]
        )));
    }
    Ok(())
}

/// The bytes of a file holding `network` and `extra`.
pub(super) fn serialize(network: &Network, extra: &Extra) -> Result<Vec<u8>, NetError> {
    let description = serde_json::to_string(network.description())
        .map_err(|error| NetError::Format(error.to_string()))?;
    let mut named: Vec<(String, Vec<usize>, Vec<u8>)> = Vec::new();
    let mut rest = network.parameters();
    for spec in network.tensor_specs() {
        let (tensor, after) = rest.split_at(spec.len());
        named.push((spec.name.clone(), spec.shape.clone(), le_bytes(tensor)));
        rest = after;
    }
    for (name, shape, values) in &extra.tensors {
        named.push((name.clone(), shape.clone(), le_bytes(values)));
    }
    let views = named
        .iter()
        .map(|(name, shape, bytes)| {
            TensorView::new(Dtype::F32, shape.clone(), bytes)
                .map(|view| (name.as_str(), view))
                .map_err(|error| NetError::Format(error.to_string()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let metadata = std::iter::once((DESCRIPTION_KEY.to_string(), description))
        .chain(extra.metadata.iter().cloned())
        .collect();
    let bytes = safetensors::serialize(views, Some(metadata))
        .map_err(|error| NetError::Format(error.to_string()))?;
    sort_header(bytes)
}

/// The file `bytes` with its header's entries in the order of their keys.
/// The safetensors crate writes the metadata from a `HashMap`, whose order
/// changes from one map to the next: sorted, the same network and state
/// always give the same bytes, so that two checkpoints compare as files.
fn sort_header(bytes: Vec<u8>) -> Result<Vec<u8>, NetError> {
    /// The header as safetensors lays it out: the metadata's strings under
    /// one key, each tensor's entry under its name.
    #[derive(serde::Deserialize, serde::Serialize)]
    struct Header {
        #[serde(rename = "__metadata__", skip_serializing_if = "Option::is_none")]
        metadata: Option<BTreeMap<String, String>>,
        #[serde(flatten)]
        tensors: BTreeMap<String, serde_json::Value>,
    }
    let format = |error: String| NetError::Format(format!("a header written unreadably: {error}"));
    let (length, rest) = bytes
        .split_first_chunk::<HEADER_LENGTH_BYTES>()
        .ok_or_else(|| format("no length".to_string()))?;
    let length = usize::try_from(u64::from_le_bytes(*length))
        .ok()
        .filter(|&length| length <= rest.len())
        .ok_or_else(|| format("a length beyond the file".to_string()))?;
    let (header, data) = rest.split_at(length);
    let header: Header =
        serde_json::from_slice(header).map_err(|error| format(error.to_string()))?;
    let mut sorted = serde_json::to_vec(&header).map_err(|error| format(error.to_string()))?;
    // The data starts aligned to the length's width, as the crate aligns it.
    sorted.resize(sorted.len().next_multiple_of(HEADER_LENGTH_BYTES), b' ');
    let mut out = Vec::with_capacity(HEADER_LENGTH_BYTES + sorted.len() + data.len());
    out.extend_from_slice(&(sorted.len() as u64).to_le_bytes());
    out.extend_from_slice(&sorted);
    out.extend_from_slice(data);
    Ok(out)
}

fn le_bytes(values: &[f32]) -> Vec<u8> {
    values
        .iter()
        .flat_map(|value| value.to_le_bytes())
        .collect()
}

impl Network {
    /// The network as the bytes of a safetensors file (see the module
    /// [`crate::net`] for the layout).
    ///
    /// # Errors
    /// None in practice: the description and tensors always serialize.
    pub fn to_bytes(&self) -> Result<Vec<u8>, NetError> {
        serialize(
            self,
            &Extra {
                metadata: Vec::new(),
                tensors: Vec::new(),
            },
        )
    }

    /// The network of a safetensors file's bytes, every part checked
    /// (see [`Network::load`]). A training checkpoint reads as its network.
    ///
    /// # Errors
    /// Bytes that are not safetensors, a missing or invalid description,
    /// a missing, extra, mis-shaped, non-`F32` or non-finite tensor.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let parsed = parse(bytes, &super::train::MOMENT_PREFIXES)?;
        Network::from_parts(parsed.description, parsed.specs, parsed.params)
    }

    /// Writes the network to `path` (the whole file at once: a crash
    /// leaves the old file or the new one).
    ///
    /// # Errors
    /// A file that cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), NetError> {
        write_bytes(path, &self.to_bytes()?)
    }

    /// Reads a network file, refusing anything that is not a whole,
    /// consistent network: see [`Network::from_bytes`]. Check it against
    /// the game it is to play with
    /// [`check_game`](NetDescription::check_game).
    ///
    /// # Errors
    /// A file that cannot be read or is larger than memory allows, and as
    /// [`Network::from_bytes`].
    pub fn load(path: &Path) -> Result<Network, NetError> {
        Network::from_bytes(&read_network_file(path)?).map_err(|error| error.in_file(path))
    }
}
