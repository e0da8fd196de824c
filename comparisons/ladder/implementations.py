"""Who runs a scenario, and with which contact: the vocabulary every robot's variants use.

An implementation is the paper's hand-derived model ("handrolled") or an engine model of
the same robot. A contact mode is the paper's contact law evaluated alike in every
implementation ("shared"), or each engine's own contact ("native")."""

IMPLEMENTATIONS = ("handrolled", "mujoco", "pybullet")  # the paper's model, then the engines
ENGINES = ("mujoco", "pybullet")
CONTACT_MODES = ("shared", "native")
