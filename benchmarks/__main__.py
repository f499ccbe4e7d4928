"""``python -m benchmarks`` runs every benchmark; ``python -m benchmarks memcpy rss`` some."""
from __future__ import annotations

import sys

from . import (figures, import_time, malloc_free, media, memcpy, pool_view, replay, resnet50,
               rss, table, timeline, vmm)

BENCHMARKS = {"memcpy": memcpy, "malloc": malloc_free, "rss": rss, "import": import_time,
              "replay": replay, "pool_view": pool_view, "timeline": timeline, "media": media,
              "resnet50": resnet50, "figures": figures, "vmm": vmm}


def main(names: list[str]) -> int:
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        print(f"unknown benchmark(s) {', '.join(unknown)}; choose from "
              f"{', '.join(BENCHMARKS)}", file=sys.stderr)
        return 2
    rows = []
    for name in names or BENCHMARKS:
        print(f"running {name} ...", file=sys.stderr, flush=True)
        rows += BENCHMARKS[name].run()
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
