"""Use cases: load state, call the engine, save, return plain results.

The Discord cogs, the offline demo and the tests all call these; none of them holds rules
logic. Each user action is one database transaction that first locks its campaign row, so
actions on one campaign are serialised and a phase resolution is applied exactly once.
"""
