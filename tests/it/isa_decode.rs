//! The ISA interpreter's decoder against LLVM's disassembler: every
//! instruction of every kernel of the IREE fixture code objects (gfx942,
//! gfx90a, gfx1100) decodes, at the address `llvm-objdump-19 -d` gives it,
//! to the mnemonic objdump prints (VOPD pairs: both halves).

use crate::support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use amdgpu_isa::{Chip, Program};
use goblin::elf::Elf;
use support::requires::{Package, program, requires};

fn fixtures() -> Vec<(PathBuf, Chip)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/iree");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".hsaco") else {
            continue;
        };
        let processor = stem.rsplit('.').next().unwrap().split('_').next().unwrap();
        out.push((path.clone(), Chip::from_name(processor).unwrap()));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(
        out.len() >= 15,
        "fixtures/iree has {} code objects",
        out.len()
    );
    out
}

/// The mnemonic without the encoding suffix objdump adds.
fn base(mnemonic: &str) -> &str {
    ["_e32", "_e64", "_dpp", "_sdwa"]
        .iter()
        .find_map(|s| mnemonic.strip_suffix(s))
        .unwrap_or(mnemonic)
}

/// objdump's instructions: address → (mnemonics, the instruction's dwords).
fn objdump(path: &Path, chip: Chip) -> BTreeMap<u64, (Vec<String>, Vec<u32>)> {
    let output = Command::new("llvm-objdump-19")
        .args(["-d", &format!("--mcpu={}", chip.name())])
        .arg(path)
        .output()
        .unwrap();
    assert!(output.status.success());
    let mut out = BTreeMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Some(text) = line.strip_prefix('\t') else {
            continue;
        };
        let Some((asm, comment)) = text.split_once("//") else {
            continue;
        };
        let (address, words) = comment.trim().split_once(':').unwrap();
        let address = u64::from_str_radix(address, 16).unwrap();
        // The encoding's dwords, before any `<symbol+offset>` of a branch.
        let words = words
            .split_whitespace()
            .map_while(|w| u32::from_str_radix(w, 16).ok())
            .collect();
        let mut names = vec![base(asm.split_whitespace().next().unwrap()).to_string()];
        if let Some((_, y)) = asm.split_once("::") {
            names.push(base(y.split_whitespace().next().unwrap()).to_string());
        }
        out.insert(address, (names, words));
    }
    repair_undecoded(&mut out, chip);
    out
}

/// llvm-objdump-19 prints some 8-byte GFX11 VOP3 compares as a `.long`
/// and decodes their second dword as an instruction of its own. IREE's
/// compiler (a newer LLVM) writes the unused third source of a two-source
/// VOP3 as inline constant 0 (code 128) where LLVM 19 writes code 0, and
/// LLVM 19's decoder rejects the former; the hardware ignores the field.
/// Each such pair is replaced by `llvm-mc-19 --disassemble`'s reading of
/// it, with that field as LLVM 19 writes it.
fn repair_undecoded(out: &mut BTreeMap<u64, (Vec<String>, Vec<u32>)>, chip: Chip) {
    let undecoded: Vec<u64> = out
        .iter()
        .filter(|(_, (names, _))| names[0] == ".long")
        .map(|(a, _)| *a)
        .collect();
    for address in undecoded {
        let first = out[&address].1[0];
        let Some((_, second)) = out.get(&(address + 4)) else {
            continue;
        };
        let second = second[0];
        let mnemonic = llvm_mc(chip, [first, second])
            .or_else(|| llvm_mc(chip, [first, second & !(0x1ff << 18)]))
            .unwrap_or_else(|| panic!("llvm-mc cannot decode {first:#010x} {second:#010x} either"));
        out.remove(&(address + 4));
        out.insert(address, (vec![base(&mnemonic).to_string()], vec![first]));
    }
}

/// The mnemonic `llvm-mc-19 --disassemble` gives two dwords, if they are
/// one valid instruction.
fn llvm_mc(chip: Chip, words: [u32; 2]) -> Option<String> {
    let bytes: Vec<String> = words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .map(|b| format!("{b:#04x}"))
        .collect();
    let mut mc = Command::new("llvm-mc-19")
        .args([
            "--disassemble",
            "-arch=amdgcn",
            &format!("-mcpu={}", chip.name()),
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    mc.stdin
        .take()
        .unwrap()
        .write_all(bytes.join(" ").as_bytes())
        .unwrap();
    let output = mc.wait_with_output().unwrap();
    if !output.stderr.is_empty() {
        return None;
    }
    let text = String::from_utf8(output.stdout).unwrap();
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('.'))
        .and_then(|l| l.split_whitespace().next())
        .map(str::to_string)
}

#[test]
fn every_fixture_instruction_decodes_as_llvm_objdump_prints_it() {
    if !requires(
        "the decoder against llvm-objdump",
        Package::Debian("llvm-19"),
        program("llvm-objdump-19") && program("llvm-mc-19"),
    ) {
        return;
    }
    let mut checked = 0usize;
    for (path, chip) in fixtures() {
        let bytes = std::fs::read(&path).unwrap();
        let elf = Elf::parse(&bytes).unwrap();
        let expected = objdump(&path, chip);
        for sym in elf
            .dynsyms
            .iter()
            .filter(|s| s.st_type() == goblin::elf::sym::STT_FUNC)
        {
            let name = elf.dynstrtab.get_at(sym.st_name).unwrap();
            let section = &elf.section_headers[sym.st_shndx];
            let offset = (section.sh_offset + sym.st_value - section.sh_addr) as usize;
            let code = &bytes[offset..offset + sym.st_size as usize];
            let program = Program::decode(chip, code)
                .unwrap_or_else(|e| panic!("{}: {name}: {e}", path.display()));
            let mut decoded: BTreeMap<u64, Vec<String>> = BTreeMap::new();
            for inst in program.instructions() {
                decoded
                    .entry(sym.st_value + u64::from(inst.pc))
                    .or_default()
                    .push(inst.mnemonic.to_string());
            }
            let end = sym.st_value + sym.st_size;
            let theirs: BTreeMap<u64, Vec<String>> = expected
                .range(sym.st_value..end)
                .map(|(a, (m, _))| (*a, m.clone()))
                .collect();
            assert_eq!(
                decoded.keys().collect::<Vec<_>>(),
                theirs.keys().collect::<Vec<_>>(),
                "{}: {name}: instruction addresses differ",
                path.display()
            );
            for (address, names) in &theirs {
                assert_eq!(
                    &decoded[address],
                    names,
                    "{}: {name} at {address:#x}",
                    path.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "only {checked} instructions checked");
}
