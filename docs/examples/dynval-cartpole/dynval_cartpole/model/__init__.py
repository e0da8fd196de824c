"""The cart-pole's hand-rolled model and its balancing controller (numpy and scipy only,
no engine)."""
