//! Machine descriptions: the presets load, JSON is accepted, and every bad
//! description is rejected with an error naming the file and the field.

use amdgpu_sim::validate::MAX_ISA_NAME_BYTES;
use amdgpu_sim::{Format, Machine, MachineError};

const GOOD: &str = r#"
name = "tiny"
[[agents]]
id = "cpu0"
kind = "cpu"
name = "Host"
uuid = "CPU-XX"
node = 0
  [[agents.pools]]
  segment = "global"
  flags = ["fine_grained", "kernarg_init"]
  size = 1048576
  accessible_by_all = true
[[agents]]
id = "gpu0"
kind = "gpu"
name = "gfx942"
uuid = "GPU-0011223344556677"
node = 1
wavefront_size = 64
isas = [{ name = "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-" }]
  [[agents.pools]]
  segment = "global"
  flags = ["coarse_grained"]
  size = 1048576
[[links]]
from = "gpu0"
to = "cpu0"
type = "pcie"
numa_distance = 20
"#;

fn reject(text: &str) -> MachineError {
    Machine::parse("bad.toml", text, Format::Toml).expect_err("the description must be rejected")
}

#[test]
fn the_good_description_loads_with_defaults_filled_in() {
    let machine = Machine::parse("tiny.toml", GOOD, Format::Toml).unwrap();
    assert_eq!(machine.agents.len(), 2);
    let gpu = &machine.agents[1];
    assert_eq!(gpu.nearest_cpu, Some(0));
    assert_eq!(gpu.product, "gfx942");
    assert_eq!(gpu.vendor, "AMD");
    assert_eq!(gpu.isas[0].workgroup_max_size, 1024);
    let hip = &gpu.hip.as_ref().unwrap().device;
    assert_eq!(hip.gcn_arch_name, "gfx942:sramecc+:xnack-");
    assert_eq!((hip.major, hip.minor), (9, 4));
    assert_eq!(hip.total_global_mem, 1048576);
    // Links are bidirectional by default.
    assert!(machine.link(1, 0).is_some() && machine.link(0, 1).is_some());
}

#[test]
fn json_descriptions_are_accepted() {
    let desc: amdgpu_sim::machine::MachineDesc = toml::from_str(GOOD).unwrap();
    let json = serde_json::to_string(&desc).unwrap();
    let machine = Machine::parse("tiny.json", &json, Format::from_file_name("tiny.json")).unwrap();
    assert_eq!(
        machine,
        Machine::parse("tiny.toml", GOOD, Format::Toml).unwrap()
    );
}

#[test]
fn unknown_field_is_named() {
    let e = reject(&GOOD.replace("numa_distance = 20", "numa_distanse = 20"));
    assert_eq!(e.source_name, "bad.toml");
    assert!(e.message.contains("unknown field `numa_distanse`"), "{e}");
    assert!(
        e.to_string()
            .starts_with("machine description 'bad.toml': "),
        "{e}"
    );
}

#[test]
fn link_to_a_missing_agent_is_named() {
    let e = reject(&GOOD.replace("to = \"cpu0\"", "to = \"cpu9\""));
    assert_eq!(e.field, "links[0].to");
    assert!(e.message.contains("no agent with id 'cpu9'"), "{e}");
    assert_eq!(
        e.to_string(),
        "machine description 'bad.toml': links[0].to: no agent with id 'cpu9'"
    );
}

#[test]
fn duplicate_uuid_is_named() {
    let text = GOOD.replace(
        "[[links]]",
        &format!("{}\n[[links]]", second_gpu("GPU-0011223344556677")),
    );
    let e = reject(&text);
    assert_eq!(e.field, "agents[2].uuid");
    assert!(
        e.message.contains("duplicate UUID 'GPU-0011223344556677'"),
        "{e}"
    );
    // ROCr's placeholder UUIDs repeat legitimately, but they derive the
    // same HIP UUID, which would make a GPU-<uuid> device path ambiguous.
    let placeholders = GOOD.replace("GPU-0011223344556677", "GPU-XX");
    let text = placeholders.replace("[[links]]", &format!("{}\n[[links]]", second_gpu("GPU-XX")));
    let e = reject(&text);
    assert_eq!(e.field, "agents[2].hip.uuid");
    assert_eq!(
        e.message,
        "duplicate HIP UUID 58580000-0000-0000-0000-000000000000 (also agents[1]): a device path GPU-<uuid> must name one device; give each GPU a distinct hip.uuid"
    );
    // With their own HIP UUIDs, two GPU-XX agents are fine.
    let text = placeholders.replace(
        "[[links]]",
        &format!(
            "  [agents.hip]\n  uuid = \"00000000000000000000000000000001\"\n{}  [agents.hip]\n  uuid = \"00000000000000000000000000000002\"\n[[links]]",
            second_gpu("GPU-XX")
        ),
    ) + GPU1_LINK;
    Machine::parse("ok.toml", &text, Format::Toml).unwrap();
    // An explicit HIP UUID may not repeat a derived one either: gpu0's is
    // the ASCII of its 16 digits.
    let text = GOOD.replace(
        "[[links]]",
        &format!(
            "{}  [agents.hip]\n  uuid = \"30303131-3232-3333-3434-353536363737\"\n[[links]]",
            second_gpu("GPU-8899aabbccddeeff")
        ),
    );
    let e = reject(&text);
    assert_eq!(e.field, "agents[2].hip.uuid");
    assert!(
        e.message.starts_with(
            "duplicate HIP UUID 30303131-3232-3333-3434-353536363737 (also agents[1])"
        ),
        "{e}"
    );
}

fn with_hip_uuid(uuid: &str) -> String {
    GOOD.replace(
        "[[links]]",
        &format!("  [agents.hip]\n  uuid = \"{uuid}\"\n[[links]]"),
    )
}

#[test]
fn bad_hip_uuid_is_named() {
    for bad in [
        "4260bfb0-645d-3cec-f3d7-764bea0daa6",
        "4260bfb0-645d-3cec-f3d7-764bea0daa6z",
        "4260bfb0645d-3cec-f3d7-764bea0daa6c-",
        "GPU-4260bfb0-645d-3cec-f3d7-764bea0daa6c",
        "",
    ] {
        let e = reject(&with_hip_uuid(bad));
        assert_eq!(e.source_name, "bad.toml");
        assert_eq!(e.field, "agents[1].hip.uuid", "{bad}");
        assert!(e.message.contains("32 hex digits"), "{e}");
        assert!(
            e.to_string()
                .starts_with("machine description 'bad.toml': agents[1].hip.uuid: "),
            "{e}"
        );
    }
}

#[test]
fn hip_uuid_sets_the_bytes_and_defaults_to_rocm_ascii() {
    let machine = Machine::parse("tiny.toml", GOOD, Format::Toml).unwrap();
    let hip = machine.agents[1].hip.as_ref().unwrap();
    assert_eq!(&hip.uuid, b"0011223344556677");
    for text in [
        "4260bfb0-645d-3cec-f3d7-764bea0daa6c",
        "4260BFB0645D3CECF3D7764BEA0DAA6C",
    ] {
        let machine = Machine::parse("h.toml", &with_hip_uuid(text), Format::Toml).unwrap();
        let hip = machine.agents[1].hip.as_ref().unwrap();
        assert_eq!(
            hip.uuid,
            [
                0x42, 0x60, 0xbf, 0xb0, 0x64, 0x5d, 0x3c, 0xec, 0xf3, 0xd7, 0x76, 0x4b, 0xea, 0x0d,
                0xaa, 0x6c
            ]
        );
    }
}

/// The PCIe link of [`second_gpu`] to the CPU.
const GPU1_LINK: &str = "[[links]]\nfrom = \"gpu1\"\nto = \"cpu0\"\ntype = \"pcie\"\n";

/// A GPU with no link, beside another GPU, is refused: its peer edges would
/// be made up (shown as `HOST`). Alone, it is accepted (nothing to pair).
#[test]
fn a_gpu_without_links_among_several_is_refused() {
    let text = GOOD.replace(
        "[[links]]",
        &format!("{}[[links]]", second_gpu("GPU-8899aabbccddeeff")),
    );
    let e = reject(&text);
    assert_eq!(e.field, "agents[2]");
    assert!(
        e.message.contains("GPU 'gpu1' has no link") && e.message.contains("from = \"gpu1\""),
        "{e}"
    );
    Machine::parse("ok.toml", &(text + GPU1_LINK), Format::Toml).expect("linked");
    let alone = GOOD.split("[[links]]").next().expect("agents");
    Machine::parse("alone.toml", alone, Format::Toml).expect("one GPU needs no link");
}

fn second_gpu(uuid: &str) -> String {
    format!(
        "[[agents]]\nid = \"gpu1\"\nkind = \"gpu\"\nname = \"gfx942\"\nuuid = \"{uuid}\"\nnode = 2\nwavefront_size = 64\n"
    )
}

#[test]
fn zero_sized_pool_is_named() {
    let e = reject(&GOOD.replace("size = 1048576\n[[links]]", "size = 0\n[[links]]"));
    assert_eq!(e.field, "agents[1].pools[0].size");
    assert!(e.message.contains("size 0"), "{e}");
}

#[test]
fn isa_name_over_64_bytes_is_named() {
    let long = format!("amdgcn-amd-amdhsa--gfx942{}", ":xnack-".repeat(8));
    assert!(long.len() > MAX_ISA_NAME_BYTES);
    let e = reject(&GOOD.replace("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", &long));
    assert_eq!(e.field, "agents[1].isas[0].name");
    assert!(e.message.contains("the limit is 64"), "{e}");
    let exact = format!(
        "amdgcn-amd-amdhsa--gfx942{}",
        "x".repeat(MAX_ISA_NAME_BYTES - 25)
    );
    assert_eq!(exact.len(), MAX_ISA_NAME_BYTES);
    Machine::parse(
        "ok.toml",
        &GOOD.replace("amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", &exact),
        Format::Toml,
    )
    .unwrap();
}

#[test]
fn other_rules() {
    let e = reject(&GOOD.replace("id = \"gpu0\"", "id = \"cpu0\""));
    assert_eq!(e.field, "agents[1].id");
    let e = reject(&GOOD.replace(
        "uuid = \"GPU-0011223344556677\"",
        "uuid = \"CPU-0011223344556677\"",
    ));
    assert_eq!(e.field, "agents[1].uuid");
    let e = reject(&GOOD.replace("type = \"pcie\"", "type = \"pcie\"\nhops = 9"));
    assert_eq!(e.field, "links[0].hops");
    let e = reject(&format!(
        "{GOOD}\n[[links]]\nfrom = \"cpu0\"\nto = \"gpu0\"\ntype = \"pcie\"\n"
    ));
    assert_eq!(e.field, "links[1]");
    assert!(e.message.contains("already described"), "{e}");
    let e = reject("name = \"empty\"\n");
    assert_eq!(e.field, "agents");
    let e = reject("this is not toml");
    assert!(e.field.is_empty() && !e.message.is_empty());
    let e = Machine::parse("bad.json", "{\"name\": 3}", Format::Json).unwrap_err();
    assert_eq!(e.source_name, "bad.json");
}

#[test]
fn presets_have_the_real_shapes() {
    let mi300x = amdgpu_sim::presets::load_preset("mi300x-8")
        .unwrap()
        .unwrap();
    let gpus = mi300x.gpu_indices();
    assert_eq!(gpus.len(), 8);
    for &g in &gpus {
        assert_eq!(
            mi300x.agents[g].isas[0].name,
            "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-"
        );
        for &h in &gpus {
            if g != h {
                assert_eq!(
                    mi300x.link(g, h).map(|l| l.link_type),
                    Some(4),
                    "xGMI {g}->{h}"
                );
            }
        }
    }
    let mi250x = amdgpu_sim::presets::load_preset("mi250x-4")
        .unwrap()
        .unwrap();
    // The KFD's xGMI io_links: one hop to every GCD of the hive, weight 15
    // per xGMI hop, the direct links' bandwidth (none through another GCD).
    let xgmi: Vec<_> = mi250x.links.iter().filter(|l| l.link_type == 4).collect();
    assert_eq!(xgmi.len(), 8 * 7);
    let shapes: std::collections::BTreeSet<(u32, u32, u32)> = xgmi
        .iter()
        .map(|l| (l.numa_distance, l.min_bandwidth, l.max_bandwidth))
        .collect();
    assert_eq!(
        shapes.into_iter().collect::<Vec<_>>(),
        [
            (15, 50000, 50000),
            (15, 50000, 200000),
            (30, 0, 0),
            (45, 0, 0)
        ]
    );
    assert!(xgmi.iter().all(|l| l.hops == 1));
    // An APU node: each GPU reaches its own socket's CPU over the KFD's
    // intra-socket xGMI link (weight 13).
    let mi300a = amdgpu_sim::presets::load_preset("mi300a-4")
        .unwrap()
        .unwrap();
    for &g in &mi300a.gpu_indices() {
        let cpu = mi300a.agents[g].nearest_cpu.unwrap();
        let link = mi300a.link(g, cpu).unwrap();
        assert_eq!((link.link_type, link.numa_distance), (4, 13));
        assert_eq!(mi300a.agents[g].hsa.memory_properties[0], 2);
    }
    let mixed = amdgpu_sim::presets::load_preset("mixed-isa")
        .unwrap()
        .unwrap();
    let isas: std::collections::BTreeSet<&str> = mixed
        .gpu_indices()
        .iter()
        .map(|&g| mixed.agents[g].isas[0].name.as_str())
        .collect();
    assert_eq!(isas.len(), 2);
    let cpu_only = amdgpu_sim::presets::load_preset("cpu-only")
        .unwrap()
        .unwrap();
    assert!(cpu_only.gpu_indices().is_empty());
    assert_eq!(cpu_only.agents.len(), 2);
}

#[test]
fn agent_hsa_tables_default_to_rocr_and_check_their_fields() {
    // No [agents.hsa]: ROCr's answers for an agent the KFD says nothing about.
    let machine = Machine::parse("tiny.toml", GOOD, Format::Toml).unwrap();
    let (cpu, gpu) = (&machine.agents[0].hsa, &machine.agents[1].hsa);
    assert_eq!((cpu.feature, gpu.feature), (0, 1));
    assert_eq!((cpu.watch_points, gpu.watch_points), (1, 4));
    assert_eq!((cpu.cacheline_size, gpu.cacheline_size), (64, 64));
    assert_eq!((gpu.queue_min_size, gpu.queue_max_size), (64, 131_072));
    assert_eq!((cpu.queue_min_size, cpu.queue_max_size), (0, 0));
    assert_eq!(gpu.cache_sizes, [0; 4]);
    assert_eq!(gpu.workgroup_max_dim, [1024; 3]);
    assert!(gpu.fast_f16 && !cpu.fast_f16);

    let gpu_table =
        "isas = [{ name = \"amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-\" }]\n  [agents.hsa]\n";
    let with = |fields: &str| {
        GOOD.replace(
            "isas = [{ name = \"amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-\" }]\n",
            &format!("{gpu_table}{fields}\n"),
        )
    };
    let set = Machine::parse(
        "t.toml",
        &with("cache_sizes = [16384, 8388608]\nmax_waves_per_cu = 40\nwatch_points = 2"),
        Format::Toml,
    )
    .unwrap();
    let gpu = &set.agents[1].hsa;
    assert_eq!(gpu.cache_sizes, [16384, 8388608, 0, 0]);
    assert_eq!((gpu.max_waves_per_cu, gpu.watch_points), (40, 2));

    let e = reject(&with("cache_sizes = [1, 2, 3, 4, 5]"));
    assert_eq!(e.field, "agents[1].hsa.cache_sizes");
    assert!(e.message.contains("the limit is 4"), "{e}");
    let e = reject(&with("cacheline_size = 100"));
    assert_eq!(e.field, "agents[1].hsa.cacheline_size");
    let e = reject(&with("simd_per_cu = 4"));
    assert!(e.message.contains("unknown field `simd_per_cu`"), "{e}");
    let e = reject(&GOOD.replace(
        "  accessible_by_all = true\n",
        "  accessible_by_all = true\n  [agents.hsa]\n  shader_engines = 8\n",
    ));
    assert_eq!(e.field, "agents[0].hsa.shader_engines");
    assert!(e.message.contains("only a GPU agent"), "{e}");
}

/// Facts ROCr reports one way only: each other value is refused, naming the
/// field, and the values ROCr does report are accepted.
#[test]
fn agent_facts_are_what_rocr_reports() {
    let gpu = |from: &str, to: &str| GOOD.replacen(from, to, 1);
    let rejected: &[(&str, String, &str, &str)] = &[
        (
            "GPU wavefront 0",
            gpu("wavefront_size = 64", "wavefront_size = 0"),
            "agents[1].wavefront_size",
            "0: a GPU runs wave32 or wave64",
        ),
        (
            "GPU wavefront 7",
            gpu("wavefront_size = 64", "wavefront_size = 7"),
            "agents[1].wavefront_size",
            "7: a GPU runs wave32 or wave64",
        ),
        (
            "GPU wavefront 128",
            gpu("wavefront_size = 64", "wavefront_size = 128"),
            "agents[1].wavefront_size",
            "128",
        ),
        (
            "CPU wavefront 64",
            gpu("node = 0", "node = 0\nwavefront_size = 64"),
            "agents[0].wavefront_size",
            "a CPU agent reports 0",
        ),
        (
            "GPU UUID not hex",
            gpu("GPU-0011223344556677", "GPU-zzzzzzzzzzzzzzzz"),
            "agents[1].uuid",
            "'GPU-zzzzzzzzzzzzzzzz' is neither 'GPU-XX' nor",
        ),
        (
            "GPU UUID uppercase",
            gpu("GPU-0011223344556677", "GPU-00112233445566AA"),
            "agents[1].uuid",
            "16 lowercase hex digits",
        ),
        (
            "GPU UUID of 15 digits",
            gpu("GPU-0011223344556677", "GPU-001122334455667"),
            "agents[1].uuid",
            "16 lowercase hex digits",
        ),
        (
            "GPU UUID of unique id 0",
            gpu("GPU-0011223344556677", "GPU-0000000000000000"),
            "agents[1].uuid",
            "a unique id of 0 as 'GPU-XX'",
        ),
        (
            "GPU UUID with a control byte",
            gpu("GPU-0011223344556677", "GPU-\\u001b[2J"),
            "agents[1].uuid",
            "control characters (U+001B)",
        ),
        (
            "CPU UUID with digits",
            gpu("CPU-XX", "CPU-0011223344556677"),
            "agents[0].uuid",
            "always 'CPU-XX'",
        ),
        (
            "two GPUs on one node",
            GOOD.replace(
                "[[links]]",
                &format!(
                    "{}[[links]]",
                    second_gpu("GPU-8899aabbccddeeff").replace("node = 2", "node = 1")
                ),
            ),
            "agents[2].node",
            "node 1 is also agents[1].node",
        ),
    ];
    for (name, text, field, words) in rejected {
        let e = reject(text);
        assert_eq!(&e.field, field, "{name}: {e}");
        assert!(e.message.contains(words), "{name}: `{e}` lacks `{words}`");
    }
    // Accepted: wave32, GPU-XX, and an APU's CPU and GPU agents on one node.
    for text in [
        gpu("wavefront_size = 64", "wavefront_size = 32"),
        gpu("GPU-0011223344556677", "GPU-XX"),
        gpu("node = 1", "node = 0"),
    ] {
        Machine::parse("ok.toml", &text, Format::Toml).unwrap();
    }
}
