"""``dynval audit``: a built-in robot's term audit (L1/L2), or a user's model against its
description (L0-L3), or a description alone with the engines against each other; the
tables and findings the user reads, and the exit code that sums them up."""

from __future__ import annotations

from pathlib import Path

from rich.markup import escape
from rich.table import Table

from dynval.comparisons.commands.exits import UserError
from dynval.comparisons.commands.terminal import say, stdout


def audit(robot: str | None, samples: int, seed: int, model: str | None,
          description: Path | None, package_path: list[Path], base: str | None,
          out: Path | None, force: bool) -> int:
    """Audit what the options name and print it; the exit code (0 everything compared
    agrees; 1 a figure differs; 5 nothing compared; 6 the file is at fault)."""
    from dynval.comparisons.run.options import check_options

    check_options(None, None, None, samples, seed)
    if model is not None or description is not None:
        if robot is not None or description is None:
            raise UserError("audit either a built-in ROBOT, or a --description (with or "
                            "without --model)")
        return _own(model, description, samples, seed, package_path, base, out, force)
    if robot is None:
        raise UserError("name a ROBOT to audit, or give --description (and --model)")
    return _built_in(robot, samples, seed)


def _own(model: str | None, description: Path, samples: int, seed: int,
         package_path: list[Path], base: str | None, out: Path | None, force: bool) -> int:
    from dynval.comparisons.own_model.audit import OUTCOMES
    from dynval.comparisons.own_model.run import audit_files

    res = audit_files(model, description, samples, seed, package_path, base)
    print_own_audit(res, samples, seed, out)
    if out is not None:
        from dynval.comparisons.own_model.run import write_run
        from dynval.reports import build_report

        write_run(res, out, model or "-", samples, seed, force)
        say(f"wrote {build_report(out)}")
    code, meaning = OUTCOMES[res.outcome]
    if code:
        say(f"{res.label} against {res.description.name}: {meaning} (exit {code})")
    return code


def _built_in(robot: str, samples: int, seed: int) -> int:
    from dynval.comparisons.ladder.registry import comparison
    from dynval.comparisons.run.descriptions import description_dir

    comp = comparison(robot)
    desc = description_dir(robot, comp.default_params, comp.default_params, Path("."))
    results = comp.full_audit(comp.default_params, desc, samples, seed)
    table = Table("term", "equation", "form", "reference", "max rel error", "max abs error",
                  "worst at", "verdict", title=f"{robot} audit, {samples} states, seed {seed}")
    for r in results:
        verdict = "agrees" if r.passed else ("erratum" if r.form == "printed" else "DIFFERS")
        table.add_row(r.term, r.equation, r.form, r.reference, f"{r.max_rel_error:.2e}",
                      f"{r.max_abs_error:.2e}", r.worst_name or "-", verdict)
    stdout().print(table)
    return 1 if any(not r.passed and r.form != "printed" for r in results) else 0


def print_own_audit(res, samples: int, seed: int, out_dir: Path | None = None) -> None:
    """An audit's L0 summary, term table, L3 table, what was not checked, the notes, the
    findings and a screenful of failures in words (the rest are in the metric table,
    written to ``out_dir`` where given)."""
    out = stdout()
    name = res.description.name
    out.print(f"engines compared with {res.label}: {', '.join(res.engines) or 'none'}")
    out.print(f"L0: {len(res.l0)} readings of {name} compared across engines, "
              f"{len(res.l0_failures)} differ")
    table = Table("term", "computed by", "reference", "error / scale", "max abs error",
                  "unit", "worst at", "verdict",
                  title=f"{res.label} vs {name}, {samples} states, seed {seed}")
    for r in res.results:
        table.add_row(escape(r.term), escape(r.equation), r.reference,
                      f"{r.max_rel_error:.2e}", f"{r.max_abs_error:.2e}", r.unit or "-",
                      escape(r.worst_name or "-"),
                      "agrees" if r.passed else "DIFFERS")
    if res.results:
        out.print(table)
    else:
        out.print(f"no term of {res.label} could be compared with an engine (see what was "
                  "not checked below)")
    if res.l3:
        out.print(_swing_table(res.l3))
    said = [f"not checked: {line}" for line in res.unchecked]
    said += [f"note: {line}" for line in res.notes]
    failures, more = res.first_failures()
    lead = min(len(res.diagnoses), len(failures))  # what the failures point at, first
    said += failures[:lead] + [f"finding: {line}" for line in res.findings] + failures[lead:]
    said += [f"reader finding: {line}" for line in getattr(res, "readers", ())]
    for line in said:
        out.print(line, markup=False, highlight=False)
    if more:
        where = (f"{out_dir / 'metrics.parquet'} and {out_dir / 'report.pdf'}" if out_dir
                 else "metrics.parquet and the report (--out DIR writes them)")
        out.print(f"... and {more} more failing figure{'s' * (more != 1)}, all in {where}",
                  markup=False, highlight=False)


def _swing_table(l3: list[dict]) -> Table:
    swing = Table("step [s]", "comparison", "max |diff| [rad or m]", "at [s]",
                  "envelope there", "judged over [s]", "verdict",
                  title="L3: free swing (from rest; a free root from a seeded state)")
    for r in l3:
        swing.add_row(f"{r['step']:g}", r["comparison"], f"{r['max_abs']:.2e}",
                      f"{r['at']:g}" if "at" in r else "-",
                      "-" if r["tolerance"] is None else f"{r['tolerance']:.2g}",
                      f"{r['horizon']:g}" if "horizon" in r else "-", _l3_word(r))
    return swing


def _l3_word(row: dict) -> str:
    """An L3 row's verdict in one word."""
    from dynval.comparisons.own_model.audit import l3_passed

    if l3_passed(row):
        return "reported" if row["tolerance"] is None and "ratio_to_half_step" not in row \
            else "agrees"
    return f"known ({row['evidence']})" if row.get("evidence") else "DIFFERS"
