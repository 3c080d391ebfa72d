"""The one error type of bad input: its message is the one line a front end shows.

>>> str(InputError("problems/x.toml: stipulation: '#0' is not '#N'"))
"problems/x.toml: stipulation: '#0' is not '#N'"
"""


class InputError(ValueError):
    """Input ksolve cannot use (a file, a field, an option); the message names it and the reason."""
