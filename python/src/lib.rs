//! `stickdice._stickdice`: the extension module of the `stickdice` Python package. The
//! rules, agents and arena are the Rust crates' own; this crate only translates. The
//! stickdice book's chapter *Python* (`docs/python.md` in the repository) shows the package
//! to a user.
//!
//! * [`encoding`]: actions, chance outcomes and observations as numbers (the one place).
//! * [`state`]: `Game` and `State`.
//! * [`agent`]: `Agent`, from a spec or a Python callable.
//! * [`run`]: tournaments and random playouts, GIL released, Ctrl-C honoured.
//! * [`vector`]: the batched environment (`stickdice.vector`), into numpy arrays.

pub mod agent;
pub mod encoding;
pub mod run;
pub mod state;
pub mod vector;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use state::{PyGame, PyState};

/// Loads a game: a game of the list by name (`load_game("issiren", players=2,
/// max_throws=500)`), or a game description (the book's chapter on the description
/// format): the path of its file (str or os.PathLike) or its TOML text.
///
/// A str with a line break or a `=` is TOML text; a game's name is that game; otherwise a
/// str is a path when it ends in `.toml`, holds a path separator or names a file.
///
/// Raises:
///     ValueError: an unknown game or option, a bad option value, a seat count the game
///         does not allow, or a description that cannot be read (naming the line and the
///         field).
///     OSError: the description file cannot be read (FileNotFoundError when it is not
///         there).
#[pyfunction]
#[pyo3(signature = (name, players = None, **options))]
fn load_game(
    name: &Bound<'_, PyAny>,
    players: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyGame> {
    use state::GameSource;
    let any = match GameSource::of(name)? {
        GameSource::Name(name) => state::build_game(&name, players, options)?,
        GameSource::Text(text) => state::build_described("<description>", &text, players, options)?,
        GameSource::Path(path) => state::build_from_file(&path, players, options)?,
    };
    Ok(PyGame { any })
}

/// Every agent with its parameters, defaults and help (as `stickdice agents` prints them).
#[pyfunction]
fn agents(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for a in stickdice_agents::agents() {
        let d = PyDict::new(py);
        d.set_item("name", a.name)?;
        d.set_item("summary", a.summary)?;
        let params = PyList::empty(py);
        for p in a.params {
            let pd = PyDict::new(py);
            pd.set_item("name", p.key)?;
            pd.set_item("default", p.default)?;
            pd.set_item("help", p.help)?;
            params.append(pd)?;
        }
        d.set_item("params", params)?;
        list.append(d)?;
    }
    Ok(list)
}

/// A seed derived from `seed` and a path of numbers (the core's `seed::derive`): the CLI
/// seeds the agent of seat `s` in `stickdice play --seed S` with `derive_seed(S, [1, s])`.
#[pyfunction]
fn derive_seed(seed: u64, path: Vec<u64>) -> u64 {
    stickdice::seed::derive(seed, &path)
}

/// Duplicate dice, as the arena and `stickdice play` throw: the throw for seat `s` at its
/// `t`-th throw depends only on `(seed, s, t)`.
#[pyclass(name = "SeededDice", module = "stickdice._stickdice")]
struct PySeededDice {
    dice: stickdice::play::SeededDice,
}

#[pymethods]
impl PySeededDice {
    #[new]
    fn new(seed: u64) -> Self {
        PySeededDice {
            dice: stickdice::play::SeededDice::new(seed),
        }
    }

    /// The next throw (number of marked sides up) for the seat to throw in `state`.
    ///
    /// Raises:
    ///     ValueError: no throw is due in `state`.
    fn throw(&mut self, state: &PyState) -> PyResult<u32> {
        with_state!(&state.inner, |g, s| {
            use stickdice::Game;
            match g.node(s) {
                stickdice::Node::Throw(seat) => {
                    Ok(u32::from(self.dice.throw(seat, g.sticks()).marked()))
                }
                _ => Err(pyo3::exceptions::PyValueError::new_err(
                    "no throw is due in this state",
                )),
            }
        })
    }
}

/// The extension module.
#[pymodule]
fn _stickdice(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_class::<agent::PyAgent>()?;
    m.add_class::<PySeededDice>()?;
    m.add_class::<vector::PyVectorEnv>()?;
    m.add(
        "VectorIllegalAction",
        m.py().get_type::<vector::VectorIllegalAction>(),
    )?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(state::games, m)?)?;
    m.add_function(wrap_pyfunction!(agents, m)?)?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)?;
    m.add_function(wrap_pyfunction!(run::_tournament, m)?)?;
    m.add_function(wrap_pyfunction!(run::_play_random, m)?)?;
    m.add_function(wrap_pyfunction!(run::_compare, m)?)?;
    m.add_function(wrap_pyfunction!(state::_load_game_from_options, m)?)?;
    m.add_function(wrap_pyfunction!(state::_load_described_from_options, m)?)?;
    m.add_function(wrap_pyfunction!(state::_load_state, m)?)?;
    // The package's version is the crate's, which .ci/python.sh checks against the
    // workspace's (one version for the crates and the wheel).
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add(
        "MissingCapability",
        m.py().get_type::<state::MissingCapability>(),
    )?;
    m.add("CHANCE", state::CHANCE)?;
    m.add("TERMINAL", state::TERMINAL)?;
    Ok(())
}
