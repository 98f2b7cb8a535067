import requests
import yaml
