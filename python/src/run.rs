//! Batch paths at Rust speed: tournaments (the evaluation crate's `TournamentBuilder`, with
//! its cancellation flag for Ctrl-C) and random playouts, with the GIL released while Rust
//! plays.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rand::SeedableRng;
use rayon::prelude::*;

use stickdice::Agent;
use stickdice_evaluation::tournament::Progress;
use stickdice_evaluation::{Format, Report, TournamentBuilder};

use crate::agent::{AgentSource, CallableAgent};
use crate::state::{numpy_from_bytes, value_error, PyGame, PyGameKind};

/// How often the waiting Python thread looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a worker thread with the GIL released, checking for signals (Ctrl-C)
/// every [`POLL`]; on a signal, sets `cancel`, waits for the worker to stop, and raises.
fn run_cancellable<T: Send>(
    py: Python<'_>,
    cancel: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        let handle = scope.spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            let _ = tx.send(());
            r
        });
        let rx = std::sync::Mutex::new(rx);
        loop {
            let finished = py.detach(|| {
                rx.lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .recv_timeout(POLL)
            });
            match finished {
                Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        cancel.store(true, Ordering::SeqCst);
                        let _ = py.detach(|| handle.join());
                        return Err(e);
                    }
                }
            }
        }
        match py.detach(|| handle.join()) {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(panic)) | Err(panic) => {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "a panic".to_string());
                Err(PyRuntimeError::new_err(format!("the run failed: {msg}")))
            }
        }
    })
}

fn pool(threads: Option<usize>) -> PyResult<rayon::ThreadPool> {
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start worker threads: {e}")))
}

/// What a tournament returns to Python (turned into plain dicts by `json`).
fn summary_json(
    report: &Report,
    labels: &[String],
    seconds_per_game: &[f64],
    elapsed: Duration,
    played: usize,
    threads: usize,
) -> String {
    let mut v = serde_json::to_value(report).expect("reports serialize");
    let map = v.as_object_mut().expect("a report is an object");
    map.insert(
        "seconds_per_game".into(),
        serde_json::Value::Object(
            labels
                .iter()
                .zip(seconds_per_game)
                .map(|(l, s)| (l.clone(), serde_json::json!(s)))
                .collect(),
        ),
    );
    map.insert("elapsed_s".into(), serde_json::json!(elapsed.as_secs_f64()));
    map.insert("played".into(), serde_json::json!(played));
    map.insert("threads".into(), serde_json::json!(threads));
    map.insert(
        "standings_table".into(),
        serde_json::json!(report.standings_table()),
    );
    v.to_string()
}

#[allow(clippy::too_many_arguments)]
fn tournament_of<G: PyGameKind>(
    py: Python<'_>,
    game: &G,
    sources: Vec<AgentSource>,
    format: Format,
    games: usize,
    seed: u64,
    threads: Option<usize>,
    out: Option<PathBuf>,
    restart: bool,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let has_callable = sources
        .iter()
        .any(|s| matches!(s, AgentSource::Callable(..)));
    // Python agents hold the GIL while they choose: one thread is as fast and keeps the
    // order of their calls reproducible.
    let threads = if has_callable { Some(1) } else { threads };
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let mut builder = TournamentBuilder::new(game.clone())
        .format(format)
        .games(games)
        .seed(seed)
        .restart(restart)
        .cancel(cancel.clone());
    if let Some(n) = threads {
        builder = builder.threads(n);
    }
    for src in sources {
        builder = match src {
            AgentSource::Spec(spec) => builder.agent(&spec),
            AgentSource::Callable(f, name) => builder.factory(name.clone(), move |_: &G, _| {
                Box::new(CallableAgent {
                    f: f.clone(),
                    name: name.clone(),
                }) as Box<dyn Agent<G>>
            }),
        };
    }
    if let Some(cb) = progress {
        builder = builder.progress(move |p: Progress| {
            Python::attach(|py| {
                // A failing progress callback does not stop the games.
                let _ = cb.bind(py).call1((p.done, p.total));
            });
        });
    }
    let (t, options) = builder.build().map_err(value_error)?;
    let nthreads = threads.unwrap_or_else(rayon::current_num_threads);
    let summary = run_cancellable(py, &cancel, || match &out {
        Some(dir) => t.run(dir, &options),
        None => t.run_in_memory(&options),
    })?
    .map_err(value_error)?;
    let report = summary
        .report
        .as_ref()
        .ok_or_else(|| PyRuntimeError::new_err("the tournament stopped before it finished"))?;
    Ok(summary_json(
        report,
        &summary.labels,
        &summary.seconds_per_game,
        summary.elapsed,
        summary.played,
        nthreads,
    ))
}

/// Plays a tournament; returns the report as JSON text (the Python wrapper parses it).
#[pyfunction]
#[pyo3(signature = (game, agents, games = 200, seed = 1, threads = None, out = None, format = "round-robin", restart = false, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn _tournament(
    py: Python<'_>,
    game: &PyGame,
    agents: &Bound<'_, PyList>,
    games: usize,
    seed: u64,
    threads: Option<usize>,
    out: Option<PathBuf>,
    format: &str,
    restart: bool,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let sources = agents
        .iter()
        .map(|a| AgentSource::from_py(&a))
        .collect::<PyResult<Vec<_>>>()?;
    let format: Format = format.parse().map_err(value_error)?;
    if games == 0 {
        return Err(PyValueError::new_err("games must be at least 1"));
    }
    stickdice::with_game!(&game.any, |g| tournament_of(
        py, g, sources, format, games, seed, threads, out, restart, progress
    ))
}

/// Per-game results of random playouts, as little-endian bytes for numpy.
struct Batch {
    throws: Vec<u8>,
    places: Vec<u8>,
    scores: Vec<u8>,
}

fn random_games<G: stickdice::Playouts>(
    game: &G,
    range: std::ops::Range<usize>,
    seed: u64,
) -> Vec<(u32, stickdice::Ranking)> {
    range
        .into_par_iter()
        .map(|i| {
            let mut rng = stickdice::Rng::seed_from_u64(stickdice::seed::derive(seed, &[i as u64]));
            let mut state = game.initial_state();
            let r = stickdice::play::random_playout(game, &mut state, &mut rng);
            (game.throws_made(&state), r)
        })
        .collect()
}

/// Plays `n` uniformly random games in parallel; game `i` is seeded by
/// `derive_seed(seed, [i])`, so results do not depend on the thread count. Returns
/// `(throws, places, scores)` as bytes of u32, u8 and f64 arrays.
#[pyfunction]
#[pyo3(signature = (game, n, seed = 1, threads = None))]
pub fn _play_random<'py>(
    py: Python<'py>,
    game: &PyGame,
    n: usize,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let pool = pool(threads)?;
    let seats = game.any.seats();
    let mut batch = Batch {
        throws: Vec::with_capacity(n * 4),
        places: Vec::with_capacity(n * seats),
        scores: Vec::with_capacity(n * seats * 8),
    };
    let chunk = 1 << 14;
    let start = Instant::now();
    let mut at = 0;
    while at < n {
        let end = (at + chunk).min(n);
        let results = py.detach(|| {
            pool.install(|| stickdice::with_game!(&game.any, |g| random_games(g, at..end, seed)))
        });
        for (throws, r) in results {
            batch.throws.extend_from_slice(&throws.to_le_bytes());
            batch.places.extend_from_slice(r.places());
            for s in 0..seats {
                batch.scores.extend_from_slice(&r.score(s).to_le_bytes());
            }
        }
        at = end;
        py.check_signals()?;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let d = PyDict::new(py);
    d.set_item("throws", numpy_from_bytes(py, &batch.throws, "<u4", &[n])?)?;
    d.set_item(
        "places",
        numpy_from_bytes(py, &batch.places, "u1", &[n, seats])?,
    )?;
    d.set_item(
        "scores",
        numpy_from_bytes(py, &batch.scores, "<f8", &[n, seats])?,
    )?;
    d.set_item("elapsed_s", elapsed)?;
    Ok(d)
}
