//! Agents for Python: every agent spec of the command line (`stickdice_agents::build_str`),
//! and Python callables `f(state) -> action` as agents of the arena.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use stickdice::{Agent, AgentError, AnyGame, Stop, Throw};

use crate::encoding::Codes;
use crate::state::{
    action_arg, apply_string, decode_checked, game_of, value_error, AnyState, PyGame, PyGameKind,
    PyState,
};
use crate::with_state;

macro_rules! define_agents {
    ([] $($variant:ident : $ty:path,)*) => {
        /// A built agent of any game.
        pub enum AnyAgent {
            $(
                #[doc = concat!("The game `", stringify!($variant), "`.")]
                $variant(Box<dyn Agent<$ty>>),
            )*
        }

        /// Builds the agent of a spec for a game.
        fn build_spec(spec: &str, any: &AnyGame, seed: u64) -> PyResult<AnyAgent> {
            Ok(match any {
                $(AnyGame::$variant(g) => AnyAgent::$variant(
                    stickdice_agents::build_str(spec, g, seed).map_err(value_error)?,
                ),)*
                #[allow(unreachable_patterns)]
                _ => unreachable!("every game of the list has an agent"),
            })
        }

        macro_rules! with_agent {
            ($agent:expr, $game:expr, |$g:ident, $a:ident| $body:expr) => {
                match ($agent, $game) {
                    $((AnyAgent::$variant($a), AnyGame::$variant($g)) => $body,)*
                    _ => unreachable!("an agent is built for its own game"),
                }
            };
        }
    };
}
stickdice::for_each_game!(define_agents);

/// Loads or builds the (Issiren) tablebase a spec names (`tablebase=build`: minutes of work on a
/// busy machine) before the agent is built, on a thread of its own while this one looks for
/// Ctrl-C: a KeyboardInterrupt is raised within about a second, and the thread, which
/// nothing can stop midway, finishes in the background into the process's shared
/// tablebase ([`stickdice_agents::solve::tablebase::shared`], which the agent then reads).
/// A tablebase that cannot be had is left for the agent's own build to report.
fn tablebase_first(py: Python<'_>, spec: &str) -> PyResult<()> {
    let Ok(parsed) = spec.parse::<stickdice_agents::AgentSpec>() else {
        return Ok(());
    };
    let Some(source) = parsed
        .params()
        .iter()
        .find(|(k, v)| k == "tablebase" && !["off", "auto"].contains(&v.as_str()))
        .map(|(_, v)| v.clone())
    else {
        return Ok(());
    };
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = stickdice_agents::solve::tablebase::shared(&source);
        let _ = tx.send(());
    });
    let rx = Mutex::new(rx);
    loop {
        let waited = py.detach(|| {
            rx.lock()
                .unwrap_or_else(|p| p.into_inner())
                .recv_timeout(std::time::Duration::from_millis(50))
        });
        match waited {
            Ok(()) | Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => py.check_signals()?,
        }
    }
}

/// A Python callable `f(state) -> action` as an agent. Each call takes the GIL, so a
/// tournament with such an agent runs on one thread.
pub struct CallableAgent {
    /// The callable.
    pub f: Arc<Py<PyAny>>,
    /// Its name in reports.
    pub name: String,
    /// In a tournament: where a KeyboardInterrupt or SystemExit raised by the callable
    /// goes, and the run's cancel flag it sets (it stops the run instead of losing the
    /// game).
    pub stop_run: Option<(crate::run::Raised, Arc<AtomicBool>)>,
}

impl CallableAgent {
    /// The name a callable goes by in reports: its `__name__`, or its `repr`.
    pub fn name_of(f: &Bound<'_, PyAny>) -> String {
        let base = f
            .getattr("__name__")
            .and_then(|n| n.extract::<String>())
            .or_else(|_| f.repr().map(|r| r.to_string()))
            .unwrap_or_else(|_| "callable".to_string());
        format!("python:{base}")
    }
}

impl<G: PyGameKind> Agent<G> for CallableAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, game: &G, state: &G::State) -> Result<G::Action, AgentError> {
        stickdice::decision_actions(game, state, &mut stickdice::ActionList::new())?;
        Python::attach(|py| {
            let st = PyState {
                inner: game.wrap(*state),
            };
            let answer = self
                .f
                .bind(py)
                .call1((st,))
                .and_then(|a| answer_action(game, &a));
            answer.map_err(|e| {
                // KeyboardInterrupt, SystemExit (BaseExceptions that are not Exceptions)
                // stop the tournament; other exceptions lose the game.
                if let (false, Some((raised, cancel))) =
                    (e.is_instance_of::<PyException>(py), &self.stop_run)
                {
                    crate::run::stop_run(raised, cancel, e);
                    return AgentError::Stopped;
                }
                AgentError::Unsupported(format!("{}: {e}", self.name))
            })
        })
    }
}

/// A callable's answer as an action of `game`: an action code (an int), or the action in
/// notation (a str; the only way in a game without action codes).
fn answer_action<G: Codes>(game: &G, answer: &Bound<'_, PyAny>) -> PyResult<G::Action> {
    if let Ok(text) = answer.extract::<String>() {
        return game.parse_action(&text).map_err(value_error);
    }
    decode_checked::<G>(action_arg(answer)?)
}

/// An agent playing one game: `Agent("mcts:iterations=1000", game, seed=1)`, or
/// `Agent(f, game)` for a Python callable `f(state) -> action`.
#[pyclass(name = "Agent", module = "stickdice._stickdice", frozen)]
pub struct PyAgent {
    game: AnyGame,
    /// The spec it was built from, if any.
    spec: Option<String>,
    seed: u64,
    agent: Mutex<Option<AnyAgent>>,
    callable: Option<Arc<Py<PyAny>>>,
    name: String,
    /// Whether `step` may search for long (everything but random and greedy): it then
    /// runs on a worker thread and stops at Ctrl-C.
    searches: bool,
}

impl PyAgent {
    /// The spec, or the callable, this agent was made from.
    pub fn source(&self) -> AgentSource {
        match (&self.spec, &self.callable) {
            (_, Some(f)) => AgentSource::Callable(f.clone(), self.name.clone()),
            (Some(s), None) => AgentSource::Spec(s.clone()),
            (None, None) => unreachable!("an agent has a spec or a callable"),
        }
    }
}

/// Where an agent of a tournament comes from.
pub enum AgentSource {
    /// A spec of the command line.
    Spec(String),
    /// A Python callable, with its name.
    Callable(Arc<Py<PyAny>>, String),
}

impl AgentSource {
    /// Reads a tournament entry: a spec string, a callable, or an `Agent`.
    pub fn from_py(obj: &Bound<'_, PyAny>) -> PyResult<AgentSource> {
        if let Ok(s) = obj.extract::<String>() {
            return Ok(AgentSource::Spec(s));
        }
        if let Ok(a) = obj.downcast::<PyAgent>() {
            return Ok(a.get().source());
        }
        if obj.is_callable() {
            return Ok(AgentSource::Callable(
                Arc::new(obj.clone().unbind()),
                CallableAgent::name_of(obj),
            ));
        }
        Err(PyTypeError::new_err(format!(
            "an agent is a spec string such as \"mcts:iterations=1000\", a stickdice.Agent or a callable f(state) -> action, not {}",
            obj.get_type().name()?
        )))
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn state_of<'a, G: PyGameKind>(game: &G, st: &'a AnyState) -> PyResult<&'a G::State> {
    let other = game_of(st);
    match G::unwrap(st) {
        Some(s) if other.seats() == game.seats() => Ok(s),
        _ => Err(PyValueError::new_err(format!(
            "the state is of {} for {} players, the agent plays {} for {}",
            other.kind().title(),
            other.seats(),
            G::TITLE,
            game.seats()
        ))),
    }
}

/// Chooses without the GIL (the caller has released it).
fn choose<G: PyGameKind>(
    game: &G,
    agent: &mut Box<dyn Agent<G>>,
    st: &AnyState,
) -> PyResult<G::Action> {
    let s = *state_of(game, st)?;
    let a = agent.choose(game, &s).map_err(value_error)?;
    game.check_action(&s, a).map_err(|e| {
        PyValueError::new_err(format!(
            "the agent {} chose an illegal action: {e}",
            agent.name()
        ))
    })?;
    Ok(a)
}

fn analysis<'py, G: PyGameKind>(
    py: Python<'py>,
    agent: &dyn Agent<G>,
) -> PyResult<Option<Bound<'py, PyList>>> {
    let Some(list) = agent.analysis() else {
        return Ok(None);
    };
    let out = PyList::empty(py);
    for av in list {
        let d = PyDict::new(py);
        // None for a game without action codes (no `encode` capability).
        d.set_item("action", G::code(av.action).ok())?;
        d.set_item("notation", av.action.to_string())?;
        d.set_item("value", av.value)?;
        d.set_item("visits", av.visits)?;
        out.append(d)?;
    }
    Ok(Some(out))
}

#[pymethods]
impl PyAgent {
    #[new]
    #[pyo3(signature = (agent, game, seed = 0))]
    fn new(agent: &Bound<'_, PyAny>, game: &PyGame, seed: u64) -> PyResult<PyAgent> {
        let any = game.any.clone();
        match AgentSource::from_py(agent)? {
            AgentSource::Spec(spec) => {
                if matches!(any, AnyGame::Issiren(_)) {
                    tablebase_first(agent.py(), &spec)?;
                }
                let built = build_spec(&spec, &any, seed)?;
                let name = with_agent!(&built, &any, |_g, a| a.name());
                let family = spec.split(':').next().unwrap_or("").trim();
                Ok(PyAgent {
                    searches: !matches!(family, "random" | "greedy"),
                    game: any,
                    spec: Some(spec),
                    seed,
                    agent: Mutex::new(Some(built)),
                    callable: None,
                    name,
                })
            }
            AgentSource::Callable(f, name) => Ok(PyAgent {
                searches: false,
                game: any,
                spec: None,
                seed,
                agent: Mutex::new(None),
                callable: Some(f),
                name,
            }),
        }
    }

    /// The agent's name (its spec with the parameters it uses, or `python:<name>`).
    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The seed it was built with.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The action (an int) the agent chooses in `state`. Searching agents release the GIL
    /// while they search, and Ctrl-C stops the search and raises KeyboardInterrupt (within
    /// a few tens of milliseconds).
    ///
    /// Raises:
    ///     ValueError: the state is not a decision node, is of another game, or the agent
    ///         refuses the game (for example `perfect` on an unsolved game).
    ///     MissingCapability: the game has no action codes (no `encode` capability): see
    ///         `step_string`.
    fn step(&self, py: Python<'_>, state: &PyState) -> PyResult<u32> {
        with_state!(&state.inner, |g, _s| num_actions_of(g))?;
        let text = self.step_string(py, state)?;
        with_state!(&state.inner, |g, s| code_of(g, s, &text))
    }

    /// The action the agent chooses in `state`, in notation (`c1`, `pass`, `use`, ...): for
    /// every game, with or without action codes. Searching agents release the GIL while
    /// they search.
    ///
    /// Raises:
    ///     ValueError: the state is not a decision node, is of another game, or the agent
    ///         refuses the game (for example `perfect` on an unsolved game).
    fn step_string(&self, py: Python<'_>, state: &PyState) -> PyResult<String> {
        if let Some(f) = &self.callable {
            with_state!(&state.inner, |g, s| stickdice::decision_actions(
                g,
                s,
                &mut stickdice::ActionList::new()
            )
            .map(|_| ())
            .map_err(value_error))?;
            let answer = f.bind(py).call1((state.clone(),))?;
            let chosen = with_state!(&state.inner, |g, s| callable_choice(g, s, &answer));
            // A bad answer (a code that is not one, an illegal action) is the agent's; a
            // wrong type or a missing capability is raised as it is.
            return chosen.map_err(|e| {
                if e.is_instance_of::<PyValueError>(py) {
                    PyValueError::new_err(format!("the agent {} chose badly: {e}", self.name))
                } else {
                    e
                }
            });
        }
        let st = state.inner.clone();
        // The lock is taken and let go without the GIL, so a search never waits for the
        // GIL while holding the agent.
        let search = |stop: Option<&Stop>| {
            let mut guard = lock(&self.agent);
            let agent = guard.as_mut().expect("a spec agent is built");
            with_agent!(agent, &self.game, |g, a| {
                if let Some(stop) = stop {
                    a.set_stop(stop.clone());
                }
                choose(g, a, &st).map(|a| a.to_string())
            })
        };
        if !self.searches {
            // Random and greedy answer in microseconds: no thread of their own.
            return py.detach(|| search(None));
        }
        // A search runs on a worker thread while this one looks for Ctrl-C, which stops
        // the search (Stop) and raises KeyboardInterrupt.
        let stop = Stop::new();
        crate::run::run_cancellable(py, &|| stop.stop(), || search(Some(&stop)))?
    }

    /// The agent's analysis of its last decision: one record per legal action it
    /// evaluated (`action`, `notation`, `value` = its estimate of the mover's final score,
    /// `visits`), or None for agents that do not analyse. With `state`, decides there first.
    #[pyo3(signature = (state = None))]
    fn analysis<'py>(
        &self,
        py: Python<'py>,
        state: Option<&PyState>,
    ) -> PyResult<Option<Bound<'py, PyList>>> {
        if self.callable.is_some() {
            return Ok(None);
        }
        if let Some(st) = state {
            self.step(py, st)?;
        }
        let guard = lock(&self.agent);
        let agent = guard.as_ref().expect("a spec agent is built");
        with_agent!(agent, &self.game, |_g, a| analysis(py, a.as_ref()))
    }

    /// Tells the agent a new game starts with it in `seat` (agents that keep a search
    /// tree across decisions start afresh).
    fn new_game(&self, seat: usize) -> PyResult<()> {
        if seat >= self.game.seats() {
            return Err(PyValueError::new_err(format!(
                "seat {seat}: the game has seats 0 to {}",
                self.game.seats() - 1
            )));
        }
        if let Some(agent) = lock(&self.agent).as_mut() {
            with_agent!(agent, &self.game, |g, a| a.new_game(g, seat));
        }
        Ok(())
    }

    /// Tells the agent that `action` (a throw at a chance node) is about to be applied to
    /// `state` (any seat's), so agents with subtree reuse keep their tree, as in the CLI.
    /// `action` is an int (an action code, or the number of marked sides up) or the action
    /// in notation (a str: the only way in a game without action codes).
    fn observe(&self, state: &PyState, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = match action.extract::<String>() {
            Ok(text) => text,
            Err(_) => {
                let code = action_arg(action)?;
                let mut probe = state.inner.clone();
                with_state!(&mut probe, |g, s| crate::state::apply_code(&*g, s, code))?;
                with_state!(&state.inner, |g, s| crate::state::code_to_string(
                    g, s, code
                ))?
            }
        };
        let mut probe = state.inner.clone();
        with_state!(&mut probe, |g, s| apply_string(&*g, s, &text))?;
        if let Some(agent) = lock(&self.agent).as_mut() {
            with_agent!(agent, &self.game, |g, a| observe(g, a, &state.inner, &text))?;
        }
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!("Agent({:?}, seed={})", self.name, self.seed)
    }
}

/// Tells `agent` about a throw or action (in notation) already checked legal in `st`.
fn observe<G: PyGameKind>(
    game: &G,
    agent: &mut Box<dyn Agent<G>>,
    st: &AnyState,
    text: &str,
) -> PyResult<()> {
    let s = state_of(game, st)?;
    if matches!(game.node(s), stickdice::Node::Throw(_)) {
        let t: Throw = text.trim().parse().map_err(value_error)?;
        agent.observe_throw(game, s, t);
    } else {
        let a = game.parse_action(text).map_err(value_error)?;
        agent.observe_action(game, s, a);
    }
    Ok(())
}

/// Raises `MissingCapability` for a game without action codes.
fn num_actions_of<G: Codes>(_g: &G) -> PyResult<usize> {
    Ok(G::num_actions()?)
}

/// The code of an action written in notation, legal in `s`.
fn code_of<G: Codes>(g: &G, s: &G::State, text: &str) -> PyResult<u32> {
    let _ = s;
    let a = g.parse_action(text).map_err(value_error)?;
    Ok(G::code(a)?)
}

/// A callable's answer in `s`, checked legal, in notation.
fn callable_choice<G: Codes>(g: &G, s: &G::State, answer: &Bound<'_, PyAny>) -> PyResult<String> {
    let a = answer_action(g, answer)?;
    g.check_action(s, a).map_err(value_error)?;
    Ok(a.to_string())
}
