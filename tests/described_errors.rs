//! Bad descriptions get clear errors naming the file, line and field and what was expected;
//! never a panic, never a silently different game.

use stickdice::described::games::SHIPPED;
use stickdice::described::{Base, Described};

const GOOD: &str = r#"
format = 1
name = "tiny"
title = "Tiny"

[board]
rows = 2
columns = 3

[throws]
sticks = 4
values = [4, 1, 2, 3, 6]

[track]
runs = [{ row = 0, dir = "right" }, { row = 1, dir = "left" }]

[pieces]
positions = [0]

[end]
no_pieces = true
rank = "last-standing"
"#;

fn error(text: &str) -> String {
    match Described::from_text("bad.toml", text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_good_description_compiles() {
    let g = Described::from_text("tiny.toml", GOOD).unwrap();
    assert_eq!(g.track(0).len(), 6);
    assert_eq!(
        g.track(1)[0],
        (1, 2),
        "side 1's track is side 0's turned half a turn"
    );
}

#[test]
fn an_unknown_field_names_the_nearest_one_and_its_line() {
    let e = error(&GOOD.replace("columns = 3", "colums = 3"));
    assert!(e.starts_with("bad.toml:8:"), "{e}");
    assert!(e.contains("unknown field `colums`"), "{e}");
    assert!(e.contains("did you mean `columns`?"), "{e}");
}

#[test]
fn a_wrong_type_is_named() {
    let e = error(&GOOD.replace("rows = 2", "rows = \"two\""));
    assert!(e.starts_with("bad.toml:7:"), "{e}");
    assert!(e.contains("invalid type"), "{e}");
}

#[test]
fn a_track_that_leaves_the_board() {
    let e = error(&GOOD.replace("{ row = 1, dir = \"left\" }", "{ row = 2, dir = \"left\" }"));
    assert!(e.contains("field `track.runs[1].row`"), "{e}");
    assert!(e.contains("2 is out of range: expected 0 to 1"), "{e}");
    // Both runs are on line 15; the second `row =` is the one meant.
    let line = GOOD.lines().nth(14).unwrap();
    let col = line.match_indices("row =").nth(1).unwrap().0 + 1;
    assert!(e.starts_with(&format!("bad.toml:15:{col}:")), "{e}");
}

#[test]
fn a_track_that_misses_squares() {
    let text = GOOD
        .replace("rows = 2", "rows = 3")
        .replace("[track]", "[track]\nothers = \"shared\"")
        .replace(
            "[end]",
            "[moves]\noccupancy = \"shared\"\ncapture = \"none\"\n\n[end]",
        );
    let e = error(&text);
    assert!(e.contains("field `track.runs`"), "{e}");
    assert!(e.contains("square [2, 0] is on no side's track"), "{e}");
}

#[test]
fn a_throw_table_of_the_wrong_length() {
    let e = error(&GOOD.replace("values = [4, 1, 2, 3, 6]", "values = [4, 1, 2, 3]"));
    assert!(e.contains("field `throws.values`"), "{e}");
    assert!(e.contains("4 entries, expected 5"), "{e}");
    assert!(e.starts_with("bad.toml:12:"), "{e}");
}

#[test]
fn an_option_patch_naming_nothing() {
    let text = format!(
        "{GOOD}\n[options.wide]\nhelp = \"wider\"\ntype = \"bool\"\npatch = {{ board = {{ colums = 5 }} }}\n"
    );
    let e = error(&text);
    assert!(e.contains("unknown field `colums`"), "{e}");
    assert!(e.contains("did you mean `columns`?"), "{e}");
    assert!(e.contains("option `wide`"), "{e}");
}

#[test]
fn an_int_option_must_use_its_value() {
    let text = format!(
        "{GOOD}\n[options.wide]\nhelp = \"wider\"\ntype = \"int\"\nvalues = [3, 4]\ndefault = 3\npatch = {{ board = {{ columns = 4 }} }}\n"
    );
    let e = error(&text);
    assert!(e.contains("field `options.wide.patch`"), "{e}");
    assert!(e.contains("\"$value\""), "{e}");
}

#[test]
fn seats_that_cannot_move_at_all() {
    let e = error(&GOOD.replace("values = [4, 1, 2, 3, 6]", "values = [0, 0, 0, 0, 0]"));
    assert!(
        e.contains("every value is 0: no seat could ever move"),
        "{e}"
    );
    let e = error(&format!("{GOOD}\n[release]\nvalues = [5]\n"));
    assert!(e.contains("field `release.values`"), "{e}");
    assert!(e.contains("5 is not a value any throw has"), "{e}");
}

#[test]
fn an_unknown_region_and_a_wrong_format_version() {
    let e = error(&GOOD.replace("[end]", "[moves]\nsafe = \"far\"\n\n[end]"));
    assert!(e.contains("field `moves.safe`: no region `far`"), "{e}");
    let e = error(&GOOD.replace("format = 1", "format = 2"));
    assert!(e.contains("field `format`: version 2"), "{e}");
}

#[test]
fn a_reading_extends_a_shipped_description() {
    let text = r#"
format = 1
extends = "tab"
name = "tab-no-out-gate"
title = "Tab (no out gate)"
patch.track.runs = [
  { row = 0, dir = "right" },
  { row = 1, dir = "left" },
  { row = 2, dir = "right", branches = [
      { name = "round", run = 1 },
      { name = "in", run = 3, gate = [{ enemy_in = "far_row" }, { without_flag = "left_far_row" }] },
  ] },
  { row = 3, dir = "left", then = { run = 2, set_flag = "left_far_row" } },
]
"#;
    let g = Described::from_text("reading.toml", text).unwrap();
    assert_eq!(g.name(), "tab-no-out-gate");
    assert!(
        g.option_names().contains(&"columns"),
        "the base's options stay"
    );
    let e = error(&text.replace("extends = \"tab\"", "extends = \"tabb\""));
    assert!(e.contains("did you mean `tab`?"), "{e}");
}

/// Every prefix and every one-line deletion of every shipped file is read without a panic
/// (an error or, rarely, another valid game).
#[test]
fn damaged_files_never_panic() {
    for (_, file, text) in SHIPPED {
        let lines: Vec<&str> = text.lines().collect();
        for cut in 0..lines.len() {
            let prefix = lines[..cut].join("\n");
            let _ = Base::parse(file, &prefix);
            let mut without = lines.clone();
            without.remove(cut);
            let _ = Base::parse(file, &without.join("\n"));
        }
    }
}

/// docs/described/stickdice-game.schema.json is the schema the format's types generate
/// (`stickdice::described::schema::schema`): this test fails when the committed file
/// differs. To write it again after changing the format:
///
/// ```sh
/// STICKDICE_WRITE_SCHEMA=1 cargo test --release --test integration described_errors::the_committed_schema
/// ```
#[test]
fn the_committed_schema_is_the_one_the_format_generates() {
    let generated = format!(
        "{}\n",
        serde_json::to_string_pretty(&stickdice::described::schema::schema()).unwrap()
    );
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/described/stickdice-game.schema.json");
    if std::env::var_os("STICKDICE_WRITE_SCHEMA").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} differs from the schema the format's types generate; write it again with\n  \
         STICKDICE_WRITE_SCHEMA=1 cargo test --release --test integration described_errors::the_committed_schema",
        path.display()
    );
}

/// Every key of every shipped file (and of the book's reading) is a property the schema
/// knows at that place, and every table the schema closes refuses a key it does not know:
/// the schema describes the files the reader accepts.
#[test]
fn the_schema_knows_every_field_of_the_shipped_files() {
    use serde_json::Value;
    let schema = serde_json::to_value(stickdice::described::schema::schema()).unwrap();
    fn resolve<'a>(root: &'a Value, mut s: &'a Value) -> Vec<Value> {
        while let Some(r) = s.get("$ref").and_then(Value::as_str) {
            s = &root["definitions"][r.trim_start_matches("#/definitions/")];
        }
        // A union (or a lone `allOf`, draft 7's way of documenting a reference): every
        // branch, resolved.
        let branches: Vec<Value> = ["anyOf", "oneOf", "allOf"]
            .iter()
            .filter_map(|k| s.get(*k).and_then(Value::as_array))
            .flatten()
            .flat_map(|b| resolve(root, b))
            .collect();
        if branches.is_empty() {
            vec![s.clone()]
        } else {
            branches
        }
    }
    let resolve = |s: &Value| resolve(&schema, s);
    fn walk(
        value: &toml::Value,
        schemas: Vec<Value>,
        path: &str,
        resolve: &dyn Fn(&Value) -> Vec<Value>,
    ) -> Result<(), String> {
        let schemas: Vec<Value> = schemas.iter().flat_map(resolve).collect();
        match value {
            toml::Value::Table(t) => {
                let objects: Vec<&Value> = schemas
                    .iter()
                    .filter(|s| s.get("properties").is_some())
                    .collect();
                if objects.is_empty() {
                    // A free table (a patch, a map of named regions or options).
                    let inner: Vec<Value> = schemas
                        .iter()
                        .filter_map(|s| s.get("additionalProperties"))
                        .filter(|a| a.is_object())
                        .cloned()
                        .collect();
                    if !inner.is_empty() {
                        for (k, v) in t {
                            walk(v, inner.clone(), &format!("{path}.{k}"), resolve)?;
                        }
                    }
                    return Ok(());
                }
                // The branch that knows every key (a description or a reading).
                let mut last = String::new();
                for o in objects {
                    let props = o["properties"].as_object().unwrap();
                    match t.iter().try_for_each(|(k, v)| match props.get(k) {
                        Some(s) => walk(v, vec![s.clone()], &format!("{path}.{k}"), resolve),
                        None => Err(format!("{path}.{k}: not in the schema")),
                    }) {
                        Ok(()) => return Ok(()),
                        Err(e) => last = e,
                    }
                }
                Err(last)
            }
            toml::Value::Array(a) => {
                let items: Vec<Value> = schemas
                    .iter()
                    .filter_map(|s| s.get("items"))
                    .cloned()
                    .collect();
                for (i, v) in a.iter().enumerate() {
                    walk(v, items.clone(), &format!("{path}[{i}]"), resolve)?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
    let reading = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("docs/described/tab-no-out-gate.toml"),
    )
    .unwrap();
    let files = SHIPPED
        .iter()
        .map(|(_, file, text)| (file.to_string(), text.to_string()))
        .chain([("tab-no-out-gate.toml".to_string(), reading)]);
    for (file, text) in files {
        let value: toml::Value = toml::from_str(&text).unwrap();
        walk(&value, vec![schema.clone()], &file, &resolve).unwrap_or_else(|e| panic!("{e}"));
    }
    // And a key the format refuses is refused by the schema too.
    let mut bad: toml::Value = toml::from_str(SHIPPED[0].2).unwrap();
    bad["board"]
        .as_table_mut()
        .unwrap()
        .insert("colums".into(), toml::Value::Integer(3));
    assert!(walk(&bad, vec![schema.clone()], "bad", &resolve).is_err());
}

/// A description's digest names its content: comments, layout, key order and table style
/// change nothing, any value changes it, and it is pinned (logs keep it across versions).
#[test]
fn the_digest_names_the_content_not_the_text() {
    let digest = |text: &str| Base::parse("d.toml", text).unwrap().digest();
    let good = digest(GOOD);
    assert_eq!(good.len(), 64);
    assert!(good
        .bytes()
        .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
    let relaid = r#"
# The same game, written otherwise.
title = "Tiny"   # keys in another order
name = "tiny"
format = 1
board = { columns = 3, rows = 2 }
throws.sticks = 4
throws.values = [
    4, 1, 2,
    3, 6,
]
[track]
runs = [{ dir = "right", row = 0 }, { row = 1, dir = "left" }]
[end]
rank = "last-standing"
no_pieces = true
[pieces]
positions = [0]
"#;
    assert_eq!(digest(relaid), good);
    let changed = GOOD.replace("values = [4, 1, 2, 3, 6]", "values = [4, 1, 2, 3, 5]");
    assert_ne!(digest(&changed), good);
    assert_ne!(digest(&GOOD.replace("\"Tiny\"", "\"Tiny too\"")), good);
    let shipped: std::collections::BTreeSet<String> = SHIPPED
        .iter()
        .map(|(_, file, text)| Base::parse(file, text).unwrap().digest())
        .collect();
    assert_eq!(shipped.len(), SHIPPED.len());
    // sha256 of {"board":{"columns":3,"rows":2},"end":{…},"format":1,…} (compact JSON,
    // keys sorted): Python's json.dumps(d, sort_keys=True, separators=(",", ":")) agrees.
    assert_eq!(
        good,
        "6772c3b888dd4883d1a89a350c5c7a2e8f7b05d8427a212ce45843be7697ffc1"
    );
}

#[test]
fn extra_throws_by_count_are_checked() {
    let e = error(&GOOD.replace(
        "values = [4, 1, 2, 3, 6]",
        "values = [4, 1, 2, 3, 6]\nagain = [1]\nagain_counts = [1]",
    ));
    assert!(e.contains("throws.again_counts"), "{e}");
    assert!(e.contains("not both"), "{e}");
    let e = error(&GOOD.replace(
        "values = [4, 1, 2, 3, 6]",
        "values = [4, 1, 2, 3, 6]\nagain_counts = [5]",
    ));
    assert!(
        e.contains("count 5 is out of range: expected 0 to 4"),
        "{e}"
    );
    let g = Described::from_text(
        "tiny.toml",
        &GOOD.replace(
            "values = [4, 1, 2, 3, 6]",
            "values = [4, 1, 2, 1, 6]\nagain_counts = [1]",
        ),
    )
    .unwrap();
    let again: Vec<bool> = g.throw_rows().map(|r| r.again).collect();
    assert_eq!(again, [false, true, false, false, false]);
}

#[test]
fn releases_by_count_per_side_are_checked() {
    let with = |release: &str| GOOD.replace("[end]", &format!("[release]\n{release}\n\n[end]"));
    let e = error(&with("counts_by_side = [[1]]"));
    assert!(e.contains("release.counts_by_side"), "{e}");
    assert!(e.contains("1 lists for 2 sides"), "{e}");
    let e = error(&with("values = [1]\ncounts_by_side = [[1], [3]]"));
    assert!(e.contains("not both"), "{e}");
    let e = error(&with("counts_by_side = [[1], [7]]"));
    assert!(e.contains("release.counts_by_side[1]"), "{e}");
    assert!(e.contains("count 7 is out of range"), "{e}");
    let e = error(&with("counts_by_side = [[1], []]"));
    assert!(e.contains("empty"), "{e}");
    let e = error(&with("counts_by_side = []"));
    assert!(e.contains("release.values"), "{e}");
    let g = Described::from_text("tiny.toml", &with("counts_by_side = [[1], [3]]")).unwrap();
    assert!(g.releases(1) && g.releases(3) && !g.releases(2));
}

/// The self-steering chaser's description (the Ghoula of Sig wa Duqqan (Houmt Taourit)),
/// with `from` replaced by `to` (once): its error, which must name the line of `marker`
/// (the first line holding it after the change) and the field.
fn chaser_error(from: &str, to: &str, marker: &str, field: &str) -> String {
    let (_, text) =
        stickdice::described::games::reference("sig-wa-duqqan-houmt-taourit-described").unwrap();
    assert!(text.contains(from), "{from}");
    let bad = text.replacen(from, to, 1);
    let line = bad.lines().position(|l| l.contains(marker)).unwrap() + 1;
    let e = error(&bad);
    assert!(
        e.starts_with(&format!("bad.toml:{line}:")),
        "{to}: line {line}: {e}"
    );
    assert!(
        e.contains(&format!("field `{field}`")),
        "{to}: {field}: {e}"
    );
    e
}

#[test]
fn a_self_steering_chaser_out_of_range() {
    for (from, to, field) in [
        ("start = 0", "start = 85", "chaser.start"),
        ("reach = 80", "reach = 90", "chaser.reach"),
        (
            "carries_from = 1",
            "carries_from = 99",
            "chaser.carries_from",
        ),
        (
            "driven_from = [81, 82, 83, 84]",
            "driven_from = [81, 120]",
            "chaser.driven_from",
        ),
    ] {
        let e = chaser_error(from, to, to, field);
        assert!(e.contains("out of range: expected"), "{to}: {e}");
    }
    let e = chaser_error(
        "driving_values = [3]",
        "driving_values = [5]",
        "driving_values",
        "chaser.driving_values",
    );
    assert!(
        e.contains("5 is not a value above 0 of the seats' throws"),
        "{e}"
    );
    let e = chaser_error(
        "driving_values = [3]",
        "driving_values = [0]",
        "driving_values",
        "chaser.driving_values",
    );
    assert!(e.contains("0 is not a value above 0"), "{e}");
}

#[test]
fn a_self_steering_chaser_field_of_the_wrong_type() {
    for (from, to, field) in [
        ("start = 0", "start = true", "chaser.start"),
        ("reach = 80", "reach = \"80\"", "chaser.reach"),
        (
            "carries_from = 1",
            "carries_from = 1.5",
            "chaser.carries_from",
        ),
        (
            "driven_from = [81, 82, 83, 84]",
            "driven_from = 81",
            "chaser.driven_from",
        ),
        (
            "driving_values = [3]",
            "driving_values = [\"3\"]",
            "chaser.driving_values",
        ),
        (
            "lifts_at_first_move = true",
            "lifts_at_first_move = \"yes\"",
            "chaser.lifts_at_first_move",
        ),
    ] {
        chaser_error(from, to, to, field);
    }
    let e = chaser_error("start = 0", "start = true", "start = true", "chaser.start");
    assert!(
        e.contains("expected a position (a whole number, negative from the end) or"),
        "{e}"
    );
    let e = chaser_error(
        "start = 0",
        "start = \"of\"",
        "start = \"of\"",
        "chaser.start",
    );
    assert!(e.contains("`of`: expected a position or `\"off\"`"), "{e}");
    let e = chaser_error(
        "rank = \"out\"",
        "rank = \"outs\"",
        "rank = \"outs\"",
        "end.rank",
    );
    assert!(e.contains("`out`"), "{e}");
}

#[test]
fn a_self_steering_chaser_field_contradicting_another() {
    for (from, to, marker, field, says) in [
        (
            "start = 0",
            "start = 81",
            "start = 81",
            "chaser.start",
            "past the chaser's reach (80)",
        ),
        (
            "carries_from = 1",
            "carries_from = 0",
            "carries_from = 0",
            "chaser.carries_from",
            "1 or more",
        ),
        (
            "reach = 80",
            "reach = 0",
            "carries_from = 1",
            "chaser.carries_from",
            "past the chaser's reach (0)",
        ),
        (
            "start = 0",
            "start = \"off\"",
            "lifts_at_first_move",
            "chaser.lifts_at_first_move",
            "no pieces on its start",
        ),
        (
            "driven_from = [81, 82, 83, 84]",
            "driven_from = [79]",
            "driven_from",
            "chaser.driven_from",
            "not a hold",
        ),
        (
            "driven_from = [81, 82, 83, 84]",
            "driven_from = [80]",
            "driven_from",
            "chaser.driven_from",
            "within the chaser's reach",
        ),
        (
            "driving_values = [3]\n",
            "",
            "driven_from",
            "chaser.driven_from",
            "give both",
        ),
        (
            "driving_values = [3]",
            "driving_values = [1]",
            "driving_values",
            "chaser.driving_values",
            "also moves the piece held",
        ),
        (
            "kind = \"self-steering\"\n",
            "",
            "start = 0",
            "chaser.start",
            "self-steering chaser's field",
        ),
        (
            "[chaser]\n",
            "[chaser]\nappears_at = 3\n",
            "appears_at",
            "chaser.appears_at",
            "give `start`",
        ),
        (
            "all_out = true\n",
            "",
            "rank = \"out\"",
            "end.rank",
            "set `all_out`",
        ),
        (
            "rank = \"out\"",
            "rank = \"pieces-left\"",
            "[end]",
            "end",
            "ranks by `arrival` or `out`",
        ),
        (
            "decide = \"choices\"",
            "decide = \"always\"",
            "decide = \"always\"",
            "moves.decide",
            "set `decide = \"choices\"`",
        ),
    ] {
        let e = chaser_error(from, to, marker, field);
        assert!(e.contains(says), "{to}: {e}");
    }
}

#[test]
fn a_self_steering_chaser_unknown_field_names_the_nearest() {
    for (from, to, near) in [
        ("reach = 80", "rech = 80", "reach"),
        ("carries_from = 1", "carry_from = 1", "carries_from"),
        ("driven_from = [81", "driven_form = [81", "driven_from"),
        (
            "driving_values = [3]",
            "driving_value = [3]",
            "driving_values",
        ),
        (
            "lifts_at_first_move = true",
            "lift_at_first_move = true",
            "lifts_at_first_move",
        ),
    ] {
        let e = chaser_error(from, to, to, "chaser");
        assert!(e.contains(&format!("did you mean `{near}`?")), "{to}: {e}");
    }
}

/// A described game's state gives back its [`Position`], which builds it again; a position
/// no state can hold is refused with each problem typed (field, side, piece, value), and
/// JSON says the same sentence.
#[test]
fn a_position_round_trips_and_each_bad_one_names_its_problem() {
    use stickdice::described::games::SigMzab;
    use stickdice::described::{Piece, Position, Problem, SeatList, State};
    use stickdice::{ActionList, Game, Node, Playouts, SeedableRng};
    let g = SigMzab::with_seats(2).unwrap();
    let mut s = g.initial_state();
    let mut rng = stickdice::Rng::seed_from_u64(3);
    let mut actions = ActionList::new();
    for _ in 0..40 {
        match g.node(&s) {
            Node::Throw(_) => {
                let t = g.sample_throw(&mut rng);
                g.apply_throw(&mut s, t).unwrap();
            }
            Node::Decide(_) => {
                let n = rand::RngExt::random_range(&mut rng, 0..64usize);
                g.play_random_action(&mut s, &mut actions, |k| n % k);
            }
            Node::End => break,
        }
    }
    assert_eq!(State::try_from(s.position()), Ok(s));
    assert_eq!(Position::from(s), s.position());
    assert_eq!(g.load_state(&g.save_state(&s)).unwrap(), s);

    let kinds = |p: Position| -> Vec<Problem> {
        State::try_from(p)
            .unwrap_err()
            .kinds::<Problem>()
            .cloned()
            .collect()
    };
    let on = |at: &str, pos: u8| Piece {
        at: at.into(),
        pos: Some(pos),
        ..Piece::default()
    };
    let two = |a: Piece, b: Piece| Position {
        pieces: vec![vec![a], vec![b]],
        ..Position::default()
    };
    assert_eq!(kinds(Position::default()), [Problem::NoPieces]);
    assert_eq!(
        kinds(Position {
            pieces: vec![vec![on("a1", 0)], vec![on("a2", 1), on("a3", 2)]],
            ..Position::default()
        }),
        [Problem::UnevenSides {
            side: 1,
            pieces: 2,
            expected: 1
        }]
    );
    assert_eq!(
        kinds(Position {
            pieces: vec![vec![Piece::default(); 33]; 2],
            ..Position::default()
        }),
        [Problem::TooManyPieces {
            pieces: 66,
            max: stickdice::described::MAX_PIECES
        }]
    );
    assert_eq!(
        kinds(two(on("z0", 0), on("off", 0))),
        [Problem::NotASquare {
            side: 0,
            piece: 0,
            at: "z0".into()
        }]
    );
    assert_eq!(
        kinds(two(
            on("a1", 0),
            Piece {
                at: "b1".into(),
                ..Piece::default()
            }
        )),
        [Problem::NoTrackPosition {
            side: 1,
            piece: 0,
            square: "b1".into()
        }]
    );
    assert_eq!(
        kinds(two(on("a1", 254), on("gone", 0))),
        [Problem::TrackPositionOutOfRange {
            side: 0,
            piece: 0,
            pos: 254
        }]
    );
    assert_eq!(
        kinds(two(
            on("a1", 0),
            Piece {
                flags: 0x81,
                ..on("b1", 3)
            }
        )),
        [Problem::FlagsOutOfRange {
            side: 1,
            piece: 0,
            flags: 0x81
        }]
    );
    let fine = two(on("a1", 0), on("b1", 3));
    assert_eq!(
        kinds(Position {
            stock: vec![1; 9],
            captures: vec![1; 9],
            out: vec![1; 9],
            buried: vec![1; 9],
            ..fine.clone()
        }),
        [
            SeatList::Stock,
            SeatList::Captures,
            SeatList::Out,
            SeatList::Buried
        ]
        .map(|list| Problem::TooManyEntries { list, entries: 9 })
    );
    // Every problem is named, in reading order, not only the first.
    assert_eq!(
        kinds(Position {
            chaser: Some(254),
            held: vec![3, 16],
            pending: Some(16),
            ..fine.clone()
        }),
        [
            Problem::ChaserOutOfRange { pos: 254 },
            Problem::HeldOutOfRange { value: 16 },
            Problem::PendingOutOfRange { white: 16 },
        ]
    );
    assert!(State::try_from(fine).is_ok());
    // JSON states are read through the same checks, with the same sentences.
    let err = g
        .load_state(r#"{"pieces": [[{"at": "z0", "pos": 0}], [{"at": "a1"}]]}"#)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            "invalid state: P1's piece 1: `z0` is not a square, `off` or `gone`; \
             P2's piece 1 on a1 needs its track position `pos`"
        ),
        "{err}"
    );
}
