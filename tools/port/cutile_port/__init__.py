"""The porting pipeline's orchestrator: the stage agents' returns (returns.py), the state machine that
routes them (pipeline.py) and the command line (python3 -m cutile_port, or tools/port/cutile-port)."""
