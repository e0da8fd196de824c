"""``dynval corpus``: every description of the installed collections audited engine
against engine, optionally with mutants of a correct model of each (the errors
that fill engines' and robot packages' trackers), written as tables."""

from __future__ import annotations

from pathlib import Path

from dynval.comparisons.commands.terminal import console, say
from dynval.comparisons.commands.validation import cache_held, cores
from dynval.comparisons.run.progress import TaskProgress


def corpus(source: list[str] | None, subset: str | None, samples: int, seed: int,
           workers: int | None, out: Path, docs: Path | None, mutants: bool,
           no_cache: bool) -> int:
    """1 when a description does not pass or a visible mutant is not caught (a break the
    dynamics cannot see, such as a fixed root's mass, is no miss)."""
    from dynval.comparisons.own_model import corpus as corpus_
    from dynval.comparisons.run.options import check_options
    from dynval.comparisons.run.tasks import default_cache_dir
    from dynval.engines import versions
    from dynval.reports.corpus import markdown

    check_options(workers, None, None, samples, seed)
    sources = tuple(source or [s for s in corpus_.SOURCES if corpus_.installed(s)])
    chosen = corpus_.select(sources, subset)
    command = "dynval corpus" + (f" --subset {subset}" if subset else "") + "".join(
        f" --source {s}" for s in source or []) + (" --mutants" if mutants else "")
    cache = None if no_cache else default_cache_dir()
    with cache_held(no_cache):
        with TaskProgress(console, "descriptions") as prog:
            rows = corpus_.run(chosen, samples, seed, cores(workers), cache, prog.report)
        broken = []
        if mutants:
            from dynval.comparisons.own_model import variants as variants_

            with TaskProgress(console, "mutants") as prog:
                broken = variants_.run(chosen, samples, seed, cores(workers), cache,
                                       prog.report)
    page = markdown(rows, "Robot descriptions from the wild, audited", command, versions())
    if mutants:
        from dynval.reports.corpus import variants_markdown

        page += "\n" + variants_markdown(broken)
    for path in corpus_.write_tables(out, rows, broken, page, docs):
        say(f"wrote {path}")
    audited = [r for r in rows if not r.error]
    bad = [r.name for r in audited if not r.passed]
    missed = [f"{r.name} [{r.variant}]" for r in broken
              if not r.error and r.visible and not r.caught]
    if mutants:
        seen = sum(not r.error and r.visible for r in broken)
        unseen = sum(not r.error and not r.visible for r in broken)
        say(f"{seen - len(missed)} of {seen} visible mutants caught"
            + (f" ({unseen} more the dynamics cannot see)" if unseen else ""))
    say(f"{len(audited) - len(bad)} of {len(audited)} audited descriptions pass"
        + (f"; {len(rows) - len(audited)} not audited" if len(rows) > len(audited) else ""))
    return 1 if bad or missed else 0
