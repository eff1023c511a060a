//! HIP driver options and device parameters, parsed from IREE's flag
//! key/value pairs (`hip_use_streams=false`, `hip_dylib_path=/opt/rocm/lib`, ...).
//!
//! Keys, defaults and codes are IREE's (`registration/driver_module.c`): an
//! unknown key or a bad value is `FAILED_PRECONDITION`. Differences, on
//! purpose: the option name is printed (IREE's `%*.s` prints blanks); numbers
//! follow [`super::text::parse_int`] (no trailing garbage, no octal);
//! `hip_tracing` must be 0..=2 and `hip_default_index` non-negative (IREE
//! wraps a negative index to a huge one); empty search-path entries are
//! rejected.

use crate::status;
use crate::status::{Result, Status};

use super::search_paths::{MAX_SEARCH_PATHS, SearchPath};
use super::text::parse_int;

/// The environment variable consulted for search paths when no
/// `hip_dylib_path` option is given; entries are separated by `;` on every
/// platform.
pub const HIP_DYLIB_PATH_ENV: &str = "IREE_HIP_DYLIB_PATH";

/// The highest `hip_tracing` verbosity.
pub const MAX_STREAM_TRACING: i32 = 2;

/// How command buffers execute (`hip_use_streams`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommandBufferMode {
    /// Recorded into HIP graphs (`hip_use_streams=false`).
    Graph,
    /// Issued directly on a HIP stream (the default).
    Stream,
}

/// Parameters for devices created by the driver (IREE's
/// `iree_hal_hip_device_params_t`, the parts the driver sets).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceParams {
    /// Queues per device (IREE default 1).
    pub queue_count: usize,
    /// Block size of the device's arena pool, bytes (IREE default 32 KiB).
    pub arena_block_size: usize,
    /// Host/device event pool capacity (IREE default 32).
    pub event_pool_capacity: usize,
    /// Command-buffer execution mode.
    pub command_buffer_mode: CommandBufferMode,
    /// Tracing verbosity, 0..=[`MAX_STREAM_TRACING`].
    pub stream_tracing: i32,
    /// Use stream-ordered allocations when supported.
    pub async_allocations: bool,
    /// Allow inline execution of command buffers on streams.
    pub allow_inline_execution: bool,
    /// Cache stream-ordered allocations.
    pub async_caching: bool,
    /// A caller-owned HIP stream to use instead of creating one
    /// (`hip_external_stream`, single-device paths only).
    pub external_stream: Option<u64>,
}

impl Default for DeviceParams {
    /// IREE's `iree_hal_hip_device_params_initialize`.
    fn default() -> DeviceParams {
        DeviceParams {
            queue_count: 1,
            arena_block_size: 32 * 1024,
            event_pool_capacity: 32,
            command_buffer_mode: CommandBufferMode::Stream,
            stream_tracing: 0,
            async_allocations: true,
            allow_inline_execution: false,
            async_caching: true,
            external_stream: None,
        }
    }
}

/// Options of the HIP driver itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DriverOptions {
    /// Index (into the enumerated devices) of the device an empty path selects.
    pub default_device_index: u32,
    /// Where to look for the HIP runtime; empty means the system loader.
    pub search_paths: Vec<SearchPath>,
}

/// Driver options plus the default device parameters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HipOptions {
    /// Driver options.
    pub driver: DriverOptions,
    /// Defaults for created devices.
    pub device: DeviceParams,
}

fn bad_value(key: &str, expected: &str, value: &str, why: impl std::fmt::Display) -> Status {
    status!(
        FailedPrecondition,
        "option '{key}' expected {expected}, got: {} ({why})",
        super::path::quote(value)
    )
}

fn parse_i32_option(key: &str, value: &str, min: i32, max: i32) -> Result<i32> {
    parse_int(value, i64::from(min), i64::from(max))
        .map(|v| v as i32)
        .map_err(|why| bad_value(key, "an int32 value", value, why))
}

/// IREE's bool rule: `true`, `false`, or an int32 (non-zero is true).
fn parse_bool_option(key: &str, value: &str) -> Result<bool> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => parse_int(value, i64::from(i32::MIN), i64::from(i32::MAX))
            .map(|v| v != 0)
            .map_err(|why| bad_value(key, "true, false or an int32 value", value, why)),
    }
}

/// Splits the value of [`HIP_DYLIB_PATH_ENV`] on `;` into search paths;
/// an empty segment (`"a;;b"`, a trailing `;`, an empty value) is
/// `INVALID_ARGUMENT`.
pub fn split_env_search_paths(value: &str) -> Result<Vec<SearchPath>> {
    let count = value.bytes().filter(|&b| b == b';').count() + 1;
    if count > MAX_SEARCH_PATHS {
        return Err(status!(
            InvalidArgument,
            "too many entries in {HIP_DYLIB_PATH_ENV} ({count}; at most {MAX_SEARCH_PATHS})"
        ));
    }
    value
        .split(';')
        .enumerate()
        .map(|(i, entry)| {
            SearchPath::parse(entry).map_err(|e| {
                e.annotate(format!(
                    "entry {} of {HIP_DYLIB_PATH_ENV}={}",
                    i + 1,
                    super::path::quote(value)
                ))
            })
        })
        .collect()
}

impl HipOptions {
    /// Parses IREE's option pairs. `env_search_path` is the value of
    /// [`HIP_DYLIB_PATH_ENV`] (the caller reads the environment); it is
    /// used only when no `hip_dylib_path` pair is given, as in IREE.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
        env_search_path: Option<&str>,
    ) -> Result<HipOptions> {
        let mut options = HipOptions::default();
        let mut saw_path = false;
        for (key, value) in pairs {
            let device = &mut options.device;
            match key {
                "hip_dylib_path" => {
                    saw_path = true;
                    if options.driver.search_paths.len() == MAX_SEARCH_PATHS {
                        return Err(status!(
                            InvalidArgument,
                            "too many hip_dylib_path options (at most {MAX_SEARCH_PATHS})"
                        ));
                    }
                    options.driver.search_paths.push(
                        SearchPath::parse(value)
                            .map_err(|e| e.annotate(format!("option '{key}'")))?,
                    );
                }
                "hip_use_streams" => {
                    device.command_buffer_mode = if parse_bool_option(key, value)? {
                        CommandBufferMode::Stream
                    } else {
                        CommandBufferMode::Graph
                    };
                }
                "hip_allow_inline_execution" => {
                    device.allow_inline_execution = parse_bool_option(key, value)?
                }
                "hip_async_allocations" => {
                    device.async_allocations = parse_bool_option(key, value)?
                }
                "hip_async_caching" => device.async_caching = parse_bool_option(key, value)?,
                "hip_tracing" => {
                    device.stream_tracing = parse_i32_option(key, value, 0, MAX_STREAM_TRACING)?
                }
                "hip_default_index" => {
                    options.driver.default_device_index =
                        parse_i32_option(key, value, 0, i32::MAX)? as u32
                }
                _ => {
                    return Err(status!(
                        FailedPrecondition,
                        "unrecognized option: {}",
                        super::path::quote(key)
                    ));
                }
            }
        }
        if !saw_path && let Some(env) = env_search_path {
            options.driver.search_paths = split_env_search_paths(env)?;
        }
        Ok(options)
    }
}

/// Per-device creation parameters (IREE's `params` of
/// `create_device_by_id`): only `hip_external_stream` is read, a `u64`
/// (`FAILED_PRECONDITION` otherwise); other keys belong to other layers and
/// are ignored, as in IREE.
pub fn parse_create_params<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> Result<Option<u64>> {
    let mut external_stream = None;
    for (key, value) in pairs {
        if key == "hip_external_stream" {
            let stream = super::text::parse_u64(value)
                .map_err(|why| bad_value(key, "a uint64 value", value, why))?;
            external_stream = Some(stream);
        }
    }
    Ok(external_stream)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::status::StatusCode;

    fn parse(pairs: &[(&str, &str)], env: Option<&str>) -> Result<HipOptions> {
        HipOptions::from_pairs(pairs.iter().copied(), env)
    }

    #[test]
    fn defaults_are_iree_defaults() {
        let o = parse(&[], None).unwrap();
        assert_eq!(o.driver.default_device_index, 0);
        assert!(o.driver.search_paths.is_empty());
        assert_eq!(o.device.command_buffer_mode, CommandBufferMode::Stream);
        assert!(o.device.async_allocations && o.device.async_caching);
        assert!(!o.device.allow_inline_execution);
        assert_eq!(o.device.queue_count, 1);
        assert_eq!(o.device.arena_block_size, 32768);
    }

    #[test]
    fn every_key_parses() {
        let o = parse(
            &[
                ("hip_use_streams", "false"),
                ("hip_allow_inline_execution", "1"),
                ("hip_async_allocations", "0"),
                ("hip_async_caching", "false"),
                ("hip_tracing", "2"),
                ("hip_default_index", "3"),
                ("hip_dylib_path", "/opt/rocm/lib"),
                ("hip_dylib_path", "file:/x/libamdhip64.so"),
            ],
            Some("/ignored"),
        )
        .unwrap();
        assert_eq!(o.device.command_buffer_mode, CommandBufferMode::Graph);
        assert!(o.device.allow_inline_execution);
        assert!(!o.device.async_allocations && !o.device.async_caching);
        assert_eq!(o.device.stream_tracing, 2);
        assert_eq!(o.driver.default_device_index, 3);
        assert_eq!(
            o.driver.search_paths,
            [
                SearchPath::Directory("/opt/rocm/lib".into()),
                SearchPath::File("/x/libamdhip64.so".into())
            ]
        );
    }

    #[test]
    fn env_is_a_fallback_split_on_semicolons() {
        let o = parse(&[], Some("/a;file:/b/lib.so;/c")).unwrap();
        assert_eq!(
            o.driver.search_paths,
            [
                SearchPath::Directory("/a".into()),
                SearchPath::File("/b/lib.so".into()),
                SearchPath::Directory("/c".into())
            ]
        );
        for bad in ["a;;b", "a;", "", ";a", "file:"] {
            let e = parse(&[], Some(bad)).unwrap_err();
            assert_eq!(e.code(), StatusCode::InvalidArgument, "{bad:?}");
            assert!(e.mentions(HIP_DYLIB_PATH_ENV), "{e}");
        }
        let many = vec!["/a"; MAX_SEARCH_PATHS + 1].join(";");
        assert!(
            parse(&[], Some(&many))
                .unwrap_err()
                .message()
                .starts_with("too many entries")
        );
        let pairs: Vec<(&str, &str)> = vec![("hip_dylib_path", "/a"); MAX_SEARCH_PATHS + 1];
        assert_eq!(
            parse(&pairs, None).unwrap_err().code(),
            StatusCode::InvalidArgument
        );
        assert!(parse(&pairs[1..], None).is_ok());
        // A flag path wins: the env value is never looked at.
        assert!(parse(&[("hip_dylib_path", "/x")], Some(";;")).is_ok());
    }

    #[test]
    fn bad_options_are_failed_precondition_with_the_name() {
        let e = parse(&[("hip_frobnicate", "1")], None).unwrap_err();
        assert_eq!(e.code(), StatusCode::FailedPrecondition);
        assert_eq!(e.message(), "unrecognized option: 'hip_frobnicate'");
        for (key, value) in [
            ("hip_use_streams", "yes"),
            ("hip_use_streams", "1abc"),
            ("hip_tracing", "3"),
            ("hip_tracing", "-1"),
            ("hip_default_index", "-1"),
            ("hip_default_index", "x"),
        ] {
            let e = parse(&[(key, value)], None).unwrap_err();
            assert_eq!(e.code(), StatusCode::FailedPrecondition, "{key}={value}");
            assert!(
                e.message().starts_with(&format!("option '{key}' expected")),
                "{e}"
            );
        }
        let e = parse(&[("hip_dylib_path", "")], None).unwrap_err();
        assert_eq!(e.code(), StatusCode::InvalidArgument);
    }

    #[test]
    fn create_params_read_the_external_stream() {
        assert_eq!(parse_create_params([]), Ok(None));
        assert_eq!(
            parse_create_params([("other", "x"), ("hip_external_stream", "0x10")]),
            Ok(Some(16))
        );
        let e = parse_create_params([("hip_external_stream", "-1")]).unwrap_err();
        assert_eq!(e.code(), StatusCode::FailedPrecondition);
        assert!(
            e.message()
                .starts_with("option 'hip_external_stream' expected a uint64 value")
        );
    }
}
