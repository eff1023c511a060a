//! Exports kept in runs. Each thread that decodes part of a large kernel
//! array (`codeobj::metadata::split`) fills a run of its own, and joining
//! two parts moves the runs, not the reports: copying a 10,000-kernel
//! object's second half (a megabyte of fresh pages) was the one serial step
//! between decoding and writing the JSON.
//!
//! A run also keeps a copy of the names its exports write, taken while the
//! decoder has them in cache (`NameCopies`). The reports' names borrow
//! from the file, whose pages are let go behind the decoder
//! ([`crate::input::ReleaseBehind`]); read from there, writing a large
//! object's JSON faulted its metadata back in, one kernel at a time (a
//! quarter of `inspect --json`'s writing time at 10,000 kernels).
//!
//! [`InspectRuns`] is `inspect`'s report with its exports still in those
//! runs: `inspect --json` writes it as it is; [`InspectRuns::into_report`]
//! gathers the runs into the one list [`InspectReport`] holds.

use super::inspect_report::{ExportReport, InspectReport};

/// Exports in order, and a copy of the names they write.
#[derive(Clone, Debug, Default)]
pub(crate) struct ExportRun<'a> {
    /// The exports, in order.
    pub(crate) exports: Vec<ExportReport<'a>>,
    /// Every export's names in the order the JSON writes them
    /// ([`for_each_name`]), one after the other; empty for a run whose
    /// names are read from the reports ([`NameCopies`] falls back).
    pub(crate) names: String,
}

impl<'a> ExportRun<'a> {
    fn with_capacity(exports: usize) -> Self {
        ExportRun {
            exports: Vec::with_capacity(exports),
            names: String::new(),
        }
    }

    fn push(&mut self, export: ExportReport<'a>) {
        for_each_name(&export, |name| self.names.push_str(name));
        self.exports.push(export);
    }
}

/// Calls `f` with each string of `export` the JSON writes from its report,
/// in the order it writes them: the name, the symbol, the HAL symbol and
/// each parameter's name (`hal_error` is the report's own).
pub(crate) fn for_each_name<'e>(export: &ExportReport<'e>, mut f: impl FnMut(&'e str)) {
    f(export.name);
    f(export.symbol);
    f(export.hal_symbol);
    for parameter in &export.parameters {
        f(parameter.name);
    }
}

/// Reads a run's name copies back in [`for_each_name`]'s order.
pub(crate) struct NameCopies<'n> {
    rest: &'n str,
}

impl<'n> NameCopies<'n> {
    /// A run's copies (its [`ExportRun::names`]); with none (`""`) every
    /// name is read from its report.
    pub(crate) fn new(names: &'n str) -> Self {
        NameCopies { rest: names }
    }

    /// The copy of `name`, the next name in the run's order; `name` itself
    /// where the run has no copy of it.
    pub(crate) fn next<'s>(&mut self, name: &'s str) -> &'s str
    where
        'n: 's,
    {
        match (self.rest.get(..name.len()), self.rest.get(name.len()..)) {
            (Some(copy), Some(rest)) => {
                debug_assert_eq!(copy, name, "name copies out of step");
                self.rest = rest;
                copy
            }
            _ => name,
        }
    }

    /// Whether the run has copies (its writing need not touch the file).
    pub(crate) fn any(&self) -> bool {
        !self.rest.is_empty()
    }
}

/// Exports in order, as runs; `push` extends the last.
#[derive(Clone, Debug, Default)]
pub(crate) struct ExportRuns<'a> {
    /// Runs before the current one, in order.
    earlier: Vec<ExportRun<'a>>,
    /// The run `push` extends.
    current: ExportRun<'a>,
}

impl<'a> ExportRuns<'a> {
    /// Runs whose first has room for `exports`.
    pub(crate) fn with_capacity(exports: usize) -> Self {
        ExportRuns {
            earlier: Vec::new(),
            current: ExportRun::with_capacity(exports),
        }
    }

    /// Room for `more` exports in the current run, and no more.
    pub(crate) fn reserve_exact(&mut self, more: usize) {
        self.current.exports.reserve_exact(more);
    }

    /// Adds `export` after every other.
    pub(crate) fn push(&mut self, export: ExportReport<'a>) {
        self.current.push(export);
    }

    /// Exports in every run.
    pub(crate) fn len(&self) -> usize {
        self.earlier
            .iter()
            .map(|run| run.exports.len())
            .sum::<usize>()
            + self.current.exports.len()
    }

    /// Places `later`'s exports after these, moving its runs whole; later
    /// pushes extend `later`'s last run.
    pub(crate) fn append(&mut self, later: ExportRuns<'a>) {
        let current = std::mem::replace(&mut self.current, later.current);
        if !current.exports.is_empty() {
            self.earlier.push(current);
        }
        self.earlier.extend(
            later
                .earlier
                .into_iter()
                .filter(|run| !run.exports.is_empty()),
        );
    }

    /// The first run and the runs after it, none of them empty but (when
    /// there are no exports at all) the first.
    pub(crate) fn into_runs(self) -> (ExportRun<'a>, Vec<ExportRun<'a>>) {
        let mut runs = self.earlier.into_iter().chain([self.current]);
        let first = runs
            .by_ref()
            .find(|run| !run.exports.is_empty())
            .unwrap_or_default();
        (first, runs.filter(|run| !run.exports.is_empty()).collect())
    }
}

/// An [`InspectReport`] whose exports may still lie in the runs the
/// metadata's threads decoded them into: what `inspect --json` writes from
/// (`write_json_with`), without first gathering a large object's exports
/// into one list. [`crate::wrapped::inspect_runs`] gives it.
#[derive(Clone, Debug)]
pub struct InspectRuns<'a> {
    /// The report, its `exports` the first run's.
    pub(crate) report: InspectReport<'a>,
    /// The first run's name copies.
    pub(crate) names: String,
    /// The runs after the first, each non-empty.
    pub(crate) later: Vec<ExportRun<'a>>,
}

impl<'a> InspectRuns<'a> {
    /// A report whose exports are one run.
    pub fn whole(report: InspectReport<'a>) -> Self {
        InspectRuns {
            report,
            names: String::new(),
            later: Vec::new(),
        }
    }

    /// The report's header fields and its runs: `first`, then `later`.
    pub(crate) fn from_runs(
        mut report: InspectReport<'a>,
        (first, later): (ExportRun<'a>, Vec<ExportRun<'a>>),
    ) -> Self {
        report.exports = first.exports;
        InspectRuns {
            report,
            names: first.names,
            later,
        }
    }

    /// The report's exports in order, over every run.
    pub fn exports(&self) -> impl Iterator<Item = &ExportReport<'a>> {
        self.report
            .exports
            .iter()
            .chain(self.later.iter().flat_map(|run| &run.exports))
    }

    /// How many exports there are, over every run.
    pub fn export_count(&self) -> usize {
        self.report.exports.len()
            + self
                .later
                .iter()
                .map(|run| run.exports.len())
                .sum::<usize>()
    }

    /// How many runs the exports lie in: 2 for a kernel array decoded on
    /// two threads and joined, 1 otherwise.
    pub fn run_count(&self) -> usize {
        1 + self.later.len()
    }

    /// The report with every export in its one list.
    pub fn into_report(self) -> InspectReport<'a> {
        let InspectRuns {
            mut report, later, ..
        } = self;
        report
            .exports
            .reserve_exact(later.iter().map(|run| run.exports.len()).sum());
        for mut run in later {
            report.exports.append(&mut run.exports);
        }
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wrapped::Container;

    fn export(name: &str) -> ExportReport<'_> {
        ExportReport {
            name,
            symbol: name,
            hal_symbol: name,
            workgroup_size: [1, 1, 1],
            dynamic_workgroup_size: true,
            constant_count: Some(0),
            binding_count: Some(0),
            parameters: Vec::new(),
            kernarg_size: 0,
            kernarg_alignment: 8,
            group_segment_size: 0,
            private_segment_size: 0,
            vgpr_count: None,
            sgpr_count: None,
            agpr_count: None,
            vgpr_spill_count: None,
            sgpr_spill_count: None,
            wavefront_size: None,
            max_flat_workgroup_size: None,
            uses_dynamic_stack: None,
            hal_error: None,
        }
    }

    fn runs<'a>(names: &[&'a str]) -> ExportRuns<'a> {
        let mut runs = ExportRuns::with_capacity(names.len());
        for name in names {
            runs.push(export(name));
        }
        runs
    }

    fn names<'a>(run: &[ExportReport<'a>]) -> Vec<&'a str> {
        run.iter().map(|export| export.name).collect()
    }

    #[test]
    fn appended_runs_keep_their_order_and_later_pushes_extend_the_last() {
        let mut head = runs(&["a", "b"]);
        head.append(runs(&["c", "d"]));
        head.push(export("e"));
        assert_eq!(head.len(), 5);
        let (first, later) = head.into_runs();
        assert_eq!(names(&first.exports), ["a", "b"]);
        assert_eq!(later.len(), 1);
        assert_eq!(names(&later[0].exports), ["c", "d", "e"]);
        // Each run copies its own exports' names, in the writer's order.
        assert_eq!(
            (first.names.as_str(), later[0].names.as_str()),
            ("aaabbb", "cccdddeee")
        );
    }

    #[test]
    fn empty_runs_are_dropped_and_the_first_is_the_first_non_empty() {
        let mut head = runs(&[]);
        head.append(runs(&[]));
        head.append(runs(&["a"]));
        head.append(runs(&[]));
        let mut tail = runs(&["b"]);
        tail.append(runs(&[]));
        head.append(tail);
        let (first, later) = head.into_runs();
        assert_eq!(names(&first.exports), ["a"]);
        let later: Vec<_> = later.iter().map(|run| names(&run.exports)).collect();
        assert_eq!(later, [["b"]]);
        let (first, later) = ExportRuns::default().into_runs();
        assert!(first.exports.is_empty() && first.names.is_empty() && later.is_empty());
    }

    #[test]
    fn the_report_gathers_every_run_in_order() {
        let mut exports = runs(&["a"]);
        exports.append(runs(&["b", "c"]));
        exports.append(runs(&["d"]));
        let inspected = InspectRuns::from_runs(
            InspectReport {
                container: Container::Elf,
                format: "gfx942".into(),
                size: 1,
                code_object_version: 5,
                exports: Vec::new(),
            },
            exports.into_runs(),
        );
        assert_eq!((inspected.run_count(), inspected.export_count()), (3, 4));
        let order: Vec<_> = inspected.exports().map(|export| export.name).collect();
        assert_eq!(order, ["a", "b", "c", "d"]);
        let mut whole = Vec::new();
        inspected.write_json_with(&mut whole, &()).unwrap();
        let report = inspected.into_report();
        assert_eq!(names(&report.exports), ["a", "b", "c", "d"]);
        let mut gathered = Vec::new();
        report.write_json(&mut gathered).unwrap();
        assert_eq!(whole, gathered);
        assert_eq!(
            String::from_utf8(whole).unwrap(),
            crate::json_writer::to_string_pretty(&report).unwrap()
        );
    }

    #[test]
    fn runs_have_the_room_asked_for() {
        // Room up front: the decoder's pushes never move a run.
        let mut runs = ExportRuns::with_capacity(100);
        assert!(runs.current.exports.capacity() >= 100);
        runs.push(export("a"));
        runs.reserve_exact(1000);
        assert!(runs.current.exports.capacity() >= 1001);
        let (first, _) = runs.into_runs();
        assert!(first.exports.capacity() >= 1001);
    }

    #[test]
    fn name_copies_are_read_back_in_the_writers_order() {
        let mut run = ExportRun::default();
        let mut with_parameters = export("kernel");
        with_parameters.symbol = "kernel.kd";
        with_parameters.hal_symbol = "kernel.kd";
        with_parameters.parameters = ["x", "", "é"]
            .into_iter()
            .map(|name| crate::wrapped::inspect_report::ParameterReport {
                kind: crate::codeobj::metadata::ParameterType::Constant,
                size: 4,
                offset: 0,
                name,
            })
            .collect();
        run.push(with_parameters.clone());
        run.push(export(""));
        assert_eq!(run.names, "kernelkernel.kdkernel.kdxé");
        let mut copies = NameCopies::new(&run.names);
        assert!(copies.any());
        let mut read = Vec::new();
        for export in &run.exports {
            for_each_name(export, |name| {
                let copy = copies.next(name);
                assert_eq!(copy, name);
                // Read from the copies, not from where the report points.
                assert!(name.is_empty() || !std::ptr::eq(copy, name));
                read.push(copy);
            });
        }
        assert_eq!(
            read,
            ["kernel", "kernel.kd", "kernel.kd", "x", "", "é", "", "", ""]
        );
        assert!(!copies.any());
        // Without copies, every name is the report's own.
        let mut none = NameCopies::new("");
        assert!(!none.any());
        assert!(std::ptr::eq(
            none.next(with_parameters.name),
            with_parameters.name
        ));
    }
}
