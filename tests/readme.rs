//! The README's library programs are the example programs CI builds, character for
//! character: each `rust` block of README.md equals the file it names.

#[test]
fn the_readme_programs_are_the_examples() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let mut blocks = Vec::new();
    let mut rest = readme.as_str();
    while let Some(at) = rest.find("```rust\n") {
        let body = &rest[at + "```rust\n".len()..];
        let end = body.find("```\n").expect("a closed rust block");
        blocks.push(&body[..end]);
        rest = &body[end..];
    }
    let examples = ["examples/first_game.rs", "examples/tournament.rs"];
    assert_eq!(blocks.len(), examples.len(), "one README block per example");
    for (block, path) in blocks.iter().zip(examples) {
        let file = std::fs::read_to_string(format!("{root}/{path}")).unwrap();
        assert_eq!(*block, file, "README.md's block differs from {path}");
        assert!(readme.contains(&format!("({path})")), "README links {path}");
    }
}
