"""placeholder"""
ROWS = {}
