//! Exports kept in runs. Each thread that decodes part of a large kernel
//! array (`codeobj::metadata::split`) fills a run of its own, and joining
//! two parts moves the runs, not the reports: copying a 10,000-kernel
//! object's second half (a megabyte of fresh pages) was the one serial step
//! between decoding and writing the JSON.
//!
//! A run keeps its exports' parameters in one list of its own
//! (`ExportRun::push_with`) rather than one per report: an allocation per
//! kernel was 10,000 of them to make and free at 10,000 kernels, and beneath
//! the tail's thread an arena that grew a page at a time.
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

use super::export_record::ExportRecord;
use super::inspect_report::{ExportReport, InspectReport, ParameterReport};

/// Parameters a run makes room for per export it makes room for: room only
/// (pages nothing writes are never touched), so that the list rarely moves.
pub(crate) const PARAMETERS_PER_EXPORT: usize = 4;

/// One export of a run: its record, its `hal_error` and its parameters.
pub(crate) type RunExport<'r, 'a> = (
    &'r ExportRecord<'a>,
    Option<&'r str>,
    &'r [ParameterReport<'a>],
);

/// Exports in order, as compact records ([`ExportRecord`]) with their
/// parameters and refusals beside them, and a copy of the names they write.
#[derive(Clone, Debug, Default)]
pub(crate) struct ExportRun<'a> {
    /// The exports, in order.
    pub(crate) records: Vec<ExportRecord<'a>>,
    /// The exports' parameters, one export's after another's.
    pub(crate) parameters: Vec<ParameterReport<'a>>,
    /// Where each export's parameters end in `parameters`, one per export.
    pub(crate) ends: Vec<usize>,
    /// The `hal_error` of each export that has one, by export index, in
    /// order (most exports have none).
    pub(crate) hal_errors: Vec<(usize, String)>,
    /// Every export's names in the order the JSON writes them
    /// ([`for_each_name`]), one after the other; empty for a run filled by
    /// [`ExportRun::push_unnamed`] (an `AMD1` module's, whose names are
    /// read from its records).
    pub(crate) names: String,
}

impl<'a> ExportRun<'a> {
    /// A run with room for `exports` exports (and their parameters).
    pub(crate) fn with_capacity(exports: usize) -> Self {
        ExportRun {
            records: Vec::with_capacity(exports),
            parameters: Vec::with_capacity(exports.saturating_mul(PARAMETERS_PER_EXPORT)),
            ends: Vec::with_capacity(exports),
            hal_errors: Vec::new(),
            names: String::new(),
        }
    }

    /// How many exports the run holds.
    pub(crate) fn len(&self) -> usize {
        self.records.len()
    }

    /// Room for `more` exports (and their parameters), and no more.
    pub(crate) fn reserve_exact(&mut self, more: usize) {
        self.records.reserve_exact(more);
        self.ends.reserve_exact(more);
        self.parameters
            .reserve_exact(more.saturating_mul(PARAMETERS_PER_EXPORT));
    }

    /// Adds the export `make` returns after adding its parameters to the
    /// list it is given (the run's, which it must only extend), and copies
    /// its names.
    fn push_with(&mut self, make: impl FnOnce(&mut Vec<ParameterReport<'a>>) -> ExportReport<'a>) {
        let start = self.parameters.len();
        let export = self.push_unnamed(make);
        let parameters = self.parameters.get(start..).unwrap_or_default();
        for_each_name(&export, parameters, |name| self.names.push_str(name));
    }

    /// [`ExportRun::push_with`] without copying the names (a run whose
    /// names are read from its records); gives back what is left of the
    /// report (its names).
    pub(crate) fn push_unnamed(
        &mut self,
        make: impl FnOnce(&mut Vec<ParameterReport<'a>>) -> ExportReport<'a>,
    ) -> ExportReport<'a> {
        let mut export = make(&mut self.parameters);
        let (record, hal_error, mut own) = ExportRecord::take(&mut export);
        // Parameters the report brought along join the list after the rest.
        self.parameters.append(&mut own);
        self.ends.push(self.parameters.len());
        if let Some(reason) = hal_error {
            self.hal_errors.push((self.records.len(), reason));
        }
        self.records.push(record);
        export
    }

    /// Appends `tail`'s exports after these.
    pub(crate) fn append(&mut self, tail: ExportRun<'a>) {
        let (exports, parameters) = (self.records.len(), self.parameters.len());
        self.records.extend(tail.records);
        self.ends
            .extend(tail.ends.into_iter().map(|end| end + parameters));
        self.parameters.extend(tail.parameters);
        self.hal_errors.extend(
            tail.hal_errors
                .into_iter()
                .map(|(index, reason)| (index + exports, reason)),
        );
        self.names.push_str(&tail.names);
    }

    /// Adds a copy of `from`'s export `index` (record, parameters and
    /// `hal_error`); false when `from` has no such export.
    pub(crate) fn push_copy(&mut self, from: &ExportRun<'a>, index: usize) -> bool {
        let Some(record) = from.records.get(index) else {
            return false;
        };
        let start = match index.checked_sub(1) {
            Some(before) => from.ends.get(before).copied().unwrap_or(0),
            None => 0,
        };
        let end = from.ends.get(index).copied().unwrap_or(start);
        let parameters = from.parameters.get(start..end).unwrap_or_default();
        self.parameters.extend_from_slice(parameters);
        self.ends.push(self.parameters.len());
        if let Ok(at) = from.hal_errors.binary_search_by_key(&index, |(at, _)| *at)
            && let Some((_, reason)) = from.hal_errors.get(at)
        {
            self.hal_errors.push((self.records.len(), reason.clone()));
        }
        self.records.push(record.clone());
        true
    }

    /// Each export's record with its `hal_error` and its parameters, in
    /// order.
    pub(crate) fn each(&self) -> impl Iterator<Item = RunExport<'_, 'a>> + '_ {
        let mut start = 0;
        let mut refused = self.hal_errors.iter().peekable();
        self.records
            .iter()
            .zip(&self.ends)
            .enumerate()
            .map(move |(index, (record, &end))| {
                let hal_error = refused
                    .next_if(|(at, _)| *at == index)
                    .map(|(_, reason)| reason.as_str());
                let parameters = self.parameters.get(start..end).unwrap_or_default();
                start = end;
                (record, hal_error, parameters)
            })
    }

    /// The exports, each holding its own parameters.
    fn exports(&self) -> impl Iterator<Item = ExportReport<'a>> + '_ {
        self.each().map(|(record, hal_error, parameters)| {
            record.report(parameters.to_vec(), hal_error.map(str::to_owned))
        })
    }
}

/// Calls `f` with each string of `export` the JSON writes from its report,
/// in the order it writes them: the name, the symbol, the HAL symbol and
/// the name of each of its `parameters` (`hal_error` is the report's own).
pub(crate) fn for_each_name<'e>(
    export: &ExportReport<'e>,
    parameters: &[ParameterReport<'e>],
    mut f: impl FnMut(&'e str),
) {
    f(export.name);
    f(export.symbol);
    f(export.hal_symbol);
    for parameter in parameters {
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

/// Exports in order, as runs that keep their parameters; `push` extends
/// the last.
#[derive(Clone, Debug, Default)]
pub(crate) struct ExportRuns<'a> {
    /// Runs before the current one, in order.
    earlier: Vec<ExportRun<'a>>,
    /// The run `push` extends.
    current: ExportRun<'a>,
}

impl<'a> ExportRuns<'a> {
    /// Runs whose first has room for `exports` (and their parameters).
    pub(crate) fn with_capacity(exports: usize) -> Self {
        ExportRuns {
            earlier: Vec::new(),
            current: ExportRun::with_capacity(exports),
        }
    }

    /// Room for `more` exports (and their parameters) in the current run,
    /// and no more.
    pub(crate) fn reserve_exact(&mut self, more: usize) {
        self.current.reserve_exact(more);
    }

    /// Adds `export` after every other (its parameters kept in the run's list).
    #[cfg(test)]
    pub(crate) fn push(&mut self, export: ExportReport<'a>) {
        self.current.push_with(|_| export);
    }

    /// Adds the export `make` returns after every other, `make` adding its
    /// parameters to the list it is given (which it must only extend).
    pub(crate) fn push_with(
        &mut self,
        make: impl FnOnce(&mut Vec<ParameterReport<'a>>) -> ExportReport<'a>,
    ) {
        self.current.push_with(make);
    }

    /// Exports in every run.
    pub(crate) fn len(&self) -> usize {
        self.earlier.iter().map(ExportRun::len).sum::<usize>() + self.current.len()
    }

    /// Places `later`'s exports after these, moving its runs whole; later
    /// pushes extend `later`'s last run.
    pub(crate) fn append(&mut self, later: ExportRuns<'a>) {
        let current = std::mem::replace(&mut self.current, later.current);
        if current.len() != 0 {
            self.earlier.push(current);
        }
        self.earlier
            .extend(later.earlier.into_iter().filter(|run| run.len() != 0));
    }

    /// The runs in order, none of them empty.
    pub(crate) fn into_runs(self) -> Vec<ExportRun<'a>> {
        self.earlier
            .into_iter()
            .chain([self.current])
            .filter(|run| run.len() != 0)
            .collect()
    }
}

/// An [`InspectReport`] whose exports may still lie in the runs the
/// metadata's threads decoded them into: what `inspect --json` writes from
/// (`write_json_with`), without first gathering a large object's exports
/// (and their parameters) into one list. [`crate::wrapped::inspect_runs`]
/// gives it.
#[derive(Clone, Debug)]
pub struct InspectRuns<'a> {
    /// The report's header fields, and the exports of a report made whole
    /// ([`InspectRuns::whole`]); the runs' exports come after these.
    pub(crate) report: InspectReport<'a>,
    /// The exports the metadata's threads decoded, run after run, none of
    /// the runs empty.
    pub(crate) runs: Vec<ExportRun<'a>>,
}

impl<'a> InspectRuns<'a> {
    /// A report whose exports are one run: its own list, as it is.
    pub fn whole(report: InspectReport<'a>) -> Self {
        InspectRuns {
            report,
            runs: Vec::new(),
        }
    }

    /// The report's header fields (`exports` empty) and its runs.
    pub(crate) fn from_runs(mut report: InspectReport<'a>, runs: Vec<ExportRun<'a>>) -> Self {
        report.exports = Vec::new();
        InspectRuns { report, runs }
    }

    /// The report's exports in order, over every run, each with its
    /// parameters (a copy of the report [`InspectRuns::into_report`] holds).
    pub fn exports(&self) -> impl Iterator<Item = ExportReport<'a>> + '_ {
        let runs = self.runs.iter().flat_map(ExportRun::exports);
        self.report.exports.iter().cloned().chain(runs)
    }

    /// How many exports there are, over every run.
    pub fn export_count(&self) -> usize {
        self.report.exports.len() + self.runs.iter().map(ExportRun::len).sum::<usize>()
    }

    /// How many runs the exports lie in: 2 for a kernel array decoded on
    /// two threads and joined, 1 otherwise (0 without exports).
    pub fn run_count(&self) -> usize {
        usize::from(!self.report.exports.is_empty()) + self.runs.len()
    }

    /// The report with every export, and its parameters, in its one list.
    pub fn into_report(self) -> InspectReport<'a> {
        let InspectRuns { mut report, runs } = self;
        report
            .exports
            .reserve_exact(runs.iter().map(ExportRun::len).sum());
        for run in &runs {
            report.exports.extend(run.exports());
        }
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codeobj::metadata::ParameterType;
    use crate::wrapped::Container;
    use crate::wrapped::export_record::ExportFields;

    /// An export whose numbers all differ (one left absent), so that a
    /// field written from another's place shows in the JSON.
    fn export(name: &str) -> ExportReport<'_> {
        ExportReport {
            name,
            symbol: name,
            hal_symbol: name,
            workgroup_size: [2, 3, 4],
            dynamic_workgroup_size: true,
            constant_count: Some(1),
            binding_count: Some(2),
            parameters: Vec::new(),
            kernarg_size: 24,
            kernarg_alignment: 8,
            group_segment_size: 512,
            private_segment_size: 16,
            vgpr_count: Some(5),
            sgpr_count: Some(6),
            agpr_count: None,
            vgpr_spill_count: Some(7),
            sgpr_spill_count: Some(9),
            wavefront_size: Some(64),
            max_flat_workgroup_size: Some(256),
            uses_dynamic_stack: Some(true),
            hal_error: None,
        }
    }

    /// `name` with a constant parameter per name in `parameters`, offset
    /// by its place.
    fn export_with<'a>(name: &'a str, parameters: &[&'a str]) -> ExportReport<'a> {
        let mut export = export(name);
        export.parameters = parameters
            .iter()
            .enumerate()
            .map(|(i, &name)| ParameterReport {
                kind: ParameterType::Constant,
                size: 4,
                offset: 4 * i as u16,
                name,
            })
            .collect();
        export
    }

    fn runs<'a>(names: &[&'a str]) -> ExportRuns<'a> {
        let mut runs = ExportRuns::with_capacity(names.len());
        for name in names {
            runs.push(export(name));
        }
        runs
    }

    fn names<'a>(run: &ExportRun<'a>) -> Vec<&'a str> {
        run.each().map(|(record, ..)| record.name()).collect()
    }

    fn header() -> InspectReport<'static> {
        InspectReport {
            container: Container::Elf,
            format: "gfx942".into(),
            size: 1,
            code_object_version: 5,
            exports: Vec::new(),
        }
    }

    #[test]
    fn appended_runs_keep_their_order_and_later_pushes_extend_the_last() {
        let mut head = runs(&["a", "b"]);
        head.append(runs(&["c", "d"]));
        head.push(export("e"));
        assert_eq!(head.len(), 5);
        let runs = head.into_runs();
        assert_eq!(runs.len(), 2);
        assert_eq!(names(&runs[0]), ["a", "b"]);
        assert_eq!(names(&runs[1]), ["c", "d", "e"]);
        // Each run copies its own exports' names, in the writer's order.
        assert_eq!(
            (runs[0].names.as_str(), runs[1].names.as_str()),
            ("aaabbb", "cccdddeee")
        );
    }

    #[test]
    fn empty_runs_are_dropped() {
        let mut head = runs(&[]);
        head.append(runs(&[]));
        head.append(runs(&["a"]));
        head.append(runs(&[]));
        let mut tail = runs(&["b"]);
        tail.append(runs(&[]));
        head.append(tail);
        let runs: Vec<_> = head.into_runs().iter().map(names).collect();
        assert_eq!(runs, [["a"], ["b"]]);
        assert!(ExportRuns::default().into_runs().is_empty());
        let none = InspectRuns::from_runs(header(), Vec::new());
        assert_eq!((none.run_count(), none.export_count()), (0, 0));
        assert_eq!(none.into_report(), header());
    }

    #[test]
    fn a_run_keeps_each_exports_parameters_and_gives_them_back() {
        // `b` and `d` are refused: their reasons come back to them alone.
        let refused = |mut export: ExportReport<'static>, reason: &str| {
            export.hal_error = Some(reason.into());
            export
        };
        let mut runs = ExportRuns::with_capacity(1);
        runs.push(export_with("a", &["x", "y"]));
        runs.push(refused(export("b"), "INTERNAL; b"));
        // Parameters added through the list `push_with` lends.
        runs.push_with(|parameters| {
            parameters.extend(export_with("", &["z"]).parameters);
            export("c")
        });
        let mut tail = ExportRuns::default();
        tail.push(export("e"));
        tail.push(refused(export_with("d", &["w", "v", "u"]), "INTERNAL; d"));
        runs.append(tail);
        let inspected = InspectRuns::from_runs(header(), runs.into_runs());
        let run = &inspected.runs[0];
        // The run's list holds them, in export order.
        assert_eq!(run.ends, [2, 2, 3]);
        let listed: Vec<(Option<&str>, Vec<&str>)> = run
            .each()
            .map(|(_, hal_error, parameters)| {
                let names = parameters.iter().map(|parameter| parameter.name);
                (hal_error, names.collect())
            })
            .collect();
        assert_eq!(
            listed,
            [
                (None, vec!["x", "y"]),
                (Some("INTERNAL; b"), vec![]),
                (None, vec!["z"])
            ]
        );
        assert_eq!(run.names, "aaaxybbbcccz");
        let expected = [
            export_with("a", &["x", "y"]),
            refused(export("b"), "INTERNAL; b"),
            export_with("c", &["z"]),
            export("e"),
            refused(export_with("d", &["w", "v", "u"]), "INTERNAL; d"),
        ];
        assert_eq!(inspected.exports().collect::<Vec<_>>(), expected);
        assert_eq!(inspected.into_report().exports, expected);
    }

    /// What a run yields: each export's name, `hal_error` and parameter names.
    fn listed<'a>(run: &ExportRun<'a>) -> Vec<(&'a str, Option<String>, Vec<&'a str>)> {
        run.each()
            .map(|(record, hal_error, parameters)| {
                let names = parameters.iter().map(|parameter| parameter.name);
                (record.name(), hal_error.map(str::to_owned), names.collect())
            })
            .collect()
    }

    fn refused<'a>(mut export: ExportReport<'a>, reason: &str) -> ExportReport<'a> {
        export.hal_error = Some(reason.into());
        export
    }

    #[test]
    fn an_appended_run_keeps_its_parameters_and_refusals_with_its_exports() {
        let mut head = ExportRun::with_capacity(2);
        head.push_with(|_| export_with("a", &["x", "y"]));
        head.push_with(|_| refused(export("b"), "b refused"));
        let mut tail = ExportRun::with_capacity(2);
        tail.push_with(|_| refused(export_with("c", &["z"]), "c refused"));
        tail.push_with(|_| export_with("d", &["w"]));
        head.append(tail);
        assert_eq!(
            listed(&head),
            [
                ("a", None, vec!["x", "y"]),
                ("b", Some("b refused".into()), vec![]),
                ("c", Some("c refused".into()), vec!["z"]),
                ("d", None, vec!["w"]),
            ]
        );
        assert_eq!(head.ends, [2, 2, 3, 4]);
        assert_eq!(head.names, "aaaxybbbccczdddw");
    }

    #[test]
    fn a_copied_export_brings_its_own_parameters_and_refusal() {
        let mut from = ExportRun::with_capacity(3);
        from.push_unnamed(|_| export_with("a", &["x"]));
        from.push_unnamed(|_| refused(export_with("b", &["y", "z"]), "b refused"));
        from.push_unnamed(|_| export("c"));
        // Unnamed: no copies.
        assert!(from.names.is_empty());
        let mut copies = ExportRun::with_capacity(3);
        for index in [1, 0, 2, 1] {
            assert!(copies.push_copy(&from, index));
        }
        assert!(!copies.push_copy(&from, 3));
        assert_eq!(
            listed(&copies),
            [
                ("b", Some("b refused".into()), vec!["y", "z"]),
                ("a", None, vec!["x"]),
                ("c", None, vec![]),
                ("b", Some("b refused".into()), vec!["y", "z"]),
            ]
        );
    }

    #[test]
    fn a_whole_report_is_one_run_whose_reports_keep_their_parameters() {
        let mut report = header();
        report.exports = vec![export_with("a", &["x"]), export("b")];
        let expected = report.clone();
        let inspected = InspectRuns::whole(report);
        assert_eq!((inspected.run_count(), inspected.export_count()), (1, 2));
        // Kept as the report's own list, not copied into records.
        assert!(inspected.runs.is_empty());
        assert_eq!(inspected.report.exports, expected.exports);
        assert_eq!(inspected.exports().collect::<Vec<_>>(), expected.exports);
        let mut whole = Vec::new();
        inspected.write_json_with(&mut whole, &()).unwrap();
        assert_eq!(inspected.into_report(), expected);
        let mut written = Vec::new();
        expected.write_json(&mut written).unwrap();
        assert_eq!(whole, written);
        assert!(InspectRuns::whole(header()).runs.is_empty());
    }

    #[test]
    fn the_report_gathers_every_run_in_order() {
        let mut exports = runs(&["a"]);
        exports.push(export_with("b", &["p"]));
        exports.append(runs(&["c"]));
        let mut last = ExportRuns::default();
        last.push(export_with("d", &["q", "r"]));
        exports.append(last);
        let inspected = InspectRuns::from_runs(header(), exports.into_runs());
        assert_eq!((inspected.run_count(), inspected.export_count()), (3, 4));
        let order: Vec<_> = inspected.exports().map(|export| export.name).collect();
        assert_eq!(order, ["a", "b", "c", "d"]);
        let mut whole = Vec::new();
        inspected.write_json_with(&mut whole, &()).unwrap();
        let report = inspected.into_report();
        let order: Vec<_> = report.exports.iter().map(|export| export.name).collect();
        assert_eq!(order, ["a", "b", "c", "d"]);
        assert_eq!(report.exports[1], export_with("b", &["p"]));
        assert_eq!(report.exports[3], export_with("d", &["q", "r"]));
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
        assert!(runs.current.records.capacity() >= 100);
        assert!(runs.current.ends.capacity() >= 100);
        assert!(runs.current.parameters.capacity() >= 100 * PARAMETERS_PER_EXPORT);
        runs.push(export("a"));
        runs.reserve_exact(1000);
        assert!(runs.current.records.capacity() >= 1001);
        assert!(runs.current.ends.capacity() >= 1001);
        assert!(runs.current.parameters.capacity() >= 1000 * PARAMETERS_PER_EXPORT);
        let first = runs.into_runs().remove(0);
        assert!(first.records.capacity() >= 1001);
    }

    #[test]
    fn name_copies_are_read_back_in_the_writers_order() {
        let mut runs = ExportRuns::default();
        let mut with_parameters = export_with("kernel", &["x", "", "é"]);
        with_parameters.symbol = "kernel.kd";
        with_parameters.hal_symbol = "kernel.kd";
        runs.push(with_parameters.clone());
        runs.push(export(""));
        let run = runs.into_runs().remove(0);
        assert_eq!(run.names, "kernelkernel.kdkernel.kdxé");
        let mut copies = NameCopies::new(&run.names);
        assert!(copies.any());
        let mut read = Vec::new();
        for (record, hal_error, parameters) in run.each() {
            let export = record.report(Vec::new(), hal_error.map(str::to_owned));
            for_each_name(&export, parameters, |name| {
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
