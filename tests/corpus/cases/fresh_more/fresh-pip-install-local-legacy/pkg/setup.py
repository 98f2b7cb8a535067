from setuptools import setup
setup(name='hello-corpus', version='0.1', py_modules=['hello'])
