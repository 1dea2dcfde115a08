//! docs/protocol.schema.json is the JSON Schema the protocol's request types generate
//! (`stickdice_evaluation::protocol::requests::schema`): this test fails when the
//! committed file differs from what the code generates. To write it again after changing
//! a request:
//!
//! ```sh
//! STICKDICE_WRITE_SCHEMA=1 cargo test --release -p stickdice-evaluation --test integration protocol_schema::
//! ```

use std::path::PathBuf;

use serde_json::Value;
use stickdice_evaluation::protocol::{requests, COMMANDS};

fn schema_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/protocol.schema.json")
}

#[test]
fn the_committed_schema_is_the_one_the_request_types_generate() {
    let generated = format!(
        "{}\n",
        serde_json::to_string_pretty(&requests::schema()).unwrap()
    );
    let path = schema_path();
    if std::env::var_os("STICKDICE_WRITE_SCHEMA").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} differs from the schema the request types generate; write it again with\n  \
         STICKDICE_WRITE_SCHEMA=1 cargo test --release -p stickdice-evaluation --test integration protocol_schema::",
        path.display()
    );
}

/// The schema has one variant per command, each naming its `cmd` and taking exactly the
/// command's fields plus `id`.
#[test]
fn the_schema_describes_every_command_and_its_fields() {
    let schema = requests::schema();
    let variants = schema["oneOf"].as_array().expect("one variant per command");
    assert_eq!(variants.len(), COMMANDS.len());
    for (cmd, fields) in COMMANDS {
        let v = variants
            .iter()
            .find(|v| v["properties"]["cmd"]["const"] == *cmd)
            .unwrap_or_else(|| panic!("no variant for `{cmd}` in {schema}"));
        let mut keys: Vec<&str> = v["properties"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        let mut expected: Vec<&str> = fields.iter().copied().chain(["cmd", "id"]).collect();
        expected.sort_unstable();
        assert_eq!(keys, expected, "{cmd}");
        assert_eq!(v["additionalProperties"], Value::Bool(false), "{cmd}");
    }
}
