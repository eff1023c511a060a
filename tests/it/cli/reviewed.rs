//! Text outputs checked by eye: `devices` on the W7900 preset, and
//! `machines`, `devices` and `topology` on the RDNA4 and CDNA4 presets.

use assert_cmd::Command;

#[test]
fn devices_text_on_w7900() {
    let output = Command::cargo_bin("amdgpu-hal")
        .unwrap()
        .args(["devices", "--machine", "w7900"])
        .output()
        .unwrap();
    assert!(output.status.success());
    insta::assert_snapshot!(String::from_utf8(output.stdout).unwrap());
}

fn stdout_of(args: &[&str]) -> String {
    let output = Command::cargo_bin("amdgpu-hal")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.stderr.is_empty(), "{args:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn machines_text_lists_the_presets() {
    insta::assert_snapshot!(stdout_of(&["machines"]));
}

/// Four R9700 (gfx1201) on PCIe, eight MI355X (gfx950) on xGMI: their
/// agents as `devices` lists them and their links as `topology` draws them.
#[test]
fn devices_and_topology_of_the_rdna4_and_cdna4_presets() {
    for preset in ["r9700-4", "mi355x-8"] {
        insta::assert_snapshot!(
            format!("devices_{preset}"),
            stdout_of(&["devices", "--machine", preset])
        );
        insta::assert_snapshot!(
            format!("topology_{preset}"),
            stdout_of(&["topology", "--machine", preset])
        );
    }
}
