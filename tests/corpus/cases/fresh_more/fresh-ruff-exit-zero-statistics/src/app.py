import os, sys

def main():
    return helper(os.getcwd())
