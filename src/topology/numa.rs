//! The platform's NUMA distance table (ACPI SLIT), behind a small trait so
//! tests and simulated machines can script it.
//!
//! SLIT distances are relative: 10 is local, 20 is typically one hop, 255
//! means unreachable. [`SysfsNumaDistances`] reads Linux's
//! `/sys/devices/system/node` the way IREE does (same fallbacks), but reads
//! the table once and caches it, instead of opening two files per edge.

use std::path::PathBuf;
use std::sync::OnceLock;

/// SLIT distance of a node to itself.
pub const SLIT_LOCAL: u8 = 10;
/// SLIT distance assumed when the table cannot be read or parsed.
pub const SLIT_DEFAULT_REMOTE: u8 = 20;
/// The most NUMA nodes read from sysfs (node ids are `u8` in capabilities).
pub const MAX_NUMA_NODES: usize = 256;
/// The most bytes read from one sysfs file.
pub const MAX_SYSFS_FILE_BYTES: u64 = 4096;

/// A source of SLIT distances between NUMA nodes.
pub trait NumaDistances: Send + Sync {
    /// The SLIT distance from `a` to `b`, or `None` when either node is
    /// unknown (then edge derivation uses its own fallback).
    fn distance(&self, a: u8, b: u8) -> Option<u8>;
}

/// A fixed SLIT table: `rows[a][b]` is the distance from `a` to `b`.
///
/// Nodes outside the table are unknown. Simulated machines and tests use it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlitTable {
    rows: Vec<Vec<Option<u8>>>,
}

impl SlitTable {
    /// A table from its rows (a ragged table simply has unknown entries).
    pub fn new(rows: Vec<Vec<u8>>) -> SlitTable {
        SlitTable {
            rows: rows
                .into_iter()
                .map(|row| row.into_iter().map(Some).collect())
                .collect(),
        }
    }

    /// A table from its rows where `known[a][b] == false` marks unknown entries.
    pub fn with_unknown(rows: Vec<Vec<u8>>, known: Vec<Vec<bool>>) -> SlitTable {
        let rows = rows
            .into_iter()
            .zip(known)
            .map(|(row, known)| {
                row.into_iter()
                    .zip(known)
                    .map(|(d, k)| k.then_some(d))
                    .collect()
            })
            .collect();
        SlitTable { rows }
    }

    /// A table of `nodes` nodes, `local` on the diagonal and `remote` elsewhere.
    pub fn uniform(nodes: usize, local: u8, remote: u8) -> SlitTable {
        let rows = (0..nodes)
            .map(|a| {
                (0..nodes)
                    .map(|b| Some(if a == b { local } else { remote }))
                    .collect()
            })
            .collect();
        SlitTable { rows }
    }

    /// The number of rows (nodes).
    pub fn node_count(&self) -> usize {
        self.rows.len()
    }
}

impl NumaDistances for SlitTable {
    fn distance(&self, a: u8, b: u8) -> Option<u8> {
        *self.rows.get(usize::from(a))?.get(usize::from(b))?
    }
}

/// The host's SLIT from Linux sysfs, with IREE's fallbacks:
///
/// - the node count is one more than the highest id in `node/online`
///   (1 when the file is missing);
/// - a node at or above the count is unknown;
/// - a node's distance to itself is 10;
/// - a missing or unparsable `node/node<A>/distance` entry reads as 20;
/// - values above 255 are clamped to 255.
///
/// The table is read on the first query and cached for the value's lifetime.
#[derive(Debug)]
pub struct SysfsNumaDistances {
    root: PathBuf,
    table: OnceLock<SysfsTable>,
}

#[derive(Debug)]
struct SysfsTable {
    node_count: usize,
    rows: Vec<Option<String>>,
}

impl SysfsNumaDistances {
    /// Reads from `/sys/devices/system`.
    pub fn new() -> SysfsNumaDistances {
        SysfsNumaDistances::with_root("/sys/devices/system")
    }

    /// Reads from another root (a directory laid out like `/sys/devices/system`).
    pub fn with_root(root: impl Into<PathBuf>) -> SysfsNumaDistances {
        SysfsNumaDistances {
            root: root.into(),
            table: OnceLock::new(),
        }
    }

    fn table(&self) -> &SysfsTable {
        self.table.get_or_init(|| {
            let node_count = read_small(&self.root.join("node/online"))
                .map_or(1, |text| parse_node_count(&text));
            let rows = (0..node_count)
                .map(|a| read_small(&self.root.join(format!("node/node{a}/distance"))))
                .collect();
            SysfsTable { node_count, rows }
        })
    }
}

impl Default for SysfsNumaDistances {
    fn default() -> Self {
        SysfsNumaDistances::new()
    }
}

impl NumaDistances for SysfsNumaDistances {
    fn distance(&self, a: u8, b: u8) -> Option<u8> {
        let table = self.table();
        let (a, b) = (usize::from(a), usize::from(b));
        if a >= table.node_count || b >= table.node_count {
            return None;
        }
        if a == b {
            return Some(SLIT_LOCAL);
        }
        Some(match table.rows.get(a) {
            Some(Some(row)) => parse_distance_entry(row, b),
            _ => SLIT_DEFAULT_REMOTE,
        })
    }
}

/// The platform's default SLIT source: sysfs on Linux; elsewhere only node 0
/// is known (IREE's fallback platform).
pub fn platform_numa_distances() -> Box<dyn NumaDistances> {
    if cfg!(target_os = "linux") {
        Box::new(SysfsNumaDistances::new())
    } else {
        Box::new(SlitTable::new(vec![vec![SLIT_LOCAL]]))
    }
}

fn read_small(path: &std::path::Path) -> Option<String> {
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    let mut text = String::new();
    file.take(MAX_SYSFS_FILE_BYTES)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

/// Node count from a Linux node list such as `"0-3"` or `"0,2-4"`: one more
/// than the highest id mentioned (unparsable pieces are skipped), capped at
/// [`MAX_NUMA_NODES`].
pub fn parse_node_count(list: &str) -> usize {
    let mut max_id: usize = 0;
    for segment in list.trim().split(',') {
        let last = segment.trim().rsplit('-').next().unwrap_or("");
        if let Ok(id) = last.trim().parse::<usize>() {
            max_id = max_id.max(id);
        }
    }
    max_id.saturating_add(1).min(MAX_NUMA_NODES)
}

/// Entry `b` of a `node<A>/distance` row such as `"10 20 20 20"`: the value
/// clamped to 255, or 20 when it is missing or not a number.
pub fn parse_distance_entry(row: &str, b: usize) -> u8 {
    match row.split_ascii_whitespace().nth(b).map(str::parse::<u64>) {
        Some(Ok(value)) => u8::try_from(value).unwrap_or(u8::MAX),
        _ => SLIT_DEFAULT_REMOTE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_list_parsing() {
        assert_eq!(parse_node_count("0\n"), 1);
        assert_eq!(parse_node_count("0-3"), 4);
        assert_eq!(parse_node_count("0,2-4"), 5);
        assert_eq!(parse_node_count("garbage"), 1);
        assert_eq!(parse_node_count("0-99999"), MAX_NUMA_NODES);
    }

    #[test]
    fn distance_row_parsing() {
        assert_eq!(parse_distance_entry("10 21 31\n", 1), 21);
        assert_eq!(parse_distance_entry("10 21", 5), 20);
        assert_eq!(parse_distance_entry("10 x", 1), 20);
        assert_eq!(parse_distance_entry("10 4000", 1), 255);
    }

    #[test]
    fn sysfs_layout_with_fallbacks() {
        let dir = std::env::temp_dir().join(format!("amdgpu-hal-numa-{}", std::process::id()));
        let node = dir.join("node");
        std::fs::create_dir_all(node.join("node0")).unwrap();
        std::fs::write(node.join("online"), "0-2\n").unwrap();
        std::fs::write(node.join("node0/distance"), "10 32 17\n").unwrap();
        let slit = SysfsNumaDistances::with_root(&dir);
        assert_eq!(slit.distance(0, 1), Some(32));
        assert_eq!(slit.distance(0, 2), Some(17));
        assert_eq!(slit.distance(1, 1), Some(10));
        // node1 has no distance file: one hop assumed.
        assert_eq!(slit.distance(1, 0), Some(20));
        assert_eq!(slit.distance(3, 0), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_sysfs_means_one_node() {
        let slit = SysfsNumaDistances::with_root("/nonexistent/amdgpu-hal");
        assert_eq!(slit.distance(0, 0), Some(10));
        assert_eq!(slit.distance(0, 1), None);
    }
}
