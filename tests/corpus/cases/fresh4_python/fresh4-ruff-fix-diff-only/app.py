import sys
import os
import json

print(json.dumps({}))
