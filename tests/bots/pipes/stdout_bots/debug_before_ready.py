"""Mistake: a debug print on stdout before ready."""
from loop import run

print("starting my bot", flush=True)
run()
