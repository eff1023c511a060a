//! `Status`: the one error type of the crate, with IREE's status codes.
//!
//! A [`Status`] carries a [`StatusCode`], a message, the annotations added on
//! the way up (IREE's `IREE_RETURN_IF_ERROR(..., "context")`) and any
//! secondary failures joined into it (IREE's `iree_status_join`, used when a
//! cleanup step fails after the primary failure). It renders the way IREE's
//! `iree_status_format` does, without the source location:
//!
//! ```text
//! INVALID_ARGUMENT; device group builder has no devices; creating group
//! ```
//!
//! ```
//! use amdgpu_hal::status::{Result, ResultExt, Status, StatusCode};
//!
//! fn open() -> Result<()> {
//!     Err(Status::not_found("HIP device with UUID GPU-00 not found"))
//! }
//! let err = open().annotate("creating device by path").unwrap_err();
//! assert_eq!(err.code(), StatusCode::NotFound);
//! assert_eq!(
//!     err.to_string(),
//!     "NOT_FOUND; HIP device with UUID GPU-00 not found; creating device by path"
//! );
//! ```

use std::fmt;

/// The result type used throughout the crate.
pub type Result<T, E = Status> = std::result::Result<T, E>;

/// IREE's `iree_status_code_t`, without `OK` (success is `Ok(..)`).
///
/// The discriminants are IREE's numeric values, so [`StatusCode::as_u32`]
/// round-trips with C code that speaks IREE statuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u32)]
pub enum StatusCode {
    /// The operation was cancelled.
    Cancelled = 1,
    /// An unknown error, or one from an error space with no better mapping.
    Unknown = 2,
    /// The caller passed an argument that is invalid whatever the state.
    InvalidArgument = 3,
    /// A deadline expired before the operation completed.
    DeadlineExceeded = 4,
    /// A requested entity (device, symbol, file, ...) was not found.
    NotFound = 5,
    /// An entity the caller tried to create already exists.
    AlreadyExists = 6,
    /// The caller may not perform the operation.
    PermissionDenied = 7,
    /// A resource (memory, capacity, a fixed-size table) is exhausted.
    ResourceExhausted = 8,
    /// The system is not in the state the operation requires.
    FailedPrecondition = 9,
    /// The operation was aborted (a concurrency conflict, typically).
    Aborted = 10,
    /// A value or index is outside the valid range.
    OutOfRange = 11,
    /// The operation is not implemented or not supported.
    Unimplemented = 12,
    /// An internal invariant was broken.
    Internal = 13,
    /// The service or library is unavailable (often transient).
    Unavailable = 14,
    /// Unrecoverable data loss or corruption.
    DataLoss = 15,
    /// The request lacks valid authentication credentials.
    Unauthenticated = 16,
    /// The operation was deferred and will complete later.
    Deferred = 17,
    /// The input is well formed but incompatible with this build or device.
    Incompatible = 18,
}

impl StatusCode {
    /// Every code, in numeric order.
    pub const ALL: [StatusCode; 18] = [
        StatusCode::Cancelled,
        StatusCode::Unknown,
        StatusCode::InvalidArgument,
        StatusCode::DeadlineExceeded,
        StatusCode::NotFound,
        StatusCode::AlreadyExists,
        StatusCode::PermissionDenied,
        StatusCode::ResourceExhausted,
        StatusCode::FailedPrecondition,
        StatusCode::Aborted,
        StatusCode::OutOfRange,
        StatusCode::Unimplemented,
        StatusCode::Internal,
        StatusCode::Unavailable,
        StatusCode::DataLoss,
        StatusCode::Unauthenticated,
        StatusCode::Deferred,
        StatusCode::Incompatible,
    ];

    /// IREE's name for the code (`iree_status_code_string`), e.g. `"NOT_FOUND"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            StatusCode::Cancelled => "CANCELLED",
            StatusCode::Unknown => "UNKNOWN",
            StatusCode::InvalidArgument => "INVALID_ARGUMENT",
            StatusCode::DeadlineExceeded => "DEADLINE_EXCEEDED",
            StatusCode::NotFound => "NOT_FOUND",
            StatusCode::AlreadyExists => "ALREADY_EXISTS",
            StatusCode::PermissionDenied => "PERMISSION_DENIED",
            StatusCode::ResourceExhausted => "RESOURCE_EXHAUSTED",
            StatusCode::FailedPrecondition => "FAILED_PRECONDITION",
            StatusCode::Aborted => "ABORTED",
            StatusCode::OutOfRange => "OUT_OF_RANGE",
            StatusCode::Unimplemented => "UNIMPLEMENTED",
            StatusCode::Internal => "INTERNAL",
            StatusCode::Unavailable => "UNAVAILABLE",
            StatusCode::DataLoss => "DATA_LOSS",
            StatusCode::Unauthenticated => "UNAUTHENTICATED",
            StatusCode::Deferred => "DEFERRED",
            StatusCode::Incompatible => "INCOMPATIBLE",
        }
    }

    /// IREE's numeric value of the code.
    pub const fn as_u32(self) -> u32 {
        self as u32
    }

    /// The code with IREE's numeric value `value`, if any (0 is `OK`, not a code).
    pub fn from_u32(value: u32) -> Option<StatusCode> {
        StatusCode::ALL
            .iter()
            .copied()
            .find(|c| c.as_u32() == value)
    }

    /// The code named `name` (IREE's spelling, e.g. `"OUT_OF_RANGE"`), if any.
    pub fn from_name(name: &str) -> Option<StatusCode> {
        StatusCode::ALL.iter().copied().find(|c| c.as_str() == name)
    }
}

impl fmt::Display for StatusCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An error: a code, a message, annotations and joined secondary failures.
///
/// Statuses are values: cheap to build, `Clone`, comparable, `Send + Sync`.
#[derive(Clone, PartialEq, Eq)]
pub struct Status {
    // Boxed so that `Result<T, Status>` stays one pointer wider than `T`.
    inner: Box<Inner>,
}

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    code: StatusCode,
    message: String,
    annotations: Vec<String>,
    joined: Vec<Status>,
}

impl Status {
    /// A status with `code` and `message`.
    pub fn new(code: StatusCode, message: impl Into<String>) -> Status {
        Status {
            inner: Box::new(Inner {
                code,
                message: message.into(),
                annotations: Vec::new(),
                joined: Vec::new(),
            }),
        }
    }

    /// The status code.
    pub fn code(&self) -> StatusCode {
        self.inner.code
    }

    /// The original message (without annotations).
    pub fn message(&self) -> &str {
        &self.inner.message
    }

    /// Annotations in the order they were added (innermost first).
    pub fn annotations(&self) -> &[String] {
        &self.inner.annotations
    }

    /// Secondary failures joined into this one, in the order they were joined.
    pub fn joined(&self) -> &[Status] {
        &self.inner.joined
    }

    /// Adds context to the status as it travels up (IREE's annotation).
    #[must_use]
    pub fn annotate(mut self, annotation: impl Into<String>) -> Status {
        let annotation = annotation.into();
        if !annotation.is_empty() {
            self.inner.annotations.push(annotation);
        }
        self
    }

    /// Joins a secondary failure (e.g. a cleanup that also failed) into this
    /// primary one. The primary's code wins, as with `iree_status_join`; the
    /// secondary stays inspectable through [`Status::joined`].
    #[must_use]
    pub fn join(mut self, secondary: Status) -> Status {
        self.inner.joined.push(secondary);
        self
    }

    /// Joins two results of steps that both had to run (an operation and its
    /// cleanup): the first failure wins and a second one is joined into it.
    pub fn join_results<T>(primary: Result<T>, secondary: Result<()>) -> Result<T> {
        match (primary, secondary) {
            (Ok(value), Ok(())) => Ok(value),
            (Ok(_), Err(second)) => Err(second),
            (Err(first), Ok(())) => Err(first),
            (Err(first), Err(second)) => Err(first.join(second)),
        }
    }

    /// True if the message, an annotation or a joined status contains `needle`.
    pub fn mentions(&self, needle: &str) -> bool {
        self.to_string().contains(needle)
    }
}

macro_rules! code_constructors {
    ($($(#[$doc:meta])* $name:ident => $code:ident),* $(,)?) => {
        impl Status {
            $(
                $(#[$doc])*
                pub fn $name(message: impl Into<String>) -> Status {
                    Status::new(StatusCode::$code, message)
                }
            )*
        }
    };
}

code_constructors! {
    /// A `CANCELLED` status.
    cancelled => Cancelled,
    /// An `UNKNOWN` status.
    unknown => Unknown,
    /// An `INVALID_ARGUMENT` status.
    invalid_argument => InvalidArgument,
    /// A `DEADLINE_EXCEEDED` status.
    deadline_exceeded => DeadlineExceeded,
    /// A `NOT_FOUND` status.
    not_found => NotFound,
    /// An `ALREADY_EXISTS` status.
    already_exists => AlreadyExists,
    /// A `PERMISSION_DENIED` status.
    permission_denied => PermissionDenied,
    /// A `RESOURCE_EXHAUSTED` status.
    resource_exhausted => ResourceExhausted,
    /// A `FAILED_PRECONDITION` status.
    failed_precondition => FailedPrecondition,
    /// An `ABORTED` status.
    aborted => Aborted,
    /// An `OUT_OF_RANGE` status.
    out_of_range => OutOfRange,
    /// An `UNIMPLEMENTED` status.
    unimplemented => Unimplemented,
    /// An `INTERNAL` status.
    internal => Internal,
    /// An `UNAVAILABLE` status.
    unavailable => Unavailable,
    /// A `DATA_LOSS` status.
    data_loss => DataLoss,
    /// An `UNAUTHENTICATED` status.
    unauthenticated => Unauthenticated,
    /// A `DEFERRED` status.
    deferred => Deferred,
    /// An `INCOMPATIBLE` status.
    incompatible => Incompatible,
}

impl fmt::Display for Status {
    /// `CODE; message; annotation; ...; additional failure: <joined>`, as
    /// IREE's `iree_status_format` (minus the source location) and
    /// `iree_status_join` render it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.inner.code.as_str())?;
        if !self.inner.message.is_empty() {
            write!(f, "; {}", self.inner.message)?;
        }
        for annotation in &self.inner.annotations {
            write!(f, "; {annotation}")?;
        }
        for joined in &self.inner.joined {
            write!(f, "; additional failure: {joined}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Debug output is what `unwrap` prints: make it the readable form.
        write!(f, "Status({self})")
    }
}

impl std::error::Error for Status {}

/// Builds a [`Status`] with a `format!`-style message:
/// `status!(NotFound, "device {} not found", index)`.
#[macro_export]
macro_rules! status {
    ($code:ident, $($arg:tt)+) => {
        $crate::status::Status::new($crate::status::StatusCode::$code, format!($($arg)+))
    };
}

/// Annotating a `Result` in place, like `IREE_RETURN_IF_ERROR(expr, "context")`.
pub trait ResultExt<T> {
    /// Adds `annotation` to the error, if any.
    fn annotate(self, annotation: impl Into<String>) -> Result<T>;
    /// Adds a lazily built annotation to the error, if any.
    fn annotate_with<S: Into<String>>(self, annotation: impl FnOnce() -> S) -> Result<T>;
}

impl<T> ResultExt<T> for Result<T> {
    fn annotate(self, annotation: impl Into<String>) -> Result<T> {
        self.map_err(|status| status.annotate(annotation))
    }

    fn annotate_with<S: Into<String>>(self, annotation: impl FnOnce() -> S) -> Result<T> {
        self.map_err(|status| status.annotate(annotation()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_iree_values_and_names() {
        assert_eq!(StatusCode::InvalidArgument.as_u32(), 3);
        assert_eq!(StatusCode::Incompatible.as_u32(), 18);
        for code in StatusCode::ALL {
            assert_eq!(StatusCode::from_u32(code.as_u32()), Some(code));
            assert_eq!(StatusCode::from_name(code.as_str()), Some(code));
        }
        assert_eq!(StatusCode::from_u32(0), None);
        assert_eq!(StatusCode::from_u32(19), None);
    }

    #[test]
    fn display_renders_like_iree() {
        let s = Status::invalid_argument("device group builder has no devices");
        assert_eq!(
            s.to_string(),
            "INVALID_ARGUMENT; device group builder has no devices"
        );
        assert_eq!(Status::internal("").to_string(), "INTERNAL");
    }

    #[test]
    fn annotations_are_appended_in_order() {
        let r: Result<()> = Err(status!(
            NotFound,
            "device {} not found (of {} enumerated)",
            3,
            2
        ));
        let err = r
            .annotate("selecting device")
            .annotate_with(|| format!("path `{}`", "3"))
            .unwrap_err();
        assert_eq!(err.code(), StatusCode::NotFound);
        assert_eq!(err.message(), "device 3 not found (of 2 enumerated)");
        assert_eq!(err.annotations(), ["selecting device", "path `3`"]);
        assert_eq!(
            err.to_string(),
            "NOT_FOUND; device 3 not found (of 2 enumerated); selecting device; path `3`"
        );
    }

    #[test]
    fn join_keeps_primary_code_and_renders_secondary() {
        let primary = Status::unavailable("assignment rejected");
        let cleanup = Status::internal("clear failed").annotate("device 1");
        let joined = primary.join(cleanup.clone());
        assert_eq!(joined.code(), StatusCode::Unavailable);
        assert_eq!(joined.joined(), [cleanup]);
        assert_eq!(
            joined.to_string(),
            "UNAVAILABLE; assignment rejected; additional failure: INTERNAL; clear failed; device 1"
        );
    }

    #[test]
    fn join_results_first_failure_wins() {
        let ok: Result<u32> = Ok(7);
        assert_eq!(Status::join_results(ok, Ok(())).unwrap(), 7);
        let err = Status::join_results::<u32>(Ok(7), Err(Status::aborted("cleanup"))).unwrap_err();
        assert_eq!(err.code(), StatusCode::Aborted);
        let err = Status::join_results::<u32>(
            Err(Status::not_found("primary")),
            Err(Status::internal("cleanup")),
        )
        .unwrap_err();
        assert_eq!(err.code(), StatusCode::NotFound);
        assert_eq!(err.joined().len(), 1);
        assert!(err.mentions("cleanup"));
    }

    #[test]
    fn status_is_send_sync_and_small() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Status>();
        assert_eq!(std::mem::size_of::<Status>(), std::mem::size_of::<usize>());
    }
}
