//! Topologies: IREE's cases, the presets, properties, reports, and the H200 replay.

mod h200_replay;
mod iree;
mod presets;
mod props;
mod report;
