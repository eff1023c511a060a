//! The CLI's conventions, across every subcommand: `--help` with examples,
//! `Error: <CODE>; …` on stderr with exit 1, usage errors exit 2, `-v`
//! tracing spans on stderr, `--dot`; and snapshots of the human and JSON
//! output of each subcommand on the one-GPU W7900 preset (small enough to
//! review line by line).

use assert_cmd::Command;

const SUBCOMMANDS: [&str; 9] = [
    "machines", "devices", "load", "info", "topology", "pack", "inspect", "capture", "run",
];

fn cli() -> Command {
    let mut command = Command::cargo_bin("amdgpu-hal").unwrap();
    command
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("RUST_LOG");
    command
}

fn stdout_of(args: &[&str]) -> String {
    let output = cli().args(args).output().unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn every_subcommand_has_help_with_examples_that_name_it() {
    for subcommand in SUBCOMMANDS {
        let help = stdout_of(&[subcommand, "--help"]);
        let examples = help
            .split_once("Examples:\n")
            .unwrap_or_else(|| panic!("`{subcommand} --help` has no Examples: section"))
            .1;
        assert!(
            examples.contains(&format!("amdgpu-hal {subcommand}")),
            "`{subcommand} --help` examples do not run {subcommand}:\n{examples}"
        );
        for option in ["--machine", "--backend", "--json", "--verbose"] {
            assert!(
                help.contains(option),
                "`{subcommand} --help` lacks {option}"
            );
        }
    }
}

#[test]
fn usage_errors_exit_2_without_output_on_stdout() {
    for args in [
        &["load"][..],
        &["topology", "--no-such-flag"],
        &["devices", "--backend", "bogus"],
        &["topology", "--dot", "--json"],
        &["inspect"],
    ] {
        let output = cli().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn failures_print_code_message_and_context_and_exit_1() {
    let cases: [(&[&str], &str, &str); 4] = [
        (
            &["inspect", "no/such.amd1"],
            "Error: NOT_FOUND; ",
            "no/such.amd1",
        ),
        (
            &["devices", "--machine", "nope"],
            "Error: NOT_FOUND; ",
            "nope",
        ),
        (
            &[
                "load",
                "fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco",
                "--machine",
                "w7900",
            ],
            "Error: INCOMPATIBLE; ",
            "loading `fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco`",
        ),
        (
            &["info", "7", "--machine", "w7900"],
            "Error: NOT_FOUND; ",
            "device 7 not found (of 1 enumerated)",
        ),
    ];
    for (args, prefix, context) in cases {
        let output = cli().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(stderr.starts_with(prefix), "{args:?}: {stderr}");
        assert!(stderr.contains(context), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
}

#[test]
fn verbose_logs_the_main_steps_on_stderr_and_leaves_stdout_alone() {
    let file = "fixtures/iree/matmul.gfx942.amd1";
    let quiet = cli().args(["load", file]).output().unwrap();
    let loud = cli().args(["-v", "load", file]).output().unwrap();
    assert!(quiet.status.success() && loud.status.success());
    assert!(quiet.stderr.is_empty());
    assert_eq!(quiet.stdout, loud.stdout);
    let log = String::from_utf8(loud.stderr).unwrap();
    for span in ["backend_open", "executable_create"] {
        assert!(log.contains(span), "no {span} span in:\n{log}");
    }
    assert!(log.contains("machine=mi300x-8"), "{log}");

    let log = cli()
        .args(["topology", "--verbose"])
        .output()
        .unwrap()
        .stderr;
    assert!(String::from_utf8(log).unwrap().contains("group_create"));
    let log = cli().args(["inspect", file, "-v"]).output().unwrap().stderr;
    assert!(String::from_utf8(log).unwrap().contains("inspect"));
}

#[test]
fn dot_of_mi250x_colours_numa_nodes_and_draws_every_pair() {
    let dot = stdout_of(&["topology", "--machine", "mi250x-4", "--dot"]);
    assert!(dot.starts_with("graph topology {\n") && dot.ends_with("}\n"));
    for node in 0..4 {
        assert_eq!(
            dot.matches(&format!("\\nNUMA {node}\"")).count(),
            2,
            "{dot}"
        );
    }
    // 8 GCDs, all connected: 28 undirected edges.
    assert_eq!(dot.matches(" -- ").count(), 28);
    insta::assert_snapshot!(dot);
}

#[test]
fn dot_through_the_hip_driver() {
    let dot = stdout_of(&[
        "topology",
        "--backend",
        "hip",
        "--device",
        "0,1,4",
        "--machine",
        "mi300x-8",
        "--dot",
    ]);
    assert_eq!(dot.matches(" -- ").count(), 3);
    insta::assert_snapshot!(dot);
}

#[test]
fn snapshots_of_each_subcommand_on_w7900() {
    let hsaco = "fixtures/hsaco/vector_add.gfx1100.cov5.hsaco";
    for (name, args) in [
        ("machines_json", &["machines", "--json"][..]),
        ("devices_json", &["devices", "--machine", "w7900", "--json"]),
        ("topology_text", &["topology", "--machine", "w7900"]),
        (
            "topology_json",
            &["topology", "--machine", "w7900", "--json"],
        ),
        ("topology_dot", &["topology", "--machine", "w7900", "--dot"]),
        ("info_text", &["info", "--machine", "w7900"]),
        ("info_json", &["info", "--machine", "w7900", "--json"]),
        ("inspect_text", &["inspect", hsaco]),
        ("inspect_json", &["inspect", hsaco, "--json"]),
        ("load_text", &["load", hsaco, "--machine", "w7900"]),
        (
            "load_json",
            &["load", hsaco, "--machine", "w7900", "--json"],
        ),
        (
            "capture_toml",
            &["capture", "--machine", "w7900", "--name", "w7900"],
        ),
    ] {
        insta::assert_snapshot!(name, stdout_of(args));
    }
}

#[test]
fn capture_json_replays_like_the_toml() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("capture-json");
    std::fs::create_dir_all(&dir).unwrap();
    let devices = |machine: &str| stdout_of(&["devices", "--machine", machine, "--json"]);
    for format in ["toml", "json"] {
        let file = dir.join(format!("mi250x-4.{format}"));
        let file = file.to_str().unwrap();
        let mut args = vec![
            "capture",
            "--machine",
            "mi250x-4",
            "--name",
            "mi250x-4",
            "-o",
            file,
        ];
        if format == "json" {
            args.push("--json");
        }
        assert!(stdout_of(&args).is_empty());
        if format == "json" {
            let text = std::fs::read_to_string(file).unwrap();
            serde_json::from_str::<serde_json::Value>(&text).unwrap();
        }
        assert_eq!(devices(file), devices("mi250x-4"), "{format}");
    }
}
