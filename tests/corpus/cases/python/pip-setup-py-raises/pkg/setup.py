from setuptools import setup
import sys
print("running build with extension 'fastcore'", file=sys.stderr)
raise RuntimeError("cannot find libfastcore.so: set FASTCORE_HOME")
