//! Batch paths at Rust speed: tournaments (the evaluation crate's `TournamentBuilder`, with
//! its cancellation flag for Ctrl-C) and random playouts, with the GIL released while Rust
//! plays.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rand::SeedableRng;
use rayon::prelude::*;

use stickdice::Agent;
use stickdice_evaluation::tournament::{Progress, MAX_THREADS};
use stickdice_evaluation::{Format, Report, TournamentBuilder};

use crate::agent::{AgentSource, CallableAgent};
use crate::state::{numpy_from_bytes, value_error, PyGame, PyGameKind};

/// How often the waiting Python thread looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a worker thread with the GIL released, checking for signals (Ctrl-C)
/// every [`POLL`]; on a signal, calls `cancel` (which must make `work` stop soon), waits
/// for the worker to stop, and raises.
pub(crate) fn run_cancellable<T: Send>(
    py: Python<'_>,
    cancel: &dyn Fn(),
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
                        cancel();
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

/// The most games one call of `play_random` plays (the CLI's bound on `--games`): the
/// results are held in memory, about 10 bytes per seat and game.
pub const MAX_RANDOM_GAMES: usize = 1_000_000;

/// Checks a `threads` argument as the CLI checks `--threads`: 1 to [`MAX_THREADS`].
fn check_threads(threads: Option<usize>) -> PyResult<()> {
    match threads {
        Some(0) => Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) if n > MAX_THREADS => Err(PyValueError::new_err(format!(
            "threads {n} is more than the limit of {MAX_THREADS}"
        ))),
        _ => Ok(()),
    }
}

fn pool(threads: Option<usize>) -> PyResult<rayon::ThreadPool> {
    check_threads(threads)?;
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
    check_threads(threads)?;
    let threads = if has_callable { Some(1) } else { threads };
    let cancel = Arc::new(AtomicBool::new(false));
    // The first exception that must stop the run: raised by `progress`, or a
    // KeyboardInterrupt/SystemExit raised inside a Python agent. It cancels the run and is
    // raised once the run has stopped.
    let raised: Raised = Arc::new(Mutex::new(None));
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
            AgentSource::Callable(f, name) => {
                let (raised, cancel) = (raised.clone(), cancel.clone());
                builder.factory(name.clone(), move |_: &G, _| {
                    Box::new(CallableAgent {
                        f: f.clone(),
                        name: name.clone(),
                        stop_run: Some((raised.clone(), cancel.clone())),
                    }) as Box<dyn Agent<G>>
                })
            }
        };
    }
    if let Some(cb) = progress {
        let (raised, cancel) = (raised.clone(), cancel.clone());
        builder = builder.progress(move |p: Progress| {
            Python::attach(|py| {
                // An exception in the callback stops the run and is raised from it.
                if let Err(e) = cb.bind(py).call1((p.done, p.total)) {
                    stop_run(&raised, &cancel, e);
                }
            });
        });
    }
    let (t, options) = builder.build().map_err(value_error)?;
    let nthreads = threads.unwrap_or_else(rayon::current_num_threads);
    let result = run_cancellable(
        py,
        &|| cancel.store(true, Ordering::SeqCst),
        || match &out {
            Some(dir) => t.run(dir, &options),
            None => t.run_in_memory(&options),
        },
    );
    if let Some(e) = raised.lock().unwrap_or_else(|p| p.into_inner()).take() {
        return Err(e);
    }
    let summary = result?.map_err(value_error)?;
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

/// The exception that stopped a tournament, shared by the callbacks that may raise it.
pub(crate) type Raised = Arc<Mutex<Option<PyErr>>>;

/// Keeps the first exception that stops a run, and cancels the run.
pub(crate) fn stop_run(raised: &Raised, cancel: &AtomicBool, e: PyErr) {
    let mut first = raised.lock().unwrap_or_else(|p| p.into_inner());
    if first.is_none() {
        *first = Some(e);
    }
    cancel.store(true, Ordering::SeqCst);
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
    if let Some(p) = &progress {
        if !p.bind(py).is_callable() {
            return Err(PyTypeError::new_err(format!(
                "progress must be a callable progress(done, total), not {}",
                p.bind(py).get_type().name()?
            )));
        }
    }
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
    if n > MAX_RANDOM_GAMES {
        return Err(PyValueError::new_err(format!(
            "n {n} is more than the limit of {MAX_RANDOM_GAMES} games per call (call play_random again with another seed for more)"
        )));
    }
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

/// Compares configurations (`stickdice compare`): `configs` are `(game, players, options)`
/// with options written `key=value`; returns the comparison's columns
/// ([`stickdice_evaluation::compare::Comparison::columns`]) as JSON text, which the
/// Python wrapper parses into a dict of lists. The games run in Rust with the GIL
/// released, on `threads` worker threads; the same seed gives the same figures on any
/// thread count. Ctrl-C stops it (KeyboardInterrupt).
#[pyfunction]
#[pyo3(signature = (configs, games, agents, trace, trace_rotations, luck_games, detailed, metrics, exact, alpha, seed, threads = None))]
#[allow(clippy::too_many_arguments)]
pub fn _compare(
    py: Python<'_>,
    configs: Vec<(String, Option<usize>, Vec<String>)>,
    games: usize,
    agents: Vec<String>,
    trace: Option<Vec<String>>,
    trace_rotations: usize,
    luck_games: usize,
    detailed: usize,
    metrics: Vec<String>,
    exact: bool,
    alpha: f64,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<String> {
    use stickdice_evaluation::compare::{self, Configuration, Settings};
    let configs = configs
        .iter()
        .map(|(game, players, options)| Configuration::new(game, *players, options))
        .collect::<Result<Vec<_>, _>>()
        .map_err(value_error)?;
    if games > MAX_RANDOM_GAMES {
        return Err(PyValueError::new_err(format!(
            "games {games} is more than the limit of {MAX_RANDOM_GAMES}"
        )));
    }
    let settings = Settings {
        games,
        agents,
        detailed,
        trace: trace.unwrap_or_else(|| {
            compare::DEFAULT_TRACE
                .iter()
                .map(|s| s.to_string())
                .collect()
        }),
        trace_rotations,
        luck_games,
        metrics,
        exact,
        alpha,
        seed,
        throws: None,
        trace_throws: None,
    };
    let pool = pool(threads)?;
    // On a worker thread while this one looks for Ctrl-C, which stops the comparison.
    let stop = stickdice::Stop::new();
    let comparison = run_cancellable(py, &|| stop.stop(), || {
        pool.install(|| compare::compare_until(&configs, &settings, &|_| {}, &stop))
    })?
    .map_err(value_error)?;
    serde_json::to_string(&comparison.columns())
        .map_err(|e| PyRuntimeError::new_err(format!("cannot write the comparison: {e}")))
}
