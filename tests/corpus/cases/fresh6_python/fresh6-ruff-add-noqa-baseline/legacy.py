import os, sys

def run(x):
    if x == None:
        return l
    return x
