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
