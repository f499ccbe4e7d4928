"""A sorted set of ints with the queries the allocators ask: the first key at or above k
(best fit) and the last key at or below k (which allocation holds an address).

The layout is sortedcontainers' SortedList (sorted sublists of up to 2 * LOAD keys, and the
largest key of each), cut down to these operations so a query is two bisects and no
generator. Changes wait in two small sets before the sublists take them: a malloc + free
pair adds and removes the same keys, so most changes cancel there and cost a set operation.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right

LOAD = 512
PENDING = 16   # changes that wait before the sublists take them


class SortedKeys:
    __slots__ = ("_lists", "_maxes", "_added", "_gone", "_upper")

    def __init__(self, keys=()):
        keys = sorted(keys)
        self._lists = [keys[i:i + LOAD] for i in range(0, len(keys), LOAD)]
        self._maxes = [sub[-1] for sub in self._lists]
        self._added: set[int] = set()   # keys not yet in the sublists
        self._gone: set[int] = set()    # keys still in the sublists, no longer in the set
        self._upper = self._maxes[-1] if keys else -1   # no key is above it (ceiling's shortcut)

    def __len__(self) -> int:
        return sum(map(len, self._lists)) + len(self._added) - len(self._gone)

    def __iter__(self):
        self.settle()
        for sub in self._lists:
            yield from sub

    def add(self, key: int) -> None:
        """Insert ``key`` (the caller knows it is not present)."""
        if key in self._gone:
            self._gone.remove(key)
        else:
            self._added.add(key)
            if key > self._upper:
                self._upper = key
            if len(self._added) + len(self._gone) > PENDING:
                self.settle()

    def remove(self, key: int) -> None:
        """Delete ``key`` (the caller knows it is present)."""
        if key in self._added:
            self._added.remove(key)
        else:
            self._gone.add(key)
            if len(self._added) + len(self._gone) > PENDING:
                self.settle()

    def settle(self) -> None:
        """Let the sublists take the waiting changes."""
        for key in self._gone:
            self._discard(key)
        for key in self._added:
            self._insert(key)
        self._gone.clear()
        self._added.clear()
        self._upper = self._maxes[-1] if self._maxes else -1

    def _insert(self, key: int) -> None:
        maxes, lists = self._maxes, self._lists
        if not maxes:
            lists.append([key])
            maxes.append(key)
            return
        i = bisect_left(maxes, key)
        if i == len(maxes):
            i -= 1
            sub = lists[i]
            sub.append(key)
            maxes[i] = key
        else:
            sub = lists[i]
            j = bisect_left(sub, key)
            if sub[j] == key:
                return
            sub.insert(j, key)
        if len(sub) > 2 * LOAD:
            lists[i:i + 1] = [sub[:LOAD], sub[LOAD:]]
            maxes[i:i + 1] = [sub[LOAD - 1], sub[-1]]

    def _discard(self, key: int) -> None:
        maxes = self._maxes
        i = bisect_left(maxes, key)
        if i == len(maxes):
            return
        sub = self._lists[i]
        j = bisect_left(sub, key)
        if sub[j] != key:
            return
        del sub[j]
        if not sub:
            del self._lists[i], maxes[i]
        elif j == len(sub):
            maxes[i] = sub[-1]

    def ceiling(self, key: int) -> int | None:
        """The smallest key >= ``key``, or None."""
        if key > self._upper:     # every allocation a full index cannot hold asks this
            return None
        maxes, gone, added = self._maxes, self._gone, self._added
        i = bisect_left(maxes, key)
        found = None
        if i < len(maxes):       # maxes[i] >= key: sublist i holds the answer, unless gone
            sub = self._lists[i]
            j = bisect_left(sub, key)
            found = sub[j]
            if gone and found in gone:
                found = self._next_kept(i, j)
        if added:
            for k in added:
                if key <= k and (found is None or k < found):
                    found = k
        return found

    def _next_kept(self, i: int, j: int) -> int | None:
        """The first key from sublist i, position j on, that is not gone."""
        lists, gone = self._lists, self._gone
        while i < len(lists):
            sub = lists[i]
            while j < len(sub):
                if sub[j] not in gone:
                    return sub[j]
                j += 1
            i, j = i + 1, 0
        return None

    def floor(self, key: int) -> int | None:
        """The largest key <= ``key``, or None."""
        maxes, gone = self._maxes, self._gone
        found = None
        i = min(bisect_left(maxes, key), len(maxes) - 1)
        while i >= 0:
            sub = self._lists[i]
            j = bisect_right(sub, key) - 1
            while j >= 0 and sub[j] in gone:
                j -= 1
            if j >= 0:
                found = sub[j]
                break
            i -= 1
        for k in self._added:
            if k <= key and (found is None or k > found):
                found = k
        return found

    def last(self) -> int | None:
        """The largest key, or None."""
        self.settle()
        return self._maxes[-1] if self._maxes else None
