//! Exports kept in runs. Each thread that decodes part of a large kernel
//! array (`codeobj::metadata::split`) fills a run of its own, and joining
//! two parts moves the runs, not the reports: copying a 10,000-kernel
//! object's second half (a megabyte of fresh pages) was the one serial step
//! between decoding and writing the JSON.
//!
//! [`InspectRuns`] is `inspect`'s report with its exports still in those
//! runs: `inspect --json` writes it as it is; [`InspectRuns::into_report`]
//! gathers the runs into the one list [`InspectReport`] holds.

use super::inspect::{ExportReport, InspectReport};

/// Exports in order, as runs; `push` extends the last.
#[derive(Clone, Debug, Default)]
pub(crate) struct ExportRuns<'a> {
    /// Runs before the current one, in order.
    earlier: Vec<Vec<ExportReport<'a>>>,
    /// The run `push` extends.
    current: Vec<ExportReport<'a>>,
}

impl<'a> ExportRuns<'a> {
    /// Runs whose first has room for `exports`.
    pub(crate) fn with_capacity(exports: usize) -> Self {
        ExportRuns {
            earlier: Vec::new(),
            current: Vec::with_capacity(exports),
        }
    }

    /// Room for `more` exports in the current run, and no more.
    pub(crate) fn reserve_exact(&mut self, more: usize) {
        self.current.reserve_exact(more);
    }

    /// Adds `export` after every other.
    pub(crate) fn push(&mut self, export: ExportReport<'a>) {
        self.current.push(export);
    }

    /// Exports in every run.
    pub(crate) fn len(&self) -> usize {
        self.earlier.iter().map(Vec::len).sum::<usize>() + self.current.len()
    }

    /// Places `later`'s exports after these, moving its runs whole; later
    /// pushes extend `later`'s last run.
    pub(crate) fn append(&mut self, later: ExportRuns<'a>) {
        let current = std::mem::replace(&mut self.current, later.current);
        if !current.is_empty() {
            self.earlier.push(current);
        }
        self.earlier
            .extend(later.earlier.into_iter().filter(|run| !run.is_empty()));
    }

    /// The first run and the runs after it, none of them empty but (when
    /// there are no exports at all) the first.
    pub(crate) fn into_runs(self) -> (Vec<ExportReport<'a>>, Vec<Vec<ExportReport<'a>>>) {
        let mut runs = self.earlier.into_iter().chain([self.current]);
        let first = runs
            .by_ref()
            .find(|run| !run.is_empty())
            .unwrap_or_default();
        (first, runs.filter(|run| !run.is_empty()).collect())
    }
}

/// An [`InspectReport`] whose exports may still lie in the runs the
/// metadata's threads decoded them into: what `inspect --json` writes from
/// (`write_json_with`), without first gathering a large object's exports
/// into one list. [`crate::wrapped::inspect_runs`] gives it.
#[derive(Clone, Debug)]
pub struct InspectRuns<'a> {
    /// The report, its `exports` the first run.
    pub(crate) report: InspectReport<'a>,
    /// The runs after the first, each non-empty.
    pub(crate) later: Vec<Vec<ExportReport<'a>>>,
}

impl<'a> InspectRuns<'a> {
    /// A report whose exports are one run.
    pub fn whole(report: InspectReport<'a>) -> Self {
        InspectRuns {
            report,
            later: Vec::new(),
        }
    }

    /// The report's exports in order, over every run.
    pub fn exports(&self) -> impl Iterator<Item = &ExportReport<'a>> {
        self.report
            .exports
            .iter()
            .chain(self.later.iter().flatten())
    }

    /// How many exports there are, over every run.
    pub fn export_count(&self) -> usize {
        self.report.exports.len() + self.later.iter().map(Vec::len).sum::<usize>()
    }

    /// How many runs the exports lie in: 2 for a kernel array decoded on
    /// two threads and joined, 1 otherwise.
    pub fn run_count(&self) -> usize {
        1 + self.later.len()
    }

    /// The report with every export in its one list.
    pub fn into_report(self) -> InspectReport<'a> {
        let InspectRuns { mut report, later } = self;
        report
            .exports
            .reserve_exact(later.iter().map(Vec::len).sum());
        for mut run in later {
            report.exports.append(&mut run);
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
        assert_eq!(names(&first), ["a", "b"]);
        assert_eq!(later.len(), 1);
        assert_eq!(names(&later[0]), ["c", "d", "e"]);
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
        assert_eq!(names(&first), ["a"]);
        assert_eq!(
            later.iter().map(|run| names(run)).collect::<Vec<_>>(),
            [["b"]]
        );
        let (first, later) = ExportRuns::default().into_runs();
        assert!(first.is_empty() && later.is_empty());
    }

    #[test]
    fn the_report_gathers_every_run_in_order() {
        let mut exports = runs(&["a"]);
        exports.append(runs(&["b", "c"]));
        exports.append(runs(&["d"]));
        let (first, later) = exports.into_runs();
        let inspected = InspectRuns {
            report: InspectReport {
                container: Container::Elf,
                format: "gfx942".into(),
                size: 1,
                code_object_version: 5,
                exports: first,
            },
            later,
        };
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
}
