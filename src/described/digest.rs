//! The digest that names a description's content: SHA-256 of a canonical writing of the
//! description as data, so that logs can record which description they were played with
//! and refuse another.
//!
//! The canonical writing is of the description as read (a reading already merged into the
//! description it extends, options declared but not applied) as compact JSON with the keys
//! of every table sorted, non-ASCII characters as they are (what Python's
//! `json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=False)` writes; a
//! date, which no field takes, is written as a string after `@`). Comments, layout, key
//! order and the way a table is written (`[a]` or `a = { … }`) change nothing; a change to
//! any value, the name and title included, changes the digest. It is the content and not
//! the compiled tables, so that the same file keeps its digest across versions of the
//! compiler.

use core::fmt::Write as _;

use sha2::{Digest as _, Sha256};

use super::Base;

impl Base {
    /// The SHA-256 digest of the description's content, as 64 lower-case hex digits (see
    /// the module's documentation for what counts as the content).
    pub fn digest(&self) -> String {
        let mut text = String::new();
        canonical(&toml::Value::Table(self.tree.clone()), &mut text);
        let hash = Sha256::digest(text.as_bytes());
        let mut out = String::with_capacity(64);
        for b in hash {
            let _ = write!(out, "{b:02x}");
        }
        out
    }
}

fn canonical(v: &toml::Value, out: &mut String) {
    match v {
        toml::Value::String(s) => string(s, out),
        toml::Value::Integer(i) => {
            let _ = write!(out, "{i}");
        }
        toml::Value::Float(f) => {
            let _ = write!(out, "{f:?}");
        }
        toml::Value::Boolean(b) => {
            let _ = write!(out, "{b}");
        }
        toml::Value::Datetime(d) => {
            out.push('@');
            string(&d.to_string(), out);
        }
        toml::Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(x, out);
            }
            out.push(']');
        }
        toml::Value::Table(t) => {
            let mut keys: Vec<&String> = t.keys().collect();
            keys.sort_unstable();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(k, out);
                out.push(':');
                canonical(&t[k.as_str()], out);
            }
            out.push('}');
        }
    }
}

fn string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
