//! A description loaded at run time, as one game of the list: [`FileGame`].
//!
//! The [`Game`] trait's name, title and seat range are constants of a type, so a file read
//! at run time cannot be a type of its own. One registered type, [`FileGame`] (`game-file`
//! in the list), plays whichever description it was built from: each game carries its own
//! description, so several files can be played in one process. Its static side (the
//! constructor [`Game::with_seats`] and the table [`Game::option_specs`]) reads the
//! *selected* description, which `--game-file PATH`, the protocol's `new_game` with a
//! description and Python's `load_game` set ([`select`]); with none selected they refuse
//! with [`ConfigError::NoGameFile`].
//!
//! Every description loaded is kept for the life of the process (once per digest), so
//! that its name, title and option table can be handed out as `&'static` like those of the
//! registered games.

use std::path::Path;
use std::sync::{Arc, Mutex, RwLock};

use super::engine::BUFFER;
use super::{Base, Described, DescriptionError};
use crate::config::AnyGame;
use crate::game::{ConfigError, Game, MAX_SEATS};
use crate::options::OptionSpec;

/// A description loaded at run time, kept for the life of the process.
#[derive(Debug)]
pub struct Loaded {
    base: Arc<Base>,
    digest: String,
    name: &'static str,
    title: &'static str,
    specs: &'static [OptionSpec<'static>],
}

impl Loaded {
    /// The description.
    pub fn base(&self) -> &Arc<Base> {
        &self.base
    }

    /// Its digest ([`Base::digest`]).
    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// Its name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Its title.
    pub fn title(&self) -> &'static str {
        self.title
    }

    /// The fewest and most seats it allows.
    pub fn seat_range(&self) -> (usize, usize) {
        let s = &self.base.description().seats;
        (s.min, s.max)
    }

    /// The seat count played when none is given ([`Seats::default_count`](super::format::Seats::default_count)).
    pub fn default_seats(&self) -> usize {
        self.base.description().seats.default_count()
    }

    /// Its rule options' table ([`Base::option_specs`]).
    pub fn option_specs(&self) -> &'static [OptionSpec<'static>] {
        self.specs
    }
}

static LOADED: Mutex<Vec<&'static Loaded>> = Mutex::new(Vec::new());
static SELECTED: RwLock<Option<&'static Loaded>> = RwLock::new(None);

/// The description kept with this digest, if one is ([`register`]).
pub fn registered(digest: &str) -> Option<&'static Loaded> {
    let list = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    list.iter().copied().find(|l| l.digest == digest)
}

/// How many different descriptions the process keeps ([`register`]).
pub fn kept() -> usize {
    LOADED.lock().unwrap_or_else(|e| e.into_inner()).len()
}

/// Keeps a description for the life of the process (once per digest: the same content
/// loaded again is the same [`Loaded`]).
pub fn register(base: Arc<Base>) -> &'static Loaded {
    let digest = base.digest();
    let mut list = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(l) = list.iter().copied().find(|l| l.digest == digest) {
        return l;
    }
    let kept: &'static Base = Box::leak(Box::new((*base).clone()));
    let d = kept.description();
    let loaded: &'static Loaded = Box::leak(Box::new(Loaded {
        name: &d.name,
        title: &d.title,
        specs: Box::leak(kept.option_specs().into_boxed_slice()),
        base,
        digest,
    }));
    list.push(loaded);
    loaded
}

/// Selects a description: the one that [`FileGame::with_seats`](Game::with_seats) and
/// [`FileGame::option_specs`](Game::option_specs) read from now on.
pub fn select(base: Arc<Base>) -> &'static Loaded {
    let loaded = register(base);
    *SELECTED.write().unwrap_or_else(|e| e.into_inner()) = Some(loaded);
    loaded
}

/// The selected description, if any ([`select`]).
pub fn selected() -> Option<&'static Loaded> {
    *SELECTED.read().unwrap_or_else(|e| e.into_inner())
}

/// Reads a description from its text; `file` names it in errors. Rejects a description
/// whose seats are out of what the engine plays.
///
/// # Errors
/// A [`DescriptionError`] naming the file, line, field and what was expected.
pub fn parse(file: &str, text: &str) -> Result<Arc<Base>, DescriptionError> {
    let base = Base::parse(file, text)?;
    let seats = &base.description().seats;
    if seats.min == 0 || seats.max > MAX_SEATS {
        return Err(
            DescriptionError::invalid("seats", format!("seats run from 1 to {MAX_SEATS}"))
                .in_file(file, Some(text)),
        );
    }
    Ok(Arc::new(base))
}

/// Reads a description file.
///
/// # Errors
/// A [`DescriptionError`]: the file cannot be read, or what [`parse`] refuses.
pub fn load(path: &Path) -> Result<Arc<Base>, DescriptionError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| DescriptionError {
        file: file.clone(),
        at: None,
        field: String::new(),
        message: format!("cannot read the file: {e}"),
    })?;
    parse(&file, &text)
}

/// A game whose rules are a description loaded at run time (see the [module](self)): the
/// list's `game-file`. It answers its description's name and title ([`Game::name`],
/// [`Game::title`]) and seat range; `NAME` and `TITLE` name the slot only.
#[derive(Clone, Debug)]
pub struct FileGame(pub Described, &'static Loaded);

impl PartialEq for FileGame {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl FileGame {
    /// The game of a description for `seats` players, options at their defaults. The
    /// description is kept ([`register`]) but not selected.
    ///
    /// # Errors
    /// [`ConfigError::Players`] for a seat count the description does not allow.
    pub fn new(base: Arc<Base>, seats: usize) -> Result<FileGame, ConfigError> {
        let loaded = register(base);
        let (min, max) = loaded.seat_range();
        let refuse = || ConfigError::Players {
            game: loaded.name,
            players: seats,
            min,
            max,
        };
        loaded.base.description().seats.check(loaded.name, seats)?;
        Described::new(loaded.base.clone(), seats)
            .map(|d| FileGame(d, loaded))
            .map_err(|_| refuse())
    }

    /// The description this game plays.
    pub fn loaded(&self) -> &'static Loaded {
        self.1
    }
}

/// The game of a description as one of the list, for `seats` players (the description's
/// fewest if `None`) with rule options written `key=value`. The description becomes the
/// selected one ([`select`]), which generic code building more games of the type reads.
///
/// # Errors
/// A seat count the description does not allow, or a bad option.
pub fn any_game<S: AsRef<str>>(
    base: Arc<Base>,
    seats: Option<usize>,
    options: &[S],
) -> Result<AnyGame, ConfigError> {
    game(select(base).base.clone(), seats, options)
}

/// The game of a description as one of the list, as [`any_game`] makes it but without
/// selecting the description: the game carries its own, and the selection (which another
/// session of the process may hold) is left as it is.
///
/// # Errors
/// A seat count the description does not allow, or a bad option.
pub fn game<S: AsRef<str>>(
    base: Arc<Base>,
    seats: Option<usize>,
    options: &[S],
) -> Result<AnyGame, ConfigError> {
    let loaded = register(base);
    let mut game = FileGame::new(loaded.base.clone(), seats.unwrap_or(loaded.default_seats()))?;
    let pairs = options
        .iter()
        .map(|text| crate::config::parse_option(text.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    game.set_options(&pairs)?;
    Ok(AnyGame::GameFile(game))
}

/// The table of options when no description is selected: `max_throws` only.
static NO_OPTIONS: [OptionSpec<'static>; 1] = [crate::options::MAX_THROWS];

impl Game for FileGame {
    type State = super::State;
    type Action = super::Action;
    const NAME: &'static str = "game-file";
    const TITLE: &'static str = "A game description file (--game-file PATH)";
    const MAX_ACTIONS: usize = BUFFER;
    const SEATS: (usize, usize) = (1, MAX_SEATS);

    fn option_specs() -> &'static [OptionSpec<'static>] {
        selected().map_or(&NO_OPTIONS, Loaded::option_specs)
    }

    fn default_seats() -> usize {
        selected().map_or(Self::SEATS.0, Loaded::default_seats)
    }

    fn with_seats(seats: usize) -> Result<Self, ConfigError> {
        let loaded = selected().ok_or(ConfigError::NoGameFile)?;
        FileGame::new(loaded.base.clone(), seats)
    }

    fn set_option(&mut self, key: &str, value: &str) -> Result<(), ConfigError> {
        self.0.set_options(self.1.name, &[(key, value)])
    }

    fn set_options(&mut self, pairs: &[(&str, &str)]) -> Result<(), ConfigError> {
        self.0.set_options(self.1.name, pairs)
    }

    fn options(&self) -> Vec<(&'static str, String)> {
        let specs = self.1.specs;
        self.0
            .option_values()
            .into_iter()
            .filter_map(|(k, v)| specs.iter().find(|o| o.name == k).map(|o| (o.name, v)))
            .collect()
    }

    fn name(&self) -> &'static str {
        self.1.name
    }

    fn title(&self) -> &'static str {
        self.1.title
    }

    fn loaded_description(&self) -> Option<&'static Loaded> {
        Some(self.1)
    }

    crate::__described_rules!();
}

crate::__described_board!(FileGame, BUFFER);
