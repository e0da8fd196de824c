"""The run layer: the task graph's executor and results cache, the manifest, the
gate against baselines, sweeps, progress and interrupts. It names no robot."""
