//! Progress of a long command on standard error: on a terminal a bar with the time left;
//! otherwise (CI, `nohup`, a notebook, a pipe) an estimate a few seconds in and then a plain
//! line every few seconds, so that a long run is never silent.

use std::io::IsTerminal as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The time after which the first estimate is printed.
pub(crate) const ESTIMATE_AFTER: Duration = Duration::from_secs(3);
/// The time between plain progress lines when standard error is not a terminal.
pub(crate) const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// The environment variable that sets the seconds between plain progress lines (a log that
/// wants fewer lines, or one after every unit of work with `0`).
pub(crate) const PROGRESS_EVERY_VAR: &str = "STICKDICE_PROGRESS_EVERY";

/// The time between plain progress lines: [`PROGRESS_EVERY_VAR`] if it holds a number of
/// seconds, else [`PROGRESS_EVERY`].
pub(crate) fn progress_every() -> Duration {
    std::env::var(PROGRESS_EVERY_VAR)
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && (0.0..=86_400.0).contains(s))
        .map_or(PROGRESS_EVERY, Duration::from_secs_f64)
}

/// A duration for people: `42 s`, `3 min 20 s`, `2 h 05 min`.
pub(crate) fn seconds(s: f64) -> String {
    let s = s.round() as u64;
    if s < 60 {
        format!("{s} s")
    } else if s < 3600 {
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        format!("{} h {:02} min", s / 3600, (s % 3600) / 60)
    }
}

/// What a meter knows: work done of the total, what is being done, and what it has said.
#[derive(Debug)]
struct State {
    done: u64,
    total: u64,
    /// The unit of work, plural (`games`, `steps`).
    unit: &'static str,
    /// What is being done now (may be empty).
    what: String,
    estimated: bool,
    /// When the last plain line was printed (`None`: none yet).
    last_line: Option<Duration>,
    /// The time between plain lines.
    every: Duration,
}

impl State {
    /// The line to print at `elapsed` since the start, if any: the estimate once, a few
    /// seconds in, once some work is done; then, without a terminal, a line every few
    /// seconds (with an estimate once there is one).
    fn line(&mut self, elapsed: Duration, terminal: bool) -> Option<String> {
        if self.done >= self.total {
            return None;
        }
        let secs = elapsed.as_secs_f64().max(1e-9);
        let left =
            (self.done > 0).then(|| (self.total - self.done) as f64 * secs / self.done as f64);
        let what = if self.what.is_empty() {
            String::new()
        } else {
            format!(" ({})", self.what)
        };
        if !self.estimated && elapsed >= ESTIMATE_AFTER {
            if let Some(left) = left {
                self.estimated = true;
                self.last_line = Some(elapsed);
                return Some(format!(
                    "estimate: about {} in all, {} left ({} of {} {} in {})",
                    seconds(secs + left),
                    seconds(left),
                    self.done,
                    self.total,
                    self.unit,
                    seconds(secs)
                ));
            }
        }
        let due = match self.last_line {
            None => elapsed >= self.every,
            Some(t) => elapsed >= t + self.every,
        };
        if terminal || !due {
            return None;
        }
        self.last_line = Some(elapsed);
        Some(format!(
            "progress: {}/{} {}{what}, {} elapsed{}",
            self.done,
            self.total,
            self.unit,
            seconds(secs),
            left.map_or(String::new(), |l| format!(", about {} left", seconds(l)))
        ))
    }
}

struct Inner {
    bar: ProgressBar,
    terminal: bool,
    start: Instant,
    state: Mutex<State>,
    finished: AtomicBool,
}

impl Inner {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Prints the line due now, if any.
    fn speak(&self) {
        let line = self.state().line(self.start.elapsed(), self.terminal);
        if let Some(line) = line {
            self.bar.suspend(|| eprintln!("{line}"));
        }
    }
}

/// The progress of a long command (see the module's documentation). Dropping it (or
/// [`Meter::finish`]) clears the bar and stops the plain lines.
pub(crate) struct Meter {
    inner: Arc<Inner>,
    ticker: Option<JoinHandle<()>>,
}

impl Meter {
    /// A meter of `total` units of work, named `unit` (plural).
    pub(crate) fn new(total: u64, unit: &'static str) -> Meter {
        let terminal = std::io::stderr().is_terminal();
        let bar = if terminal {
            ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template(&format!(
                "{{bar:24.cyan/blue}} {{pos}}/{{len}} {unit}  {{elapsed}} elapsed, {{eta}} left  {{msg}}"
            ))
            .expect("a valid template"),
        );
        if terminal {
            bar.enable_steady_tick(Duration::from_millis(500));
        }
        let inner = Arc::new(Inner {
            bar,
            terminal,
            start: Instant::now(),
            state: Mutex::new(State {
                done: 0,
                total,
                unit,
                what: String::new(),
                estimated: false,
                last_line: None,
                every: progress_every(),
            }),
            finished: AtomicBool::new(false),
        });
        let ticker = {
            let inner = Arc::clone(&inner);
            std::thread::Builder::new()
                .name("progress".to_string())
                .spawn(move || {
                    while !inner.finished.load(Ordering::SeqCst) {
                        std::thread::park_timeout(Duration::from_millis(250));
                        if !inner.finished.load(Ordering::SeqCst) {
                            inner.speak();
                        }
                    }
                })
                .ok()
        };
        Meter { inner, ticker }
    }

    /// Adds `n` units of work done (and prints the line due now, if any).
    pub(crate) fn inc(&self, n: u64) {
        self.inner.bar.inc(n);
        {
            let mut s = self.inner.state();
            s.done = (s.done + n).min(s.total);
        }
        self.inner.speak();
    }

    /// Sets the work done to `done` units (never backwards).
    pub(crate) fn set_done(&self, done: u64) {
        let add = {
            let s = self.inner.state();
            done.min(s.total).saturating_sub(s.done)
        };
        if add > 0 {
            self.inc(add);
        }
    }

    /// Sets what is being done now (shown beside the bar and in the plain lines).
    pub(crate) fn set_message(&self, what: &str) {
        self.inner.bar.set_message(what.to_string());
        self.inner.state().what = what.to_string();
    }

    /// Prints a line above the bar (or plainly without a terminal).
    pub(crate) fn println(&self, line: &str) {
        self.inner.bar.suspend(|| eprintln!("{line}"));
    }

    /// Clears the bar and stops the plain lines.
    pub(crate) fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        self.inner.finished.store(true, Ordering::SeqCst);
        if let Some(t) = self.ticker.take() {
            t.thread().unpark();
            let _ = t.join();
        }
        self.inner.bar.finish_and_clear();
    }
}

/// A meter for a library's progress callback, which learns the total only with its first
/// call: made then, and finished by [`LateMeter::finish`] (or when dropped).
#[derive(Clone, Default)]
pub(crate) struct LateMeter(Arc<Mutex<Option<Meter>>>);

impl LateMeter {
    /// The callback: the first call makes the meter of `p.total` units named `unit`, showing
    /// `what`; every call sets the work done to `p.done`, and the last one finishes it.
    pub(crate) fn callback(
        &self,
        unit: &'static str,
        what: &'static str,
    ) -> impl Fn(stickdice_evaluation::tournament::Progress) + Send + Sync + 'static {
        let slot = Arc::clone(&self.0);
        move |p| {
            let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
            let meter = slot.get_or_insert_with(|| {
                let meter = Meter::new(p.total as u64, unit);
                meter.set_message(what);
                meter
            });
            meter.set_done(p.done as u64);
            if p.done >= p.total {
                if let Some(m) = slot.take() {
                    m.finish();
                }
            }
        }
    }

    /// Clears the bar and stops the plain lines (if the meter was made).
    pub(crate) fn finish(&self) {
        if let Some(m) = self.0.lock().unwrap_or_else(|e| e.into_inner()).take() {
            m.finish();
        }
    }
}

impl Drop for Meter {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(done: u64, total: u64) -> State {
        State {
            done,
            total,
            unit: "games",
            what: "self-play: random".to_string(),
            estimated: false,
            last_line: None,
            every: PROGRESS_EVERY,
        }
    }

    #[test]
    fn without_a_terminal_a_line_comes_every_few_seconds_with_an_estimate() {
        let mut s = state(0, 100);
        // Nothing done yet: no estimate, but a line once the first interval is over.
        assert_eq!(s.line(Duration::from_secs(1), false), None);
        assert_eq!(s.line(Duration::from_secs(4), false), None);
        let first = s.line(Duration::from_secs(5), false).unwrap();
        assert_eq!(
            first,
            "progress: 0/100 games (self-play: random), 5 s elapsed"
        );
        // Some done: the estimate at once, then a line every interval.
        s.done = 25;
        let estimate = s.line(Duration::from_secs(6), false).unwrap();
        assert_eq!(
            estimate,
            "estimate: about 24 s in all, 18 s left (25 of 100 games in 6 s)"
        );
        assert_eq!(s.line(Duration::from_secs(10), false), None);
        s.done = 50;
        let line = s.line(Duration::from_secs(12), false).unwrap();
        assert_eq!(
            line,
            "progress: 50/100 games (self-play: random), 12 s elapsed, about 12 s left"
        );
        // Done: nothing more.
        s.done = 100;
        assert_eq!(s.line(Duration::from_secs(30), false), None);
    }

    #[test]
    fn on_a_terminal_only_the_estimate_is_printed_beside_the_bar() {
        let mut s = state(10, 40);
        assert_eq!(s.line(Duration::from_secs(2), true), None);
        assert!(s
            .line(Duration::from_secs(3), true)
            .unwrap()
            .starts_with("estimate: about 12 s in all, 9 s left"));
        assert_eq!(s.line(Duration::from_secs(60), true), None);
    }

    #[test]
    fn with_no_interval_a_line_comes_at_every_call() {
        let mut s = state(1, 4);
        s.every = Duration::ZERO;
        assert_eq!(
            s.line(Duration::from_secs(1), false).unwrap(),
            "progress: 1/4 games (self-play: random), 1 s elapsed, about 3 s left"
        );
        s.done = 2;
        assert!(s.line(Duration::from_secs(1), false).is_some());
        assert_eq!(s.line(Duration::from_secs(1), true), None);
    }

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(seconds(42.4), "42 s");
        assert_eq!(seconds(200.0), "3 min 20 s");
        assert_eq!(seconds(7500.0), "2 h 05 min");
    }
}
