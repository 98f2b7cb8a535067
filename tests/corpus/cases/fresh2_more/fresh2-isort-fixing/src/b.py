from typing import List
import json
print(json, List)
