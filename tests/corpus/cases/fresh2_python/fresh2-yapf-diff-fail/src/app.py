import os,sys
def main( argv ):
    x=1
    return x+len(argv)
