import yaml
import requests
print(yaml.safe_load('a: 1'), requests.__name__)
