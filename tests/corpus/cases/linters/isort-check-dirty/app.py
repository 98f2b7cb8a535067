import sys
import os

print(os, sys)
