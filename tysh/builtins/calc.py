"""The calc family: expr bc factor numfmt — arithmetic and number formatting in-process,
so scripts that compute keep working with externals off.

TOOL_MODULES maps each tool to its own module so running `expr` imports only calc_expr
(tysh.builtins.get_builtin uses it); the whole family is tysh.builtins.family_tools("calc")."""

from __future__ import annotations

TOOL_MODULES: dict[str, str] = {
    "expr": "calc_expr",
    "bc": "calc_bc",
    "factor": "calc_factor",
    "numfmt": "calc_numfmt",
}
