//! `Game` and `State` for Python: thin wrappers over the core's [`AnyGame`] and each game's
//! state, answering with the core's rules and the encodings of [`crate::encoding`].

use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyList, PyString, PyTuple};

use stickdice::{ActionList, AnyGame, Game, GameKind, Node, Present, Throw};

use crate::encoding::{Codes, Missing};

pyo3::create_exception!(
    _stickdice,
    MissingCapability,
    pyo3::exceptions::PyNotImplementedError,
    "A game lacks a capability the call needs (for example `encode`: action codes and \
observation tensors); the message names the game, the capability and what to use instead."
);

impl From<Missing> for PyErr {
    fn from(m: Missing) -> PyErr {
        MissingCapability::new_err(m.to_string())
    }
}

/// `current_player()` at a chance node (a throw is due), as in OpenSpiel.
pub const CHANCE: i64 = -1;
/// `current_player()` once the game is over, as in OpenSpiel.
pub const TERMINAL: i64 = -4;

/// Defines [`AnyState`], `with_state!` and [`PyGameKind`] for every game of the list.
macro_rules! define_states {
    ([] $($variant:ident : $ty:path,)*) => {
        /// A game's state together with the game (games are a few bytes).
        #[derive(Clone, Debug, PartialEq)]
        pub enum AnyState {
            $(
                #[doc = concat!("The game `", stringify!($variant), "`.")]
                $variant($ty, <$ty as Game>::State),
            )*
        }

        $(
            impl PyGameKind for $ty {
                fn wrap(&self, state: Self::State) -> AnyState {
                    AnyState::$variant(self.clone(), state)
                }
                fn unwrap(any: &AnyState) -> Option<&Self::State> {
                    match any {
                        AnyState::$variant(_, s) => Some(s),
                        #[allow(unreachable_patterns)]
                        _ => None,
                    }
                }
            }
        )*

        /// The game an [`AnyState`] belongs to.
        pub fn game_of(state: &AnyState) -> AnyGame {
            match state {
                $(AnyState::$variant(g, _) => AnyGame::from(g.clone()),)*
            }
        }
    };
}

/// Runs generic code on the game and state an [`AnyState`] holds.
#[macro_export]
macro_rules! with_state {
    ($any:expr, |$g:ident, $s:ident| $body:expr) => {
        stickdice::for_each_game!([$crate::__with_state_arms], $any, $g, $s, $body)
    };
}

/// The arms of `with_state!`.
#[doc(hidden)]
#[macro_export]
macro_rules! __with_state_arms {
    ([$any:expr, $g:ident, $s:ident, $body:expr] $($variant:ident : $ty:path,)*) => {
        match $any {
            $($crate::state::AnyState::$variant($g, $s) => $body,)*
        }
    };
}

/// The games Python can hold: their encodings (or [`Missing`]) plus the wrapping into
/// [`AnyState`].
pub trait PyGameKind: Codes {
    /// Wraps a state of this game.
    fn wrap(&self, state: Self::State) -> AnyState;
    /// The state, if `any` holds one of this game.
    fn unwrap(any: &AnyState) -> Option<&Self::State>;
}

stickdice::for_each_game!(define_states);

/// The initial state of any game.
pub fn initial(any: &AnyGame) -> AnyState {
    stickdice::with_game!(any, |g| g.wrap(g.initial_state()))
}

pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Turns a Python rule-option value (`int`, `bool` or `str`) into the core's text form.
fn option_text(key: &str, v: &Bound<'_, PyAny>) -> PyResult<String> {
    if v.is_instance_of::<PyBool>() {
        Ok(if v.extract::<bool>()? {
            "true"
        } else {
            "false"
        }
        .to_string())
    } else if let Ok(i) = v.extract::<i64>() {
        Ok(i.to_string())
    } else if let Ok(s) = v.downcast::<PyString>() {
        Ok(s.to_str()?.to_string())
    } else {
        Err(PyTypeError::new_err(format!(
            "rule option `{key}` takes an int, a bool or a str, not {}",
            v.get_type().name()?
        )))
    }
}

/// Builds a game from Python arguments.
pub fn build_game(
    name: &str,
    players: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<AnyGame> {
    let (seats, texts) = game_args(players, options)?;
    AnyGame::new(name, seats, &texts).map_err(value_error)
}

/// What `load_game`'s first argument names: a game of the list, a description's TOML
/// text, or the path of a description file.
pub enum GameSource {
    /// A game of the list, by name.
    Name(String),
    /// A description's TOML text.
    Text(String),
    /// A description file.
    Path(std::path::PathBuf),
}

impl GameSource {
    /// Tells them apart: an `os.PathLike` is a path; a str with a line break or a `=` is
    /// TOML text (a description has both); a game's name is that game; a str ending in
    /// `.toml`, holding a path separator or naming a file that exists is a path; anything
    /// else is taken for a name (refused as an unknown game).
    pub fn of(arg: &Bound<'_, PyAny>) -> PyResult<GameSource> {
        let Ok(text) = arg.downcast::<PyString>() else {
            return arg
                .extract::<std::path::PathBuf>()
                .map(GameSource::Path)
                .map_err(|_| {
                    PyTypeError::new_err(format!(
                        "load_game takes a game's name, a description's TOML text (str) or a \
                     description file's path (str or os.PathLike), not {}",
                        arg.get_type()
                            .name()
                            .map(|n| n.to_string())
                            .unwrap_or_default()
                    ))
                });
        };
        let text = text.to_str()?.to_string();
        let path = std::path::Path::new(&text);
        Ok(if text.contains(['\n', '=']) {
            GameSource::Text(text)
        } else if GameKind::ALL.iter().any(|k| k.name() == text) {
            GameSource::Name(text)
        } else if text.ends_with(".toml")
            || text.contains(['/', std::path::MAIN_SEPARATOR])
            || path.is_file()
        {
            GameSource::Path(text.into())
        } else {
            GameSource::Name(text)
        })
    }
}

/// Builds the game of a description's text (`file` names it in errors) from Python
/// arguments. The game carries its own description: the process's selection (which the
/// list's `game-file` slot reads) is left alone.
pub fn build_described(
    file: &str,
    text: &str,
    players: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<AnyGame> {
    let (seats, texts) = game_args(players, options)?;
    let base = stickdice::described::file::parse(file, text).map_err(value_error)?;
    stickdice::described::file::game(base, seats, &texts).map_err(value_error)
}

/// Builds the game of a description file from Python arguments ([`build_described`]).
pub fn build_from_file(
    path: &std::path::Path,
    players: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<AnyGame> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| {
        let message = format!("cannot read the description file {file}: {e}");
        match e.kind() {
            std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
            _ => PyOSError::new_err(message),
        }
    })?;
    build_described(&file, &text, players, options)
}

/// The seat count and `key=value` rule options of Python arguments.
fn game_args(
    players: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<(Option<usize>, Vec<String>)> {
    let seats = match players {
        None => None,
        Some(p) if p.is_none() => None,
        Some(p) => {
            if p.is_instance_of::<PyBool>() {
                return Err(PyTypeError::new_err("players must be an int, not bool"));
            }
            let n: i64 = p.extract().map_err(|_| {
                PyTypeError::new_err(format!(
                    "players must be an int, not {}",
                    p.get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default()
                ))
            })?;
            Some(usize::try_from(n).map_err(|_| {
                PyValueError::new_err(format!("players must be a positive number, not {n}"))
            })?)
        }
    };
    let mut texts = Vec::new();
    if let Some(opts) = options {
        for (k, v) in opts.iter() {
            let key: String = k.extract()?;
            texts.push(format!("{key}={}", option_text(&key, &v)?));
        }
    }
    Ok((seats, texts))
}

/// The description a game of a description plays (`None` for another game).
fn description_of(any: &AnyGame) -> Option<&'static stickdice::described::file::Loaded> {
    stickdice::with_game!(any, |g| g.loaded_description())
}

/// A game with its rule options and seat count (`stickdice.load_game(...)`).
#[pyclass(name = "Game", module = "stickdice._stickdice", frozen)]
#[derive(Clone, Debug)]
pub struct PyGame {
    pub any: AnyGame,
}

#[pymethods]
impl PyGame {
    /// The game's name, as `stickdice.games()` lists it (`issiren`, `siryu-race`, ...); a
    /// description's own `name` for a game loaded from a description.
    #[getter]
    fn name(&self) -> &'static str {
        self.any.name()
    }

    /// The game's name for people.
    #[getter]
    fn title(&self) -> &'static str {
        self.any.title()
    }

    /// For a game loaded from a description: its digest (as tournament logs record it);
    /// `None` for a game of the list.
    #[getter]
    fn description_digest(&self) -> Option<&'static str> {
        description_of(&self.any).map(|l| l.digest())
    }

    /// For a game loaded from a description: its TOML text; `None` for a game of the list.
    #[getter]
    fn description_text(&self) -> Option<&'static str> {
        description_of(&self.any).map(|l| l.base().text())
    }

    /// The number of seats.
    fn num_players(&self) -> usize {
        self.any.seats()
    }

    /// The optional capabilities the game provides beyond its rules (`board`, `evaluate`,
    /// `exact`, `measure`, `review`, `encode`, `tablebase`), as each crate that provides
    /// one answers (`stickdice_rl::offers`).
    #[getter]
    fn capabilities(&self) -> Vec<&'static str> {
        stickdice_rl::offers(self.any.kind())
    }

    /// The number of distinct action codes: actions are ints in `range(num_distinct_actions())`.
    ///
    /// Raises:
    ///     MissingCapability: the game has no action codes (no `encode` capability).
    fn num_distinct_actions(&self) -> PyResult<usize> {
        stickdice::with_game!(&self.any, |g| num_actions(g))
    }

    /// The notation of an action code (`c1`, `pass`, `use`, ...), whatever the state.
    ///
    /// Raises:
    ///     ValueError: the int is not an action code of the game.
    fn action_to_string(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let code = action_arg(action)?;
        stickdice::with_game!(&self.any, |g| code_notation(g, code))
    }

    /// The most outcomes of a throw: outcomes are the number of marked sides up, `0..=sticks`.
    fn max_chance_outcomes(&self) -> usize {
        stickdice::with_game!(&self.any, |g| g.max_throw_outcomes())
    }

    /// The rule options with their values (as the core reads them).
    fn options(&self) -> Vec<(&'static str, String)> {
        self.any.options()
    }

    /// The most throws a game lasts (the `max_throws` rule option).
    fn max_throws(&self) -> u32 {
        stickdice::with_game!(&self.any, |g| g.max_throws())
    }

    /// The most decisions a game can hold: one per throw in Issiren, two leftover choices
    /// per seat in Sig (El Oued), none in Sig wa Duqqan.
    fn max_game_length(&self) -> usize {
        stickdice::with_game!(&self.any, |g| g.max_game_length())
    }

    /// The state before the first throw.
    fn new_initial_state(&self) -> PyState {
        PyState {
            inner: initial(&self.any),
        }
    }

    /// A state from `State.serialize()`'s text, validated against the game.
    ///
    /// Raises:
    ///     ValueError: the text is not a state of this game, naming every problem.
    fn deserialize_state(&self, text: &str) -> PyResult<PyState> {
        deserialize(&self.any, text)
    }

    /// The shape of `State.observation_tensor()`.
    ///
    /// Raises:
    ///     MissingCapability: the game has no observation tensors (no `encode` capability).
    fn observation_tensor_shape(&self) -> PyResult<Vec<usize>> {
        Ok(vec![stickdice::with_game!(&self.any, |g| {
            Codes::observation_len(g)
        })?])
    }

    /// The layout of `State.observation_tensor()`, in words.
    ///
    /// Raises:
    ///     MissingCapability: the game has no observation tensors (no `encode` capability).
    fn observation_tensor_layout(&self) -> PyResult<&'static str> {
        stickdice::with_game!(&self.any, |g| observation_doc(g))
    }

    fn __repr__(&self) -> String {
        let opts: Vec<String> = self
            .any
            .options()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let first = match description_of(&self.any) {
            Some(l) => format!("<description {:?}, digest {}>", l.name(), l.digest()),
            None => format!("{:?}", self.name()),
        };
        format!(
            "load_game({first}, players={}, {})",
            self.any.seats(),
            opts.join(", ")
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PyGame>()
            .is_ok_and(|o| o.get().any == self.any)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.__repr__().hash(&mut h);
        h.finish()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let module = py.import("stickdice._stickdice")?;
        let opts: Vec<String> = self
            .any
            .options()
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        match description_of(&self.any) {
            Some(l) => (
                module.getattr("_load_described_from_options")?,
                (l.base().text(), self.any.seats(), opts),
            )
                .into_pyobject(py),
            None => (
                module.getattr("_load_game_from_options")?,
                (self.name(), self.any.seats(), opts),
            )
                .into_pyobject(py),
        }
    }
}

fn code_notation<G: Codes>(_g: &G, code: i64) -> PyResult<String> {
    Ok(decode_checked::<G>(code)?.to_string())
}

pub(crate) fn num_actions<G: Codes>(_g: &G) -> PyResult<usize> {
    Ok(G::num_actions()?)
}

fn observation_doc<G: Codes>(_g: &G) -> PyResult<&'static str> {
    Ok(G::observation_doc()?)
}

/// Rebuilds a game from `Game.__reduce__`.
#[pyfunction]
pub fn _load_game_from_options(
    name: &str,
    players: usize,
    options: Vec<String>,
) -> PyResult<PyGame> {
    Ok(PyGame {
        any: AnyGame::new(name, Some(players), &options).map_err(value_error)?,
    })
}

/// Rebuilds a game of a description from `Game.__reduce__`.
#[pyfunction]
pub fn _load_described_from_options(
    text: &str,
    players: usize,
    options: Vec<String>,
) -> PyResult<PyGame> {
    let base = stickdice::described::file::parse("<description>", text).map_err(value_error)?;
    Ok(PyGame {
        any: stickdice::described::file::game(base, Some(players), &options)
            .map_err(value_error)?,
    })
}

/// Rebuilds a state from `State.__reduce__`.
#[pyfunction]
pub fn _load_state(game: &PyGame, text: &str) -> PyResult<PyState> {
    deserialize(&game.any, text)
}

fn deserialize(any: &AnyGame, text: &str) -> PyResult<PyState> {
    let inner = stickdice::with_game!(any, |g| stickdice::load_state(g, text)
        .map(|s| g.wrap(s))
        .map_err(value_error)?);
    Ok(PyState { inner })
}

/// Reads an action argument: an int (not a bool), else `TypeError`.
pub(crate) fn action_arg(action: &Bound<'_, PyAny>) -> PyResult<i64> {
    if action.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err("an action is an int, not bool"));
    }
    action.extract::<i64>().map_err(|_| {
        PyTypeError::new_err(format!(
            "an action is an int (see legal_actions()), not {}",
            action
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })
}

/// The action with `code` at a decision node of `g`, if it is a code of the game.
///
/// # Errors
/// `MissingCapability` for a game without codes, `ValueError` for a code that is not one.
pub(crate) fn decode_checked<G: Codes>(code: i64) -> PyResult<G::Action> {
    let n = G::num_actions()?;
    let action = match u32::try_from(code) {
        Ok(c) => G::action(c)?,
        Err(_) => None,
    };
    action.ok_or_else(|| {
        PyValueError::new_err(if n == 0 {
            format!(
                "action {code}: {} has no decisions, so no actions",
                G::TITLE
            )
        } else {
            format!(
                "action {code} is not an action of {}: actions are 0 to {}",
                G::TITLE,
                n - 1
            )
        })
    })
}

/// Applies a code (a throw at a chance node, an action at a decision node), checked: on
/// error the state is unchanged.
pub(crate) fn apply_code<G: Codes>(g: &G, s: &mut G::State, code: i64) -> PyResult<()> {
    match g.node(s) {
        Node::Throw(_) => {
            let t = u8::try_from(code)
                .map_err(|_| {
                    PyValueError::new_err(format!(
                        "throw {code}: a throw is the number of marked sides up, 0 to {}",
                        g.sticks().count()
                    ))
                })
                .map(Throw::new)?;
            g.apply_throw(s, t)
                .map_err(|e| PyValueError::new_err(format!("throw {code}: {e}")))
        }
        Node::Decide(_) => {
            let a = decode_checked::<G>(code)?;
            g.apply_action(s, a)
                .map_err(|e| PyValueError::new_err(format!("action {code} ({a}): {e}")))
        }
        Node::End => Err(PyValueError::new_err(format!(
            "action {code}: the game is over"
        ))),
    }
}

fn legal_codes<G: Codes>(g: &G, s: &G::State) -> PyResult<Vec<u32>> {
    Ok(match g.node(s) {
        Node::Throw(_) => (0..=u32::from(g.sticks().count())).collect(),
        Node::Decide(_) => {
            let mut legal = ActionList::new();
            g.legal_actions(s, &mut legal);
            legal
                .iter()
                .map(|&a| G::code(a))
                .collect::<Result<_, _>>()?
        }
        Node::End => Vec::new(),
    })
}

/// 1 for each legal action code, 0 for the others (all 0 at chance nodes and at the end).
fn legal_mask<G: Codes>(g: &G, s: &G::State) -> PyResult<Vec<u8>> {
    let mut mask = vec![0u8; num_actions(g)?];
    if matches!(g.node(s), Node::Decide(_)) {
        for c in legal_codes(g, s)? {
            mask[c as usize] = 1;
        }
    }
    Ok(mask)
}

/// The legal actions in notation: the throws (`0` to the stick count) at a chance node,
/// the actions at a decision node, nothing at the end. Every game has it.
pub(crate) fn legal_strings<G: Game>(g: &G, s: &G::State) -> Vec<String> {
    match g.node(s) {
        Node::Throw(_) => (0..=g.sticks().count()).map(|t| t.to_string()).collect(),
        Node::Decide(_) => {
            let mut legal = ActionList::new();
            g.legal_actions(s, &mut legal);
            legal.iter().map(ToString::to_string).collect()
        }
        Node::End => Vec::new(),
    }
}

/// Applies a throw (at a chance node: the number of marked sides up) or an action written
/// in notation, checked: on error the state is unchanged. Every game has it.
pub(crate) fn apply_string<G: Game>(g: &G, s: &mut G::State, text: &str) -> PyResult<()> {
    match g.node(s) {
        Node::Throw(_) => {
            let t: Throw = text.trim().parse().map_err(|e| {
                PyValueError::new_err(format!(
                    "`{text}`: a throw is the number of marked sides up, 0 to {}: {e}",
                    g.sticks().count()
                ))
            })?;
            g.apply_throw(s, t)
                .map_err(|e| PyValueError::new_err(format!("throw {text}: {e}")))
        }
        Node::Decide(_) => {
            let a = g.parse_action(text).map_err(value_error)?;
            g.apply_action(s, a)
                .map_err(|e| PyValueError::new_err(format!("action {a}: {e}")))
        }
        Node::End => Err(PyValueError::new_err(format!(
            "action `{text}`: the game is over"
        ))),
    }
}

pub(crate) fn code_to_string<G: Codes>(g: &G, s: &G::State, code: i64) -> PyResult<String> {
    match g.node(s) {
        Node::Throw(_) => {
            if (0..=i64::from(g.sticks().count())).contains(&code) {
                Ok(code.to_string())
            } else {
                Err(PyValueError::new_err(format!(
                    "throw {code}: a throw is the number of marked sides up, 0 to {}",
                    g.sticks().count()
                )))
            }
        }
        _ => Ok(decode_checked::<G>(code)?.to_string()),
    }
}

fn string_to_code<G: Codes>(g: &G, s: &G::State, text: &str) -> PyResult<u32> {
    match g.node(s) {
        Node::Throw(_) => {
            let t: Throw = text.parse().map_err(value_error)?;
            if g.sticks().can_show(t) {
                Ok(u32::from(t.marked()))
            } else {
                Err(PyValueError::new_err(format!(
                    "`{text}`: {} sticks cannot show {t} marked sides",
                    g.sticks().count()
                )))
            }
        }
        _ => {
            let code = G::code(g.parse_action(text).map_err(value_error)?)?;
            if code as usize >= G::num_actions()? {
                return Err(PyValueError::new_err(format!(
                    "`{text}` has no action code in {}: no board of the game has its square",
                    G::TITLE
                )));
            }
            Ok(code)
        }
    }
}

fn observation<G: Codes>(g: &G, s: &G::State) -> PyResult<Vec<f32>> {
    Ok(g.observation(s)?)
}

/// A float32 numpy array from a vector (one copy through a bytes object).
pub(crate) fn numpy_f32<'py>(py: Python<'py>, v: &[f32]) -> PyResult<Bound<'py, PyAny>> {
    let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    numpy_from_bytes(py, &bytes, "<f4", &[v.len()])
}

/// A numpy array of `dtype` and `shape` from little-endian bytes.
pub(crate) fn numpy_from_bytes<'py>(
    py: Python<'py>,
    bytes: &[u8],
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let np = py.import("numpy")?;
    let b = PyBytes::new(py, bytes);
    let arr = np.call_method1("frombuffer", (b, dtype))?;
    let arr = arr.call_method1("reshape", (PyTuple::new(py, shape)?,))?;
    // frombuffer over bytes is read-only: hand out a writable copy.
    arr.call_method0("copy")
}

/// A state of a game: where everything stands and what happens next.
///
/// Actions and chance outcomes are ints (see the module docs): at a chance node the legal
/// "actions" are the throws, the number of marked sides up.
#[pyclass(name = "State", module = "stickdice._stickdice")]
#[derive(Clone, Debug)]
pub struct PyState {
    pub inner: AnyState,
}

#[pymethods]
impl PyState {
    /// The seat to throw or decide, `CHANCE` (-1) at a chance node, `TERMINAL` (-4) at the end.
    fn current_player(&self) -> i64 {
        with_state!(&self.inner, |g, s| match g.node(s) {
            Node::Throw(_) => CHANCE,
            Node::Decide(seat) => seat as i64,
            Node::End => TERMINAL,
        })
    }

    /// The seat that throws or decides next (also at a chance node), or None at the end.
    fn seat_to_play(&self) -> Option<usize> {
        with_state!(&self.inner, |g, s| g.node(s).seat())
    }

    /// Whether a throw is due.
    fn is_chance_node(&self) -> bool {
        with_state!(&self.inner, |g, s| matches!(g.node(s), Node::Throw(_)))
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        with_state!(&self.inner, |g, s| g.is_over(s))
    }

    /// Whether a seat decides now.
    fn is_player_node(&self) -> bool {
        with_state!(&self.inner, |g, s| matches!(g.node(s), Node::Decide(_)))
    }

    /// The throws with their exact probabilities, `[(marked sides up, probability), ...]`,
    /// at a chance node; empty elsewhere.
    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        with_state!(&self.inner, |g, s| match g.node(s) {
            Node::Throw(_) => g
                .throw_outcomes()
                .iter()
                .map(|o| (u32::from(o.throw.marked()), o.probability))
                .collect(),
            _ => Vec::new(),
        })
    }

    /// The legal actions as ints (the throws at a chance node, nothing at the end), in the
    /// core's order. `player` is accepted for OpenSpiel's signature: another seat has none.
    ///
    /// Raises:
    ///     MissingCapability: a decision node of a game without action codes (no `encode`
    ///         capability): see `legal_action_strings()`.
    #[pyo3(signature = (player = None))]
    fn legal_actions(&self, player: Option<i64>) -> PyResult<Vec<u32>> {
        if let Some(p) = player {
            if p != self.current_player() {
                return Ok(Vec::new());
            }
        }
        with_state!(&self.inner, |g, s| legal_codes(g, s))
    }

    /// The legal actions in notation, for every game (with or without action codes): the
    /// throws `"0"` to the stick count at a chance node, the actions (`c1`, `pass`, `use`,
    /// ...) at a decision node, nothing at the end.
    fn legal_action_strings(&self) -> Vec<String> {
        with_state!(&self.inner, |g, s| legal_strings(g, s))
    }

    /// Applies a throw (at a chance node: the number of marked sides up, as text) or an
    /// action in notation, for every game (with or without action codes).
    ///
    /// Raises:
    ///     ValueError: not a throw or an action of the game, or illegal here, naming why;
    ///         the state is left as it was.
    fn apply_action_string(&mut self, text: &str) -> PyResult<()> {
        with_state!(&mut self.inner, |g, s| apply_string(&*g, s, text))
    }

    /// A numpy int8 array, 1 for each legal action code and 0 for the others
    /// (`num_distinct_actions()` long; all 0 at chance nodes and at the end).
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mask = with_state!(&self.inner, |g, s| legal_mask(g, s))?;
        numpy_from_bytes(py, &mask, "i1", &[mask.len()])
    }

    /// The action (or throw, at a chance node) in the project's notation: a square such
    /// as `c1` or `pass` in Issiren, `use`/`decline` in Sig (El Oued), the number of marked
    /// sides for a throw.
    ///
    /// Raises:
    ///     ValueError: the int is not an action of the game.
    fn action_to_string(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let code = action_arg(action)?;
        with_state!(&self.inner, |g, s| code_to_string(g, s, code))
    }

    /// The int of an action (or throw) written in notation.
    ///
    /// Raises:
    ///     ValueError: the text is not an action, naming the expected form.
    fn string_to_action(&self, text: &str) -> PyResult<u32> {
        with_state!(&self.inner, |g, s| string_to_code(g, s, text))
    }

    /// Applies an action (or, at a chance node, a throw: the number of marked sides up).
    ///
    /// Raises:
    ///     ValueError: the action is illegal here, naming it and the legal ones; the state
    ///         is left as it was.
    ///     TypeError: the action is not an int.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let code = action_arg(action)?;
        with_state!(&mut self.inner, |g, s| apply_code(&*g, s, code))
    }

    /// Each seat's score at the end (the fraction of the other seats it ranks above, ties
    /// counting half); all 0 before the end.
    fn returns(&self) -> Vec<f64> {
        with_state!(&self.inner, |g, s| {
            let n = g.seats();
            match g.scores(s) {
                Some(v) => v[..n].to_vec(),
                None => vec![0.0; n],
            }
        })
    }

    /// Each seat's place at the end (0 is first, ties share a place), or None before.
    fn ranking(&self) -> Option<Vec<u32>> {
        with_state!(&self.inner, |g, s| g.ranking(s).map(|r| r
            .places()
            .iter()
            .map(|&p| u32::from(p))
            .collect()))
    }

    /// The ranking in words (`P2 > P1`), or None before the end.
    fn ranking_text(&self) -> Option<String> {
        with_state!(&self.inner, |g, s| g.ranking(s).map(|r| r.to_string()))
    }

    /// The number of throws made so far (bonus throws included).
    fn throws_made(&self) -> u32 {
        with_state!(&self.inner, |g, s| g.throws_made(s))
    }

    /// A throw described in the game's own words, before it is applied.
    fn describe_throw(&self, throw: u8) -> PyResult<String> {
        with_state!(&self.inner, |g, s| {
            g.check_throw(s, Throw::new(throw)).map_err(value_error)?;
            Ok(g.describe_throw(s, Throw::new(throw)))
        })
    }

    /// The number of seats.
    fn num_players(&self) -> usize {
        with_state!(&self.inner, |g, _s| g.seats())
    }

    /// The game this state belongs to.
    fn get_game(&self) -> PyGame {
        PyGame {
            any: game_of(&self.inner),
        }
    }

    /// A copy.
    fn clone(&self) -> PyState {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyState {
        Clone::clone(self)
    }

    #[pyo3(signature = (_memo = None))]
    fn __deepcopy__(&self, _memo: Option<&Bound<'_, PyAny>>) -> PyState {
        Clone::clone(self)
    }

    /// The state as JSON (read back by `Game.deserialize_state`).
    fn serialize(&self) -> String {
        with_state!(&self.inner, |g, s| save(g, s))
    }

    /// The observation tensor (numpy float32, the layout in
    /// `Game.observation_tensor_layout()`); the same for every player.
    #[pyo3(signature = (player = None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = player;
        let v = with_state!(&self.inner, |g, s| observation(g, s))?;
        numpy_f32(py, &v)
    }

    /// The observation tensor as a plain list of floats.
    #[pyo3(signature = (player = None))]
    fn observation_list(&self, player: Option<i64>) -> PyResult<Vec<f32>> {
        let _ = player;
        with_state!(&self.inner, |g, s| observation(g, s))
    }

    /// The board drawn as text.
    fn __str__(&self) -> String {
        with_state!(&self.inner, |g, s| g.render(s))
    }

    fn __repr__(&self) -> String {
        format!(
            "<stickdice State of {}: {}>",
            self.get_game().name(),
            self.serialize()
        )
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .downcast::<PyState>()
            .is_ok_and(|o| o.borrow().inner == self.inner)
    }

    fn __hash__(&self) -> u64 {
        with_state!(&self.inner, |g, s| g.state_key(s))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let f = py.import("stickdice._stickdice")?.getattr("_load_state")?;
        (f, (self.get_game(), self.serialize())).into_pyobject(py)
    }
}

fn save<G: Game>(_g: &G, s: &G::State) -> String {
    stickdice::save_state::<G>(s)
}

/// Every game of the list with its seats and rule options (defaults and help); a game
/// description of one's own is loaded with `load_game(path_or_toml)`.
#[pyfunction]
pub fn games(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    // The `game-file` slot is no game of its own: `load_game` takes a description (its
    // file's path or its text) in its place.
    for &kind in GameKind::ALL.iter().filter(|k| **k != GameKind::GameFile) {
        let d = PyDict::new(py);
        let (min, max) = kind.seat_range();
        d.set_item("name", kind.name())?;
        d.set_item("title", kind.title())?;
        d.set_item("min_players", min)?;
        d.set_item("max_players", max)?;
        d.set_item("default_players", kind.default_seats())?;
        let opts = PyList::empty(py);
        for spec in kind.option_specs() {
            let o = PyDict::new(py);
            o.set_item("name", spec.name)?;
            o.set_item("type", spec.type_name())?;
            o.set_item("default", spec.default_value().to_string())?;
            o.set_item("allowed", spec.allowed())?;
            o.set_item("help", spec.help)?;
            opts.append(o)?;
        }
        d.set_item("options", opts)?;
        let game = AnyGame::new::<&str>(kind.name(), None, &[]).map_err(value_error)?;
        // None for a game without action codes (no `encode` capability).
        d.set_item(
            "num_distinct_actions",
            stickdice::with_game!(&game, |g| num_actions(g)).ok(),
        )?;
        d.set_item("capabilities", stickdice_rl::offers(kind))?;
        list.append(d)?;
    }
    Ok(list)
}

#[cfg(test)]
mod tests {
    //! A game without the `encode` capability, on Dash (a test game outside the list, so
    //! it takes every default of [`Codes`]): codes and tensors raise `MissingCapability`
    //! naming the game and `encode`; the game plays to the end by notation.
    use super::*;
    use stickdice_testkit::dash::Dash;

    impl Codes for Dash {}

    fn missing(py: Python<'_>, e: PyErr, what: &str) {
        assert!(e.is_instance_of::<MissingCapability>(py), "{e}");
        assert!(e.is_instance_of::<pyo3::exceptions::PyNotImplementedError>(py));
        let text = e.to_string();
        let named = format!("{} (dash) has no ", <Dash as Game>::TITLE);
        assert!(text.contains(&named), "{text}");
        assert!(text.contains(what), "{text}");
        assert!(text.contains("`encode` capability"), "{text}");
        assert!(text.contains("legal_action_strings"), "{text}");
    }

    #[test]
    fn a_game_without_codes_says_so_and_plays_by_notation() {
        Python::initialize();
        Python::attach(|py| {
            let g = Dash::new(2, 5, 200);
            let mut s = g.initial_state();
            missing(py, num_actions(&g).unwrap_err(), "action codes");
            missing(py, observation_doc(&g).unwrap_err(), "observation tensors");
            missing(py, observation(&g, &s).unwrap_err(), "observation tensors");
            missing(py, code_notation(&g, 0).unwrap_err(), "action codes");
            const { assert!(!<Dash as Codes>::ENCODED) };
            assert_eq!(g.max_game_length(), g.max_throws() as usize);
            let mut decisions = 0;
            while !g.is_over(&s) {
                let legal = legal_strings(&g, &s);
                assert!(!legal.is_empty());
                if let Node::Decide(_) = g.node(&s) {
                    decisions += 1;
                    missing(py, legal_codes(&g, &s).unwrap_err(), "action codes");
                    missing(py, legal_mask(&g, &s).unwrap_err(), "action codes");
                    missing(
                        py,
                        apply_code(&g, &mut s.clone(), 0).unwrap_err(),
                        "action codes",
                    );
                    missing(
                        py,
                        string_to_code(&g, &s, &legal[0]).unwrap_err(),
                        "action codes",
                    );
                    // A bad notation is refused and leaves the state as it was.
                    let before = s;
                    let e = apply_string(&g, &mut s, "no such move").unwrap_err();
                    assert!(e.is_instance_of::<PyValueError>(py));
                    assert_eq!(s, before);
                } else {
                    // Throws are numbers in every game.
                    assert_eq!(legal_codes(&g, &s).unwrap().len(), legal.len());
                }
                let pick = legal[(decisions + legal.len() / 2) % legal.len()].clone();
                apply_string(&g, &mut s, &pick).unwrap();
            }
            assert!(decisions > 0);
            assert!(legal_strings(&g, &s).is_empty());
            assert!(apply_string(&g, &mut s, "1").is_err());
        });
    }

    #[test]
    fn the_games_of_the_list_have_the_codes_their_capabilities_say() {
        for &kind in GameKind::ALL.iter().filter(|k| **k != GameKind::GameFile) {
            let any = AnyGame::new::<&str>(kind.name(), None, &[]).unwrap();
            let encoded = stickdice::with_game!(&any, |g| encoded(g));
            assert_eq!(
                encoded,
                stickdice_rl::encodings().contains(&kind),
                "{}",
                kind.name()
            );
        }
    }

    fn encoded<G: Codes>(_: &G) -> bool {
        G::ENCODED && G::num_actions().is_ok()
    }
}
