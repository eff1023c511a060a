//! The symbol-table macro: one struct of function pointers per vendor
//! library, resolved once when the library is opened.
//!
//! A table lists its symbols in three groups:
//! - `required`: typed, called by the wrappers; a missing one fails the load;
//! - `optional`: typed, `None` when the library lacks it (newer or older
//!   runtimes); the wrapper reports `UNIMPLEMENTED` for a call to it;
//! - `checked`: required for the library to count as complete (IREE's
//!   tables require them), checked at load, not yet called by any wrapper,
//!   so they carry no type.
//!
//! Every missing required or checked symbol is named in one `UNAVAILABLE`
//! status, so a wrong or too-old library is diagnosed in one go.

macro_rules! symbol_table {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            required {
                $( fn $req:ident( $($rarg:ty),* $(,)? ) -> $rret:ty; )*
            }
            optional {
                $( fn $opt:ident( $($oarg:ty),* $(,)? ) -> $oret:ty; )*
            }
            checked { $( $chk:ident ),* $(,)? }
        }
    ) => {
        $(#[$meta])*
        #[allow(non_snake_case)]
        #[derive(Clone, Copy)]
        $vis struct $name {
            $( pub(crate) $req: unsafe extern "C" fn($($rarg),*) -> $rret, )*
            $( pub(crate) $opt: Option<unsafe extern "C" fn($($oarg),*) -> $oret>, )*
        }

        impl $name {
            /// Symbols that must be exported (typed and checked-only).
            pub const REQUIRED: &'static [&'static str] =
                &[$(stringify!($req),)* $(stringify!($chk),)*];
            /// Symbols used when present.
            pub const OPTIONAL: &'static [&'static str] = &[$(stringify!($opt),)*];

            /// The optional symbols this library exports.
            #[allow(dead_code, unused_mut)]
            pub(crate) fn present_optional(&self) -> Vec<&'static str> {
                let mut present = Vec::new();
                $( if self.$opt.is_some() { present.push(stringify!($opt)); } )*
                present
            }

            /// Resolves the table from `library`, or names every missing
            /// required symbol.
            pub(crate) fn resolve(
                library: &$crate::backend::dylib::library::DynamicLibrary,
            ) -> $crate::status::Result<$name> {
                library.require_all(Self::REQUIRED)?;
                Ok($name {
                    $( $req: {
                        // SAFETY: the pointer type is the C declaration of the
                        // symbol, written from the vendor header (see the
                        // table); the table is stored next to the library
                        // that owns the code and never outlives it.
                        let symbol = unsafe {
                            library.symbol::<unsafe extern "C" fn($($rarg),*) -> $rret>(stringify!($req))
                        };
                        match symbol {
                            Some(symbol) => symbol,
                            // Present a moment ago: only a racing unload
                            // could get here, and it is reported, not unwrapped.
                            None => return Err(library.require_all(&[stringify!($req)])
                                .err()
                                .unwrap_or_else(|| $crate::status::Status::internal(
                                    concat!("symbol '", stringify!($req), "' vanished")))),
                        }
                    }, )*
                    $( $opt: {
                        // SAFETY: as for the required symbols above.
                        unsafe {
                            library.symbol::<unsafe extern "C" fn($($oarg),*) -> $oret>(stringify!($opt))
                        }
                    }, )*
                })
            }
        }
    };
}

pub(crate) use symbol_table;
