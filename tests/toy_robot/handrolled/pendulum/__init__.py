"""The damped pendulum's model (numpy only, no engine)."""
