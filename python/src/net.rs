//! `norn.Network`: a policy-value network of `norn::net`, loaded from a
//! safetensors file (or built from numpy arrays) and run on numpy arrays.

use crate::numbers::Whole;
use crate::{Game, value_error};
use norn::net::{GameShape, NetDescription, NetOptions, Network as Inner};
use numpy::{IntoPyArray, PyArray2, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;

/// A policy-value network: `Network.load(path)`, then
/// `logits, values = network(observations)` on a float32 array of shape
/// `(batch, *observation_shape)`.
#[pyclass(module = "norn._norn", name = "Network", frozen)]
pub struct Network {
    pub(crate) inner: Inner,
}

fn net_error(error: norn::net::NetError) -> PyErr {
    value_error(error)
}

/// The description as a Python dict (through its JSON).
fn description_dict<'py>(
    py: Python<'py>,
    description: &NetDescription,
) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(description).map_err(value_error)?;
    py.import("json")?.call_method1("loads", (text,))
}

/// A description from a dict or its JSON text, validated.
fn read_description(description: &Bound<'_, PyAny>) -> PyResult<NetDescription> {
    let text: String = match description.extract::<String>() {
        Ok(text) => text,
        Err(_) => description
            .py()
            .import("json")?
            .call_method1("dumps", (description,))?
            .extract()?,
    };
    let description: NetDescription = serde_json::from_str(&text)
        .map_err(|error| value_error(format!("the description does not read: {error}")))?;
    description.validate().map_err(net_error)?;
    Ok(description)
}

#[pymethods]
impl Network {
    /// Reads a network file (a training checkpoint reads as its network).
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<Network> {
        Ok(Network {
            inner: Inner::load(&path).map_err(net_error)?,
        })
    }

    /// A fresh network for `game`, its weights drawn from `seed`, its
    /// architecture from `options` (`"blocks=6,channels=64"`; empty for
    /// the defaults).
    #[staticmethod]
    #[pyo3(signature = (game, seed, options = ""))]
    fn init(game: &Game, seed: Whole, options: &str) -> PyResult<Network> {
        let seed = seed.at_least("seed", 0)?;
        let options: NetOptions = options.parse().map_err(value_error)?;
        let shape = GameShape::of(game.inner.as_ref());
        let description = NetDescription::new(&shape, &options).map_err(net_error)?;
        Ok(Network {
            inner: Inner::init(description, seed).map_err(net_error)?,
        })
    }

    /// A network from its description (a dict, or its JSON text) and its
    /// tensors (a dict of numpy arrays by name, float32, in the shapes
    /// `tensor_shapes()` of the same description gives): how a network
    /// trained in Python becomes one norn's agents can load (`save` it).
    #[staticmethod]
    fn from_arrays(
        description: &Bound<'_, PyAny>,
        tensors: &Bound<'_, PyDict>,
    ) -> PyResult<Network> {
        let description = read_description(description)?;
        let mut params = Vec::with_capacity(description.parameter_count());
        for spec in description.tensor_specs() {
            let array = tensors
                .get_item(&spec.name)?
                .ok_or_else(|| value_error(format!("no tensor `{}`", spec.name)))?;
            let array: PyReadonlyArrayDyn<'_, f32> = array.extract().map_err(|_| {
                value_error(format!("`{}` is not a float32 numpy array", spec.name))
            })?;
            if array.shape() != spec.shape.as_slice() {
                return Err(value_error(format!(
                    "`{}` has shape {:?}, not {:?}",
                    spec.name,
                    array.shape(),
                    spec.shape
                )));
            }
            params.extend(array.as_array().iter().copied());
        }
        if tensors.len() != description.tensor_specs().len() {
            return Err(value_error(format!(
                "{} tensors given, where the network has {}",
                tensors.len(),
                description.tensor_specs().len()
            )));
        }
        Ok(Network {
            inner: Inner::from_parameters(description, params).map_err(net_error)?,
        })
    }

    /// The tensors' names and shapes for a description (a dict or JSON),
    /// in the file's order: what `from_arrays` expects.
    #[staticmethod]
    fn tensor_shapes(description: &Bound<'_, PyAny>) -> PyResult<Vec<(String, Vec<usize>)>> {
        let description = read_description(description)?;
        Ok(description
            .tensor_specs()
            .into_iter()
            .map(|spec| (spec.name, spec.shape))
            .collect())
    }

    /// Writes the network to a safetensors file.
    fn save(&self, path: PathBuf) -> PyResult<()> {
        self.inner.save(&path).map_err(net_error)
    }

    /// The description: game, rules, shapes, value layout, architecture.
    #[getter]
    fn description<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        description_dict(py, self.inner.description())
    }

    /// How many parameters the network has.
    #[getter]
    fn parameter_count(&self) -> usize {
        self.inner.parameters().len()
    }

    /// Every tensor as a float32 numpy array (a copy), by name.
    fn tensors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        let mut rest = self.inner.parameters();
        for spec in self.inner.tensor_specs() {
            let (tensor, after) = rest.split_at(spec.len());
            rest = after;
            let array = tensor
                .to_vec()
                .into_pyarray(py)
                .reshape(spec.shape.clone())?;
            dict.set_item(&spec.name, array)?;
        }
        Ok(dict)
    }

    /// The same network running on `threads` threads (the outputs do not
    /// depend on it).
    fn with_threads(&self, threads: Whole) -> PyResult<Network> {
        let threads = threads.at_least("threads", 1)?;
        let mut inner = self.inner.clone();
        inner.set_threads(threads).map_err(net_error)?;
        Ok(Network { inner })
    }

    /// The threads a call runs on.
    #[getter]
    fn threads(&self) -> usize {
        self.inner.threads()
    }

    /// The policy logits `(batch, num_actions)` and values `(batch,
    /// num_values)` of a float32 array of observations `(batch,
    /// *observation_shape)` (or `(batch, size)`), computed without holding
    /// the interpreter.
    #[allow(clippy::type_complexity)]
    fn __call__<'py>(
        &self,
        py: Python<'py>,
        observations: PyReadonlyArrayDyn<'py, f32>,
    ) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<f32>>)> {
        let description = self.inner.description();
        let shape = observations.shape();
        let input = description.input_len();
        let batch = shape.first().copied().unwrap_or(0);
        let size: usize = shape.iter().skip(1).product();
        if shape.len() < 2 || size != input {
            return Err(value_error(format!(
                "observations of shape {shape:?}: expected (batch, {input}) or (batch, *{:?})",
                description.input_shape
            )));
        }
        let values_in: Vec<f32> = observations.as_array().iter().copied().collect();
        let network = &self.inner;
        let (actions, outputs) = (description.num_actions, description.num_values);
        let mut logits = vec![0.0f32; batch * actions];
        let mut values = vec![0.0f32; batch * outputs];
        py.detach(|| network.forward(&values_in, batch, &mut logits, &mut values))
            .map_err(net_error)?;
        let logits = logits.into_pyarray(py).reshape([batch, actions])?;
        let values = values.into_pyarray(py).reshape([batch, outputs])?;
        Ok((logits, values))
    }

    fn __repr__(&self) -> String {
        let description = self.inner.description();
        format!(
            "<norn Network of {} with {} parameters>",
            description.game,
            self.inner.parameters().len()
        )
    }
}
