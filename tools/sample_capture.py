"""`acl-lab ARGS`, keeping what every model execution was fed and what it gave, for
tools/run_samples.py's onnxruntime check of the image-classification samples.

    python tools/sample_capture.py CAPTURE.pkl run --profile 310 classify.py ../data

The feed is the network's input as the simulator's executor received it: the sample's own
preprocessing, and the model's AIPP where it has one. Nothing of the program changes.
"""
from __future__ import annotations

import pickle
import sys

import numpy as np


def main(argv: list[str]) -> int:
    target, args = argv[0], argv[1:]
    from acl_lab.om import executor

    records, run = [], executor.Session.run

    def recording(self, feed):
        results = run(self, feed)
        records.append(({name: np.array(value) for name, value in feed.items()},
                        [np.array(value) for value in results]))
        return results

    executor.Session.run = recording
    from acl_lab import cli
    try:
        return cli.main(args) or 0
    finally:
        with open(target, "wb") as file:
            pickle.dump(records, file)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
