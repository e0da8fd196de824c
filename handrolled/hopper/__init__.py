"""The one-legged hopper of Bamyaci, Yazar, Yesiloglu: spatial operator algebra model,
contact law and Raibert controller (no engine imports)."""
