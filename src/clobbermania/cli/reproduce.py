"""``clobbermania reproduce [NAME]``: re-derive the papers' claims and check them."""

from __future__ import annotations

import time

import click

from ..reproduce import REGISTRY, run_claims
from ._common import emit_json


@click.command()
@click.argument("name", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.pass_context
def reproduce(ctx, name, as_json) -> None:
    """Re-derive the claims of the papers with our solvers; exit 1 if any fails.

    Each claim is PASS, FAIL, DIFF (our checked value contradicts the paper: the paper
    is the suspect) or INFO (nothing published to compare; what we find).

    NAME picks one group of claims (see below); without it every group runs.

    \b
    Example:
      clobbermania reproduce solitaire --json
    """
    from ..errors import NotationError

    if name is not None and name not in REGISTRY:
        raise NotationError(f"unknown claim group {name!r}: expected one of "
                            f"{', '.join(sorted(REGISTRY))}")
    t0 = time.perf_counter()
    names = [name] if name else sorted(REGISTRY)
    claims = []
    for group in names:
        for claim in run_claims(group):
            claims.append(claim)
            if not as_json:
                mark = click.style(*_MARKS[claim.status])
                click.echo(f"{mark}  {claim.name:<48} expected {claim.expected!s:<6} "
                           f"found {claim.found!s:<6} {claim.detail}")
    counts = {status: sum(1 for c in claims if c.status == status) for status in _MARKS}
    seconds = time.perf_counter() - t0
    if as_json:
        emit_json({"claims": [c.to_dict() for c in claims], "passed": counts["pass"],
                   "failed": counts["fail"], "differs": counts["differs"],
                   "reported": counts["report"], "seconds": round(seconds, 3)})
    else:
        extra = "".join(f", {counts[s]} {word}" for s, word in
                        (("differs", "differ from the paper"), ("report", "reported"))
                        if counts[s])
        click.echo(f"{counts['pass']} passed, {counts['fail']} failed{extra} ({seconds:.1f} s)")
    if counts["fail"]:
        ctx.exit(1)


_MARKS = {"pass": ("PASS", "green"), "fail": ("FAIL", "red"), "differs": ("DIFF", "yellow"),
          "report": ("INFO", "blue")}
reproduce.help = (reproduce.help or "") + "\n\nGroups: " + ", ".join(sorted(REGISTRY))
