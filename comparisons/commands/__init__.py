"""What each ``dynval`` command does once its options are parsed: the command line
(``comparisons/cli.py``) declares the options and calls one function here, which runs the
work through ``run/``, ``own_model/`` and ``reports/``, prints what the user reads and
returns the exit code. The Python API (``dynval.api``) calls ``run/`` directly."""
