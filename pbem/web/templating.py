"""What a worker keeps of the pages it draws: `kept`, a macro's output by its arguments (in a
`pbem.kept.Drawn`).

(The pages' Jinja environments are Jinja's and Flask's own. An override that read a dict's
key before its attribute once saved half a board's drawing; with the parts of a page kept
here it saves nothing measurable: bench/page.py, with and without it alternated, p50 4.3 to
5.6 ms with it and 3.9 to 4.5 ms without.)
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from pbem.kept import Drawn

#: Macros' output by the macro and all its arguments (`kept`). A panel's rows change with
#: each move, so most entries are a position's that is not drawn again: 16,384 of them drew
#: a board page no faster than 4,096 (bench/page.py, alternated) and held some 20 MB more.
_KEPT = Drawn(4096)


def kept(macro: Any, *args: Any) -> Markup:
    """`macro(*args)`, drawn once per worker for the same arguments, for macros whose output
    is a function of their arguments alone (they read no globals: no `url_for`, no request).

    The arguments must be plain data (dicts, lists, tuples, strings, numbers, booleans,
    None, Markup), whose `repr` names all of it and tells apart what a template would draw
    differently (`1`, `1.0` and `True`; a string and Markup): the key is that `repr`, so it
    names everything the piece shows."""
    shown: Markup = _KEPT.get((macro, repr(args)), lambda: macro(*args))
    return shown
