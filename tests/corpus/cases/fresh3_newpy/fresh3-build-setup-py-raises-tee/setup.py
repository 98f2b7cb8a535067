from setuptools import setup
import subprocess
version = subprocess.check_output(['git', 'describe', '--tags'], text=True).strip()
setup(name='app', version=version, packages=['app'])
