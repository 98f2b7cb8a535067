project = "demo"
extensions = ["sphinx.ext.autodoc"]
import os, sys
sys.path.insert(0, os.path.abspath(".."))
