//! The shape of a status-code table: every value of a C status enum with
//! its enumerator and description, as Rust and as C strings (the vendor
//! libraries hand C strings out: `hsa_status_string`, `hipGetErrorName`).

use core::ffi::CStr;

/// One value of a status enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeEntry<T> {
    /// The value.
    pub value: T,
    /// The enumerator, e.g. `HSA_STATUS_ERROR_INVALID_ARGUMENT`.
    pub name: &'static str,
    /// The vendor's description of it.
    pub description: &'static str,
    /// [`CodeEntry::name`] as a C string.
    pub c_name: &'static CStr,
    /// [`CodeEntry::description`] as a C string.
    pub c_description: &'static CStr,
    /// `NAME: description` as a C string (what `hsa_status_string` returns).
    pub c_text: &'static CStr,
}

/// A status enum's table: a constant per value (its C name), the table of
/// [`CodeEntry`]s and a `const` lookup by value.
macro_rules! code_table {
    (
        $(#[$table_doc:meta])* $table:ident,
        $(#[$lookup_doc:meta])* $lookup:ident: $t:ty {
            $($name:ident = $value:literal, $description:literal;)*
        }
    ) => {
        $(
            #[doc = concat!("`", stringify!($name), "`: ", $description)]
            pub const $name: $t = $value;
        )*

        $(#[$table_doc])*
        pub const $table: &[$crate::codes::CodeEntry<$t>] = &[$($crate::codes::CodeEntry {
            value: $value,
            name: stringify!($name),
            description: $description,
            c_name: $crate::c_str(concat!(stringify!($name), "\0")),
            c_description: $crate::c_str(concat!($description, "\0")),
            c_text: $crate::c_str(concat!(stringify!($name), ": ", $description, "\0")),
        }),*];

        $(#[$lookup_doc])*
        pub const fn $lookup(value: $t) -> Option<&'static $crate::codes::CodeEntry<$t>> {
            let mut i = 0;
            while i < $table.len() {
                if $table[i].value == value {
                    return Some(&$table[i]);
                }
                i += 1;
            }
            None
        }

        #[cfg(test)]
        mod table_tests {
            use super::*;

            #[test]
            fn every_value_is_listed_once_and_found() {
                for (i, entry) in $table.iter().enumerate() {
                    assert_eq!($lookup(entry.value), Some(entry));
                    assert!($table[..i].iter().all(|e| e.value != entry.value));
                    assert_eq!(entry.c_name.to_str(), Ok(entry.name));
                }
            }
        }
    };
}
pub(crate) use code_table;
