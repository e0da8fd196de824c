"""dynval's public API for auditing your own robot model against its URDF/MJCF.

    from dynval.testing import assert_model_matches
    from dynval.model import load_object, RobotModel

The command line is ``dynval audit --model PATH.py:OBJECT --description FILE.urdf``.
"""

__all__ = ["__version__"]
__version__ = "0.1.0"
