"""The ladder framework: the rungs a robot declares (rungs.RobotLadder), the registry of
robots, the shared harness, metrics, signal vocabulary and term audit. It names no robot."""
