import os, sys
def f(x):
    return undefined_name + x
