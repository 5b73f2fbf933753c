"""``python -m benchmarks``: see :mod:`benchmarks.run`; ``python -m benchmarks simulate``:
see :mod:`benchmarks.simulate`."""

from __future__ import annotations

import sys

from benchmarks.run import DEFAULT_OUT, main

if __name__ == "__main__":
    if sys.argv[1:2] == ["simulate"]:
        from benchmarks import simulate

        sys.exit(simulate.main(sys.argv[2:]))
    from benchmarks.simulate import kept_section, replace_section

    # The self-play section is measured on its own; a full run keeps it.
    kept = kept_section(DEFAULT_OUT)
    code = main()
    if kept is not None and DEFAULT_OUT.exists():
        DEFAULT_OUT.write_text(replace_section(DEFAULT_OUT.read_text(), kept))
    sys.exit(code)
