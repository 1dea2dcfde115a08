//! The JSON Schema of the description format, generated from its types
//! ([`format`](super::format)): editors that read JSON Schema (taplo, and the editors built
//! on it) complete and check description files with it. The repository ships it as
//! `docs/described/stickdice-game.schema.json`; the book's reference chapter
//! (`docs/described/format.md`) shows how to use it.

use schemars::JsonSchema;

use super::format::{Description, Reading};

/// A description file: a whole description, or a reading of a shipped one.
#[derive(JsonSchema)]
#[allow(dead_code)] // only its schema is used
#[schemars(untagged, title = "stickdice game description (format 1)")]
enum DescriptionFile {
    Description(Box<Description>),
    Reading(Reading),
}

/// The schema (JSON Schema draft 7, the draft editors' TOML tools read), as the fields are
/// read: a field with a default is optional.
pub fn schema() -> schemars::Schema {
    schemars::generate::SchemaSettings::draft07()
        .for_deserialize()
        .into_generator()
        .into_root_schema_for::<DescriptionFile>()
}
