//! The interpreter's opcode coverage per chip, computed from the opcode
//! tables, is what docs/ISA.md says it is: the docs quote this test, never
//! a count by hand. `cargo test -p amdgpu-isa --test opcode_coverage --
//! --nocapture` also lists each chip's lacking mnemonics.

use amdgpu_isa::{Chip, opcode_coverage};

/// `1138` as the docs write it: `1,138`.
fn thousands(n: usize) -> String {
    if n >= 1000 {
        format!("{},{:03}", n / 1000, n % 1000)
    } else {
        n.to_string()
    }
}

#[test]
fn the_docs_quote_each_chips_coverage() {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/ISA.md"))
        .expect("docs/ISA.md");
    let docs = docs.split_whitespace().collect::<Vec<_>>().join(" ");
    for (name, chip) in [
        ("gfx942", Chip::Gfx942),
        ("gfx90a", Chip::Gfx90a),
        ("gfx1100", Chip::Gfx1100),
        ("gfx950", Chip::Gfx950),
        ("gfx1201", Chip::Gfx1201),
    ] {
        let coverage = opcode_coverage(chip);
        println!(
            "{name}: {} of {}; lacking: {}",
            coverage.executed.len(),
            coverage.total(),
            coverage.lacking.join(" ")
        );
        let quoted = format!(
            "{name} {} of {}",
            coverage.executed.len(),
            thousands(coverage.total())
        );
        assert!(docs.contains(&quoted), "docs/ISA.md must say `{quoted}`");
    }
}

#[test]
fn coverage_splits_the_tables_by_what_the_interpreter_maps() {
    let gfx942 = opcode_coverage(Chip::Gfx942);
    // Mnemonics every chip's kernels use, and some no kernel can run.
    for m in ["s_endpgm", "v_add_f32", "global_load_dword", "s_getpc_b64"] {
        assert!(gfx942.executed.contains(&m), "{m}");
    }
    assert!(
        gfx942.lacking.contains(&"tbuffer_load_format_x"),
        "typed buffers"
    );
    let gfx1100 = opcode_coverage(Chip::Gfx1100);
    assert!(gfx1100.executed.contains(&"v_dual_mov_b32"), "VOPD halves");
    assert!(!gfx1100.executed.contains(&"v_mfma_f32_32x32x1f32"));
    // GFX12's renames and split wait counters run; its typed buffers do not.
    let gfx1201 = opcode_coverage(Chip::Gfx1201);
    for m in [
        "s_wait_loadcnt",
        "s_add_co_i32",
        "v_max_num_f32",
        "buffer_load_b32",
    ] {
        assert!(gfx1201.executed.contains(&m), "{m}");
    }
    assert!(gfx1201.lacking.contains(&"tbuffer_load_format_x"));
    // gfx90a reads gfx942's tables less gfx942's own opcodes.
    let gfx90a = opcode_coverage(Chip::Gfx90a);
    assert!(gfx942.executed.contains(&"v_mov_b64"));
    assert!(!gfx90a.executed.contains(&"v_mov_b64") && !gfx90a.lacking.contains(&"v_mov_b64"));
    let has = |c: &amdgpu_isa::Coverage, m| c.executed.contains(&m) || c.lacking.contains(&m);
    assert!(
        has(&gfx90a, "v_mac_f32") && !has(&gfx942, "v_mac_f32"),
        "gfx90a's override"
    );
}
