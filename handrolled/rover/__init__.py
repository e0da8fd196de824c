"""Hand-rolled model of the segmented-body rover (Wasserman, MSc thesis, 2007)."""
