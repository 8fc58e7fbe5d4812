"""The cogs: one per area of the command surface (shared/COMMANDS.md)."""
