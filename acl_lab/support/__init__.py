"""Plumbing that knows no ACL: what the rooms of the kit share.

    interrupts.py      Ctrl-C waits until the kit call it hit has returned
    threads.py         thread identity and per-thread state, also without threads (Pyodide)
    pyodide.py         what differs in a browser tab (JupyterLite): no threads, one buffer
    freelist.py        a best-fit free list with coalescing (page pools and MemoryPool)
    sorted_keys.py     a sorted set of start addresses (best fit; which block holds an address)
    argparse_i18n.py   argparse whose own words come from the message catalogs
    files.py           reading a file the kit did not make: regular files only, bounded
    host_budget.py     how much host RAM simulated bytes may use (cgroup, rlimit, RAM)

Nothing here imports the simulator, a backend or a view.
"""
