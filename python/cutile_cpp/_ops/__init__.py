"""The ops' implementations, one module per op; cutile_cpp.ops lists the public functions."""
