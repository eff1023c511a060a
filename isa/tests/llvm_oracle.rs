//! The ISA interpreter's decoder against LLVM's disassembler: every
//! instruction of every kernel of the IREE fixture code objects
//! (`fixtures/iree/*.hsaco`), of IREE's device library (its blit kernels,
//! `fixtures/iree/device/*.so`, which keep no function symbols: a kernel's
//! code runs from its descriptor's entry to the next kernel's) and of the
//! kernel corpus's modules
//! (`fixtures/kernels/vmfb/*.{gfx942,gfx90a,gfx1100,gfx1201,gfx950}.vmfb`)
//! decodes, at the address `llvm-objdump-19 -d` (gfx950's:
//! `llvm-objdump-22 -d`, LLVM 19 not knowing gfx950) gives it, to the
//! instruction objdump
//! prints: `Program::disassembly` (`amdgpu_isa::disassemble` per
//! instruction) is objdump's text before its `//` comment, mnemonic and
//! operands, whitespace-normalized (VOPD pairs: both halves).
//!
//! Where objdump prints a `.long` (LLVM 19 rejects a field IREE's newer
//! LLVM writes) and the instructions it then misreads, `llvm-mc-19
//! --disassemble` of the bytes we decode is the reference. Instructions
//! LLVM cannot print at all (GFX11 true16 high halves, which LLVM 19 marks
//! `/*Invalid register*/`) are counted apart and must stay under 1%.

mod requires;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use amdgpu_isa::{Chip, Program};
use goblin::elf::Elf;
use requires::{program, requires};

/// The repository's fixtures (this crate is `isa/`).
fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

/// A code object to check: a label, its ELF bytes and the chip.
struct CodeObject {
    label: String,
    elf: Vec<u8>,
    chip: Chip,
}

/// IREE's HSACOs, named `NAME.CHIP[_...].hsaco`.
fn iree_fixtures() -> Vec<CodeObject> {
    let dir = fixtures().join("iree");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "hsaco"))
        .collect();
    paths.sort();
    assert!(
        paths.len() >= 15,
        "fixtures/iree has {} code objects",
        paths.len()
    );
    paths
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".hsaco").unwrap();
            let processor = stem.rsplit('.').next().unwrap().split('_').next().unwrap();
            CodeObject {
                label: format!("fixtures/iree/{name}"),
                elf: std::fs::read(&path).unwrap(),
                chip: Chip::from_name(processor).unwrap(),
            }
        })
        .collect()
}

/// IREE's device library for each chip (IREE's target map: generic code
/// objects for gfx942, gfx1100 and gfx1201).
fn device_libraries() -> Vec<CodeObject> {
    let dir = fixtures().join("iree/device");
    [
        ("gfx9-4-generic", Chip::Gfx942),
        ("gfx90a", Chip::Gfx90a),
        ("gfx11-generic", Chip::Gfx1100),
        ("gfx12-generic", Chip::Gfx1201),
    ]
    .into_iter()
    .map(|(target, chip)| {
        let name = format!("amdgcn-amd-amdhsa--{target}.so");
        CodeObject {
            label: format!("fixtures/iree/device/{name}"),
            elf: std::fs::read(dir.join(&name)).unwrap(),
            chip,
        }
    })
    .collect()
}

/// Each kernel's code: `(name, address, bytes)` from its function symbol,
/// or, where a code object keeps none, from its descriptor's entry
/// (`kernel_code_entry_byte_offset`, an `i64` at byte 16) to the next
/// kernel's entry or the end of the section.
fn kernel_code(parsed: &Elf, elf: &[u8]) -> Vec<(String, u64, u64)> {
    let name_of = |s: &goblin::elf::Sym| parsed.dynstrtab.get_at(s.st_name).unwrap().to_string();
    let functions: Vec<(String, u64, u64)> = parsed
        .dynsyms
        .iter()
        .filter(|s| s.st_type() == goblin::elf::sym::STT_FUNC)
        .map(|s| (name_of(&s), s.st_value, s.st_size))
        .collect();
    if !functions.is_empty() {
        return functions;
    }
    let file_offset = |address: u64| {
        let h = parsed
            .section_headers
            .iter()
            .find(|h| address >= h.sh_addr && address < h.sh_addr + h.sh_size)
            .unwrap();
        (h.sh_offset + address - h.sh_addr) as usize
    };
    let mut entries: Vec<(u64, String)> = parsed
        .dynsyms
        .iter()
        .filter_map(|s| {
            let name = name_of(&s);
            let kernel = name.strip_suffix(".kd")?.to_string();
            let at = file_offset(s.st_value) + 16;
            let offset = i64::from_le_bytes(elf[at..at + 8].try_into().unwrap());
            Some((s.st_value.checked_add_signed(offset).unwrap(), kernel))
        })
        .collect();
    entries.sort();
    let text_end = |address: u64| {
        let h = parsed
            .section_headers
            .iter()
            .find(|h| address >= h.sh_addr && address < h.sh_addr + h.sh_size)
            .unwrap();
        h.sh_addr + h.sh_size
    };
    (0..entries.len())
        .map(|i| {
            let (entry, name) = &entries[i];
            let end = entries
                .get(i + 1)
                .map_or_else(|| text_end(*entry), |(next, _)| *next);
            (name.clone(), *entry, end - entry)
        })
        .collect()
}

/// The code object embedded in each GPU module of the kernel corpus
/// (`NAME.CHIP.vmfb`): from the ELF magic to the end of the section
/// header table.
fn corpus_modules() -> Vec<CodeObject> {
    let dir = fixtures().join("kernels/vmfb");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "vmfb"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let processor = name.trim_end_matches(".vmfb").rsplit('.').next().unwrap();
        let Some(chip) = Chip::from_name(processor) else {
            continue; // the CPU modules
        };
        let bytes = std::fs::read(&path).unwrap();
        let at = bytes
            .windows(4)
            .position(|w| w == b"\x7fELF")
            .unwrap_or_else(|| panic!("{name}: no embedded ELF"));
        let elf = &bytes[at..];
        let u64_at = |o: usize| u64::from_le_bytes(elf[o..o + 8].try_into().unwrap());
        let u16_at = |o: usize| u16::from_le_bytes(elf[o..o + 2].try_into().unwrap());
        let end = u64_at(0x28) as usize + usize::from(u16_at(0x3a)) * usize::from(u16_at(0x3c));
        out.push(CodeObject {
            label: format!("fixtures/kernels/vmfb/{name}"),
            elf: elf[..end].to_vec(),
            chip,
        });
    }
    assert!(out.len() >= 90, "the corpus has {} GPU modules", out.len());
    out
}

/// The mnemonic without the encoding suffix objdump adds.
fn base(mnemonic: &str) -> &str {
    ["_e32", "_e64", "_dpp", "_sdwa"]
        .iter()
        .find_map(|s| mnemonic.strip_suffix(s))
        .unwrap_or(mnemonic)
}

/// Runs of whitespace as one space.
fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One instruction as objdump prints it.
#[derive(Clone, Debug)]
struct Theirs {
    /// The text before the `//` comment, whitespace-normalized; `None`
    /// where LLVM cannot print the instruction (an operand it rejects, an
    /// encoding neither objdump nor llvm-mc decodes).
    text: Option<String>,
    /// The mnemonics (two for a VOPD pair), without encoding suffixes.
    mnemonics: Vec<String>,
    /// The instruction's dwords.
    words: Vec<u32>,
}

/// objdump's instructions by address.
/// The LLVM tool `name` (`llvm-objdump`, `llvm-mc`) that is `chip`'s
/// oracle: LLVM 22's for gfx950, which LLVM 19 does not know, else LLVM
/// 19's.
fn tool(name: &str, chip: Chip) -> String {
    let version = if chip == Chip::Gfx950 { 22 } else { 19 };
    format!("{name}-{version}")
}

fn objdump(path: &Path, chip: Chip) -> BTreeMap<u64, Theirs> {
    let output = Command::new(tool("llvm-objdump", chip))
        .args([
            "-d",
            "--triple=amdgcn-amd-amdhsa",
            &format!("--mcpu={}", chip.name()),
        ])
        .arg(path)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{} on {}",
        tool("llvm-objdump", chip),
        path.display()
    );
    let mut out = BTreeMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Some(text) = line.strip_prefix('\t') else {
            continue;
        };
        // The comment is the last `//`: an operand objdump rejects carries
        // a `/*...*/` note just before it.
        let Some(at) = text.rfind("//") else {
            continue;
        };
        let (asm, comment) = (&text[..at], &text[at + 2..]);
        let (address, words) = comment.trim().split_once(':').unwrap();
        let address = u64::from_str_radix(address, 16).unwrap();
        // The encoding's dwords, before any `<symbol+offset>` of a branch.
        let words = words
            .split_whitespace()
            .map_while(|w| u32::from_str_radix(w, 16).ok())
            .collect();
        let mut mnemonics = vec![base(asm.split_whitespace().next().unwrap()).to_string()];
        if let Some((_, y)) = asm.split_once("::") {
            mnemonics.push(base(y.split_whitespace().next().unwrap()).to_string());
        }
        let text = (!asm.contains("/*")).then(|| normalize(asm));
        out.insert(
            address,
            Theirs {
                text,
                mnemonics,
                words,
            },
        );
    }
    out
}

/// What `llvm-mc-19 --disassemble` makes of one instruction's bytes.
#[derive(Clone, Debug, PartialEq)]
enum Mc {
    /// One instruction, exactly these bytes: its text.
    One(String),
    /// The bytes are several instructions (or one and a rest): our length
    /// is not LLVM's.
    Several(Vec<String>),
    /// Not a valid instruction for LLVM 19.
    Invalid,
}

/// `bytes` with field `[lo+8:lo]` of the second dword set from 128 to 0,
/// if it is 128.
fn zero_field(bytes: &[u8], lo: u32) -> Option<Vec<u8>> {
    let second = u32::from_le_bytes(bytes.get(4..8)?.try_into().unwrap());
    ((second >> lo) & 0x1ff == 128).then(|| {
        let mut fixed = bytes.to_vec();
        fixed[4..8].copy_from_slice(&(second & !(0x1ff << lo)).to_le_bytes());
        fixed
    })
}

/// llvm-objdump-19 prints some GFX11 VOP3 and VOP3P instructions as a
/// `.long` and decodes from the next dword on, out of step until it
/// happens to land on an instruction boundary again. IREE's compiler (a
/// newer LLVM) writes the unused third source of a two-source VOP3 or
/// VOP3P (and the unused second of a one-source one) as inline constant 0
/// (code 128) where LLVM 19 writes code 0, and LLVM 19's decoder rejects
/// the former; the hardware ignores the field. Such an instruction, and
/// each one objdump skips over while out of step, is compared against
/// `llvm-mc-19 --disassemble`'s reading of the bytes our decoder gives it,
/// with those fields as LLVM 19 writes them where LLVM rejects them as
/// written. `items` are the instructions' bytes, each with whether objdump
/// rejected it (then its third source is set to 0 straight away).
fn llvm_mc_each(chip: Chip, items: &[(&[u8], bool)]) -> Vec<Mc> {
    let first: Vec<Vec<u8>> = items
        .iter()
        .map(|&(bytes, rejected)| {
            rejected
                .then(|| zero_field(bytes, 18))
                .flatten()
                .unwrap_or_else(|| bytes.to_vec())
        })
        .collect();
    if let Some(all) = llvm_mc_batch(chip, &first) {
        return all;
    }
    items
        .iter()
        .map(|&(bytes, _)| {
            let mut result = llvm_mc(chip, bytes);
            let mut fixed = bytes.to_vec();
            for lo in [18, 9] {
                if result != Mc::Invalid {
                    break;
                }
                if let Some(next) = zero_field(&fixed, lo) {
                    fixed = next;
                    result = llvm_mc(chip, &fixed);
                }
            }
            result
        })
        .collect()
}

/// `s_nop 0x1234`, between instructions in one llvm-mc run.
const SENTINEL: [u8; 4] = [0x34, 0x12, 0x80, 0xbf];

/// llvm-mc's readings of `items` in one run, each followed by
/// [`SENTINEL`]; `None` if LLVM rejects any, or one reaches into the
/// sentinel after it.
fn llvm_mc_batch(chip: Chip, items: &[Vec<u8>]) -> Option<Vec<Mc>> {
    if items.is_empty() {
        return Some(Vec::new());
    }
    let input: Vec<u8> = items
        .iter()
        .flat_map(|bytes| bytes.iter().chain(&SENTINEL).copied())
        .collect();
    let lines = llvm_mc_lines(chip, &input)?;
    let mut groups = lines
        .split(|line| line == "s_nop 0x1234")
        .collect::<Vec<_>>();
    // Nothing after the last sentinel.
    if groups.pop() != Some(&[][..]) || groups.len() != items.len() {
        return None;
    }
    groups
        .into_iter()
        .map(|group| match group {
            [] => None,
            [line] => Some(Mc::One(line.clone())),
            lines => Some(Mc::Several(lines.to_vec())),
        })
        .collect()
}

/// `llvm-mc-19 --disassemble` of `bytes`.
fn llvm_mc(chip: Chip, bytes: &[u8]) -> Mc {
    match llvm_mc_lines(chip, bytes) {
        None => Mc::Invalid,
        Some(lines) => match <[String; 1]>::try_from(lines) {
            Ok([line]) => Mc::One(line),
            Err(lines) => Mc::Several(lines),
        },
    }
}

/// The instructions `llvm-mc-19 --disassemble` reads in `bytes`, or
/// `None` if it rejects any.
fn llvm_mc_lines(chip: Chip, bytes: &[u8]) -> Option<Vec<String>> {
    let bytes: Vec<String> = bytes.iter().map(|b| format!("{b:#04x}")).collect();
    let mut mc = Command::new(tool("llvm-mc", chip))
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
    let mut stdin = mc.stdin.take().unwrap();
    let input = bytes.join(" ");
    // Written from a thread: llvm-mc's output may fill the pipe before it
    // has read all of a large input.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let output = mc.wait_with_output().unwrap();
    writer.join().unwrap();
    if !output.stderr.is_empty() {
        return None;
    }
    let text = String::from_utf8(output.stdout).unwrap();
    Some(
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('.'))
            .map(|l| l.split("//").next().unwrap().trim().to_string())
            .collect(),
    )
}

/// Per-chip counts.
#[derive(Default, Debug)]
struct Tally {
    /// Instructions whose text was compared.
    compared: usize,
    /// Of those, equal to objdump's.
    matched: usize,
    /// Instructions objdump cannot print.
    skipped: usize,
}

/// What checking one code object found.
#[derive(Default)]
struct Checked {
    tally: Tally,
    kernels: usize,
    differences: Vec<String>,
}

/// One of our instructions, and what LLVM prints for it.
struct Row {
    kernel: String,
    address: u64,
    bytes: Vec<u8>,
    mnemonics: Vec<String>,
    ours: String,
    /// objdump's entry at the address, if it decoded one there.
    theirs: Option<Theirs>,
}

/// Compares every instruction of every kernel of `object` with objdump's
/// (or llvm-mc's) reading of it.
fn check(object: &CodeObject, path: &Path) -> Checked {
    let CodeObject { label, elf, chip } = object;
    let chip = *chip;
    std::fs::write(path, elf).unwrap();
    let expected = objdump(path, chip);
    let parsed = Elf::parse(elf).unwrap();
    let mut checked = Checked::default();
    let mut rows = Vec::new();
    for (name, st_value, st_size) in kernel_code(&parsed, elf) {
        checked.kernels += 1;
        let section = parsed
            .section_headers
            .iter()
            .find(|h| st_value >= h.sh_addr && st_value < h.sh_addr + h.sh_size)
            .unwrap();
        let offset = (section.sh_offset + st_value - section.sh_addr) as usize;
        let code = &elf[offset..offset + st_size as usize];
        let program =
            Program::decode(chip, code).unwrap_or_else(|e| panic!("{label}: {name}: {e}"));
        let mut ours: BTreeMap<u64, (usize, Vec<String>)> = BTreeMap::new();
        for inst in program.instructions() {
            let entry = ours
                .entry(st_value + u64::from(inst.pc))
                .or_insert((usize::from(inst.len.max(4)), Vec::new()));
            entry.1.push(inst.mnemonic.to_string());
        }
        let mut texts: BTreeMap<u64, String> = program
            .disassembly()
            .into_iter()
            .map(|(pc, text)| (st_value + u64::from(pc), normalize(&text)))
            .collect();
        let end = st_value + st_size;
        let theirs: BTreeMap<u64, &Theirs> = expected
            .range(st_value..end)
            .map(|(a, t)| (*a, t))
            .collect();
        // objdump starts an instruction where we do, except after a
        // `.long`, until it happens to land on one of ours again.
        let mut out_of_step = false;
        for (address, their) in &theirs {
            if ours.contains_key(address) {
                out_of_step = their.mnemonics[0] == ".long";
            } else {
                assert!(
                    out_of_step,
                    "{label}: {name}: objdump has an instruction at {address:#x}, inside one of ours"
                );
            }
        }
        for (address, (len, mnemonics)) in ours {
            let at = (address - st_value) as usize;
            rows.push(Row {
                kernel: name.to_string(),
                address,
                bytes: code[at..at + len].to_vec(),
                mnemonics,
                ours: texts.remove(&address).unwrap(),
                theirs: theirs.get(&address).map(|&t| t.clone()),
            });
        }
    }
    // llvm-mc for what objdump did not decode at our addresses.
    let asked: Vec<(&[u8], bool)> = rows
        .iter()
        .filter(|row| {
            row.theirs
                .as_ref()
                .is_none_or(|t| t.mnemonics[0] == ".long")
        })
        .map(|row| (&row.bytes[..], row.theirs.is_some()))
        .collect();
    let mut answers = llvm_mc_each(chip, &asked).into_iter();
    for row in rows {
        let Row {
            kernel,
            address,
            bytes,
            mnemonics,
            ours,
            theirs,
        } = row;
        let hex_words = bytes
            .chunks(4)
            .map(|w| format!("{:08X}", u32::from_le_bytes(w.try_into().unwrap())))
            .collect::<Vec<_>>()
            .join(" ");
        let at = format!("{label}: {kernel} at {address:#x} ({hex_words})");
        let text = match theirs {
            Some(their) if their.mnemonics[0] != ".long" => {
                assert_eq!(
                    their.words.len() * 4,
                    bytes.len(),
                    "{at}: length of {:?}",
                    their.mnemonics
                );
                assert_eq!(mnemonics, their.mnemonics, "{at}");
                their.text
            }
            _ => match answers.next().unwrap() {
                Mc::One(text) => {
                    let mnemonic = base(text.split_whitespace().next().unwrap());
                    assert_eq!(mnemonics[0], mnemonic, "{at}, by llvm-mc");
                    (!text.contains("/*")).then(|| normalize(&text))
                }
                Mc::Several(lines) => panic!(
                    "{at}: we decode {mnemonics:?} of {} bytes, llvm-mc reads {lines:?}",
                    bytes.len()
                ),
                Mc::Invalid => None,
            },
        };
        let Some(text) = text else {
            checked.tally.skipped += 1;
            continue;
        };
        checked.tally.compared += 1;
        if ours == text {
            checked.tally.matched += 1;
        } else {
            checked
                .differences
                .push(format!("{at}:\n  objdump: {text}\n  ours:    {ours}"));
        }
    }
    checked
}

#[test]
fn every_fixture_instruction_decodes_as_llvm_objdump_prints_it() {
    if !requires(
        "the decoder against llvm-objdump",
        "llvm-19",
        program("llvm-objdump-19") && program("llvm-mc-19"),
    ) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("amdgpu-hal-isa-decode-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gfx950 = requires(
        "the gfx950 modules against llvm-objdump-22",
        "llvm-22",
        program("llvm-objdump-22") && program("llvm-mc-22"),
    );
    let objects: Vec<CodeObject> = iree_fixtures()
        .into_iter()
        .chain(device_libraries())
        .chain(corpus_modules())
        .filter(|object| gfx950 || object.chip != Chip::Gfx950)
        .collect();
    // objdump and llvm-mc per object, on a few threads.
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(4, |n| n.get().min(8));
    let results: Vec<(Chip, Checked)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(object) = objects.get(i) else {
                            return done;
                        };
                        let path = dir.join(format!("{i}.elf"));
                        done.push((object.chip, check(object, &path)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    std::fs::remove_dir_all(&dir).unwrap();
    let mut tally: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut differences = Vec::new();
    let mut kernels = 0;
    for (chip, checked) in results {
        let t = tally.entry(chip.name()).or_default();
        t.compared += checked.tally.compared;
        t.matched += checked.tally.matched;
        t.skipped += checked.tally.skipped;
        kernels += checked.kernels;
        differences.extend(checked.differences);
    }
    let summary = tally
        .iter()
        .map(|(chip, t)| {
            format!(
                "{chip}: {} of {} instructions equal, {} objdump cannot print",
                t.matched, t.compared, t.skipped
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    eprintln!("{kernels} kernels: {summary}");
    assert!(
        differences.is_empty(),
        "{} instructions differ from objdump ({summary}); the first:\n{}",
        differences.len(),
        differences
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    for (chip, t) in &tally {
        assert!(
            t.compared > 1000,
            "{chip}: only {} instructions compared",
            t.compared
        );
        // objdump cannot print a few GFX11 true16 operands; more than 1%
        // would hide real checks.
        assert!(
            t.skipped * 100 <= t.compared,
            "{chip}: objdump cannot print {} of {} instructions ({summary})",
            t.skipped,
            t.compared + t.skipped
        );
    }
}
