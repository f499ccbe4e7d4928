"""How often a run did each thing, printed by the test: STATS counts steps, calls, expected
failures and sandbox checks; CALLS counts (call, return code) pairs."""
from collections import Counter

STATS = Counter()
CALLS = Counter()
