//! The `devices` text output on the W7900 preset, checked by eye.

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
