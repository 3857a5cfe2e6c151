import sys
from pathlib import Path

# The rules tests share builders.py; make it importable as a plain module.
sys.path.insert(0, str(Path(__file__).parent))
