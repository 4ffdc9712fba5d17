"""The names a benchmark report shares with the code that reads it, importable without torch (the
dashboard reads reports on machines that have none)."""

SCHEMA = "cutile-cpp-ops-bench/1"
UNTUNED = "cutile-untuned"  # TileGym's cutile backend with its autotuning switched off
# --family names: the families of DESIGN.md §6, and elementwise_norm for the elementwise, normalization and
# position ops together.
FAMILY_GROUPS = {"elementwise_norm": ("elementwise", "normalization", "position")}
