//! Every `stickdice …` command line shown in a shell block of the README or the book
//! (`docs/`) parses with this binary's arguments: a renamed option, a removed subcommand or
//! a misspelt flag in the documentation fails this test. (Parsing only: the values an
//! option takes, such as agent specs and game names, are checked when a command runs.)

use clap::Parser;

use crate::Cli;

/// The Markdown files to read: the README and the book's pages.
fn pages() -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = vec![root.join("README.md")];
    walk(&root.join("docs"), &mut out);
    out
}

/// The lines of the shell blocks (```sh), continuation lines joined.
fn shell_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_sh = false;
    let mut pending = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(info) = t.strip_prefix("```") {
            in_sh = !in_sh && matches!(info.trim(), "sh" | "bash" | "console");
            continue;
        }
        if !in_sh {
            continue;
        }
        match t.strip_suffix('\\') {
            Some(head) => pending.push_str(head),
            None => {
                pending.push_str(t);
                out.push(std::mem::take(&mut pending));
            }
        }
    }
    out
}

/// Splits a shell line into words, honouring single and double quotes; stops at a comment,
/// a pipe, a redirection or a command separator.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None => match c {
                '\'' | '"' => {
                    quote = Some(c);
                    in_word = true;
                }
                '#' if !in_word => break,
                '|' | '>' | '<' | ';' | '&' => break,
                c if c.is_whitespace() => {
                    if in_word {
                        out.push(std::mem::take(&mut word));
                        in_word = false;
                    }
                }
                c => {
                    word.push(c);
                    in_word = true;
                }
            },
        }
    }
    if in_word {
        out.push(word);
    }
    out
}

/// The arguments of a `stickdice` command line (after environment assignments, `time`,
/// or `cargo run … --`), if the line is one.
fn stickdice_args(line: &str) -> Option<Vec<String>> {
    let w = words(line);
    let mut i = 0;
    while i < w.len() && (w[i] == "time" || (w[i].contains('=') && !w[i].starts_with('-'))) {
        i += 1;
    }
    let rest = &w[i..];
    match rest.first().map(String::as_str) {
        Some("stickdice") => Some(rest[1..].to_vec()),
        Some("cargo") if rest.get(1).map(String::as_str) == Some("run") => {
            let dash = rest.iter().position(|a| a == "--")?;
            rest.contains(&"stickdice".to_string())
                .then(|| rest[dash + 1..].to_vec())
        }
        _ => None,
    }
}

#[test]
fn every_documented_command_line_parses() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for line in shell_lines(&text) {
            let Some(args) = stickdice_args(&line) else {
                continue;
            };
            checked += 1;
            let argv = std::iter::once("stickdice".to_string()).chain(args);
            if let Err(e) = Cli::try_parse_from(argv) {
                let first = e.to_string().lines().next().unwrap_or_default().to_string();
                failures.push(format!("{}: `{line}`: {first}", page.display()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "documented commands that do not parse:\n{}",
        failures.join("\n")
    );
    assert!(
        checked >= 40,
        "only {checked} documented command lines found"
    );
}

#[test]
fn words_and_lines_are_read_as_a_shell_would() {
    assert_eq!(
        stickdice_args("STICKDICE_CACHE=/tmp/c stickdice ladder --best 'mcts:c=1,x' # note"),
        Some(vec!["ladder".into(), "--best".into(), "mcts:c=1,x".into()])
    );
    assert_eq!(
        stickdice_args("cargo run --release --bin stickdice -- tournament   # the main job"),
        Some(vec!["tournament".into()])
    );
    assert_eq!(
        stickdice_args("stickdice agents | head -1"),
        Some(vec!["agents".into()])
    );
    assert_eq!(stickdice_args("sbatch examples/slurm/merge.sbatch"), None);
    let text = "```sh\nstickdice a \\\n  --b c\n```\n```text\nstickdice x\n```\n";
    assert_eq!(shell_lines(text), vec!["stickdice a --b c".to_string()]);
}

/// Every `cargo install` of a crate of ours that the README and the book show builds with
/// `Cargo.lock`'s versions (`--locked`): without it cargo resolves the dependencies anew,
/// to versions the tests never ran with.
#[test]
fn every_documented_cargo_install_is_locked() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for line in shell_lines(&text) {
            let w = words(&line);
            if w.first().map(String::as_str) != Some("cargo")
                || w.get(1).map(String::as_str) != Some("install")
            {
                continue;
            }
            checked += 1;
            if !w.iter().any(|a| a == "--locked") {
                failures.push(format!("{}: `{line}`", page.display()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "`cargo install` without --locked:\n{}",
        failures.join("\n")
    );
    assert!(checked >= 2, "only {checked} cargo install lines found");
}
