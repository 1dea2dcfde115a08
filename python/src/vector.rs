//! `_VectorEnv`: the batched environment of `stickdice-rl` for Python (`stickdice.vector`
//! wraps it). The step writes straight into numpy arrays the caller owns (no copy), with
//! the GIL released.

use numpy::{PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArray2};
use pyo3::exceptions::{PyIndexError, PyNotImplementedError, PyValueError};
use pyo3::prelude::*;
use std::sync::Mutex;

use stickdice_rl::{Out, VectorEnv, VectorError};

use crate::state::PyGame;

pyo3::create_exception!(
    _stickdice,
    VectorIllegalAction,
    PyValueError,
    "An action code that is not legal in one game of a batch; args: (message, game index, \
seat, action). No game was stepped."
);

fn vector_error(e: VectorError) -> PyErr {
    match e {
        VectorError::IllegalAction {
            index,
            seat,
            action,
            ..
        } => VectorIllegalAction::new_err((e.to_string(), index, seat, action)),
        VectorError::NotEncoded { .. } => PyNotImplementedError::new_err(e.to_string()),
        VectorError::Index { .. } => PyIndexError::new_err(e.to_string()),
        e => PyValueError::new_err(e.to_string()),
    }
}

/// The buffers of a step, as numpy arrays (C-contiguous, of the batch's shapes).
type Arrays<'py> = (
    PyReadwriteArray2<'py, f32>,
    PyReadwriteArray2<'py, bool>,
    PyReadwriteArray1<'py, i32>,
    PyReadwriteArray2<'py, f32>,
    PyReadwriteArray1<'py, bool>,
    PyReadwriteArray1<'py, bool>,
);

/// The opt-in buffers of a step: the legal codes and their counts.
type Legal<'py> = (
    Option<PyReadwriteArray2<'py, i64>>,
    Option<PyReadwriteArray1<'py, i32>>,
);

fn contiguous<T>(r: Result<&mut [T], numpy::NotContiguousError>) -> PyResult<&mut [T]> {
    r.map_err(|_| PyValueError::new_err("the output arrays must be C-contiguous"))
}

/// Runs `f` on the arrays' memory with the GIL released.
fn with_out<'py>(
    py: Python<'py>,
    arrays: Arrays<'py>,
    legal: Legal<'py>,
    f: impl FnOnce(Out<'_>) -> Result<(), VectorError> + Send,
) -> PyResult<()> {
    let (mut obs, mut masks, mut players, mut rewards, mut term, mut trunc) = arrays;
    let (mut codes, mut counts) = legal;
    let out = Out {
        observations: contiguous(obs.as_slice_mut())?,
        masks: contiguous(masks.as_slice_mut())?,
        players: contiguous(players.as_slice_mut())?,
        rewards: contiguous(rewards.as_slice_mut())?,
        terminated: contiguous(term.as_slice_mut())?,
        truncated: contiguous(trunc.as_slice_mut())?,
        legal_codes: match codes.as_mut() {
            Some(codes) => Some(contiguous(codes.as_slice_mut())?),
            None => None,
        },
        legal_counts: match counts.as_mut() {
            Some(counts) => Some(contiguous(counts.as_slice_mut())?),
            None => None,
        },
    };
    py.detach(|| f(out)).map_err(vector_error)
}

/// N games of one configuration (see `stickdice.vector.VectorEnv`).
#[pyclass(name = "_VectorEnv", module = "stickdice._stickdice")]
pub struct PyVectorEnv {
    /// A mutex only to be `Sync` (the opponents' agents are `Send`, not `Sync`); the
    /// methods that step take `&mut self` and never wait on it.
    env: Mutex<VectorEnv>,
}

#[pymethods]
impl PyVectorEnv {
    /// `num_envs` games of `game`; `seats[s]` is None for the learner's seats, an agent
    /// spec for an opponent's.
    #[new]
    fn new(game: &PyGame, num_envs: usize, seats: Vec<Option<String>>) -> PyResult<Self> {
        let seats: Vec<Option<&str>> = seats.iter().map(|s| s.as_deref()).collect();
        Ok(PyVectorEnv {
            env: Mutex::new(VectorEnv::new(&game.any, num_envs, &seats).map_err(vector_error)?),
        })
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.env().len()
    }

    #[getter]
    fn num_actions(&self) -> usize {
        self.env().num_actions()
    }

    #[getter]
    fn max_actions(&self) -> usize {
        self.env().max_actions()
    }

    #[getter]
    fn observation_len(&self) -> usize {
        self.env().observation_len()
    }

    #[getter]
    fn observation_doc(&self) -> &'static str {
        self.env().observation_doc()
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.env().seats()
    }

    fn game_seed(&self, index: usize) -> PyResult<u64> {
        self.index(index).map(|i| self.env().game_seed(i))
    }

    fn episode(&self, index: usize) -> PyResult<u64> {
        self.index(index).map(|i| self.env().episode(i))
    }

    fn save_state(&self, index: usize) -> PyResult<String> {
        self.index(index).map(|i| self.env().save_state(i))
    }

    fn set_parallel(&mut self, parallel: bool) {
        self.env_mut().set_parallel(parallel);
    }

    fn set_recording(&mut self, on: bool) {
        self.env_mut().set_recording(on);
    }

    fn replay_log(&self, index: usize) -> PyResult<String> {
        self.env().replay_log(index).map_err(vector_error)
    }

    /// Writes `text` to `path` whole or not at all, as a tournament writes its log: only
    /// over a regular file (or none), and under the folder's lock (`.stickdice.lock`), so
    /// that a running tournament's log is never replaced.
    #[staticmethod]
    fn write_log(path: std::path::PathBuf, text: &str) -> PyResult<()> {
        write_log(&path, text)
    }

    #[staticmethod]
    fn opponent_seed(game_seed: u64, seat: usize) -> u64 {
        stickdice_rl::opponent_seed(game_seed, seat)
    }

    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (seed, observations, masks, players, rewards, terminated, truncated,
                        legal_codes=None, legal_counts=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: u64,
        observations: PyReadwriteArray2<'py, f32>,
        masks: PyReadwriteArray2<'py, bool>,
        players: PyReadwriteArray1<'py, i32>,
        rewards: PyReadwriteArray2<'py, f32>,
        terminated: PyReadwriteArray1<'py, bool>,
        truncated: PyReadwriteArray1<'py, bool>,
        legal_codes: Option<PyReadwriteArray2<'py, i64>>,
        legal_counts: Option<PyReadwriteArray1<'py, i32>>,
    ) -> PyResult<()> {
        let env = self.env_mut();
        with_out(
            py,
            (observations, masks, players, rewards, terminated, truncated),
            (legal_codes, legal_counts),
            |out| env.reset(seed, out),
        )
    }

    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (actions, observations, masks, players, rewards, terminated, truncated,
                        legal_codes=None, legal_counts=None))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
        observations: PyReadwriteArray2<'py, f32>,
        masks: PyReadwriteArray2<'py, bool>,
        players: PyReadwriteArray1<'py, i32>,
        rewards: PyReadwriteArray2<'py, f32>,
        terminated: PyReadwriteArray1<'py, bool>,
        truncated: PyReadwriteArray1<'py, bool>,
        legal_codes: Option<PyReadwriteArray2<'py, i64>>,
        legal_counts: Option<PyReadwriteArray1<'py, i32>>,
    ) -> PyResult<()> {
        let actions = actions
            .as_slice()
            .map_err(|_| PyValueError::new_err("actions must be C-contiguous"))?;
        let env = self.env_mut();
        with_out(
            py,
            (observations, masks, players, rewards, terminated, truncated),
            (legal_codes, legal_counts),
            |out| env.step(actions, out),
        )
    }
}

impl PyVectorEnv {
    fn env(&self) -> std::sync::MutexGuard<'_, VectorEnv> {
        self.env.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn env_mut(&mut self) -> &mut VectorEnv {
        self.env.get_mut().unwrap_or_else(|e| e.into_inner())
    }

    fn index(&self, index: usize) -> PyResult<usize> {
        if index < self.env().len() {
            Ok(index)
        } else {
            Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "game {index} of a batch of {}",
                self.env().len()
            )))
        }
    }
}

/// [`PyVectorEnv::write_log`]: refuses a target that exists and is not a regular file (a
/// device, a folder, a pipe: renaming over it would replace it with a file), takes the
/// folder's lock (refused while a tournament, training or comparison holds it), then writes
/// the file whole ([`stickdice_agents::files::write_atomic`]).
fn write_log(path: &std::path::Path, text: &str) -> PyResult<()> {
    use pyo3::exceptions::PyOSError;
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            return Err(PyOSError::new_err(format!(
            "{}: not a regular file; a log is written only over a regular file or where none is",
            path.display()
        )))
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(PyOSError::new_err(format!("{}: {e}", path.display()))),
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let _lock = stickdice_evaluation::tournament::lock_folder(&folder).map_err(|e| match e {
        stickdice_evaluation::tournament::TournamentError::Busy { out } => PyOSError::new_err(format!(
            "{} is in use by another stickdice run (it holds the lock on {}); the log was not written",
            out.display(),
            out.join(stickdice_evaluation::tournament::LOCK_FILE).display()
        )),
        other => PyOSError::new_err(other.to_string()),
    })?;
    stickdice_agents::files::write_atomic(path, text.as_bytes())
        .map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))
}
