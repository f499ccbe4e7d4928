"""The AscendCL runtime simulator: one file per concern (see design notes)."""
