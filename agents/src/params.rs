//! The types agents are described and configured with: [`AgentInfo`] and [`ParamInfo`]
//! (what an agent takes), [`AgentSpec`] (a parsed `name:key=value,...` string), [`Params`]
//! (a spec's parameters checked against its agent, with typed accessors) and [`SpecError`].
//!
//! Every agent reads its parameters through these; the registry ([`crate::spec`]) lists
//! the agents and builds them, so the imports run one way: agents → `params` ← `spec`.

use core::fmt;
use core::str::FromStr;

/// One parameter an agent takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamInfo {
    /// Its key.
    pub key: &'static str,
    /// Its default, as text (`"-"` when unset by default).
    pub default: &'static str,
    /// What it means and which values it takes.
    pub help: &'static str,
}

/// An agent kind with its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentInfo {
    /// The spec name.
    pub name: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
    /// Its parameters.
    pub params: &'static [ParamInfo],
}

/// A spec that cannot be turned into an agent.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SpecError {
    /// The text is not `name[:key=value,...]`.
    Malformed {
        /// The text given.
        text: String,
    },
    /// No agent has this name.
    UnknownAgent {
        /// The name given.
        name: String,
        /// The names of the agents there are.
        known: Vec<&'static str>,
    },
    /// The agent has no such parameter.
    UnknownParam {
        /// The agent.
        agent: &'static str,
        /// The key given.
        key: String,
        /// The parameters the agent takes.
        accepted: &'static [ParamInfo],
    },
    /// A parameter's value is not one it takes.
    BadValue {
        /// The agent.
        agent: &'static str,
        /// The parameter.
        key: &'static str,
        /// The value given.
        value: String,
        /// What it takes.
        expected: String,
    },
    /// Another kind of agent is already registered under this name.
    Duplicate {
        /// The name.
        name: &'static str,
    },
    /// The agent cannot play this game or seat count.
    Unsupported {
        /// The agent.
        agent: &'static str,
        /// Why.
        why: String,
    },
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Malformed { text } => write!(
                f,
                "`{text}` is not an agent spec: write name or name:key=value,key=value (e.g. mcts:iterations=2000,c=1.4)"
            ),
            SpecError::UnknownAgent { name, known } => {
                write!(f, "unknown agent `{name}`")?;
                if let Some(near) = stickdice::config::did_you_mean(name, known.iter().copied()) {
                    write!(f, " (did you mean `{near}`?)")?;
                }
                write!(f, ": the agents are {}", known.join(", "))
            }
            SpecError::UnknownParam {
                agent,
                key,
                accepted,
            } => {
                if accepted.is_empty() {
                    write!(f, "agent `{agent}` takes no parameters, but `{key}` was given")
                } else {
                    write!(f, "agent `{agent}` has no parameter `{key}`")?;
                    let keys = accepted.iter().map(|p| p.key);
                    if let Some(near) = stickdice::config::did_you_mean(key, keys.clone()) {
                        write!(f, " (did you mean `{near}`?)")?;
                    }
                    write!(f, "; it takes: {}", keys.collect::<Vec<_>>().join(", "))
                }
            }
            SpecError::BadValue {
                agent,
                key,
                value,
                expected,
            } => write!(f, "{agent}: parameter `{key}` takes {expected}, not `{value}`"),
            SpecError::Duplicate { name } => {
                write!(f, "an agent named `{name}` is registered already")
            }
            SpecError::Unsupported { agent, why } => write!(f, "agent `{agent}` cannot play here: {why}"),
        }
    }
}

impl std::error::Error for SpecError {}

/// A parsed agent spec: a name and its `key=value` parameters, in the order given.
///
/// ```
/// use stickdice_agents::{AgentSpec, SpecError};
/// let spec: AgentSpec = " mcts : iterations=500, c=1.4".parse().unwrap();
/// assert_eq!(spec.name(), "mcts");
/// assert_eq!(spec.to_string(), "mcts:iterations=500,c=1.4"); // the canonical text
/// let params = spec.checked_params().unwrap();
/// assert_eq!(params.positive("iterations"), Ok(Some(500)));
/// assert_eq!(params.number("c", 0.0, 100.0), Ok(Some(1.4)));
/// assert!(matches!("mcts:iterations".parse::<AgentSpec>(), Err(SpecError::Malformed { .. })));
/// let unknown = "mcts:speed=9".parse::<AgentSpec>().unwrap().checked_params().unwrap_err();
/// assert!(unknown.to_string().contains("has no parameter `speed`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AgentSpec {
    name: String,
    params: Vec<(String, String)>,
}

impl AgentSpec {
    /// The agent's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The parameters as given.
    pub fn params(&self) -> &[(String, String)] {
        &self.params
    }

    /// The spec with `key` set to `value`: replaced where it was given, else added last.
    ///
    /// ```
    /// let spec: stickdice_agents::AgentSpec = "mcts:c=1,iterations=5".parse().unwrap();
    /// assert_eq!(spec.with_param("c", "2").to_string(), "mcts:c=2,iterations=5");
    /// assert_eq!(spec.with_param("cutoff", "0").to_string(), "mcts:c=1,iterations=5,cutoff=0");
    /// ```
    pub fn with_param(&self, key: &str, value: &str) -> AgentSpec {
        let mut out = self.clone();
        match out.params.iter_mut().find(|(k, _)| k == key) {
            Some((_, v)) => *v = value.to_string(),
            None => out.params.push((key.to_string(), value.to_string())),
        }
        out
    }
}

impl fmt::Display for AgentSpec {
    /// The canonical text: `name` or `name:k=v,k=v`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let malformed = || SpecError::Malformed {
            text: text.to_string(),
        };
        let text_t = text.trim();
        let (name, rest) = match text_t.split_once(':') {
            Some((n, r)) => (n.trim(), Some(r)),
            None => (text_t, None),
        };
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(malformed());
        }
        let mut params = Vec::new();
        if let Some(rest) = rest {
            for item in rest.split(',') {
                let (k, v) = item.split_once('=').ok_or_else(malformed)?;
                let (k, v) = (k.trim(), v.trim());
                if k.is_empty() || v.is_empty() {
                    return Err(malformed());
                }
                if params.iter().any(|(pk, _): &(String, String)| pk == k) {
                    return Err(malformed());
                }
                params.push((k.to_string(), v.to_string()));
            }
        }
        Ok(AgentSpec {
            name: name.to_string(),
            params,
        })
    }
}

/// A spec's parameters, checked against its agent, with typed accessors that fall back to
/// the declared defaults.
#[derive(Clone, Copy, Debug)]
pub struct Params<'a> {
    info: &'static AgentInfo,
    spec: &'a AgentSpec,
}

impl<'a> Params<'a> {
    /// The parameters of `spec` checked against the agent `info` declares: a key it does
    /// not declare is an error. (The spec's name is not looked at: finding the agent a
    /// name means is the registry's job, [`AgentSpec::checked_params`].)
    ///
    /// # Errors
    /// [`SpecError::UnknownParam`].
    pub fn new(info: &'static AgentInfo, spec: &'a AgentSpec) -> Result<Self, SpecError> {
        for (k, _) in &spec.params {
            if !info.params.iter().any(|p| p.key == k) {
                return Err(SpecError::UnknownParam {
                    agent: info.name,
                    key: k.clone(),
                    accepted: info.params,
                });
            }
        }
        Ok(Params { info, spec })
    }

    /// The agent's declared information.
    pub fn info(&self) -> &'static AgentInfo {
        self.info
    }

    /// The raw value given for `key`, if any.
    pub fn given(&self, key: &str) -> Option<&str> {
        self.spec
            .params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn declared(&self, key: &'static str) -> &'static ParamInfo {
        self.info
            .params
            .iter()
            .find(|p| p.key == key)
            .unwrap_or_else(|| panic!("agent {} reads undeclared parameter {key}", self.info.name))
    }

    fn raw(&self, key: &'static str) -> Option<&str> {
        let d = self.declared(key);
        self.given(key).or(if d.default == "-" {
            None
        } else {
            Some(d.default)
        })
    }

    fn bad(&self, key: &'static str, value: &str, expected: &str) -> SpecError {
        SpecError::BadValue {
            agent: self.info.name,
            key,
            value: value.to_string(),
            expected: expected.to_string(),
        }
    }

    /// A whole number ≥ 1 (budgets, depths), or `None` when neither given nor defaulted.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] for anything but a positive whole number (0 is rejected).
    pub fn positive(&self, key: &'static str) -> Result<Option<u64>, SpecError> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => match v.parse::<u64>() {
                Ok(n) if n >= 1 => Ok(Some(n)),
                _ => Err(self.bad(key, v, "a whole number of at least 1")),
            },
        }
    }

    /// A finite number in `[min, max]`, or `None` when neither given nor defaulted.
    ///
    /// # Errors
    /// [`SpecError::BadValue`].
    pub fn number(&self, key: &'static str, min: f64, max: f64) -> Result<Option<f64>, SpecError> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => match v.parse::<f64>() {
                Ok(x) if x.is_finite() && x >= min && x <= max => Ok(Some(x)),
                _ => Err(self.bad(key, v, &format!("a number from {min} to {max}"))),
            },
        }
    }

    /// One of `choices`, or `None` when neither given nor defaulted.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] listing the choices.
    pub fn choice(
        &self,
        key: &'static str,
        choices: &[&'static str],
    ) -> Result<Option<&'static str>, SpecError> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => choices
                .iter()
                .copied()
                .find(|c| c.eq_ignore_ascii_case(v))
                .map(Some)
                .ok_or_else(|| self.bad(key, v, &format!("one of {}", choices.join(", ")))),
        }
    }

    /// A yes/no value (`true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0`).
    ///
    /// # Errors
    /// [`SpecError::BadValue`].
    pub fn flag(&self, key: &'static str) -> Result<Option<bool>, SpecError> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => match v.to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" | "1" => Ok(Some(true)),
                "false" | "no" | "off" | "0" => Ok(Some(false)),
                _ => Err(self.bad(key, v, "true or false")),
            },
        }
    }
}
