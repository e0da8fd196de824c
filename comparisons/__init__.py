"""Where hand-rolled models meet the engines: scenarios, the harness, metrics, the
dynamics audit, baselines and the command line."""
