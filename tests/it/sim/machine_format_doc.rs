//! docs/MACHINE-FORMAT.md is the machine-description format, field by
//! field: each of its tables lists exactly the fields the loader accepts in
//! that table. The oracle is the loader itself: a description with an
//! unknown field in a table is refused with serde's "expected one of" list
//! of that table's fields. The page's example loads, and every preset uses
//! only documented fields.

use std::collections::BTreeSet;

use amdgpu_sim::Machine;
use amdgpu_sim::validate::Format;

const DOC: &str = include_str!("../../../docs/MACHINE-FORMAT.md");

const CPU: &str =
    "[[agents]]\nid = \"c\"\nkind = \"cpu\"\nname = \"n\"\nuuid = \"CPU-XX\"\nnode = 0\n";

/// `(doc heading start, a description whose unknown field `bogus` sits in
/// that table)`.
fn sections() -> Vec<(&'static str, String)> {
    vec![
        ("## Top level", "name = \"x\"\nbogus = 1\n".to_owned()),
        ("## `[hip]`", "name = \"x\"\n[hip]\nbogus = 1\n".to_owned()),
        ("## `[hsa]`", "name = \"x\"\n[hsa]\nbogus = 1\n".to_owned()),
        ("## `[[agents]]`", format!("name = \"x\"\n{CPU}bogus = 1\n")),
        (
            "## `[agents.hsa]`",
            format!("name = \"x\"\n{CPU}[agents.hsa]\nbogus = 1\n"),
        ),
        (
            "## `[[agents.isas]]`",
            format!("name = \"x\"\n{CPU}[[agents.isas]]\nbogus = 1\n"),
        ),
        (
            "## `[[agents.pools]]`",
            format!("name = \"x\"\n{CPU}[[agents.pools]]\nbogus = 1\n"),
        ),
        (
            "## `[agents.hip]`",
            format!("name = \"x\"\n{CPU}[agents.hip]\nbogus = 1\n"),
        ),
        (
            "## `[[links]]`",
            "name = \"x\"\n[[links]]\nbogus = 1\n".to_owned(),
        ),
    ]
}

/// The fields the loader names for the table holding `bogus` in `text`.
fn loader_fields(text: &str) -> BTreeSet<String> {
    let error = Machine::parse("probe.toml", text, Format::Toml)
        .expect_err("an unknown field is refused")
        .to_string();
    // serde: "expected one of `a`, `b`, `c`", or "expected `a` or `b`".
    let list = error
        .split("expected ")
        .nth(1)
        .unwrap_or_else(|| panic!("no field list in {error:?}"));
    let list = list.strip_prefix("one of ").unwrap_or(list);
    list.split(", ")
        .flat_map(|part| part.split(" or "))
        .map(|field| field.trim().trim_matches('`').to_owned())
        .collect()
}

/// The first-column `` `field` `` entries of the table under `heading`.
fn doc_fields(heading: &str) -> BTreeSet<String> {
    let start = DOC
        .find(heading)
        .unwrap_or_else(|| panic!("docs/MACHINE-FORMAT.md has no {heading:?}"));
    let section = &DOC[start + heading.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    section
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|rest| rest.split_once('`'))
        .map(|(field, _)| field.to_owned())
        .collect()
}

#[test]
fn every_table_documents_exactly_the_fields_the_loader_accepts() {
    for (heading, probe) in sections() {
        assert_eq!(
            doc_fields(heading),
            loader_fields(&probe),
            "docs/MACHINE-FORMAT.md, {heading}: documented fields vs the loader's"
        );
    }
}

#[test]
fn enumerated_values_are_the_loaders() {
    // (a table entry with a bad value, the doc section naming the values)
    let cases = [
        (
            format!("name = \"x\"\n{}", CPU.replace("\"cpu\"", "\"bogus\"")),
            "## `[[agents]]`",
        ),
        (
            format!("name = \"x\"\n{CPU}[[agents.pools]]\nsegment = \"bogus\"\nsize = 1\n"),
            "## `[[agents.pools]]`",
        ),
        (
            format!(
                "name = \"x\"\n{CPU}[[agents.pools]]\nsegment = \"global\"\nsize = 1\nflags = [\"bogus\"]\n"
            ),
            "## `[[agents.pools]]`",
        ),
        (
            format!("name = \"x\"\n{CPU}[[links]]\nfrom = \"c\"\nto = \"c\"\ntype = \"bogus\"\n"),
            "## `[[links]]`",
        ),
    ];
    for (text, heading) in cases {
        let values = loader_fields(&text);
        let start = DOC.find(heading).expect("heading");
        let section = &DOC[start..];
        let section = &section[..section[1..].find("\n## ").map_or(section.len(), |e| e + 1)];
        for value in values {
            assert!(
                section.contains(&format!("`{value}`")),
                "{heading} does not name the value `{value}`"
            );
        }
    }
}

#[test]
fn the_example_loads_and_presets_use_only_documented_fields() {
    let example = DOC
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a TOML example");
    let machine = Machine::parse("example.toml", example, Format::Toml).expect("the example loads");
    assert_eq!(machine.name, "tiny");

    let documented: BTreeSet<String> = sections()
        .iter()
        .flat_map(|(heading, _)| doc_fields(heading))
        .collect();
    for (name, text) in amdgpu_sim::presets::PRESETS {
        let value: toml::Value = toml::from_str(text).expect("preset TOML");
        let mut keys = Vec::new();
        collect_keys(&value, &mut keys);
        for key in keys {
            assert!(
                documented.contains(&key),
                "preset {name} uses `{key}`, which docs/MACHINE-FORMAT.md does not document"
            );
        }
    }
}

fn collect_keys(value: &toml::Value, out: &mut Vec<String>) {
    match value {
        toml::Value::Table(table) => {
            for (key, inner) in table {
                out.push(key.clone());
                collect_keys(inner, out);
            }
        }
        toml::Value::Array(items) => items.iter().for_each(|item| collect_keys(item, out)),
        _ => {}
    }
}
